"""Faults: a Qdrant server that refuses or never answers, a corrupted index, a disk that fills up mid-build.

Each must give a clear error (503 + Retry-After from the API, BuildError from a build), never a hang or
a 500, and must leave the served index as it was.
"""
from __future__ import annotations

import errno
import socket
import threading
import time

import pytest
from fastapi.testclient import TestClient

from conftest import copy_corpus, make_settings
from ingest.build import BuildError, build
from ingest.index.server import ServerStore
from ingest.errors import StoreError
from ingest.index.edge import EdgeStore, EdgeWriter
from service.app import create_app

DEADLINE_S = 10  # every response within this, whatever the store does


def refusing_port() -> int:
    """A port nobody listens on: bind to get a free one, then close it."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class SilentServer:
    """Accepts TCP connections and never says a word (a hung Qdrant)."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.conns: list[socket.socket] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        self.sock.settimeout(0.2)
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
                self.conns.append(conn)  # keep it open, read nothing, answer nothing
            except OSError:
                continue

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(timeout=5)
        for conn in self.conns:
            conn.close()
        self.sock.close()


def _assert_503(response, started: float):
    assert time.monotonic() - started < DEADLINE_S
    assert response.status_code == 503, response.text
    assert int(response.headers["retry-after"]) > 0
    body = response.json()["error"]
    assert body["code"] == "index_unavailable" and "Qdrant" in body["message"]
    assert response.headers["x-request-id"]


@pytest.mark.parametrize("kind", ["refusing", "silent"])
def test_a_qdrant_server_that_is_down_or_hangs_gives_503_with_retry_after_never_a_hang(tmp_path, kind):
    settings = make_settings(tmp_path, qdrant_timeout_s=1, qdrant_attempts=2)
    if kind == "refusing":
        server, port = None, refusing_port()
    else:
        server = SilentServer().__enter__()
        port = server.port
    try:
        store = ServerStore(f"http://127.0.0.1:{port}", "chunks", timeout_s=1, attempts=2)
        with TestClient(create_app(settings, store=store)) as client:
            for _ in range(2):
                started = time.monotonic()
                _assert_503(client.get("/readyz"), started)
                started = time.monotonic()
                _assert_503(client.post("/v1/ask", json={"question": "What is the KV cache?"}), started)
            assert client.get("/healthz").status_code == 200  # liveness does not depend on the store
    finally:
        if server is not None:
            server.__exit__(None, None, None)


def test_store_errors_are_retried_a_bounded_number_of_times(tmp_path):
    store = ServerStore(f"http://127.0.0.1:{refusing_port()}", "chunks", timeout_s=1, attempts=3)
    started = time.monotonic()
    with pytest.raises(StoreError, match="Qdrant at http://127.0.0.1"):
        store.live_release()
    elapsed = time.monotonic() - started
    assert 0.2 <= elapsed < 5  # it waited between tries (backoff) but gave up


def test_a_store_that_comes_back_is_used_again(tmp_path):
    """Transient failures are retried: a call that fails twice and then succeeds returns normally."""
    from qdrant_client.http.exceptions import ResponseHandlingException

    inner = ServerStore(":memory:", "chunks")
    calls = {"n": 0}
    real = inner.client._client.get_aliases

    def flaky():
        calls["n"] += 1
        if calls["n"] < 3:
            raise ResponseHandlingException(ConnectionResetError("connection reset by peer"))
        return real()

    inner.client._client.get_aliases = flaky
    assert inner.live_release() is None and calls["n"] == 3


def test_readiness_fails_when_a_live_server_collection_disappears(built, tmp_path):
    store = ServerStore(":memory:", "chunks")
    corpus = copy_corpus(tmp_path)
    settings = make_settings(tmp_path, corpus)
    report = build(settings, progress=False, store=store)
    with TestClient(create_app(settings, store=store)) as client:
        assert client.get("/readyz").status_code == 200
        store.client.delete_collection(f"chunks-{report.release_id}")
        ready = client.get("/readyz")
        assert ready.status_code == 503 and ready.headers["retry-after"]


def _live_dir(settings):
    store = EdgeStore(settings.data_dir / "index")
    return store, store.releases_dir / store.live_release()


def test_a_corrupted_live_index_is_a_clear_503_and_the_next_build_repairs_it(tmp_path):
    corpus = copy_corpus(tmp_path)
    settings = make_settings(tmp_path, corpus)
    first = build(settings, progress=False)
    store, live = _live_dir(settings)
    segment = next((live / "shard" / "segments").iterdir())
    (segment / "segment.json").write_bytes(b"\x00not json")
    with TestClient(create_app(settings)) as client:
        ready = client.get("/readyz")
        assert ready.status_code == 503 and ready.headers["retry-after"]
        assert f"index release {first.release_id} cannot be opened" in ready.json()["error"]["message"]
        ask = client.post("/v1/ask", json={"question": "What is the KV cache?"})
        assert ask.status_code == 503 and ask.json()["error"]["code"] == "index_unavailable"
    # a rebuild starts from scratch (the broken release cannot be reused), promotes, and serves again
    page = corpus / "concepts" / "napkin-math-and-capacity" / "kv-cache-sizing.md"
    page.write_text(page.read_text() + "\nA rebuilt paragraph about the cache.\n")
    second = build(settings, progress=False)
    assert second.promoted and second.reembedded == second.chunks and store.live_release() == second.release_id
    with TestClient(create_app(settings)) as client:
        assert client.get("/readyz").json()["release"] == second.release_id


def test_a_corrupted_release_promoted_under_a_running_service_does_not_replace_the_served_one(tmp_path):
    corpus = copy_corpus(tmp_path)
    settings = make_settings(tmp_path, corpus, release_check_s=0.0)
    first = build(settings, progress=False)
    page = corpus / "concepts" / "napkin-math-and-capacity" / "kv-cache-sizing.md"
    page.write_text(page.read_text() + "\nOne more sentence.\n")
    second = build(settings, progress=False, promote=False)
    store = EdgeStore(settings.data_dir / "index")
    with TestClient(create_app(settings)) as client:
        assert client.get("/readyz").json()["release"] == first.release_id
        (store.releases_dir / second.release_id / "manifest.json").write_text("{ truncated")
        store.promote(second.release_id)  # the manifest exists, so promotion goes through
        ready = client.get("/readyz")
        assert ready.status_code == 200 and ready.json()["release"] == first.release_id
        assert client.post("/v1/ask", json={"question": "What is the KV cache?"}).status_code == 200


def test_disk_full_during_a_build_is_a_build_error_and_the_live_release_is_untouched(tmp_path, monkeypatch):
    corpus = copy_corpus(tmp_path)
    settings = make_settings(tmp_path, corpus)
    first = build(settings, progress=False)
    store, live = _live_dir(settings)
    manifest_before = (live / "manifest.json").read_text()
    page = corpus / "concepts" / "napkin-math-and-capacity" / "kv-cache-sizing.md"
    page.write_text(page.read_text() + "\nA change that forces a new release.\n")

    real_write = EdgeWriter.write

    def write_until_the_disk_is_full(self, points):
        real_write(self, points[: len(points) // 2])  # half a batch lands, then the disk is full
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(EdgeWriter, "write", write_until_the_disk_is_full)
    with pytest.raises(BuildError, match="No space left on device"):
        build(settings, progress=False)
    assert store.live_release() == first.release_id
    assert store.releases() == [first.release_id]  # the partial release was removed
    assert (live / "manifest.json").read_text() == manifest_before
    monkeypatch.undo()
    with TestClient(create_app(settings)) as client:
        body = client.post("/v1/ask", json={"question": "What goes into the formula for the cache size per token?",
                                            "article": "kv-cache"}).json()
        assert body["route"] == "retrieval"


def test_the_build_cli_reports_a_full_disk_clearly(tmp_path, monkeypatch, capsys):
    from ingest.__main__ import main

    corpus = copy_corpus(tmp_path)
    monkeypatch.setenv("CORPUS_DIR", str(corpus))
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("QDRANT_URL", raising=False)

    def full(self, points):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(EdgeWriter, "write", full)
    assert main(["build", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "No space left on device" in err and "the live index is unchanged" in err


def _counter(text: str, name: str, label: str) -> float:
    for line in text.splitlines():
        if line.startswith(name + "{") and label in line:
            return float(line.rsplit(" ", 1)[1])
    return 0.0


@pytest.mark.parametrize("kind", ["refusing", "silent"])
def test_an_llm_that_is_down_or_hangs_falls_back_to_the_extractive_answer_and_is_counted(built, kind):
    if kind == "refusing":
        server, port = None, refusing_port()
    else:
        server = SilentServer().__enter__()
        port = server.port
    settings = built.model_copy(update={"llm_base_url": f"http://127.0.0.1:{port}/v1", "llm_model": "m", "llm_timeout_s": 1.0})
    try:
        with TestClient(create_app(settings)) as client:
            before = client.get("/metrics").text
            started = time.monotonic()
            response = client.post("/v1/ask", json={"question": "What goes into the formula for the cache size per token?",
                                                    "article": "kv-cache"})
            assert time.monotonic() - started < DEADLINE_S
            assert response.status_code == 200
            body = response.json()
            assert body["route"] == "retrieval" and body["citations"]
            assert body["generator"].startswith("extractive (llm fallback: ")
            reason = body["generator"].removeprefix("extractive (llm fallback: ").removesuffix(")")
            after = client.get("/metrics").text
            label = f'reason="{reason}"'
            assert _counter(after, "llm_fallbacks_total", label) == _counter(before, "llm_fallbacks_total", label) + 1
            assert client.get("/readyz").status_code == 200  # the LLM is optional: readiness does not depend on it
    finally:
        if server is not None:
            server.__exit__(None, None, None)


def test_concurrent_requests_during_a_hang_are_not_queued_behind_each_other(tmp_path):
    """Eight readers at once while Qdrant hangs: each gets its 503 within the bound, not 8 × the timeout."""
    from concurrent.futures import ThreadPoolExecutor

    import httpx

    from conftest import LiveServer

    with SilentServer() as server:
        store = ServerStore(f"http://127.0.0.1:{server.port}", "chunks", timeout_s=1, attempts=2)
        with LiveServer(create_app(make_settings(tmp_path), store=store)) as live:
            def ask(_):
                started = time.monotonic()
                response = httpx.post(f"{live.url}/v1/ask", json={"question": "What is the KV cache?"}, timeout=60)
                return response.status_code, time.monotonic() - started

            with ThreadPoolExecutor(8) as pool:
                results = list(pool.map(ask, range(8)))
    assert all(status == 503 for status, _ in results), results
    assert max(seconds for _, seconds in results) < DEADLINE_S, results


def test_a_question_the_router_fails_on_is_answered_from_the_site_and_counted(http, monkeypatch):
    """A bug in the numeric reading (it raised on "thousand five hundred tokens" until word2number's error was
    caught) must cost the reader the calculation, not the answer: no 500, the site answers, the error is counted."""
    import service.answer.assistant as assistant

    def broken(*_args, **_kwargs):
        raise IndexError("list index out of range")

    def errors() -> float:
        line = next((l for l in http.get("/metrics").text.splitlines() if l.startswith("router_errors_total ")), "x 0")
        return float(line.split()[1])

    before = errors()
    monkeypatch.setattr(assistant, "route_numeric", broken)
    response = http.post("/v1/ask", json={"question": "What goes into the formula for the cache size per token?",
                                          "article": "kv-cache"})
    assert response.status_code == 200
    body = response.json()
    assert body["route"] == "retrieval" and body["citations"] and body["calculation"] is None
    assert errors() == before + 1
