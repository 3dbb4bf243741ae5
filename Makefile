# The two quickstart targets (`make build`, `make test`) are idempotent on a fresh
# Debian machine: they create .venv, install cardkit and its system dependencies.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: build test lint typecheck unit bench system-deps test-deps clean

build: $(STAMP) system-deps
	$(BIN)/cardkit build

test: $(STAMP) system-deps test-deps lint typecheck unit

# pytest exits 5 when it collects no tests; that is not a failure of the code. The suite
# runs on every core, a test file to a worker (a file's fixtures are built once).
unit: $(STAMP)
	$(BIN)/python -m pytest -n auto --dist loadfile; rc=$$?; if [ $$rc -eq 5 ]; then exit 0; fi; exit $$rc

lint: $(STAMP)
	$(BIN)/ruff check cardkit tests benchmarks
	$(BIN)/ruff format --check cardkit tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python benchmarks/validate.py
	$(BIN)/python benchmarks/startup.py
	$(BIN)/python benchmarks/proof.py
	$(BIN)/python benchmarks/adversarial.py
	$(BIN)/python benchmarks/ocr_synthetic.py
	$(BIN)/python benchmarks/review.py

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# tesseract is the OCR engine; install it with apt-get when we are root, otherwise
# stop and print the exact command.
system-deps:
	@command -v tesseract >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr >/dev/null; \
	  else \
	    echo "cardkit needs tesseract: run 'sudo apt-get install -y tesseract-ocr'" >&2; exit 3; \
	  fi; }

# The HTML report and the review page are checked in headless Chromium by the tests;
# the review page's tests drive it with chromium-driver (selenium, a dev dependency).
test-deps:
	@{ command -v chromium && command -v chromedriver; } >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	  else \
	    echo "the tests need Chromium: run 'sudo apt-get install -y chromium chromium-driver'" >&2; exit 3; \
	  fi; }
	@# the design samples' fonts: tests/test_design_samples.py repaints cards byte for byte
	@# (tests/test_design_samples.py FONTS: each package below gives one of them)
	@( for f in truetype/freefont/FreeSerif.ttf truetype/liberation2/LiberationSerif-Regular.ttf truetype/liberation/LiberationSansNarrow-Bold.ttf truetype/dejavu/DejaVuSerifCondensed.ttf truetype/dejavu/DejaVuSansCondensed.ttf opentype/urw-base35/C059-Roman.otf truetype/lato/Lato-Regular.ttf truetype/crosextra/Caladea-Bold.ttf opentype/roboto/slab/RobotoSlab-Bold.otf truetype/open-sans/OpenSans-Regular.ttf opentype/comic-neue/ComicNeue-Bold.otf opentype/league-spartan/LeagueSpartan-Bold.otf truetype/vollkorn/Vollkorn-Regular.ttf opentype/bebas-neue/BebasNeue-Bold.otf; do \
	  [ -f /usr/share/fonts/$$f ] || exit 1; done ) || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-liberation2 fonts-liberation fonts-dejavu-extra fonts-freefont-ttf fonts-urw-base35 fonts-lato fonts-crosextra-caladea fonts-roboto-slab fonts-open-sans fonts-comic-neue fonts-league-spartan fonts-vollkorn fonts-bebas-neue >/dev/null; \
	  else \
	    echo "the design-sample repaint test skips without: sudo apt-get install -y fonts-liberation2 fonts-liberation fonts-dejavu-extra fonts-freefont-ttf fonts-urw-base35 fonts-lato fonts-crosextra-caladea fonts-roboto-slab fonts-open-sans fonts-comic-neue fonts-league-spartan fonts-vollkorn fonts-bebas-neue" >&2; \
	  fi; }

clean:
	rm -rf $(VENV) build/*.pdf build/*.html build/png
