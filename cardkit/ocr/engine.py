"""The OCR engine interface and its engines: tesseract, replay, and plug-in engines.

An engine reads one region image in one mode and returns words with boxes and
confidences. The pipeline never calls tesseract directly, so tests can replay
recorded readings (fast, no binary) or load an engine that crashes or hangs.

Every call carries a `key` (`<frame>/<region>`) naming what is read; the replay
engine serves readings by that key and the recording engine stores them under it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from PIL import Image

from cardkit.errors import CardkitError, ExitCode, MissingDependency, UsageError

Mode = Literal["block", "line", "word", "char", "sparse", "auto"]

# tesseract page-segmentation mode for each of ours
PSM: dict[str, int] = {"auto": 3, "block": 6, "line": 7, "word": 8, "char": 10, "sparse": 11}

INSTALL_TESSERACT = "sudo apt-get install -y tesseract-ocr"


class EngineError(CardkitError):
    """The engine failed on one image; the batch goes on with the others."""

    exit_code = ExitCode.FINDINGS


@dataclass(frozen=True)
class Word:
    text: str
    confidence: float  # 0..1
    box: tuple[int, int, int, int]  # left, top, width, height in the region image's pixels
    line: int  # words with the same number stand on one line, in reading order


@dataclass(frozen=True)
class Reading:
    words: tuple[Word, ...] = ()

    @property
    def lines(self) -> list[list[Word]]:
        out: dict[int, list[Word]] = {}
        for word in self.words:
            out.setdefault(word.line, []).append(word)
        return [out[k] for k in sorted(out)]

    @property
    def text(self) -> str:
        return "\n".join(" ".join(w.text for w in line) for line in self.lines)

    @property
    def confidence(self) -> float:
        """Mean word confidence weighted by word length; 0 when nothing was read."""
        total = sum(len(w.text) for w in self.words)
        if not total:
            return 0.0
        return sum(w.confidence * len(w.text) for w in self.words) / total

    def to_json(self) -> list[list[Any]]:
        return [[w.text, round(w.confidence, 4), *w.box, w.line] for w in self.words]

    @classmethod
    def from_json(cls, rows: list[list[Any]]) -> Reading:
        return cls(
            tuple(
                Word(
                    str(r[0]), float(r[1]), (int(r[2]), int(r[3]), int(r[4]), int(r[5])), int(r[6])
                )
                for r in rows
            )
        )


class OcrEngine(Protocol):
    name: str

    def version(self) -> str: ...

    def read(self, image: Image.Image, mode: Mode, *, key: str, whitelist: str = "") -> Reading: ...


class TesseractEngine:
    """pytesseract's image_to_data: the tesseract command, one subprocess per region."""

    name = "tesseract-cli"

    def __init__(self, language: str = "eng") -> None:
        self.language = language
        self._version = ""

    def version(self) -> str:
        if not self._version:
            import pytesseract

            try:
                self._version = str(pytesseract.get_tesseract_version()).split()[0]
            except pytesseract.TesseractNotFoundError:
                raise MissingDependency(
                    f"tesseract is not installed: run '{INSTALL_TESSERACT}'"
                ) from None
        return self._version

    def read(self, image: Image.Image, mode: Mode, *, key: str, whitelist: str = "") -> Reading:
        import pytesseract

        config = f"--psm {PSM[mode]}"
        if whitelist:
            config += f" -c tessedit_char_whitelist={whitelist}"
        try:
            data = pytesseract.image_to_data(
                image, lang=self.language, config=config, output_type=pytesseract.Output.DICT
            )
        except pytesseract.TesseractNotFoundError:
            raise MissingDependency(
                f"tesseract is not installed: run '{INSTALL_TESSERACT}'"
            ) from None
        except pytesseract.TesseractError as err:
            raise EngineError(f"tesseract failed on {key}: {err.message.strip()}") from None
        words: list[Word] = []
        lines: dict[tuple[int, int, int], int] = {}
        for i, text in enumerate(data["text"]):
            text = text.strip()
            conf = float(data["conf"][i])
            if not text or conf < 0:
                continue
            line_key = (
                int(data["block_num"][i]),
                int(data["par_num"][i]),
                int(data["line_num"][i]),
            )
            line = lines.setdefault(line_key, len(lines))
            box = (
                int(data["left"][i]),
                int(data["top"][i]),
                int(data["width"][i]),
                int(data["height"][i]),
            )
            words.append(Word(text, conf / 100.0, box, line))
        return Reading(tuple(words))


TESSDATA_DIRS = (
    "/usr/share/tesseract-ocr/5/tessdata",
    "/usr/share/tesseract-ocr/4.00/tessdata",
    "/usr/share/tessdata",
    "/usr/local/share/tessdata",
    "/opt/homebrew/share/tessdata",
)


def tessdata(language: str) -> str:
    """The folder holding `<language>.traineddata`, or MissingDependency with the fix."""
    import os

    candidates = [os.environ.get("TESSDATA_PREFIX", ""), *TESSDATA_DIRS]
    for folder in candidates:
        if folder and (Path(folder) / f"{language}.traineddata").is_file():
            return folder.rstrip("/") + "/"
    raise MissingDependency(
        f"tesseract's '{language}' language data is not installed: run '{INSTALL_TESSERACT}'"
    )


_LOADED: dict[tuple[str, str], Any] = {}  # (tessdata folder, language) -> a loaded API


def _loaded_api(language: str) -> Any:
    """One loaded model per language (and data folder) and process. Loading is a third of
    a small scan's time; a batch's parent loads it once (its engine probe) and the workers
    it forks inherit it, so no scan pays for it again."""
    folder = tessdata(language)
    if (folder, language) not in _LOADED:
        import tesserocr

        try:
            api = tesserocr.PyTessBaseAPI(path=folder, lang=language)
        except RuntimeError as err:  # a damaged or mismatched .traineddata
            raise MissingDependency(
                f"tesseract could not load '{language}' from {folder} ({err}): "
                f"reinstall it with '{INSTALL_TESSERACT}'"
            ) from None
        _LOADED[(folder, language)] = api
    return _LOADED[(folder, language)]


class TesseractApiEngine:
    """tesseract in this process through its C API (tesserocr): the model loads once per
    process (`_loaded_api`), not once per region, which is most of what a region costs otherwise."""

    name = "tesseract"

    def __init__(self, language: str = "eng") -> None:
        self.language = language
        self._api: Any = None

    def _open(self) -> Any:
        if self._api is None:
            self._api = _loaded_api(self.language)
        return self._api

    def version(self) -> str:
        import tesserocr

        self._open()
        return str(tesserocr.tesseract_version()).split()[1]

    def read(self, image: Image.Image, mode: Mode, *, key: str, whitelist: str = "") -> Reading:
        import tesserocr

        api = self._open()
        api.SetPageSegMode(PSM[mode])
        api.SetVariable("tessedit_char_whitelist", whitelist)
        try:
            api.SetImage(image)
            api.Recognize()
        except RuntimeError as err:
            raise EngineError(f"tesseract failed on {key}: {err}") from None
        words: list[Word] = []
        iterator = api.GetIterator()
        level = tesserocr.RIL.WORD
        line = -1
        if iterator is not None:
            for item in tesserocr.iterate_level(iterator, level):
                if item.IsAtBeginningOf(tesserocr.RIL.TEXTLINE):
                    line += 1
                try:
                    text = (item.GetUTF8Text(level) or "").strip()
                except RuntimeError:  # an empty word
                    continue
                if not text:
                    continue
                box = item.BoundingBox(level)
                if box is None:
                    continue
                left, top, right, bottom = box
                words.append(
                    Word(
                        text,
                        float(item.Confidence(level)) / 100.0,
                        (left, top, right - left, bottom - top),
                        max(0, line),
                    )
                )
        return Reading(tuple(words))


class ReplayEngine:
    """Serves readings recorded earlier (see RecordingEngine), keyed by `<frame>/<region>`."""

    name = "replay"

    def __init__(self, path: Path) -> None:
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise UsageError(f"{path}: cannot read replay file: {err}") from None
        self.path = path
        self._version = str(raw.get("version", "recorded"))
        self.readings = {k: Reading.from_json(v) for k, v in raw.get("readings", {}).items()}

    def version(self) -> str:
        return self._version

    def read(self, image: Image.Image, mode: Mode, *, key: str, whitelist: str = "") -> Reading:
        if key not in self.readings and key.rsplit("/", 1)[-1].startswith("page"):
            return Reading()  # recorded before the whole-card read existed: nothing kept
        if key not in self.readings:
            raise EngineError(f"replay file {self.path} holds no reading for {key}")
        return self.readings[key]


class RecordingEngine:
    """Wraps an engine and keeps every reading, to save as a replay file."""

    def __init__(self, inner: OcrEngine) -> None:
        self.inner = inner
        self.name = inner.name
        self.readings: dict[str, Reading] = {}

    def version(self) -> str:
        return self.inner.version()

    def read(self, image: Image.Image, mode: Mode, *, key: str, whitelist: str = "") -> Reading:
        reading = self.inner.read(image, mode, key=key, whitelist=whitelist)
        self.readings[key] = reading
        return reading

    def save(self, path: Path) -> None:
        from cardkit.files import yamlio

        payload = {
            "engine": self.inner.name,
            "version": self.inner.version(),
            "readings": {k: v.to_json() for k, v in sorted(self.readings.items())},
        }
        yamlio.atomic_write(path, json.dumps(payload, indent=1, ensure_ascii=False) + "\n")


def make_engine(spec: str, language: str = "eng") -> OcrEngine:
    """`tesseract` (default: the C API, or the command when tesserocr is missing),
    `tesseract-cli`, `replay:FILE`, or a plug-in engine `package.module:Class` (made with
    no arguments; the test suite's failing engines are loaded this way)."""
    if spec == "tesseract":
        try:
            import tesserocr  # noqa: F401
        except ImportError:
            return TesseractEngine(language)
        return TesseractApiEngine(language)
    if spec == "tesseract-cli":
        return TesseractEngine(language)
    if spec.startswith("replay:"):
        return ReplayEngine(Path(spec.removeprefix("replay:")))
    if ":" in spec:
        from cardkit.plugin import resolve

        engine: OcrEngine = resolve(spec, "--engine")()
        return engine
    raise UsageError(
        f"unknown OCR engine '{spec}': use tesseract, tesseract-cli, replay:FILE "
        "or package.module:Class"
    )
