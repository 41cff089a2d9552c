# The two commands of the README. Both build .venv on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev

.PHONY: demo test lint bench clean system-tools

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install -q -e '.[dev,sim]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/tabletop demo

# What the tests drive besides Python: a real headless Chromium (the big screen),
# systemd-analyze (the units) and the Mosquitto broker (the league). Installed from Debian with
# apt-get where missing, else untouched (mosquitto lives in /usr/sbin, outside a user's PATH).
SYSTEM_TOOLS := chromium:chromium systemd-analyze:systemd mosquitto:mosquitto

system-tools:
	@missing=""; PATH="$$PATH:/usr/sbin"; \
	for pair in $(SYSTEM_TOOLS); do \
	  command -v $${pair%%:*} >/dev/null 2>&1 || missing="$$missing $${pair#*:}"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing with apt-get"; \
	  SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

test: $(STAMP) system-tools
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python -m bench.engines

clean:
	rm -rf $(VENV) build *.egg-info
