"""The question log over real HTTP: what lands in it from the API, the widget and the Slack bot, what
never does, and that writing it never slows or fails an answer (a read-only, locked or full database,
a full queue), with no row lost by 100 parallel askers on SQLite and on a real PostgreSQL server."""
from __future__ import annotations

import datetime as dt
import json
import logging
import re
import sqlite3
import threading
import time
import uuid
from pathlib import Path

import httpx
import pytest
from sqlalchemy import Column, DateTime, Integer, MetaData, String, Table, Text, create_engine, event, insert, inspect, text

from conftest import LiveServer, free_port
from service.app import create_app
from service.db import ensure_schema, questions_table
from service.feedback import FeedbackStore, default_url
from service.questions import QuestionLog, classify, client_of

SESSION = "c0nversation-4f1d2e3a9b8c7d6e"
CHROMIUM = Path("/usr/bin/chromium")


def configured(built, tmp_path, **overrides):
    values = {**built.model_dump(), "feedback_url": default_url(tmp_path), "rate_limit_ip_per_minute": 0}
    return type(built)(**{**values, **overrides})


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path) -> str:
    """The default SQLite file, or a fresh database on the real PostgreSQL server the tests start."""
    if request.param == "sqlite":
        return default_url(tmp_path)
    server = request.getfixturevalue("postgres_url")
    database = f"questions_{uuid.uuid4().hex[:12]}"
    engine = create_engine(server, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {database}"))
    engine.dispose()
    return f"{server.rsplit('/', 1)[0]}/{database}"


@pytest.fixture(scope="module")
def served(built, tmp_path_factory):
    """One service for the tests that only read what they asked (each asks its own questions)."""
    app = create_app(configured(built, tmp_path_factory.mktemp("questions-log")))
    with LiveServer(app) as server:
        server.app = app
        yield server


def rows_for(app, answer_ids) -> dict[str, dict]:
    log = app.state.runtime.questions
    assert log.flush(30)
    return {r["answer_id"]: r for r in log.rows() if r["answer_id"] in set(answer_ids)}


def dropped(reason: str, url: str) -> float:
    body = httpx.get(f"{url}/metrics").text
    found = re.search(rf'^question_log_dropped_total{{reason="{reason}"}} ([0-9.e+]+)$', body, re.M)
    return float(found.group(1)) if found else 0.0


def sse_done(response: httpx.Response) -> dict:
    events = re.findall(r"event: (\w+)\r?\ndata: (.*)", response.text)
    return json.loads(next(data for name, data in events if name == "done"))


# ---- what lands in the log ---------------------------------------------------------------------


def test_api_and_widget_questions_land_in_the_log_with_their_client(served):
    with httpx.Client(base_url=served.url, timeout=30) as http:
        plain = http.post("/v1/ask", json={"question": "what does the per-token cache size multiply together?",
                                           "article": "kv-cache"}).json()
        widget = http.post("/v1/ask", json={"question": "Who won the football world cup in 1998?", "stream": True},
                           headers={"X-Client": "widget", "X-Session": SESSION, "Accept": "text/event-stream"})
        assert widget.status_code == 200 and widget.headers["content-type"].startswith("text/event-stream")
        streamed = sse_done(widget)
        posing = http.post("/v1/ask", json={"question": "How big is the KV cache per token for Llama 3.1 8B?"},
                           headers={"X-Client": "slack", "X-Session": "bad session id!"}).json()
        follow = http.post("/v1/ask", json={"question": "and why is it exact?", "article": "kv-cache",
                                            "history": [{"role": "user", "content": "What is the KV cache?"},
                                                        {"role": "assistant", "content": "A cache of keys and values."}]},
                           headers={"X-Client": "widget", "X-Session": SESSION}).json()
    rows = rows_for(served.app, [plain["answer_id"], streamed["answer_id"], posing["answer_id"], follow["answer_id"]])

    api = rows[plain["answer_id"]]
    assert (api["client"], api["article"], api["route"], api["scope"]) == ("api", "kv-cache", "retrieval", "article")
    assert api["question"] == "what does the per-token cache size multiply together?" and api["standalone"] is None
    assert api["cited"] == [f"{c['doc_id']}#{c['anchor']}" for c in plain["citations"]][:len(api["cited"])]
    assert api["cited"] and api["generator"] == "extractive" and api["answer"] == plain["answer"]
    assert api["support"] >= 0.57 and api["latency_ms"] > 0 and api["session"] is None
    assert api["release"] and api["created_at"].tzinfo is not None

    refused = rows[streamed["answer_id"]]  # SSE: logged when `done` carried the complete answer
    assert (refused["client"], refused["route"], refused["article"], refused["cited"]) == ("widget", "no_answer", None, [])
    assert refused["answer"] == streamed["answer"] and refused["support"] < 0.57
    assert re.fullmatch(r"[0-9a-f]{32}", refused["session"]) and SESSION not in json.dumps(refused, default=str)

    calculator = rows[posing["answer_id"]]  # an HTTP caller cannot pass itself off as the Slack bot
    assert (calculator["client"], calculator["route"], calculator["session"]) == ("api", "calculator", None)

    followed = rows[follow["answer_id"]]  # a follow-up: the question as typed, and the condensed one
    assert followed["question"] == "and why is it exact?" and followed["standalone"]
    assert followed["session"] == refused["session"]  # one conversation, one hash


def test_no_ip_address_api_key_or_raw_session_is_stored(served):
    with httpx.Client(base_url=served.url, timeout=30) as http:
        answer = http.post("/v1/ask", json={"question": "What did Mooncake achieve for Kimi?", "article": "mooncake"},
                           headers={"X-Client": "widget", "X-Session": SESSION, "X-Forwarded-For": "203.0.113.9"}).json()
    row = rows_for(served.app, [answer["answer_id"]])[answer["answer_id"]]
    stored = json.dumps(row, default=str)
    assert "127.0.0.1" not in stored and "203.0.113.9" not in stored and SESSION not in stored
    columns = {c["name"] for c in inspect(served.app.state.runtime.questions.engine).get_columns("questions")}
    assert not {"ip", "client_ip", "user", "user_id", "api_key"} & columns


def test_eval_runs_and_the_eval_client_do_not_log(served):
    runtime = served.app.state.runtime
    before = runtime.questions.count()
    direct = runtime.ready_assistant().ask("What is the KV cache?", article="kv-cache")  # what evals.runner calls
    assert direct.route == "retrieval"
    with httpx.Client(base_url=served.url, timeout=30) as http:
        assert http.post("/v1/ask", json={"question": "What is Mooncake?"}, headers={"X-Client": "eval"}).status_code == 200
    assert runtime.questions.flush(30) and runtime.questions.count() == before


def test_client_header_values():
    assert [client_of(v) for v in (None, "", "widget", "WIDGET", "slack", "api", "curl", "eval")] == \
        ["api", "api", "widget", "widget", "api", "api", "api", None]


def test_question_log_false_logs_nothing(built, tmp_path):
    app = create_app(configured(built, tmp_path, question_log=False))
    with LiveServer(app) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        assert http.post("/v1/ask", json={"question": "What is Mooncake?"}).status_code == 200
    assert QuestionLog(default_url(tmp_path), app.state.runtime.settings).count() == 0


# ---- the widget in a real browser, and the Slack bot --------------------------------------------


@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is not installed (.ci/run installs Debian's chromium)")
def test_the_widget_marks_its_questions_and_sends_one_session_per_conversation(built, tmp_path):
    from playwright.sync_api import sync_playwright

    port = free_port()  # the page is served from localhost, the API is 127.0.0.1: a cross-origin call, as on the site
    app = create_app(configured(built, tmp_path, cors_origins=[f"http://localhost:{port}"]))
    server = LiveServer(app)
    server.port = server.server.config.port = port
    sent: list[dict] = []
    with server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--headless=new", "--no-sandbox"])
        page = browser.new_page()
        page.on("request", lambda r: sent.append(r.headers) if r.url.endswith("/v1/ask") and r.method == "POST" else None)
        page.goto(f"http://localhost:{port}/demo/kv-cache")
        widget = page.locator("ask-article")
        widget.locator("input").wait_for()
        page.evaluate("api => document.querySelector('ask-article').setAttribute('api-base', api)", f"http://127.0.0.1:{port}")

        def ask(question: str, n: int) -> None:
            widget.locator("input").fill(question)
            widget.locator("input").press("Enter")
            widget.locator(".turn").nth(n).locator('.answer[aria-busy="false"]').wait_for(timeout=20_000)

        ask("What is the KV cache?", 0)
        ask("Why is it exact?", 1)
        widget.locator("button.reset").click()  # a new conversation: a new session id
        ask("How do I bake a lotus seed mooncake?", 0)
        page.reload()  # the same tab: the conversation's id survives in sessionStorage
        widget.locator("input").wait_for()
        page.evaluate("api => document.querySelector('ask-article').setAttribute('api-base', api)", f"http://127.0.0.1:{port}")
        ask("What is PagedAttention?", 0)
        browser.close()
        log = app.state.runtime.questions
        assert log.flush(30)
        rows = list(log.rows())
    assert [h.get("x-client") for h in sent] == ["widget"] * 4
    sessions = [h.get("x-session") for h in sent]
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{16,64}", s or "") for s in sessions)
    assert sessions[0] == sessions[1] != sessions[2] == sessions[3]
    assert [r["client"] for r in rows] == ["widget"] * 4
    assert rows[0]["session"] == rows[1]["session"] != rows[2]["session"] == rows[3]["session"]
    assert not any(s in json.dumps(rows, default=str) for s in sessions)


def test_slack_questions_land_in_the_log_as_slack_without_the_user(built, tmp_path):
    from fake_slack import FakeSlack
    from test_slack import BOT_TOKEN, SIGNING_SECRET, answer_in, mention, post_command, post_event

    fake = FakeSlack(BOT_TOKEN)
    with LiveServer(fake.app) as slack_api:
        fake.url = slack_api.url
        app = create_app(configured(built, tmp_path, slack_bot_token=BOT_TOKEN, slack_signing_secret=SIGNING_SECRET,
                                    slack_api_base_url=fake.url + "/api/"))
        with LiveServer(app) as server, httpx.Client(base_url=server.url, timeout=30) as slack:
            event = mention(fake, "C0QLOG001", "What did Mooncake achieve for Kimi?", user="U0SECRETUSER")
            assert post_event(slack, event).status_code == 200
            first = answer_in(fake, "C0QLOG001", event["ts"])
            follow = mention(fake, "C0QLOG001", "And how?", thread_ts=event["ts"], user="U0SECRETUSER")
            post_event(slack, follow)
            second = answer_in(fake, "C0QLOG001", event["ts"], count=2)
            assert post_command(slack, fake, "C0QLOG002", "kv-cache Who won the 1998 world cup?",
                                user="U0SECRETUSER").status_code == 200
            root = fake.wait_for("chat.postMessage", channel="C0QLOG002")[0]
            third = answer_in(fake, "C0QLOG002", fake.messages["C0QLOG002"][0]["ts"])
            assert root
            log = app.state.runtime.questions
            assert log.flush(30)
            rows = {r["answer_id"]: r for r in log.rows()}
    ids = [m["metadata"]["event_payload"]["answer_id"] for m in (first, second, third)]
    assert [rows[i]["client"] for i in ids] == ["slack"] * 3
    assert rows[ids[0]]["question"] == "What did Mooncake achieve for Kimi?"
    assert rows[ids[1]]["question"] == "And how?" and rows[ids[1]]["standalone"]  # the thread is the history
    assert rows[ids[0]]["session"] == rows[ids[1]]["session"] != rows[ids[2]]["session"]  # one thread, one hash
    assert (rows[ids[2]]["article"], rows[ids[2]]["route"]) == ("kv-cache", "no_answer")
    stored = json.dumps(list(rows.values()), default=str)
    assert "U0SECRETUSER" not in stored and "C0QLOG001" not in stored


# ---- retention, schema --------------------------------------------------------------------------


def old_row(days_ago: float, **values) -> dict:
    return {"answer_id": str(uuid.uuid4()), "created_at": dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=days_ago),
            "client": "api", "question": "an old question", "route": "no_answer", **values}


def test_retention_prunes_old_rows_at_start_up_and_on_demand(built, tmp_path):
    url = default_url(tmp_path)
    settings = configured(built, tmp_path, question_log_retention_days=90)
    log = QuestionLog(url, settings)
    rows = [old_row(200), old_row(91), old_row(89), old_row(1)]
    with log.engine.begin() as connection:
        connection.execute(insert(questions_table), rows)
    log.close()
    app = create_app(settings)
    with LiveServer(app) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        answer = http.post("/v1/ask", json={"question": "What is Mooncake?"}).json()
        runtime = app.state.runtime
        assert runtime.questions.flush(30)
        kept = {r["answer_id"] for r in runtime.questions.rows()}
    assert kept == {rows[2]["answer_id"], rows[3]["answer_id"], answer["answer_id"]}  # pruned when the writer started

    later = QuestionLog(url, configured(built, tmp_path, question_log_retention_days=30))
    assert later.prune() == 1 and later.count() == 2  # the 89-day-old row
    assert QuestionLog(url, configured(built, tmp_path, question_log_retention_days=0)).prune() == 0  # 0 = forever


def test_an_old_database_gains_the_log_and_new_columns_without_losing_data(tmp_path):
    """The migration rule: missing tables are created, missing columns added (nullable), nothing rewritten."""
    url = default_url(tmp_path)
    engine = create_engine(url)
    old = MetaData()  # the feedback table as it was before the question log, and an early questions table
    Table("feedback", old, Column("id", Integer, primary_key=True), Column("answer_id", String(64), nullable=False),
          Column("rating", String(4), nullable=False), Column("comment", Text), Column("client", String(32), nullable=False),
          Column("created_at", DateTime(timezone=True), nullable=False))
    early = Table("questions", old, Column("id", Integer, primary_key=True),
                  Column("answer_id", String(64), nullable=False, unique=True),
                  Column("created_at", DateTime(timezone=True), nullable=False),
                  Column("client", String(16), nullable=False), Column("question", Text, nullable=False),
                  Column("route", String(16), nullable=False))
    old.create_all(engine)
    with engine.begin() as connection:
        connection.execute(text("INSERT INTO feedback (answer_id, rating, client, created_at) "
                                "VALUES ('a1', 'down', 'widget', '2026-11-01 10:00:00.000000')"))
        connection.execute(insert(early), [old_row(3, answer_id="a1", question="kept as it was")])
    added = ensure_schema(engine)
    engine.dispose()
    assert sorted(added) == sorted(f"questions.{c.name}" for c in questions_table.columns
                                   if c.name not in early.columns)
    store = FeedbackStore(url)
    assert ensure_schema(store.engine) == []  # run again (every start does): nothing left to add
    columns = {c["name"] for c in inspect(store.engine).get_columns("questions")}
    assert columns == {c.name for c in questions_table.columns}
    [row] = QuestionLog(url, _Settings()).rows()
    assert (row["question"], row["support"], row["cited"], row["article"]) == ("kept as it was", None, [], None)
    [rating] = store.rows(joined=True)
    assert (rating["rating"], rating["question"], rating["route"]) == ("down", "kept as it was", "no_answer")


class _Settings:
    question_log = True
    question_log_retention_days = 90
    question_log_salt = None
    question_log_queue = 100
    question_log_flush_s = 0.2
    question_log_lock_timeout_s = 1.0


# ---- never slower, never failed: the database misbehaves -----------------------------------------


def make_schema(url: str) -> None:
    FeedbackStore(url).engine.dispose()


QUESTIONS = [("What is the KV cache?", "kv-cache"), ("What did Mooncake achieve for Kimi?", "mooncake"),
             ("Who won the football world cup in 1998?", None), ("How big is the KV cache per token for Llama 3.1 8B?", None),
             ("Why is decode limited by memory bandwidth on an H100?", "kv-cache"), ("What is PagedAttention?", None)]


def ask_all(url: str, n: int, **headers) -> list[httpx.Response]:
    with httpx.Client(base_url=url, timeout=30) as http:
        return [http.post("/v1/ask", json={"question": q, "article": a}, headers=headers)
                for q, a in (QUESTIONS[i % len(QUESTIONS)] for i in range(n))]


def wait_for(condition, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_a_read_only_database_costs_log_rows_never_an_answer(built, tmp_path, caplog):
    path = tmp_path / "feedback.sqlite3"
    make_schema(default_url(tmp_path))
    read_only = f"sqlite:///file:{path}?mode=ro&uri=true"
    app = create_app(configured(built, tmp_path, feedback_url=read_only))
    caplog.set_level(logging.WARNING, logger="service.questions")
    with LiveServer(app) as server:
        before = dropped("read_only", server.url)
        responses = ask_all(server.url, 4)
        assert [r.status_code for r in responses] == [200] * 4 and all(r.json()["answer"] for r in responses)
        assert app.state.runtime.questions.flush(30)
        assert wait_for(lambda: dropped("read_only", server.url) - before == 4)
    assert any("dropped (read_only)" in r.getMessage() for r in caplog.records)
    assert QuestionLog(default_url(tmp_path), app.state.runtime.settings).count() == 0


def test_a_locked_database_costs_log_rows_never_an_answer(built, tmp_path):
    url = default_url(tmp_path)
    make_schema(url)
    app = create_app(configured(built, tmp_path, question_log_lock_timeout_s=0.3))
    holder = sqlite3.connect(tmp_path / "feedback.sqlite3", isolation_level=None, check_same_thread=False)
    with LiveServer(app) as server:
        before = dropped("locked", server.url)
        ask_all(server.url, 1)  # the writer is connected and warm
        assert app.state.runtime.questions.flush(30)
        holder.execute("BEGIN EXCLUSIVE")  # another process holds the write lock
        try:
            started = time.perf_counter()
            responses = ask_all(server.url, 3)
            elapsed = time.perf_counter() - started
            assert [r.status_code for r in responses] == [200] * 3
            assert elapsed < 3 * 0.3 + 2.0, elapsed  # nobody waited for the lock (the writer did, in the background)
            assert app.state.runtime.questions.flush(30)
            assert wait_for(lambda: dropped("locked", server.url) - before >= 1)
        finally:
            holder.execute("ROLLBACK")
        after = ask_all(server.url, 1)[0].json()
        assert app.state.runtime.questions.flush(30)
        logged = {r["answer_id"] for r in app.state.runtime.questions.rows()}
    holder.close()
    assert after["answer_id"] in logged  # the lock gone, rows are written again
    assert not {r.json()["answer_id"] for r in responses} & logged


def test_a_full_disk_costs_log_rows_never_an_answer(built, tmp_path):
    url = default_url(tmp_path)
    make_schema(url)
    app = create_app(configured(built, tmp_path))
    with LiveServer(app) as server:
        before = dropped("disk_full", server.url)
        log = app.state.runtime.questions

        def no_room(connection, _record):  # the file may not grow by one page more: SQLite's own SQLITE_FULL
            pages = connection.execute("PRAGMA page_count").fetchone()[0]
            connection.execute(f"PRAGMA max_page_count={pages}")

        event.listen(log.engine, "connect", no_room)
        log.engine.dispose()  # new connections get the limit
        responses = ask_all(server.url, 40)  # more rows than the free space left in the file's pages
        assert [r.status_code for r in responses] == [200] * 40
        assert log.flush(30)
        assert wait_for(lambda: dropped("disk_full", server.url) - before >= 1)


def test_a_full_queue_drops_and_counts_instead_of_waiting(built, tmp_path):
    url = default_url(tmp_path)
    make_schema(url)
    app = create_app(configured(built, tmp_path, question_log_queue=1, question_log_lock_timeout_s=3.0))
    holder = sqlite3.connect(tmp_path / "feedback.sqlite3", isolation_level=None, check_same_thread=False)
    with LiveServer(app) as server:
        before = dropped("queue_full", server.url)
        holder.execute("BEGIN EXCLUSIVE")  # the writer blocks on its first row; the queue holds one more
        try:
            started = time.perf_counter()
            responses = ask_all(server.url, 6)
            assert time.perf_counter() - started < 3.0 and [r.status_code for r in responses] == [200] * 6
            assert dropped("queue_full", server.url) - before >= 3
        finally:
            holder.execute("ROLLBACK")
        holder.close()


def test_write_errors_are_classified():
    cases = {"(sqlite3.OperationalError) attempt to write a readonly database": "read_only",
             "(sqlite3.OperationalError) database is locked": "locked",
             "(sqlite3.OperationalError) database or disk is full": "disk_full",
             "(psycopg.errors.LockNotAvailable) canceling statement due to lock timeout": "locked",
             "(psycopg.errors.ReadOnlySqlTransaction) cannot execute INSERT in a read-only transaction": "read_only",
             "(psycopg.errors.DiskFull) could not extend file: No space left on device": "disk_full",
             "(psycopg.OperationalError) connection to server at 127.0.0.1 failed: Connection refused": "unavailable",
             "(sqlite3.OperationalError) unable to open database file": "unavailable",
             "something else": "error"}
    assert {message: classify(Exception(message)) for message in cases} == cases


# ---- 100 parallel askers ------------------------------------------------------------------------


def test_a_hundred_parallel_askers_lose_no_log_rows(built, tmp_path, database_url):
    app = create_app(configured(built, tmp_path, feedback_url=database_url))
    start = threading.Barrier(100)
    answers: list[str] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def asker(i: int, url: str) -> None:
        question, article = QUESTIONS[i % len(QUESTIONS)]
        headers = {"X-Client": "widget", "X-Session": f"session-{i:04d}-abcdef"} if i % 2 else {}
        try:
            with httpx.Client(base_url=url, timeout=120) as http:
                start.wait()
                response = http.post("/v1/ask", json={"question": f"{question} ({i})", "article": article}, headers=headers)
                response.raise_for_status()
                with lock:
                    answers.append(response.json()["answer_id"])
        except BaseException as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    with LiveServer(app) as server:
        threads = [threading.Thread(target=asker, args=(i, server.url)) for i in range(100)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
    # the server has shut down: whatever was still queued was written then
    assert not errors, errors[:3]
    rows = list(QuestionLog(database_url, app.state.runtime.settings).rows())
    assert len(rows) == 100 and {r["answer_id"] for r in rows} == set(answers)
    assert sum(r["client"] == "widget" for r in rows) == 50 and len({r["session"] for r in rows if r["session"]}) == 50


def test_the_writer_batches_skips_a_duplicate_answer_id_and_flushes_at_close(tmp_path):
    from types import SimpleNamespace

    log = QuestionLog(default_url(tmp_path), _Settings())
    before = _counter("question_log_dropped_total", 'reason="error"')
    prepared = SimpleNamespace(question="What is it?", support=0.61)
    answer = {"answer_id": "dup-1", "route": "retrieval", "scope": "article", "answer": "It is.", "generator": "extractive",
              "citations": [{"doc_id": "kv-cache", "anchor": "a"}, {"doc_id": "kv-cache", "anchor": "a"}]}
    for response in (answer, answer, {**answer, "answer_id": "other-2"}):
        log.record_answer(client="api", article="kv-cache", question="What is it?", prepared=prepared,
                          response=response, latency_ms=12.5)
    log.start()
    log.close()  # what was queued is written before the writer stops
    rows = list(QuestionLog(default_url(tmp_path), _Settings()).rows())
    assert [r["answer_id"] for r in rows] == ["dup-1", "other-2"]
    assert rows[0]["cited"] == ["kv-cache#a"] and rows[0]["support"] == 0.61 and rows[0]["standalone"] is None
    assert _counter("question_log_dropped_total", 'reason="error"') - before == 1


def test_answers_arriving_together_are_one_transaction_and_flush_does_not_wait_the_interval(tmp_path):
    """A busy service writes its log once per QUESTION_LOG_FLUSH_S, not once per answer (a write per answer
    took the GIL from the next request); flush() and close() still write at once."""
    from types import SimpleNamespace

    settings = _Settings()
    settings.question_log_flush_s = 30.0  # longer than the test: only a flush can get the rows written in time
    log = QuestionLog(default_url(tmp_path), settings)
    inserts = []
    event.listen(log.engine, "before_cursor_execute",
                 lambda conn, cursor, statement, *rest: inserts.append(1) if statement.startswith("INSERT") else None)
    log.start()
    prepared = SimpleNamespace(question="q", support=None)
    for i in range(25):
        log.record_answer(client="api", article=None, question=f"q{i}", prepared=prepared, latency_ms=1.0,
                          response={"answer_id": f"burst-{i}", "route": "no_answer", "answer": "-", "citations": []})
        time.sleep(0.005)  # spread over >0.1 s: a writer without the interval would commit many times
    started = time.perf_counter()
    assert log.flush(10)
    assert time.perf_counter() - started < 5
    assert log.count() == 25
    assert len(inserts) == 1
    log.close()


def _counter(name: str, labels: str) -> float:
    from prometheus_client import REGISTRY, generate_latest

    found = re.search(rf"^{name}{{{labels}}} ([0-9.e+]+)$", generate_latest(REGISTRY).decode(), re.M)
    return float(found.group(1)) if found else 0.0
