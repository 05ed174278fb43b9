# The interpreter .venv is made from: the system's /usr/bin/python3 where it is 3.11 or newer
# (a distribution builds it with profile-guided and link-time optimisation; pyenv's and
# python.org's source builds have neither unless asked; the suite took 5-12% more CPU on them),
# else the python3 on PATH. `make PY=python3.12 test` chooses another; `make clean` first.
SYSTEM_PY := $(shell /usr/bin/python3 -c 'import sys; print(sys.version_info >= (3, 11))' 2>/dev/null)
PY ?= $(if $(filter True,$(SYSTEM_PY)),/usr/bin/python3,python3)
VENV := .venv
BIN := $(VENV)/bin
# grove itself, for the demo; the test extras (pytest, ruff, psutil, ...) only for test and bench
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: demo test bench lint clean

$(BIN)/python:
	# a system python3 without its venv package (python3-venv) cannot make one: PATH's python3 can
	$(PY) -m venv $(VENV) || { rm -rf $(VENV) && python3 -m venv $(VENV); }
	# uv installs the rest: it fetches and unpacks in parallel (the test extras from an empty
	# cache in 14 s, where pip took 29 s); compiled, as pip would, for the suite's processes.
	# uv reads no pip.conf: where it cannot install (an index only pip is told of), pip does
	$(BIN)/pip install --quiet uv || true

INSTALL = { $(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python $(1) || \
	$(BIN)/pip install --quiet $(1); }

$(STAMP): pyproject.toml | $(BIN)/python
	$(call INSTALL,-e .)
	touch $(STAMP)

# grove and the test extras in one install, so that grove's editable wheel is built once
$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(call INSTALL,-e '.[test]')
	touch $(STAMP) $(TEST_STAMP)

demo: $(STAMP)
	$(BIN)/grove lint grove/cards
	@for f in grove/examples/*.yaml; do echo "== $$f"; $(BIN)/grove score $$f || exit 1; done
	@echo "== a full game: three greedy players, base game"
	$(BIN)/grove play --edition base --ai greedy,greedy,greedy --seed 1 --quiet

test: $(TEST_STAMP)
	$(BIN)/ruff check .
	# one worker per logical CPU (pytest-xdist), a test file on one worker and the longest files
	# first (tests/conftest.py); the slowest tests listed, so a run says where its time went
	$(BIN)/python -m pytest -n logical --dist loadfile --no-loadscope-reorder --durations=15

bench: $(TEST_STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) build *.egg-info
