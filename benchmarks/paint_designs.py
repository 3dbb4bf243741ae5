"""Paint scans/samples/marvel-united-design-{b,c,d,e,f,g,h,i,j,k}/: Marvel United cards in ten
designs that cardkit's proof renderer did not draw (benchmarks/designs/), each degraded four ways
by benchmarks/make_samples.py's functions (clean, 150dpi, skew2, phone), with truth files
written from the card data. Deterministic: the same fonts and Pillow give the same bytes.

design-b, design-c, design-d, design-e, design-f, design-g, design-h, design-i and design-j
are for developing the reader; design-k is held out, for measuring only (design-d, then
design-e, design-f, design-g, design-h, design-i and design-j, were held out until they were
measured; they are development designs now, design-g since it was measured once on 2026-12-03,
design-h, design-i and design-j since they were measured on 2026-12-04).

    python benchmarks/paint_designs.py [--out scans/samples] [--design design-b]
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))

from designs.data import ROOT, Card, truth
from make_samples import DEGRADE, DPI_OF, save  # the degradations, not the painter

# each design's painter, benchmarks/designs/design_<letter>.py, by its NAME
DESIGNS: dict[str, ModuleType] = {
    m.NAME: m for m in (importlib.import_module(f"designs.design_{x}") for x in "bcdefghijk")
}
HELD_OUT = "design-k"  # measured, never tuned on (design-j a development design since 2026-12-04)
DEGRADATIONS = ("clean", "150dpi", "skew2", "phone")


def folder_of(design: str) -> str:
    return f"marvel-united-{design}"


def paint(design: ModuleType, card: Card) -> tuple[Image.Image, dict[str, Any]]:
    """The clean 300 dpi card and its truth (without the degradation's fields)."""
    image, diagram = design.paint(card)
    return image, truth(card, design.NAME, design.JOINER, diagram)


def write_truth(path: Path, content: dict[str, Any], source: str) -> None:
    header = (
        f"# Truth for {path.name.removesuffix('.truth.yaml')}: by benchmarks/paint_designs.py\n"
        f"# from {source}, the data the card was drawn from (not from OCR).\n"
    )
    body = yaml.safe_dump(
        content, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None
    )
    path.write_text(header + body, encoding="utf-8")


def write_design(design: ModuleType, out: Path) -> int:
    folder = out / folder_of(design.NAME)
    folder.mkdir(parents=True, exist_ok=True)
    written = 0
    for card in design.cards():
        clean, content = paint(design, card)
        for degradation in DEGRADATIONS:
            stem = f"{card.stem}-{degradation}"
            image, corners = DEGRADE[degradation](clean, stem)
            save(image, folder / stem, degradation)
            write_truth(
                folder / f"{stem}.truth.yaml",
                {
                    **content,
                    "degradation": degradation,
                    "dpi": DPI_OF.get(degradation),
                    "light_on_dark": bool(getattr(design, "LIGHT_ON_DARK", False)),
                    "orientation": 0,
                    "corners": corners,
                },
                card.source,
            )
            written += 1
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "scans" / "samples")
    parser.add_argument("--design", choices=sorted(DESIGNS), action="append")
    args = parser.parse_args()
    for name in args.design or sorted(DESIGNS):
        written = write_design(DESIGNS[name], args.out)
        folder = args.out / folder_of(name)
        size = sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
        print(f"wrote {written} samples to {folder} ({size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
