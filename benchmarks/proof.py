"""cardkit proof vs bare reportlab drawing the same number of cards, in the same run.

The peer draws, per card, a rounded frame, a title, a corner value and four lines of
text: a floor for any proxy printer on reportlab. cardkit also fits text, draws the
placement diagrams, warnings, crop marks, rulers and duplex backs.

    python benchmarks/proof.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import time_command

ROOT = Path(__file__).resolve().parent.parent
BARE = """
import sys
from reportlab.pdfgen.canvas import Canvas
from reportlab.lib.pagesizes import A4
n = int(sys.argv[2])
c = Canvas(sys.argv[1], pagesize=A4)
w, h = 180, 252
for i in range(n):
    col, row = i % 3, (i // 3) % 3
    x, y = 27 + col * w, 40 + row * h
    c.roundRect(x, y, w, h, 8)
    c.setFont("Helvetica-Bold", 10); c.drawString(x + 8, y + h - 18, f"Card {i}")
    c.drawRightString(x + w - 8, y + h - 18, "Move 3")
    c.setFont("Helvetica", 8)
    for line in range(4):
        c.drawString(x + 8, y + h - 40 - line * 10, "Deal 1 damage to each Hero in this Location.")
    if i % 9 == 8:
        c.showPage()
c.save()
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    cardkit = Path(sys.executable).parent / "cardkit"
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "proof.pdf"
        first = subprocess.run(
            [str(cardkit), "proof", str(ROOT / "cards"), "--out", str(out)],
            capture_output=True,
            text=True,
            check=True,
        )
        cards = int(re.search(r": (\d+) cards", first.stdout)[1])  # type: ignore[index]
        ours = time_command(
            [str(cardkit), "proof", str(ROOT / "cards"), "--out", str(out), "--backs"],
            args.rounds,
            ok=(0,),
        )
        script = Path(folder) / "bare.py"
        script.write_text(BARE)
        theirs = time_command(
            [sys.executable, str(script), str(Path(folder) / "bare.pdf"), str(cards)],
            args.rounds,
            ok=(0,),
        )
    print(f"cards: {cards} (the repository's cards/), A4, rounds: {args.rounds}")
    print(f"cardkit proof --backs:  {ours:.2f} s (load + validate + layout + fronts and backs)")
    print(f"bare reportlab:         {theirs:.2f} s (frames and plain strings only)")
    print(f"ratio: cardkit takes {ours / theirs:.1f}x the bare floor")


if __name__ == "__main__":
    main()
