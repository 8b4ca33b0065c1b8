"""The question log: one row per answer served to a reader, in the feedback store's database.

What a row holds (the table is `questions` in service/db.py): the answer id, when, the client (`widget`,
`slack` or `api`), the article the reader was on, the question as typed (and the condensed one of a
follow-up), the route, the scope, the best support retrieval found, the generator, the cited sections,
the answer text, the latency and the index release. What it never holds: an IP address, a Slack user
id, an API key. A widget conversation's `X-Session` id (random, per conversation, from sessionStorage)
and a Slack thread are stored only as a salted HMAC, so questions of one conversation can be counted
together but not traced back to anyone.

Rows are written from the API and Slack layers (`POST /v1/ask`, JSON and SSE, and the Slack bot), never
from `service/answer/`, so eval runs (which call the assistant directly) do not log. `record` only puts
the row on a bounded queue; one background thread lets rows gather for `QUESTION_LOG_FLUSH_S` (1 s) after
the first and writes them in one transaction, so a busy service writes once a second instead of once per
answer (a per-answer write took the GIL from the next request: +2 ms at p95 on the calculator route). A full
queue, a locked, read-only or full database, or one that cannot be reached costs the rows of that batch —
counted in `question_log_dropped_total{reason}` and logged as a warning, at most once a minute per reason
— and never a slower or failed answer. `close()` (the app's shutdown) writes what is still queued.
Rows older than `QUESTION_LOG_RETENTION_DAYS` are deleted when the writer starts, then hourly.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import logging
import queue
import re
import secrets
import threading
import time
from typing import Any, Iterator

from sqlalchemy import delete, func, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from .db import connect, ensure_schema, questions_table
from .http import metrics

log = logging.getLogger("service.questions")

CLIENTS = ("widget", "slack", "api")
NOT_LOGGED = frozenset({"eval"})  # `X-Client: eval`: an eval run against a deployed service (not a reader)
CLIENT_HEADER, SESSION_HEADER = "x-client", "x-session"
_SANE_SESSION = re.compile(r"^[A-Za-z0-9_-]{8,128}$")
QUESTION_MAX_CHARS, ANSWER_MAX_CHARS = 4000, 20_000
BATCH = 500  # rows per transaction at most
PRUNE_EVERY_S = 3600.0
WARN_EVERY_S = 60.0
_STOP = object()


def client_of(header: str | None) -> str | None:
    """The client an `X-Client` header names: `widget`; None for a client that is not logged (`eval`);
    `api` for anything else (a caller cannot pass itself off as the Slack bot)."""
    value = (header or "").strip().lower()
    if value in NOT_LOGGED:
        return None
    return "widget" if value == "widget" else "api"


def utc(value: dt.datetime | None) -> dt.datetime | None:
    """Aware UTC (a naive value is taken as UTC): the database compares stored UTC times as text."""
    if value is None:
        return None
    return value.replace(tzinfo=dt.timezone.utc) if value.tzinfo is None else value.astimezone(dt.timezone.utc)


def classify(exc: BaseException) -> str:
    """The `reason` label of a failed write, from the database's own message (SQLite and PostgreSQL)."""
    text = str(exc).lower()
    if "read-only" in text or "readonly" in text or "read only" in text:
        return "read_only"
    # SQLite says "database or disk is full" (or, when its WAL cannot grow, "disk I/O error"); PostgreSQL
    # "could not extend file …: No space left on device"
    if "disk is full" in text or "disk full" in text or "no space" in text or "disk i/o" in text:
        return "disk_full"
    if "locked" in text or "lock timeout" in text or "busy" in text or "could not obtain lock" in text:
        return "locked"
    if ("unable to open" in text or "could not connect" in text or "connection" in text
            or "does not exist" in text or "no such table" in text):
        return "unavailable"
    return "error"


class QuestionLog:
    """The `questions` table behind its own small engine (one writer thread), and its background writer."""

    def __init__(self, url: str, settings):
        self.url = url
        self.enabled = bool(settings.question_log)
        self.retention_days = int(settings.question_log_retention_days)
        self.lock_timeout_s = float(settings.question_log_lock_timeout_s)
        self.flush_s = float(settings.question_log_flush_s)
        salt = settings.question_log_salt.get_secret_value() if settings.question_log_salt else ""
        self._salt = salt.encode() if salt else secrets.token_bytes(32)
        self._queue: queue.Queue = queue.Queue(maxsize=settings.question_log_queue)
        self._engine: Engine | None = None
        self._engine_lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._hurry = threading.Event()  # set by flush() and close(): write what is queued now
        self._warned: dict[str, float] = {}
        self._unreported: dict[str, int] = {}
        self._unreported_error: str | None = None
        self._warn_lock = threading.Lock()

    # ---- the request side: never blocks, never raises -------------------------------------------

    def session_hash(self, value: str | None) -> str | None:
        """A salted HMAC of a sane session id (None for a missing or malformed one)."""
        if not value or not _SANE_SESSION.match(value):
            return None
        return hmac.new(self._salt, value.encode(), hashlib.sha256).hexdigest()[:32]

    def record_answer(self, *, client: str | None, article: str | None, question: str, prepared, response,
                      latency_ms: float, session: str | None = None, release: str | None = None) -> None:
        """Queue the row of one answer: `prepared` is the assistant's `Prepared`, `response` its
        `AskResponse` (or the `done` event's dict). `session` is the raw id; it is hashed here."""
        if not self.enabled or client is None:
            return
        try:
            get = response.get if isinstance(response, dict) else (lambda key: getattr(response, key, None))
            cited: list[str] = []
            for citation in get("citations") or []:
                doc, anchor = ((citation.get("doc_id"), citation.get("anchor")) if isinstance(citation, dict)
                               else (citation.doc_id, citation.anchor))
                section = f"{doc}#{anchor}"
                if section not in cited:
                    cited.append(section)
            standalone = getattr(prepared, "question", None)
            support = getattr(prepared, "support", None)
            row = {
                "answer_id": str(get("answer_id")), "created_at": dt.datetime.now(dt.timezone.utc),
                "client": client, "session": self.session_hash(session), "article": article,
                "question": question[:QUESTION_MAX_CHARS],
                "standalone": standalone[:QUESTION_MAX_CHARS] if standalone and standalone != question else None,
                "route": str(get("route")), "scope": get("scope"),
                "support": round(float(support), 4) if support is not None else None,
                "generator": str(get("generator") or "")[:100] or None, "cited": json.dumps(cited),
                "answer": str(get("answer") or "")[:ANSWER_MAX_CHARS], "latency_ms": round(float(latency_ms), 2),
                "release": str(release)[:64] if release else None,
            }
        except Exception:  # noqa: BLE001 - a log row is never worth a failed answer
            log.warning("question log: could not build a row", exc_info=True)
            self._dropped("error", 1)
            return
        try:
            self._queue.put_nowait(row)
        except queue.Full:
            self._dropped("queue_full", 1)

    # ---- the writer ------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the background writer (the app's start-up); prunes old rows first, off the request path."""
        if not self.enabled or (self._thread is not None and self._thread.is_alive()):
            return
        self._thread = threading.Thread(target=self._run, name="question-log-writer", daemon=True)
        self._thread.start()

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every queued row has been written (or dropped); False if `timeout` passed first."""
        deadline = time.monotonic() + timeout
        self._hurry.set()
        with self._queue.all_tasks_done:
            while self._queue.unfinished_tasks:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._queue.all_tasks_done.wait(remaining)
        return True

    def close(self, timeout: float = 10.0) -> None:
        """Write what is queued, stop the writer, release the database (the app's shutdown)."""
        thread, self._thread = self._thread, None
        if thread is not None and thread.is_alive():
            self._hurry.set()
            try:
                self._queue.put(_STOP, timeout=timeout)
            except queue.Full:
                pass
            thread.join(timeout)
            if thread.is_alive():
                log.warning("question log: %d row(s) still queued at shutdown", self._queue.qsize())
        self._report_drops(force=True)
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None

    def _run(self) -> None:
        self._prune_quietly()
        next_prune = time.monotonic() + PRUNE_EVERY_S
        while True:
            if time.monotonic() >= next_prune:  # hourly, busy or idle
                self._prune_quietly()
                next_prune = time.monotonic() + PRUNE_EVERY_S
            try:
                first = self._queue.get(timeout=1.0)
            except queue.Empty:
                self._report_drops()
                continue
            if first is not _STOP and self._hurry.wait(self.flush_s):
                self._hurry.clear()  # flush() or close() asked: write now (a flush that comes later sets it again)
            batch = [first]
            while len(batch) < BATCH and batch[-1] is not _STOP:
                try:
                    batch.append(self._queue.get_nowait())  # whatever arrived while the batch gathered
                except queue.Empty:
                    break
            rows = [row for row in batch if row is not _STOP]
            try:
                if rows:
                    self._write(rows)
            except Exception:  # noqa: BLE001 - the writer must outlive anything a batch does
                log.exception("question log: a batch failed unexpectedly")
            finally:
                for _ in batch:
                    self._queue.task_done()
            if batch[-1] is _STOP:
                return

    def _write(self, rows: list[dict]) -> None:
        try:
            with self.engine.begin() as connection:
                connection.execute(insert(questions_table), rows)
            metrics.QUESTION_LOG_WRITTEN.inc(len(rows))
        except IntegrityError:  # an answer id already logged: write the others one by one
            for row in rows:
                try:
                    with self.engine.begin() as connection:
                        connection.execute(insert(questions_table), [row])
                    metrics.QUESTION_LOG_WRITTEN.inc()
                except IntegrityError:
                    self._dropped("error", 1, "answer id logged already")
                except Exception as exc:  # noqa: BLE001
                    self._dropped(classify(exc), 1, exc)
        except Exception as exc:  # noqa: BLE001 - locked, read-only, full, unreachable: counted, never raised
            self._dropped(classify(exc), len(rows), exc)
            if classify(exc) == "unavailable":
                self._reset_engine()

    # ---- drops: counted at once, warned about at most once a minute per reason ---------------------

    def _dropped(self, reason: str, count: int, error: object = None) -> None:
        metrics.QUESTION_LOG_DROPPED.labels(reason=reason).inc(count)
        with self._warn_lock:
            self._unreported[reason] = self._unreported.get(reason, 0) + count
            if error is not None:
                self._unreported_error = str(error).splitlines()[0][:300]
        self._report_drops()

    def _report_drops(self, force: bool = False) -> None:
        now = time.monotonic()
        with self._warn_lock:
            due = {r: n for r, n in self._unreported.items()
                   if n and (force or now - self._warned.get(r, -WARN_EVERY_S) >= WARN_EVERY_S)}
            for reason in due:
                self._warned[reason] = now
                self._unreported[reason] = 0
            error = self._unreported_error
        for reason, count in due.items():
            log.warning("question log: %d row(s) dropped (%s)%s; answers are not affected", count, reason,
                        f": {error}" if error and reason != "queue_full" else "",
                        extra={"reason": reason, "dropped": count})

    # ---- the database ------------------------------------------------------------------------------

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            with self._engine_lock:
                if self._engine is None:
                    engine = connect(self.url, busy_timeout_s=self.lock_timeout_s, pool_size=2, max_overflow=2)
                    try:
                        ensure_schema(engine)
                    except Exception:
                        engine.dispose()
                        raise
                    self._engine = engine
        return self._engine

    def _reset_engine(self) -> None:
        with self._engine_lock:
            engine, self._engine = self._engine, None
        if engine is not None:
            engine.dispose()

    def prune(self, now: dt.datetime | None = None) -> int:
        """Delete the rows older than the retention; returns how many (0 when retention is 0 = forever)."""
        if self.retention_days <= 0:
            return 0
        cutoff = (utc(now) or dt.datetime.now(dt.timezone.utc)) - dt.timedelta(days=self.retention_days)
        with self.engine.begin() as connection:
            deleted = connection.execute(delete(questions_table).where(questions_table.c.created_at < cutoff)).rowcount
        if deleted:
            log.info("question log: %d row(s) older than %d days deleted", deleted, self.retention_days)
        return int(deleted or 0)

    def _prune_quietly(self) -> None:
        try:
            self.prune()
        except Exception as exc:  # noqa: BLE001 - pruning is housekeeping: the next run tries again
            log.warning("question log: pruning failed: %s", str(exc).splitlines()[0][:300])

    # ---- reading (the insights report, tests) ------------------------------------------------------

    def rows(self, since: dt.datetime | None = None, until: dt.datetime | None = None,
             columns: tuple[str, ...] | None = None, where=None) -> Iterator[dict]:
        """Logged rows with `since <= created_at < until`, oldest first (`cited` as a list)."""
        table = questions_table.c
        chosen = [table[c] for c in columns] if columns else [questions_table]
        query = select(*chosen).order_by(table.created_at, table.id)
        if since is not None:
            query = query.where(table.created_at >= utc(since))
        if until is not None:
            query = query.where(table.created_at < utc(until))
        if where is not None:
            query = query.where(where)
        with self.engine.connect() as connection:
            for row in connection.execute(query):
                out: dict[str, Any] = dict(row._mapping)
                if "created_at" in out:
                    out["created_at"] = utc(out["created_at"])
                if "cited" in out:
                    out["cited"] = json.loads(out["cited"]) if out["cited"] else []
                yield out

    def count(self) -> int:
        with self.engine.connect() as connection:
            return int(connection.execute(select(func.count()).select_from(questions_table)).scalar() or 0)
