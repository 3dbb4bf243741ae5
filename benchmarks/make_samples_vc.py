"""Regenerate scans/samples/villainous/ and scans/samples/marvel-champions/: synthetic cards.

Villainous-like and Marvel Champions-like cards painted here (Pillow, the Vera fonts that
ship with reportlab) from the repository's own data: titles and rules sentences come from
`cards/villainous/` and `cards/marvel-champions/` (location and scenario names, reference
and villain-setup sentences); numbers and card types are chosen by a seeded generator. The
layout follows the printed cards' (the boxes of each system's `ocr.yaml`); no publisher art
or scan is used. Each card is degraded four ways with `make_samples.py`'s functions (clean
300 dpi, 150 dpi, 2 degrees skew on a scanner bed, phone photo). Villain-deck cards are light
text on a dark panel; Marvel Champions cards are stored turned 90 degrees counter-clockwise,
as publisher images of landscape cards often are.

    python benchmarks/make_samples_vc.py [--out scans/samples]
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import textwrap
from pathlib import Path
from typing import Any

import yaml
from PIL import Image, ImageDraw

sys.path.insert(0, str(Path(__file__).resolve().parent))
from card_painter import INK, PAPER, X_HEIGHT_EM, Box, Painter, font
from make_samples import DEGRADE, DPI_OF, save

ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------- content from cards/


def _load(path: Path) -> Any:
    from cardkit.files import (
        yamlio,  # the project's own loader (its YAML is not all plain YAML 1.1)
    )

    return yamlio.load_text((ROOT / path).read_text(encoding="utf-8"))


def _sentences(texts: list[str], low: int, high: int) -> list[str]:
    out = []
    for text in texts:
        for sentence in re.split(r"(?<=[.!])\s+", text.replace("’", "'")):
            if low <= len(sentence) <= high and re.fullmatch(r"[A-Za-z0-9 ,.!':-]+", sentence):
                out.append(sentence)
    return out


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    return []


def villainous_cards() -> list[dict[str, Any]]:
    hook = _load(Path("cards/villainous/user-manual/captain-hook.yaml"))
    reference = _load(Path("cards/villainous/user-manual/user-manual-reference.yaml"))
    names = [loc["name"].replace("’", "'") for loc in hook["board"]["locations"]]
    names += [
        e["title"] for e in reference["entries"] if re.fullmatch(r"[A-Za-z ]{4,16}", e["title"])
    ]
    said = _sentences(_strings([e["text"] for e in reference["entries"]]), 45, 105)
    plan = [  # deck, type, cost, strength
        ("fate", "Hero", None, "4"),
        ("fate", "Item", None, "+2"),
        ("fate", "Effect", None, None),
        ("villain", "Ally", "2", "3"),
        ("villain", "Item", "1", "+1"),
    ]
    return [
        {
            "game": "villainous",
            "card": deck,
            "title": names[i % len(names)],
            "cost": cost,
            "strength": strength,
            "type": kind,
            "text": said[i % len(said)],
        }
        for i, (deck, kind, cost, strength) in enumerate(plan)
    ]


def champions_cards() -> list[dict[str, Any]]:
    folder = ROOT / "cards" / "marvel-champions"
    scenarios, tips = [], []
    for path in sorted(folder.rglob("*.yaml")):
        data = _load(path)
        if data.get("kind") == "marvel-champions/scenario":
            scenarios.append(data["name"])
        tips += [t for key in ("tips", "setup", "sections") for t in _strings(data.get(key))]
    said = _sentences(tips, 30, 80)
    names = [n for n in scenarios if len(n) <= 20]
    main, sides = names[0], names[1:3]
    base = {"game": "marvel-champions", "type": "MAIN SCHEME"}
    return [
        {
            **base,
            "card": "main-scheme",
            "name": main,
            "stage": "1A",
            "flavor": said[0],
            "text": said[1],
        },
        {
            **base,
            "card": "main-scheme",
            "name": main,
            "stage": "1B",
            "flavor": said[2],
            "text": said[3],
            "threat": "7",
            "escalation_threat": "+1",
            "starting_threat": "0",
        },
        *(
            {
                "game": "marvel-champions",
                "type": "SIDE SCHEME",
                "card": "side-scheme",
                "name": name,
                "flavor": said[4 + 2 * i],
                "text": "When Revealed: Place an additional 1{per_hero} threat here.",
                "starting_threat": str(2 + i),
            }
            for i, name in enumerate(sides)
        ),
    ]


# ---------------------------------------------------------------- painting


def paint_villainous(card: dict[str, Any], seed: int) -> Image.Image:
    p = Painter((750, 1050), (40, 40, 48))
    dark = card["card"] == "villain"
    panel = (96, 20, 30) if dark else PAPER
    ink = (240, 214, 150) if dark else INK
    p.art((0.0, 0.0, 1.0, 0.52), seed)  # art to the card's edges, a thin frame round it
    p.fill((0.0, 0.51, 1.0, 1.0), panel)
    p.draw.rectangle((0, 0, p.w - 1, p.h - 1), outline=(40, 40, 48), width=round(0.015 * p.w))
    p.text((0.10, 0.530, 0.90, 0.610), card["title"], font(0.024 * p.h, "VeraBd"), ink)
    lines = textwrap.wrap(card["text"], 30)
    step = 0.019 * p.h / X_HEIGHT_EM * 1.25
    top = 0.64 * p.h + (0.25 * p.h - step * len(lines)) / 2
    for i, line in enumerate(lines):
        p.text(
            (0.08, (top + i * step) / p.h, 0.92, (top + (i + 1) * step) / p.h),
            line,
            font(0.019 * p.h),
            ink,
        )
    if card["strength"]:
        p.text((0.025, 0.875, 0.165, 0.985), card["strength"], font(0.03 * p.h, "VeraBd"), ink)
    if card["cost"]:
        p.draw.ellipse(p.px((0.07, 0.045, 0.195, 0.14)), fill=panel)
        p.text((0.095, 0.060, 0.170, 0.125), card["cost"], font(0.025 * p.h, "VeraBd"), ink)
    accent = (235, 90, 80) if dark else (170, 90, 20)
    p.text((0.335, 0.915, 0.665, 0.995), card["type"], font(0.021 * p.h, "VeraBd"), accent)
    return p.image


def _inline(p: Painter, box: Box, text: str, x_height: float) -> None:
    """Rules text with `{per_hero}` drawn as the per-hero mark, in the box from its top."""
    left, top, right, _ = p.px(box)
    f = font(x_height, "VeraBd")
    x, y = left, top
    for word in text.split(" "):
        parts = word.split("{per_hero}")
        width = sum(p.draw.textlength(s, font=f) for s in parts) + x_height * 1.3 * (len(parts) - 1)
        if x + width > right:
            x, y = left, y + x_height / X_HEIGHT_EM * 1.22
        for index, part in enumerate(parts):
            if index:
                p.person(x + 2, y + f.getmetrics()[0], x_height * 1.3, INK)
                x += x_height * 1.3
            p.draw.text((x, y), part, font=f, fill=INK)
            x += p.draw.textlength(part, font=f)
        x += p.draw.textlength(" ", font=f)


def paint_champions(card: dict[str, Any], seed: int) -> Image.Image:
    p = Painter((1050, 750), (236, 238, 240))
    p.image = _champions_face(p, card, seed)
    p.draw = ImageDraw.Draw(p.image)
    p.draw.rectangle((0, 0, p.w - 1, p.h - 1), outline=(34, 34, 40), width=round(0.012 * p.h))
    return p.image


def _champions_face(p: Painter, card: dict[str, Any], seed: int) -> Image.Image:
    x_height = 0.027 * p.h
    if card["card"] == "side-scheme":
        p.art((0.0, 0.0, 0.45, 1.0), seed)
        p.fill((0.27, 0.06, 1.0, 0.178), (250, 250, 250))
        p.small_caps((0.30, 0.075, 0.97, 0.175), card["name"], 0.045 * p.h, INK)
        p.fill((0.465, 0.18, 0.75, 0.23), (40, 40, 44))
        p.small_caps((0.49, 0.18, 0.75, 0.23), "Side Scheme", 0.025 * p.h, (245, 245, 245))
        p.fill((0.455, 0.24, 0.985, 0.83), (250, 250, 250))
        below = p.paragraph((0.47, 0.26, 0.97, 0.8), [("VeraIt", card["flavor"])], x_height, INK)
        _inline(p, (0.47, below, 0.97, 0.8), card["text"], x_height)
        p.fill((0.40, 0.83, 0.48, 0.945), (30, 30, 34), 0.01)
        _white(p, (0.405, 0.835, 0.475, 0.94), card["starting_threat"], 0.05)
        return p.image
    b_side = card["stage"].endswith("B")
    p.art((0.53, 0.2, 1.0, 1.0), seed)
    p.fill((0.0, 0.06, 0.885, 0.175), (252, 252, 252))
    p.fill((0.885, 0.05, 1.0, 0.165), (200, 210, 214))
    p.outlined((0.885, 0.05, 1.0, 0.165), card["stage"], 0.06 * p.h)
    p.small_caps((0.135 if b_side else 0.04, 0.07, 0.88, 0.17), card["name"], 0.045 * p.h, INK)
    p.fill((0.015, 0.185, 0.33, 0.235), (40, 40, 44))
    p.small_caps((0.03, 0.185, 0.33, 0.235), "Main Scheme", 0.025 * p.h, (245, 245, 245))
    below = p.paragraph((0.025, 0.28, 0.49, 0.86), [("VeraIt", card["flavor"])], x_height, INK)
    _inline(p, (0.025, below, 0.49, 0.86), card["text"], x_height)
    if b_side:
        p.draw.ellipse(p.px((0.0, 0.04, 0.12, 0.21)), fill=(60, 70, 80))
        p.outlined((0.0, 0.05, 0.085, 0.2), card["threat"], 0.075 * p.h, slant=0.12)
        p.person(0.075 * p.w, 0.16 * p.h, 0.05 * p.h, "white")
        p.fill((0.498, 0.67, 0.58, 0.945), (30, 30, 34), 0.01)
        _white(p, (0.50, 0.69, 0.57, 0.79), card["escalation_threat"], 0.03)
        _white(p, (0.515, 0.835, 0.585, 0.93), card["starting_threat"], 0.05)
    return p.image


def _white(p: Painter, box: Box, text: str, x_height: float) -> None:
    """A number in bold white (in a dark box): starting and escalation threat."""
    p.text(box, text, font(x_height * p.h, "VeraBd"), "white")


def samples() -> list[tuple[str, dict[str, Any], Image.Image]]:
    out = []
    for i, card in enumerate(villainous_cards()):
        stem = f"v-{re.sub(r'[^a-z0-9]+', '-', card['title'].casefold()).strip('-')}-{card['card']}"
        out.append(
            (
                f"villainous/{stem}",
                {**card, "light_on_dark": card["card"] == "villain", "orientation": 0},
                paint_villainous(card, i),
            )
        )
    for i, card in enumerate(champions_cards()):
        name = re.sub(r"[^a-z0-9]+", "-", card["name"].casefold()).strip("-")
        stem = f"mc-{name}-{card.get('stage', 'side').lower()}"
        upright = paint_champions(card, 100 + i)
        truth = {
            **card,
            "title": card["name"].upper(),
            "light_on_dark": False,
            "orientation": "rotated-90-ccw",
        }
        out.append((f"marvel-champions/{stem}", truth, upright.rotate(90, expand=True)))
    return out


def write_truth(path: Path, truth: dict[str, Any]) -> None:
    header = (
        f"# Truth for {path.name.removesuffix('.truth.yaml')}: by benchmarks/make_samples_vc.py\n"
        "# from the cards/ data the card was painted from (not from OCR).\n"
    )
    body = yaml.safe_dump(
        truth, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None
    )
    path.write_text(header + body, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "scans" / "samples")
    args = parser.parse_args()
    written = 0
    for name, truth, card in samples():
        folder, stem = args.out / name.split("/")[0], name.split("/")[1]
        folder.mkdir(parents=True, exist_ok=True)
        for degradation in ("clean", "150dpi", "skew2", "phone"):
            image, corners = DEGRADE[degradation](card, f"{stem}-{degradation}")
            target = save(image, folder / f"{stem}-{degradation}", degradation)
            full = {k: v for k, v in truth.items() if v is not None}
            full.update(
                {"degradation": degradation, "dpi": DPI_OF.get(degradation), "corners": corners}
            )
            write_truth(folder / f"{target.stem}.truth.yaml", full)
            written += 1
    size = sum(
        p.stat().st_size
        for f in ("villainous", "marvel-champions")
        for p in (args.out / f).iterdir()
    )
    print(f"wrote {written} samples ({size / 1e6:.1f} MB)")


if __name__ == "__main__":
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    main()
