PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench lint clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/grove lint grove/cards
	@for f in examples/*.yaml; do echo "== $$f"; $(BIN)/grove score $$f || exit 1; done
	@echo "== a full game: three greedy players, base game"
	$(BIN)/grove play --edition base --ai greedy,greedy,greedy --seed 1 --quiet

test: $(STAMP)
	$(BIN)/ruff check .
	# one worker per logical CPU (pytest-xdist): serial, the suite took 13-14 min on CI's two cores
	$(BIN)/python -m pytest -n logical

bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) build *.egg-info
