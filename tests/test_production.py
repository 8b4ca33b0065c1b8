"""Production behaviour as a client sees it: request ids, metrics, JSON logs without secrets, rate limits,
admin endpoints, body limits and CORS."""
from __future__ import annotations

import io
import json
import logging
import re

import pytest
from fastapi.testclient import TestClient

from conftest import copy_corpus, make_settings
from ingest.build import build
from ingest.index.edge import EdgeStore
from service.http import logs, metrics
from service.app import create_app

ADMIN_KEY = "adm-7f3c9e1b2a4d"
API_KEY = "key-5b8e2f7a91c3"
SLACK_TOKEN = "xoxb-123456789012-abcdefABCDEF"
ORIGIN = "https://learn.ai-infra.example"


@pytest.fixture(scope="module")
def prod(built):
    """An app configured as in production: admin key, an API key, CORS allowlist, a small body limit."""
    settings = type(built)(**{**built.model_dump(), "admin_key": ADMIN_KEY, "api_keys": [API_KEY],
                              "cors_origins": [ORIGIN], "max_body_bytes": 4096})
    with TestClient(create_app(settings)) as client:
        yield client


# ---- request ids -----------------------------------------------------------------------------

def test_every_response_carries_a_request_id_and_a_sane_incoming_one_is_kept(prod):
    first, second = prod.get("/healthz"), prod.get("/v1/articles")
    assert re.fullmatch(r"[0-9a-f]{32}", first.headers["x-request-id"])
    assert first.headers["x-request-id"] != second.headers["x-request-id"]
    assert prod.get("/healthz", headers={"X-Request-ID": "edge-42.abc"}).headers["x-request-id"] == "edge-42.abc"
    insane = prod.get("/healthz", headers={"X-Request-ID": "x" * 500}).headers["x-request-id"]
    assert insane != "x" * 500 and len(insane) == 32
    assert prod.get("/nope").headers["x-request-id"]  # errors too


# ---- metrics ---------------------------------------------------------------------------------

def _sample(text: str, name: str, **labels) -> float | None:
    for line in text.splitlines():
        if line.startswith(name + "{") or line.startswith(name + " "):
            if all(f'{k}="{v}"' in line for k, v in labels.items()):
                return float(line.rsplit(" ", 1)[1])
    return None


def test_metrics_export_latency_per_endpoint_and_route_type_and_the_index_release(prod, built):
    prod.get("/v1/articles/mooncake")
    prod.post("/v1/ask", json={"question": "How much memory does Llama 3.1 70B need in bf16?"})
    prod.post("/v1/ask", json={"question": "Who won the football world cup in 1998?"})
    prod.post("/v1/ask", json={"question": "What goes into the formula for the cache size per token?", "article": "kv-cache"})
    prod.post("/v1/calculate/kv_cache", json={"model": "llama-3.1-70b", "context": 8192, "batch": 16})
    metrics.record_llm_fallback("timeout")
    response = prod.get("/metrics")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
    text = response.text
    assert _sample(text, "http_request_duration_seconds_count", endpoint="/v1/articles/{article_id}", status="200") >= 1
    assert 'endpoint="/v1/articles/mooncake"' not in text  # templates, never raw paths
    for route in ("calculator", "no_answer", "retrieval"):
        assert _sample(text, "ask_duration_seconds_count", answer_route=route) >= 1
    assert _sample(text, "ask_no_answer_total") >= 1
    assert _sample(text, "calculator_uses_total", calculator="memory", via="ask") >= 1
    assert _sample(text, "calculator_uses_total", calculator="kv_cache", via="api") >= 1
    assert _sample(text, "llm_fallbacks_total", reason="timeout") >= 1
    release = prod.get("/readyz").json()["release"]
    assert _sample(text, "index_release_info", release_id=release) == 1
    assert _sample(text, "index_build_seconds") > 0 and _sample(text, "index_chunks") > 0
    assert "process_resident_memory_bytes" in text
    promote = 'endpoint="/v1/admin/releases/{release_id}/promote"'
    prod.post("/v1/admin/releases/x/promote", headers={"X-Admin-Key": ADMIN_KEY})
    assert promote in prod.get("/metrics").text  # routes of included routers are labelled by their full template


def test_probes_and_metrics_are_not_rate_limited_or_in_the_openapi_schema(prod):
    paths = prod.get("/openapi.json").json()["paths"]
    assert "/metrics" not in paths and "/v1/feedback" in paths


# ---- logs --------------------------------------------------------------------------------------

@pytest.fixture
def log_lines(built):
    settings = type(built)(**{**built.model_dump(), "admin_key": ADMIN_KEY, "api_keys": [API_KEY], "log_json": True})
    stream = io.StringIO()
    handler = logs.handler(settings, stream)
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        yield settings, stream
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)


def test_one_json_log_line_per_request_with_its_request_id(built, log_lines):
    settings, stream = log_lines
    with TestClient(create_app(settings)) as client:
        response = client.post("/v1/ask", json={"question": "What is the KV cache?"}, headers={"X-Request-ID": "req-123"})
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    access = [entry for entry in lines if entry["logger"] == "service.access"]
    assert len(access) == 1
    entry = access[0]
    assert entry["request_id"] == "req-123" == response.headers["x-request-id"]
    assert entry["method"] == "POST" and entry["path"] == "/v1/ask" and entry["endpoint"] == "/v1/ask"
    assert entry["status"] == 200 and entry["duration_ms"] > 0 and entry["client"]


def test_no_secret_ever_reaches_the_logs(built, log_lines, monkeypatch):
    settings, stream = log_lines
    monkeypatch.setenv("SLACK_BOT_TOKEN", SLACK_TOKEN)
    handler = logs.handler(settings, stream)  # re-read the environment with the Slack token set
    logging.getLogger().addHandler(handler)
    try:
        with TestClient(create_app(settings)) as client:
            client.get(f"/v1/articles?api_key={API_KEY}", headers={"X-API-Key": API_KEY, "Authorization": f"Bearer {API_KEY}"})
            client.get("/v1/admin/feedback/export", headers={"X-Admin-Key": ADMIN_KEY})
            client.get("/v1/admin/feedback/export", headers={"X-Admin-Key": "wrong-" + ADMIN_KEY})
        log = logging.getLogger("service")
        log.warning("calling slack with token %s and admin key %s", SLACK_TOKEN, ADMIN_KEY)
        log.info("headers: %s", {"authorization": "Bearer sk-abcdefghijklmnopqrstuvwx", "x-api-key": API_KEY})
        try:
            raise RuntimeError(f"failed with key {API_KEY}")
        except RuntimeError:
            log.exception("boom")
    finally:
        logging.getLogger().removeHandler(handler)
    text = stream.getvalue()
    assert text and "[redacted]" in text
    for secret in (ADMIN_KEY, API_KEY, SLACK_TOKEN, "sk-abcdefghijklmnopqrstuvwx"):
        assert secret not in text
    assert all(json.loads(line) for line in text.splitlines())


def test_settings_never_show_secrets_in_their_repr(built):
    settings = type(built)(**{**built.model_dump(), "admin_key": ADMIN_KEY, "api_keys": [API_KEY]})
    assert ADMIN_KEY not in repr(settings) and API_KEY not in repr(settings)


# ---- rate limits -------------------------------------------------------------------------------

def test_rate_limits_per_ip_and_per_api_key_give_429_with_retry_after(built):
    settings = type(built)(**{**built.model_dump(), "rate_limit_ip_per_minute": 3, "rate_limit_key_per_minute": 5,
                              "api_keys": [API_KEY]})
    with TestClient(create_app(settings)) as client:
        assert [client.get("/v1/articles").status_code for _ in range(3)] == [200, 200, 200]
        limited = client.get("/v1/articles")
        assert limited.status_code == 429 and 1 <= int(limited.headers["retry-after"]) <= 60
        assert limited.json()["error"]["code"] == "rate_limited"
        # probes are never limited; a known API key has its own budget
        assert client.get("/healthz").status_code == 200 and client.get("/readyz").status_code == 200
        keyed = [client.get("/v1/articles", headers={"X-API-Key": API_KEY}).status_code for _ in range(6)]
        assert keyed == [200] * 5 + [429]
        unknown = client.get("/v1/articles", headers={"X-API-Key": "not-a-key"})
        assert unknown.status_code == 401 and unknown.json()["error"]["code"] == "invalid_api_key"
        assert _sample(client.get("/metrics").text, "rate_limited_total", limit="ip") >= 1


# ---- admin ---------------------------------------------------------------------------------------

def test_admin_endpoints_do_not_exist_without_an_admin_key(client):
    assert client.get("/v1/admin/feedback/export").status_code == 404
    assert client.post("/v1/admin/releases/x/promote").status_code == 404


def test_admin_endpoints_need_the_admin_key(prod):
    assert prod.get("/v1/admin/feedback/export").status_code == 401
    wrong = prod.get("/v1/admin/feedback/export", headers={"X-Admin-Key": "nope"})
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "unauthorized"
    assert prod.get("/v1/admin/releases", headers={"X-Admin-Key": ADMIN_KEY}).status_code == 200


def test_admin_promotes_a_built_release(tmp_path):
    corpus = copy_corpus(tmp_path)
    settings = make_settings(tmp_path, corpus, admin_key=ADMIN_KEY, release_check_s=0.0)
    first = build(settings, progress=False)
    page = corpus / "concepts" / "napkin-math-and-capacity" / "kv-cache-sizing.md"
    page.write_text(page.read_text() + "\nA staged sentence.\n")
    staged = build(settings, progress=False, promote=False)
    headers = {"X-Admin-Key": ADMIN_KEY}
    with TestClient(create_app(settings)) as client:
        listing = client.get("/v1/admin/releases", headers=headers).json()
        assert listing == {"live": first.release_id, "releases": sorted([first.release_id, staged.release_id])}
        missing = client.post("/v1/admin/releases/20990101T000000000000Z/promote", headers=headers)
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_release"
        promoted = client.post(f"/v1/admin/releases/{staged.release_id}/promote", headers=headers)
        assert promoted.status_code == 200, promoted.text
        assert promoted.json()["live"] == staged.release_id and promoted.json()["previous"] == first.release_id
        assert EdgeStore(settings.data_dir / "index").live_release() == staged.release_id
        assert client.get("/readyz").json()["release"] == staged.release_id


# ---- body limit and CORS -------------------------------------------------------------------------

def test_an_oversized_body_is_a_413_whether_declared_or_streamed(prod):
    big = {"question": "What is the KV cache?", "history": [{"role": "user", "content": "x" * 3000}] * 2}
    response = prod.post("/v1/ask", json=big)
    assert response.status_code == 413 and response.json()["error"]["code"] == "payload_too_large"

    def chunks():
        yield b'{"question": "What is the KV cache?", "pad": "'
        for _ in range(10):
            yield b"y" * 1000
        yield b'"}'

    streamed = prod.post("/v1/ask", content=chunks(), headers={"content-type": "application/json"})
    assert streamed.status_code == 413 and streamed.json()["error"]["code"] == "payload_too_large"


def test_cors_allows_listed_origins_only(prod):
    allowed = prod.get("/v1/articles", headers={"Origin": ORIGIN})
    assert allowed.headers["access-control-allow-origin"] == ORIGIN
    assert "x-request-id" in allowed.headers["access-control-expose-headers"].lower()
    other = prod.get("/v1/articles", headers={"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in other.headers
    preflight = prod.options("/v1/ask", headers={"Origin": ORIGIN, "Access-Control-Request-Method": "POST",
                                                  "Access-Control-Request-Headers": "content-type"})
    assert preflight.status_code == 200 and preflight.headers["access-control-allow-origin"] == ORIGIN
    refused = prod.options("/v1/ask", headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"})
    assert refused.status_code == 400 and "access-control-allow-origin" not in refused.headers
