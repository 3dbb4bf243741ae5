"""Marvel Champions OCR: what a draft needs beyond its template's regions.

The card code (marvelsdb's) is not printed whole on the card: the pack number is not.
A scan named after its code (`01097.png`, `01097a.png`) gives it; the side letter comes
from the stage read (`1B`) when the file name has none. Without either, the draft gets
a placeholder code, marked unconfirmed with a gap note saying why.
"""

from __future__ import annotations

import re
from typing import Any

PLACEHOLDER = "00000"


def finish(document: dict[str, Any], read: Any) -> None:
    stem = read.frame.name.split("#")[0]
    found = re.fullmatch(r"(\d{5})([a-f]?)", stem.casefold())
    stage = str(document.get("stage", ""))
    side = stage[-1:].casefold() if re.fullmatch(r"\d[AB]", stage) else ""
    if found:
        code = found.group(1) + (found.group(2) or side)
    else:
        code = PLACEHOLDER + side
        document.setdefault("unconfirmed", []).append("code")
        document.setdefault("gaps", []).append(
            {
                "note": "the card code is not printed on the card; name the scan after its "
                "marvelsdb code (01097a.png) or fill it in",
                "fields": ["code"],
                "status": "open",
            }
        )
    document["code"] = code
    if found:  # cardkit's id is the code; a placeholder code keeps the scan's own id (unique)
        document["id"] = code
