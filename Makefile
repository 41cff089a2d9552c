# The two commands of the README. Both build .venv on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev

.PHONY: demo test lint bench clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install -q -e '.[dev,sim]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/tabletop demo

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python bench/engines.py

clean:
	rm -rf $(VENV) build *.egg-info
