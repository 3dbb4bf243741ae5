"""build/index.html as a browser shows it: headless Chromium renders the real page."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image

from tests.conftest import ROOT, run_cli

CHROMIUM = shutil.which("chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def _chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing in CI: `make test` installs it")
        pytest.skip("Chromium is not installed (sudo apt-get install -y chromium)")
    profile = tmp_path / "profile"
    return subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = tmp_path_factory.mktemp("repo")
    for part in ("cards", "scans"):
        shutil.copytree(ROOT / part, repo / part)
    result = run_cli(["build"], cwd=repo)
    assert result.returncode == 0, result.stderr
    return repo / "build"


def test_the_page_lists_what_the_json_reports_say(built: Path, tmp_path: Path) -> None:
    dom = _chromium(tmp_path, "--dump-dom", (built / "index.html").as_uri()).stdout
    validate = json.loads((built / "validate.json").read_text())
    gaps = json.loads((built / "gaps.json").read_text())
    assert dom.count('<tr class="diagnostic ') == len(validate["diagnostics"])
    assert dom.count('<tr class="gap open"') == gaps["summary"]["open"]
    assert f'<div class="stat" id="stat-errors"><b>{validate["summary"]["errors"]}</b>' in dom
    summaries = (built / "import.txt").read_text().splitlines()
    books = sorted((built.parent / "scans").rglob("rulebook.txt"))
    assert len(summaries) == len(books) and dom.count("<li>") == len(books)
    assert all(f"<li>{line}</li>" in dom for line in summaries if "&" not in line)
    assert "0 unrepresented lines" in dom
    assert '<a href="proofs.pdf">' in dom and 'src="proofs-001.png"' in dom
    assert (built / "proofs-001.png").exists()


def test_the_page_renders(built: Path, tmp_path: Path) -> None:
    shot = tmp_path / "page.png"
    _chromium(
        tmp_path, "--window-size=1200,900", f"--screenshot={shot}", (built / "index.html").as_uri()
    )
    image = Image.open(shot).convert("RGB")
    assert image.size == (1200, 900)
    band = re.search(r"header\{background:#([0-9a-f]{6})", (built / "index.html").read_text())
    assert band is not None
    colour = tuple(int(band[1][i : i + 2], 16) for i in (0, 2, 4))
    top = [image.getpixel((x, 10)) for x in range(0, 1200, 40)]
    assert sum(_near(pixel, colour) for pixel in top) >= len(top) - 2  # the header band
    small = image.resize((120, 90))
    colours = len({small.getpixel((x, y)) for x in range(120) for y in range(90)})
    assert colours > 20  # text and tables, not a blank page


def _near(pixel: object, colour: tuple[int, ...]) -> bool:
    assert isinstance(pixel, tuple)
    return all(abs(a - b) <= 8 for a, b in zip(pixel, colour, strict=False))


# Appended to a copy of the page (beside it, so its relative links hold): once every
# image has loaded, it writes what the browser shows into the DOM for --dump-dom.
PROBE = """<script>
window.addEventListener("load", function () {
  function shown(el) { return !el.hidden && el.offsetParent !== null; }
  var found = {rows: [], cards: []};
  document.querySelectorAll("tr.gap").forEach(function (row) {
    if (shown(row)) { found.rows.push(Object.assign({}, row.dataset)); }
  });
  document.querySelectorAll("figure.card").forEach(function (card) {
    var img = card.querySelector("img"), link = card.querySelector("a.where");
    found.cards.push({
      shown: shown(card), fields: card.dataset.fields, box: card.dataset.box,
      group: card.dataset.group,
      width: img.complete ? img.naturalWidth : 0, src: img.getAttribute("src"),
      outline: getComputedStyle(card).outlineColor + " " + getComputedStyle(card).outlineStyle,
      chips: Array.prototype.map.call(card.querySelectorAll("span.unconfirmed"),
                                      function (c) { return c.textContent; }),
      href: link.href, where: link.textContent
    });
  });
  found.counter = document.getElementById("shown").textContent;
  var out = document.createElement("pre");
  out.id = "probe";
  out.textContent = JSON.stringify(found);
  document.body.appendChild(out);
});
</script>"""


def _probe(built: Path, tmp_path: Path, fragment: str) -> dict:  # type: ignore[type-arg]
    page = built / "probe.html"
    page.write_text((built / "index.html").read_text().replace("</body>", PROBE + "</body>"))
    try:
        dom = _chromium(tmp_path, "--dump-dom", page.as_uri() + fragment).stdout
    finally:
        page.unlink()
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, "the page did not finish loading"
    text = found.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
    return json.loads(text.replace("&amp;", "&"))  # type: ignore[no-any-return]


def test_the_filter_in_the_address_hides_the_other_rows_and_cards(
    built: Path, tmp_path: Path
) -> None:
    rows = json.loads((built / "gaps.json").read_text())["gaps"]
    box = "ks-promos"
    wanted = [r for r in rows if r["box"] == box and r["field"].rsplit("/", 1)[-1] == "place"]
    assert 0 < len(wanted) < len(rows)
    seen = _probe(built, tmp_path, f"#box={box}&field=place")
    assert len(seen["rows"]) == len(wanted)
    assert all(r["box"] == box and r["field"] == "place" for r in seen["rows"])
    shown = [c for c in seen["cards"] if c["shown"]]
    assert shown and all(c["box"] == box and "place" in c["fields"].split() for c in shown)
    assert len(shown) < len(seen["cards"])
    assert seen["counter"].startswith(f"{len(wanted)} of {len(rows)} gaps")
    free = _probe(built, tmp_path, "#q=Klaw")
    klaw = [r for r in rows if "klaw" in json.dumps(r).lower()]
    assert 0 < len(free["rows"]) <= len(klaw) < len(rows)


def test_the_group_filter_is_the_games_word_in_the_page_and_its_address(
    built: Path, tmp_path: Path
) -> None:
    """Marvel United groups by villain: the filter says so, and `#villain=klaw` (the
    address as it always was) or `#group=klaw` shows Klaw's rows and cards only."""
    html = (built / "index.html").read_text()
    assert '<label>villain<select id="f-group" data-param="villain">' in html
    rows = json.loads((built / "gaps.json").read_text())["gaps"]
    klaw = [r for r in rows if r["game_group"] == "klaw"]
    assert 0 < len(klaw) < len(rows)
    for fragment in ("#villain=klaw", "#group=klaw"):
        seen = _probe(built, tmp_path, fragment)
        assert len(seen["rows"]) == len(klaw), fragment
        assert all(r["group"] == "klaw" for r in seen["rows"])
        shown = [c for c in seen["cards"] if c["shown"]]
        assert shown and all(c["group"] == "klaw" for c in shown)
        assert len(shown) < len(seen["cards"])


def test_thumbnails_load_and_mark_the_unconfirmed_fields(built: Path, tmp_path: Path) -> None:
    from PIL import Image

    cards = _probe(built, tmp_path, "")["cards"]
    assert cards and all(card["width"] > 0 for card in cards)
    unsure = [card for card in cards if card["fields"]]
    sure = [card for card in cards if not card["fields"]]
    assert unsure and sure
    for card in unsure:
        assert card["outline"] == "rgb(204, 26, 26) solid"
        assert card["chips"] == card["fields"].split()
    assert all(card["chips"] == [] and "none" in card["outline"] for card in sure)

    def red_band(card: dict) -> bool:  # type: ignore[type-arg]
        """A row of the proxy mostly in the proof's warning red: its UNCONFIRMED band."""
        image = Image.open(built / card["src"]).convert("RGB")
        width, height = image.size
        pixels = image.load()
        return any(
            sum(1 for x in range(width) if _warning_red(pixels[x, y])) > width / 2
            for y in range(height)
        )

    assert all(red_band(card) for card in unsure[:40])
    assert not any(red_band(card) for card in sure[:40])
    for card in cards[:40]:  # each links to its card file; the page shows path:line
        target = Path(unquote(urlparse(card["href"]).path))
        path, line = card["where"].rsplit(":", 1)
        assert target == (built.parent / path).resolve() and target.is_file()
        assert 1 <= int(line) <= len(target.read_text().splitlines())


def _warning_red(pixel: tuple[int, int, int]) -> bool:
    r, g, b = pixel
    return r > 170 and g < 70 and b < 70


def test_a_filtered_page_renders(built: Path, tmp_path: Path) -> None:
    shot = tmp_path / "filtered.png"
    _chromium(
        tmp_path,
        "--window-size=1200,1600",
        f"--screenshot={shot}",
        (built / "index.html").as_uri() + "#villain=klaw",
    )
    image = Image.open(shot).convert("RGB")
    red = sum(
        1
        for x in range(0, 1200, 3)
        for y in range(0, 1600, 3)
        if _warning_red(image.getpixel((x, y)))
    )
    assert red > 50  # Klaw's outlined cards and their marks are on screen
