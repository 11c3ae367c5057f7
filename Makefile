# The two commands of the README: `make solve DEAL=1` and `make test`.
# Each creates .venv and builds the C core (cffi, through setup.py) as needed.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DEAL ?= 1
VARIANT ?= napoleons-tomb
ARGS ?=

.PHONY: build solve test test-slow bench clean

$(STAMP): pyproject.toml setup.py solver/_build.py $(wildcard csrc/*.c csrc/*.h)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

build: $(STAMP)

# Prints the verdict and the numbered moves. A lost or unknown deal is an
# answer, not a failure: only an error (exit 2) fails the target.
solve: build
	@$(PY) -m solver solve $(DEAL) --variant $(VARIANT) $(ARGS); rc=$$?; [ $$rc -ne 2 ] || exit 2

test: build
	$(PY) -m pytest

test-slow: build
	$(PY) -m pytest -m slow

bench: build
	$(PY) -m pytest bench --benchmark-enable --benchmark-only -p no:cacheprovider

clean:
	rm -rf build *.egg-info solver/_core*.so solver/_core.c solver/_core.o $(VENV)
