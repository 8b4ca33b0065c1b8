"""Prometheus metrics: what `/metrics` exports, and the few functions the rest of the service calls.

- `http_request_duration_seconds{method,endpoint,status}` — every request, by path *template*
  (`/v1/articles/{article_id}`, never the raw path), timed by `service.http.middleware.RequestContext`.
- `ask_duration_seconds{answer_route}` — the answer pipeline per route type (retrieval | calculator |
  no_answer), with `ask_answers_total{answer_route,generator}` and `ask_no_answer_total` beside it
  (no-answer rate = `ask_no_answer_total / sum(ask_answers_total)`).
- `calculator_uses_total{calculator,via}` — a calculator answered (via `ask` or the `api` endpoint);
  `calculator_refused_total{calculator}` — the router chose a calculator whose inputs it refused.
- `llm_fallbacks_total{reason}` — the LLM failed and the reader got the extractive answer.
- `rate_limited_total{limit}` — requests refused with a 429 (`ip` or `key`).
- `question_log_written_total`, `question_log_dropped_total{reason}` — question-log rows written, and
  rows lost instead of slowing an answer (`queue_full`, `locked`, `read_only`, `disk_full`, `unavailable`,
  `error`); see service/questions.py.
- `index_release_info{release_id}`, `index_chunks`, `index_build_seconds`, `index_release_created_timestamp`
  — read from the live release's manifest at scrape time.

Metrics live in prometheus-client's default registry (with its process collectors: RSS, CPU, fds).
"""
from __future__ import annotations

import datetime as dt

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, Counter, Gauge, Histogram, generate_latest

_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 10.0, 30.0)

HTTP_LATENCY = Histogram("http_request_duration_seconds", "HTTP request latency by endpoint (path template).",
                         ["method", "endpoint", "status"], buckets=_LATENCY_BUCKETS)
ASK_LATENCY = Histogram("ask_duration_seconds", "Answer pipeline time (route + retrieve + compose) by route type.",
                        ["answer_route"], buckets=_LATENCY_BUCKETS)
ANSWERS = Counter("ask_answers", "Answers given, by route type and generator.", ["answer_route", "generator"])
NO_ANSWER = Counter("ask_no_answer", "Questions the site does not cover (answered with suggestions only).")
CALCULATOR_USES = Counter("calculator_uses", "Calculator runs, by calculator and entry point.", ["calculator", "via"])
CALCULATOR_REFUSED = Counter("calculator_refused", "Routed numeric questions whose inputs the calculator refused "
                             "(the question went to retrieval instead).", ["calculator"])
LLM_FALLBACKS = Counter("llm_fallbacks", "LLM answers replaced by the extractive answer, by reason.", ["reason"])
ROUTER_ERRORS = Counter("router_errors", "Questions whose numeric reading raised; they were answered from the site "
                        "instead (the traceback is logged).")
RATE_LIMITED = Counter("rate_limited", "Requests refused with 429, by limit.", ["limit"])
QUESTION_LOG_WRITTEN = Counter("question_log_written", "Question-log rows written to the database.")
QUESTION_LOG_DROPPED = Counter("question_log_dropped", "Question-log rows dropped rather than slow or fail an answer, "
                               "by reason.", ["reason"])
QUESTION_LOG_DROP_REASONS = ("queue_full", "locked", "read_only", "disk_full", "unavailable", "error")
for _reason in QUESTION_LOG_DROP_REASONS:  # every reason exported from the start (at 0), so alerts can rate() it
    QUESTION_LOG_DROPPED.labels(reason=_reason)
INDEX_RELEASE = Gauge("index_release_info", "The index release being served (value 1).", ["release_id"])
INDEX_CHUNKS = Gauge("index_chunks", "Chunks in the index release being served.")
INDEX_BUILD_SECONDS = Gauge("index_build_seconds", "How long the served release took to build (from its manifest).")
INDEX_CREATED = Gauge("index_release_created_timestamp", "When the served release was built (Unix time).")

_MAX_REASON = 60


def record_llm_fallback(reason: str) -> None:
    """Count one LLM fallback; `reason` should be short and low-cardinality ("timeout", "http 503", …)."""
    LLM_FALLBACKS.labels(reason=str(reason)[:_MAX_REASON]).inc()


def record_router_error() -> None:
    ROUTER_ERRORS.inc()


def record_calculator(calculator: str, via: str) -> None:
    CALCULATOR_USES.labels(calculator=calculator, via=via).inc()


def record_calculator_refused(calculator: str) -> None:
    CALCULATOR_REFUSED.labels(calculator=calculator).inc()


def observe_answer(route: str, total_ms: float, calculation=None, generator: str = "extractive") -> None:
    """Called once per answer (JSON or stream) with its route type, pipeline time and calculation, if any."""
    ASK_LATENCY.labels(answer_route=route).observe(max(total_ms, 0.0) / 1000)
    ANSWERS.labels(answer_route=route, generator=_generator_label(generator)).inc()
    if route == "no_answer":
        NO_ANSWER.inc()
    if calculation is not None:
        record_calculator(getattr(calculation, "calculator", "unknown"), "ask")


def _generator_label(generator: str) -> str:
    """`extractive (llm fallback: timeout)` → `extractive-fallback`: reasons belong to llm_fallbacks_total."""
    return "extractive-fallback" if generator.startswith("extractive (") else generator[:_MAX_REASON]


def set_index(manifest: dict | None) -> None:
    """Publish the live release's manifest (None: no release is loaded)."""
    INDEX_RELEASE.clear()
    if not manifest:
        return
    INDEX_RELEASE.labels(release_id=str(manifest.get("release_id", "unknown"))).set(1)
    if manifest.get("chunks") is not None:
        INDEX_CHUNKS.set(manifest["chunks"])
    if manifest.get("build_seconds") is not None:
        INDEX_BUILD_SECONDS.set(manifest["build_seconds"])
    created = manifest.get("created_at")
    if created:
        try:
            INDEX_CREATED.set(dt.datetime.fromisoformat(created).timestamp())
        except ValueError:
            pass


def exposition() -> tuple[bytes, str]:
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
