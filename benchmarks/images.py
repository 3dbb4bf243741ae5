"""`cardkit export images` at 300 dpi vs a bare pypdfium2 + Pillow script, in the same run.

cardkit: the repository's cards (cards/ and docs/examples/), every unique face (fronts,
and with --backs their backs) painted by the proof painter, rasterised at 300 dpi with
1/8 in bleed, written as PNG with a manifest. The peer is the floor for any such tool on
the same libraries: bare reportlab drawing one filled frame and a title per page at the
same sizes, pypdfium2 rendering each page at 300 dpi and Pillow saving it as PNG with
its defaults, each file written plainly. Both in this process, CPU time (the fair figure
on a shared machine) and wall time. Memory: peak RSS of a child process exporting N and
4N synthetic faces (all different), which must stay flat.

    python benchmarks/images.py [--rounds 1] [--memory 150]
"""

from __future__ import annotations

import argparse
import io
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from cardkit import gaps  # noqa: E402
from cardkit.exchange import images  # noqa: E402
from cardkit.render import content, fonts, sheet  # noqa: E402
from cardkit.render.units import points  # noqa: E402

DPI = 300
BLEED = points("0.125in")


def repository_cards() -> list[content.ProofCard]:
    documents, _ = gaps.load([ROOT / "cards", ROOT / "docs" / "examples"])
    return content.collect(documents)


def peer(cards: list[content.ProofCard], out: Path) -> int:
    """Bare reportlab + pypdfium2 + Pillow: a frame and a title per face, 300 dpi PNGs."""
    import pypdfium2 as pdfium
    from reportlab.pdfgen.canvas import Canvas

    fonts.register()
    stream = io.BytesIO()
    canvas = Canvas(stream, invariant=1, initialFontName=fonts.REGULAR)
    for card in cards:
        w, h = sheet.card_size(card.system, card.kind)
        canvas.setPageSize((w + 2 * BLEED, h + 2 * BLEED))
        canvas.setFillColorRGB(0.97, 0.95, 0.9)
        canvas.rect(0, 0, w + 2 * BLEED, h + 2 * BLEED, stroke=0, fill=1)
        canvas.roundRect(BLEED + 6, BLEED + 6, w - 12, h - 12, 6, stroke=1, fill=0)
        canvas.setFillColorRGB(0.1, 0.1, 0.1)
        canvas.setFont(fonts.BOLD, 11)
        canvas.drawString(BLEED + 12, BLEED + h - 24, card.title[:40])
        canvas.showPage()
    canvas.save()
    document = pdfium.PdfDocument(stream.getvalue())
    for index in range(len(document)):
        page = document[index]
        image = page.render(scale=DPI / 72).to_pil()
        page.close()
        image.save(out / f"{index}.png")
    document.close()
    return len(cards)


def timed(run: object) -> tuple[float, float]:
    start_cpu, start = time.process_time(), time.perf_counter()
    run()  # type: ignore[operator]
    return time.process_time() - start_cpu, time.perf_counter() - start


def synthetic(count: int) -> list[content.ProofCard]:
    return [
        content.ProofCard(
            system="marvel-united",
            kind="masterplan",
            deck="Synthetic · Master Plan",
            title=f"Card {i}",
            corner=f"Move {i % 4}",
            tags=("BAM!",),
            text="Deal 1 damage to each Hero in this Location. {crisis} " * (1 + i % 3),
            placement={"left": {"civilian": 1 + i % 2}, "right": {"thug": 1}},
        )
        for i in range(count)
    ]


def child(count: int) -> None:
    with tempfile.TemporaryDirectory() as out:
        images.export(synthetic(count), Path(out), dpi=DPI, bleed=BLEED)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    sys.stdout.write(f"{peak:.1f}\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--memory", type=int, default=150, help="N for the memory check")
    parser.add_argument("--child", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    cards = repository_cards()
    faces = images.plan(cards, backs=True)
    unique = len({face.file for face in faces})
    plain = [face.card for face in {face.file: face for face in faces}.values()]
    best: dict[str, tuple[float, float]] = {}
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            ours = timed(lambda: images.export(cards, Path(a), dpi=DPI, bleed=BLEED, backs=True))
            theirs = timed(lambda: peer(plain, Path(b)))
        for name, figure in (("cardkit", ours), ("peer", theirs)):
            if name not in best or figure[0] < best[name][0]:
                best[name] = figure
    cpu, wall = best["cardkit"]
    peer_cpu, peer_wall = best["peer"]
    print(f"repository cards: {len(cards)} proxies, {unique} unique faces (fronts and backs)")
    print(
        f"cardkit export images, 300 dpi, 1/8 in bleed: {unique / cpu:.1f} faces/s CPU "
        f"({cpu:.1f} s), {unique / wall:.1f} faces/s wall ({wall:.1f} s)"
    )
    print(
        f"peer (reportlab frame + title, pypdfium2, Pillow PNG defaults): "
        f"{unique / peer_cpu:.1f} faces/s CPU, {unique / peer_wall:.1f} faces/s wall"
    )
    print(f"ratio cardkit/peer CPU time: {cpu / peer_cpu:.2f}x")
    peaks = []
    for count in (args.memory, 4 * args.memory):
        run = subprocess.run(
            [sys.executable, __file__, "--child", str(count)],
            capture_output=True,
            text=True,
            check=True,
        )
        peaks.append(float(run.stdout.strip()))
    print(
        f"peak RSS: {peaks[0]:.0f} MB at {args.memory} faces, "
        f"{peaks[1]:.0f} MB at {4 * args.memory} ({peaks[1] / peaks[0]:.2f}x for 4x the faces)"
    )


if __name__ == "__main__":
    main()
