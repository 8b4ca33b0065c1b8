"""Feedback: the API, the Python entry point the Slack bot uses, concurrent writers, and the export."""
from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from service.app import create_app
from service.feedback import FeedbackStore, default_url

ROOT = Path(__file__).parent.parent
ADMIN_KEY = "adm-feedback-0a1b2c"


@pytest.fixture(params=["sqlite", "postgresql"])
def feedback_url(request, tmp_path) -> str:
    """The default SQLite file, or a fresh database on a real PostgreSQL server (the production option)."""
    if request.param == "sqlite":
        return default_url(tmp_path)
    server = request.getfixturevalue("postgres_url")
    database = f"feedback_{uuid.uuid4().hex[:12]}"
    engine = create_engine(server, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {database}"))
    engine.dispose()
    return f"{server.rsplit('/', 1)[0]}/{database}"


def test_a_reader_rates_an_answer_through_the_api(built, feedback_url):
    settings = type(built)(**{**built.model_dump(), "feedback_url": feedback_url, "admin_key": ADMIN_KEY})
    with TestClient(create_app(settings)) as client:
        answer = client.post("/v1/ask", json={"question": "What is the KV cache?", "article": "kv-cache"}).json()
        response = client.post("/v1/feedback", json={"answer_id": answer["answer_id"], "rating": "up",
                                                     "comment": "clear, thanks", "source": "widget"})
        assert response.status_code == 201, response.text
        assert response.json()["answer_id"] == answer["answer_id"] and response.json()["id"] >= 1
        client.post("/v1/feedback", json={"answer_id": answer["answer_id"], "rating": "down"})
        for bad, field in [({"answer_id": answer["answer_id"], "rating": "meh"}, "rating"),
                           ({"answer_id": "not-an-id", "rating": "up"}, "answer_id"),
                           ({"answer_id": answer["answer_id"], "rating": "up", "comment": "x" * 2001}, "comment"),
                           ({"answer_id": answer["answer_id"], "rating": "up", "source": "Bad Source!"}, "source")]:
            refused = client.post("/v1/feedback", json=bad)
            assert refused.status_code == 422 and refused.json()["error"]["message"].startswith(field)

        exported = client.get("/v1/admin/feedback/export", headers={"X-Admin-Key": ADMIN_KEY})
        assert exported.status_code == 200 and exported.headers["content-type"].startswith("application/x-ndjson")
        rows = [json.loads(line) for line in exported.text.splitlines()]
        assert [(r["rating"], r["comment"], r["client"]) for r in rows] == [("up", "clear, thanks", "widget"), ("down", None, "api")]
        as_csv = client.get("/v1/admin/feedback/export?format=csv", headers={"X-Admin-Key": ADMIN_KEY})
        assert list(csv.DictReader(io.StringIO(as_csv.text)))[0]["comment"] == "clear, thanks"
        assert client.app.state.runtime.feedback.count() == 2


def test_the_slack_bot_records_feedback_with_a_python_call(tmp_path):
    store = FeedbackStore(default_url(tmp_path))
    row = store.add(str(uuid.uuid4()), "down", "wrong GPU", source="slack")
    assert row["id"] == 1 and row["client"] == "slack"
    with pytest.raises(ValueError):
        store.add(str(uuid.uuid4()), "sideways")
    assert [r["client"] for r in store.rows()] == ["slack"]


def test_sqlite_runs_in_wal_mode(tmp_path):
    store = FeedbackStore(default_url(tmp_path))
    store.add(str(uuid.uuid4()), "up")
    with store.engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"


def test_a_hundred_parallel_writers_lose_nothing(feedback_url):
    """100 writers at once, each with its own engine (as separate api workers would be), 5 ratings each."""
    url = feedback_url
    FeedbackStore(url).count()  # create the schema once, as the first request would
    start = threading.Barrier(100)
    errors: list[BaseException] = []
    answer_ids = [str(uuid.uuid4()) for _ in range(100)]

    def writer(answer_id: str):
        store = FeedbackStore(url)
        try:
            start.wait()
            for i in range(5):
                store.add(answer_id, "up" if i % 2 else "down", f"comment {i}", source="loadtest")
        except BaseException as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)
        finally:
            store.close()

    threads = [threading.Thread(target=writer, args=(a,)) for a in answer_ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors[:3]
    rows = list(FeedbackStore(url).rows())
    assert len(rows) == 500 and len({r["id"] for r in rows}) == 500
    assert {r["answer_id"] for r in rows} == set(answer_ids)


def test_export_command_writes_jsonl_and_csv(tmp_path, feedback_url):
    store = FeedbackStore(feedback_url)
    ids = [str(uuid.uuid4()) for _ in range(3)]
    for answer_id in ids:
        store.add(answer_id, "up", "=HYPERLINK(\"http://x\")")
    env = {**os.environ, "DATA_DIR": str(tmp_path)}
    env.pop("FEEDBACK_URL", None)  # SQLite: the default file under DATA_DIR
    if not feedback_url.startswith("sqlite"):
        env["FEEDBACK_URL"] = feedback_url
    out = subprocess.run([sys.executable, "-m", "service.feedback", "export"], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)
    assert [json.loads(line)["answer_id"] for line in out.stdout.splitlines()] == ids
    target = tmp_path / "feedback.csv"
    subprocess.run([sys.executable, "-m", "service.feedback", "export", "--format", "csv", "--output", str(target)],
                   cwd=ROOT, env=env, check=True)
    rows = list(csv.DictReader(target.open()))
    assert [r["answer_id"] for r in rows] == ids
    assert rows[0]["comment"].startswith("'=")  # a spreadsheet shows the comment instead of running it
    future = subprocess.run([sys.executable, "-m", "service.feedback", "export", "--since", "2999-01-01"],
                            cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert future.stdout == ""
