"""cardkit's proof renderer vs bare reportlab drawing the same cards, in the same run.

A synthetic corpus of N master plan cards (every card with a placement diagram of
icons, a BAM! tag, a Move value and a sentence of text) is collected and rendered by
cardkit (layout, text fitting, icon forms, legend, crop marks, ruler, fonts). The peer
is bare reportlab on the same canvas settings drawing, per card, the same frame, the
same title, corner and text lines, and the same icons as forms (drawn once, placed per
token): the floor for any proxy printer on reportlab. Both run in this process, after
one warm-up, median of --rounds. Also the end-to-end CLI (`cardkit proof --backs` on
the repository's cards/), and the PDF size per card.

    python benchmarks/proof.py [--cards 1000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import io
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import time_command

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardkit.render import content, fonts, icons, pdf, sheet  # noqa: E402
from cardkit.render.text_fit import wrap  # noqa: E402

MU = "marvel-united"
TEXT = "Deal 1 damage to each Hero in this Location. Then, each Hero there gets 1 Crisis token."


def synthetic(count: int) -> list[content.ProofCard]:
    cards = []
    for i in range(count):
        place = {
            "left": {"civilian": 1 + i % 2},
            "villain": {"thug": 1 + i % 3},
            "right": {"crisis": 1},
        }
        cards.append(
            content.ProofCard(
                system=MU,
                kind="masterplan",
                deck=f"Villain {i // 10} · Master Plan",
                title=f"Villain {i // 10} {i % 10 + 1}",
                corner=f"Move {i % 4}",
                tags=("BAM!",),
                text=TEXT,
                placement=place,
                unconfirmed=frozenset({"place"} if i % 5 == 0 else ()),
                source=f"synthetic {i}",
            )
        )
    return cards


def bare(cards: list[content.ProofCard]) -> bytes:
    """Bare reportlab: frames, the same strings, the same icons as forms; no layout logic."""
    from reportlab.pdfgen.canvas import Canvas

    fonts.register()
    layout = sheet.layout("a4", sheet.card_size(MU), 0)
    stream = io.BytesIO()
    c = Canvas(
        stream,
        pagesize=(layout.paper.w, layout.paper.h),
        invariant=1,
        pageCompression=1,
        initialFontName=fonts.REGULAR,
    )
    defined: set[str] = set()
    mm = 72 / 25.4
    for index, card in enumerate(cards):
        t = layout.trims[index % layout.per_page]
        c.setFillColorRGB(0.97, 0.95, 0.90)
        c.roundRect(t.x, t.y, t.w, t.h, 8, stroke=1, fill=1)
        c.setFillColorRGB(0.1, 0.1, 0.1)
        c.setFont(fonts.BOLD, 11)
        c.drawString(t.x + 8, t.y + t.h - 20, card.title)
        c.setFont(fonts.BOLD, 9)
        c.drawRightString(t.x + t.w - 8, t.y + t.h - 20, card.corner)
        x = t.x + 10
        for slot in ("left", "villain", "right"):
            c.roundRect(x, t.y + t.h - 100, 50, 45, 3, stroke=1, fill=0)
            for n, name in enumerate(
                n for n, k in (card.placement or {}).get(slot, {}).items() for _ in range(k)
            ):
                icon = icons.lookup(MU, name)
                key = f"b_{icon.key}"
                if key not in defined:
                    c.beginForm(key, 0, 0, 100, 100)
                    icons.draw(c, icon)
                    c.endForm()
                    defined.add(key)
                c.saveState()
                c.translate(x + 4 + n * 16, t.y + t.h - 80)
                c.scale(0.15, 0.15)
                c.doForm(key)
                c.restoreState()
            x += 55
        c.setFont(fonts.REGULAR, 8)
        for n, line in enumerate(wrap(card.text, fonts.REGULAR, 8, t.w - 16)):
            c.drawString(t.x + 8, t.y + t.h - 120 - n * 10, line)
        c.setFont(fonts.REGULAR, 5)
        c.drawString(t.x + 8, t.y + 3 * mm, card.deck)
        if index % layout.per_page == layout.per_page - 1:
            c.showPage()
    c.save()
    return stream.getvalue()


def ours(cards: list[content.ProofCard]) -> bytes:
    return pdf.render(cards, sheet.layout("a4", sheet.card_size(MU), 0))


def median_time(work: Callable[[], bytes], rounds: int) -> tuple[float, int]:
    size = len(work())  # warm-up: fonts parsed, modules imported
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    try:
        import _rl_accel  # noqa: F401

        accel = "rl_accel installed"
    except ImportError:
        accel = "rl_accel NOT installed (pure-Python fallbacks)"
    cards = synthetic(args.cards)
    ours_s, ours_bytes = median_time(lambda: ours(cards), args.rounds)
    bare_s, bare_bytes = median_time(lambda: bare(cards), args.rounds)
    print(f"{args.cards} synthetic master plan cards with icons, A4, median of {args.rounds}")
    print(accel)
    rows = (("cardkit render", ours_s, ours_bytes), ("bare reportlab", bare_s, bare_bytes))
    for label, seconds, size in rows:
        rate, per_card = args.cards / seconds, size / args.cards
        print(f"{label:16}{seconds:.2f} s  {rate:.0f} cards/s  {per_card:.0f} bytes/card")
    print(
        f"ratio: cardkit takes {ours_s / bare_s:.2f}x bare reportlab (goal <= 1.5x, >= 300 cards/s)"
    )
    cardkit = Path(sys.executable).parent / "cardkit"
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "proof.pdf"
        argv = [str(cardkit), "proof", str(ROOT / "cards"), "--out", str(out), "--backs"]
        first = subprocess.run(argv, capture_output=True, text=True, check=True)
        count = int(re.search(r": (\d+) cards", first.stdout)[1])  # type: ignore[index]
        wall = time_command(argv, args.rounds, ok=(0,))
        print(
            f"end to end: cardkit proof cards/ --backs: {count} cards in {wall:.2f} s "
            f"(load + validate + render), {out.stat().st_size / count:.0f} bytes/card"
        )


if __name__ == "__main__":
    main()
