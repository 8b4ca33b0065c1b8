# The whole set-up is `make run` (index built, service up) and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export RAGAS_DO_NOT_TRACK := true

.PHONY: setup run index test bench validate clean eval release loadtest

# Idempotent: re-installs only when pyproject.toml changed since the last install.
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,postgres]'  # postgres: the feedback store's tests run on a real server too
	touch $(STAMP)

setup: $(STAMP)

validate: setup
	$(PY) -m ingest validate

index: setup
	$(PY) -m ingest build

run: index
	$(PY) -m service --host $(HOST) --port $(PORT)

test: setup
	$(PY) -m pytest

bench: setup
	$(PY) -m benchmarks

# 50 concurrent clients for 60 s against `python -m service` on the index `make index` built (a benchmark, not a test).
# Override with: make loadtest LOADTEST_ARGS="--clients 100 --duration 120"
LOADTEST_ARGS ?=
loadtest: index
	$(PY) -m benchmarks.loadtest $(LOADTEST_ARGS)

# The eval suite against the live index: hybrid vs dense-only vs BM25-only, diffed against the last report.
eval: setup
	$(PY) -m evals run --baseline last

# Build a staging index, eval it, promote it only if evals/gates.yaml passes (else LIVE is untouched).
release: setup
	$(PY) -m evals release

clean:
	rm -rf data reports .pytest_cache
