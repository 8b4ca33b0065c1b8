"""Shared fixtures: a real index built from the fixture corpus, and the service over real HTTP."""
from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient

from ingest.build import build
from service.app import create_app
from service.settings import Settings

FIXTURE_CORPUS = Path(__file__).parent / "fixtures" / "corpus"


def make_settings(tmp: Path, corpus: Path = FIXTURE_CORPUS, **overrides) -> Settings:
    return Settings(corpus_dir=corpus, data_dir=tmp / "data", qdrant_url=None, **overrides)


def copy_corpus(tmp: Path) -> Path:
    target = tmp / "corpus"
    shutil.copytree(FIXTURE_CORPUS, target)
    return target


@pytest.fixture(scope="session", autouse=True)
def model_cache(tmp_path_factory):
    """One ONNX export of the embedding model for the whole run, not one per test's data directory."""
    cache = tmp_path_factory.mktemp("models")
    with pytest.MonkeyPatch.context() as patch:  # session-wide, and undone at the end
        patch.setenv("MODEL_CACHE_DIR", str(cache))
        yield cache


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """A real PostgreSQL server for the session (tests/pg_server.py); skipped where none is installed,
    except under .ci/run, which installs one and makes its absence a failure."""
    from pg_server import REQUIRED_ENV, PostgresServer, binaries

    if binaries() is None and not os.environ.get(REQUIRED_ENV):
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    server = PostgresServer(free_port()).start()
    yield server.url
    server.stop()


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Settings:
    """A session-wide index built once from the fixture corpus (read-only for tests)."""
    settings = make_settings(tmp_path_factory.mktemp("index"))
    build(settings, progress=False)
    return settings


@pytest.fixture(scope="session")
def client(built) -> TestClient:
    with TestClient(create_app(built)) as test_client:
        yield test_client


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LiveServer:
    """uvicorn serving the app on an ephemeral port in a thread: requests cross a real socket."""

    def __init__(self, app):
        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> "LiveServer":
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="session")
def live_server(built):
    with LiveServer(create_app(built)) as server:
        yield server


@pytest.fixture
def http(live_server):
    with httpx.Client(base_url=live_server.url, timeout=30) as http_client:
        yield http_client
