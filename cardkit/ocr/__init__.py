"""OCR: card scans and photos to draft YAML documents (see docs/ocr.md).

intake (bytes -> RGB frames) -> geometry (find, straighten, orient, deskew) -> layout
(system templates as data) -> engine (tesseract, replay, plug-in engines) -> fields
(grammar, vocabulary) -> draft (a document of the right kind, unconfirmed below the
threshold). `batch` runs it over many scans in worker processes; `tokens` counts token
icons in placement diagrams.
"""
