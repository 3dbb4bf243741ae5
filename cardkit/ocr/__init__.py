"""OCR: card scans to draft YAML."""
