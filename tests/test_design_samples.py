"""The Marvel United samples in designs cardkit did not paint (scans/samples/
marvel-united-design-*/, benchmarks/paint_designs.py): the painter gives the same bytes
every time and does not use cardkit's renderer, and every truth file says what the card
data it names says (read here from the YAML, not through the painter's code)."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from PIL import Image

from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

SAMPLES = ROOT / "scans" / "samples"
FOLDERS = [
    "marvel-united-design-b",
    "marvel-united-design-c",
    "marvel-united-design-d",
    "marvel-united-design-e",
    "marvel-united-design-f",
    "marvel-united-design-g",
    "marvel-united-design-h",
    "marvel-united-design-i",
    "marvel-united-design-j",
    "marvel-united-design-k",
]
DEGRADATIONS = {"clean": ".png", "150dpi": ".png", "skew2": ".jpg", "phone": ".jpg"}
FONTS = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSerif.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerifCondensed.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Bold.ttf",
    "/usr/share/fonts/opentype/urw-base35/C059-Roman.otf",
    "/usr/share/fonts/opentype/urw-base35/P052-Roman.otf",
    "/usr/share/fonts/opentype/urw-base35/NimbusRoman-Regular.otf",
    "/usr/share/fonts/opentype/urw-base35/NimbusSansNarrow-Bold.otf",
    "/usr/share/fonts/truetype/liberation2/LiberationMono-Bold.ttf",
    "/usr/share/fonts/truetype/lato/Lato-Regular.ttf",
    "/usr/share/fonts/truetype/crosextra/Caladea-Bold.ttf",
    "/usr/share/fonts/opentype/roboto/slab/RobotoSlab-Bold.otf",
    "/usr/share/fonts/truetype/open-sans/OpenSans-Regular.ttf",
    "/usr/share/fonts/opentype/comic-neue/ComicNeue-Bold.otf",
    "/usr/share/fonts/opentype/league-spartan/LeagueSpartan-Bold.otf",
    "/usr/share/fonts/truetype/vollkorn/Vollkorn-Regular.ttf",
    "/usr/share/fonts/opentype/bebas-neue/BebasNeue-Bold.otf",
]
needs_fonts = pytest.mark.skipif(
    not all(Path(f).is_file() for f in FONTS),
    reason=(
        "the designs' fonts are not installed (fonts-liberation, fonts-liberation2,"
        " fonts-dejavu-extra, fonts-freefont-ttf, fonts-urw-base35, fonts-lato,"
        " fonts-crosextra-caladea, fonts-roboto-slab, fonts-open-sans, fonts-comic-neue,"
        " fonts-league-spartan, fonts-vollkorn, fonts-bebas-neue)"
    ),
)


def _truths() -> list[tuple[Path, dict[str, Any]]]:
    found = []
    for folder in FOLDERS:
        for path in sorted((SAMPLES / folder).glob("*.truth.yaml")):
            found.append((path, yaml.safe_load(path.read_text(encoding="utf-8"))))
    return found


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


# ---------------------------------------------------------------- the painter


@needs_fonts
def test_painting_twice_gives_the_same_pixels_and_the_committed_clean_scan(
    tmp_path: Path,
) -> None:
    import paint_designs
    from make_samples import save

    for name, design in paint_designs.DESIGNS.items():
        cards = design.cards()
        for card in (cards[0], cards[-1]):  # a master plan and a dashboard
            first, truth = paint_designs.paint(design, card)
            second, again = paint_designs.paint(design, card)
            assert _png(first) == _png(second), card.stem
            assert truth == again
        # one card through save(), as the script writes it: byte for byte the committed file
        clean, _ = paint_designs.paint(design, cards[2])
        written = save(clean, tmp_path / f"{cards[2].stem}-clean", "clean")
        committed = SAMPLES / paint_designs.folder_of(name) / written.name
        assert written.read_bytes() == committed.read_bytes(), written.name


def test_the_painter_does_not_load_cardkits_renderer() -> None:
    code = (
        "import sys; sys.path.insert(0, 'benchmarks'); import paint_designs; "
        "print(sorted(m for m in sys.modules if m.startswith('cardkit.render')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"


# ---------------------------------------------------------------- the samples on disk


def test_every_card_comes_in_four_degradations_with_a_truth_each() -> None:
    for folder in FOLDERS:
        files = sorted(p.name for p in (SAMPLES / folder).iterdir())
        images = [f for f in files if not f.endswith(".yaml")]
        truths = [f for f in files if f.endswith(".truth.yaml")]
        assert len(images) == len(truths) == len(files) / 2
        stems = {re.sub(r"-(clean|150dpi|skew2|phone)\.\w+$", "", f) for f in images}
        assert 12 <= len(stems) <= 16, folder
        for stem in stems:
            for degradation, suffix in DEGRADATIONS.items():
                assert f"{stem}-{degradation}{suffix}" in images
                assert f"{stem}-{degradation}.truth.yaml" in truths


def test_images_are_stored_as_the_truth_says() -> None:
    for path, truth in _truths():
        stem = path.name.removesuffix(".truth.yaml")
        assert stem.endswith("-" + truth["degradation"])
        assert truth["design"] in path.parent.name
        image = path.parent / (stem + DEGRADATIONS[truth["degradation"]])
        with Image.open(image) as opened:
            dpi = opened.info.get("dpi")
            if truth["dpi"] is None:
                assert dpi is None
            else:
                assert round(dpi[0]) == truth["dpi"]
            xs = [x for x, _ in truth["corners"]]
            ys = [y for _, y in truth["corners"]]
            assert min(xs) >= 0 and max(xs) <= opened.width
            assert min(ys) >= 0 and max(ys) <= opened.height


# ---------------------------------------------------------------- truth against the data


def _source(path: Path) -> dict[str, Any]:
    header = path.read_text(encoding="utf-8").splitlines()[1]
    found = re.search(r"from (cards/marvel-united/\S+\.yaml)", header)
    assert found, header
    data: dict[str, Any] = yaml.safe_load((ROOT / found[1]).read_text(encoding="utf-8"))
    return data


def _flat(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(_flat(v) for v in value)
    if isinstance(value, dict):
        return _flat(value["text"])
    return str(value)


def test_master_plan_truth_is_the_card_data() -> None:
    checked = 0
    for path, truth in _truths():
        if truth["card"] != "masterplan":
            continue
        data = _source(path)
        card = next(c for c in data["masterplan"]["cards"] if c["n"] == truth["n"])
        assert truth["name"] == data["name"]
        assert truth["title"] == f"{data['name']} {card['n']}"
        assert truth["move"] == (card["move"] if card.get("move") is not None else "*")
        assert truth["bam"] is bool(card.get("bam"))
        # the movement sentence is `movement:` or `move_text:` (docs/data-model.md)
        assert truth["movement"] == (card.get("movement") or card.get("move_text"))
        effects = [{"name": e.get("name"), "text": e["text"]} for e in card.get("effects", [])]
        assert truth["effects"] == effects
        for effect in effects:  # every effect's words are in the printed text
            assert effect["text"] in truth["text"]
            assert effect["name"] is None or effect["name"] in truth["text"]
        place = card.get("place")
        if place is None:
            assert truth["place"] is None and truth["diagram"] is None
        elif place == "none":
            assert truth["place"] == "none" and truth["diagram"] is None
        else:
            for slot in ("left", "villain", "right"):
                assert truth["place"][slot] == (place.get(slot) or {}), (path.name, slot)
            assert truth.get("anchor") == place.get("anchor")
            drawn = truth["diagram"]
            assert 2 <= len(drawn) <= 4
            middle = place.get("anchor") or "villain"
            assert middle in drawn
            for slot in ("left", "right"):  # a slot holding tokens is always drawn
                assert slot in drawn or not place.get(slot)
        checked += 1
    assert checked >= 24


def test_threat_truth_is_the_card_data() -> None:
    checked = 0
    for path, truth in _truths():
        if truth["card"] != "threat":
            continue
        data = _source(path)
        card = next(c for c in data["threats"]["cards"] if c["name"] == truth["name"])
        assert truth["villain"] == data["name"]
        assert truth["title"] == card["name"]
        assert truth["text"] == card["text"]
        assert truth["health"] == card.get("health")
        checked += 1
    assert checked >= 9


def test_dashboard_truth_is_the_card_data() -> None:
    labels = {
        "special_rules": "Special Rules",
        "bam": "BAM!",
        "overflow": "Overflow",
        "heroic_goal": "Heroic Goal",
        "commander_solo_mode": "Commander Solo Mode",
        "villainous_plot": "Villainous Plot",
    }
    checked = 0
    for path, truth in _truths():
        if truth["card"] != "dashboard":
            continue
        board = _source(path)["dashboard"]
        assert truth["columns"] in (1, 2)
        expected = {int(k): v for k, v in board["player_count"]["heroes"].items()}
        assert truth["player_count"] == expected
        printed = {s["heading"]: s["text"] for s in truth["sections"]}
        wanted = [k for k in board if k in labels]
        assert len(truth["sections"]) == len(wanted)
        for key in wanted:
            heading = next(h for h in printed if h.startswith(labels[key]))
            assert printed[heading] == _flat(board[key]), (path.name, key)
        checked += 1
    assert checked >= 6
    orders = {
        tuple(s["heading"] for s in t["sections"]) for _, t in _truths() if t["card"] == "dashboard"
    }
    assert any(order[0] != "Special Rules" for order in orders)  # not always the data's order
