"""Reader feedback on answers: thumbs up/down and an optional comment, kept in a SQL database (the
same one as the question log, service/questions.py; the schema of both is service/db.py).

SQLite in WAL mode by default (`DATA_DIR/feedback.sqlite3`): many concurrent writers, readers never
blocked; any SQLAlchemy URL in production (`FEEDBACK_URL=postgresql+psycopg://…`, with the `postgres`
extra installed). The widget and API clients post to `POST /v1/feedback` (service/api/feedback.py); the
Slack bot calls `FeedbackStore.add(…, source="slack")` directly.

    python -m service.feedback export [--format jsonl|csv] [--since 2026-11-01] [--output FILE]
"""
from __future__ import annotations

import argparse
import csv
import datetime as dt
import io
import json
import sys
import threading
from pathlib import Path
from typing import Iterator, Literal

from sqlalchemy import insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_exponential_jitter

from .db import connect, default_url, ensure_schema, feedback_table, metadata, questions_table, url_for

RATINGS = ("up", "down")
COMMENT_MAX_CHARS = 2000
COLUMNS = ("id", "answer_id", "rating", "comment", "client", "created_at")
# What the question log knows about the rated answer (empty when it does not hold that answer_id).
JOINED = ("question", "article", "route", "answer", "cited")

__all__ = ["COLUMNS", "COMMENT_MAX_CHARS", "FeedbackStore", "JOINED", "RATINGS", "default_url", "feedback_table",
           "metadata", "url_for"]


class FeedbackStore:
    """The feedback table behind one SQLAlchemy engine; the schema is created on first use."""

    def __init__(self, url: str):
        self.url = url
        self._engine: Engine | None = None
        self._lock = threading.Lock()

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            with self._lock:
                if self._engine is None:
                    self._engine = self._connect()
        return self._engine

    def _connect(self) -> Engine:
        engine = connect(self.url)
        ensure_schema(engine)  # both tables of the database (service/db.py): created if missing, never rewritten
        return engine

    @retry(retry=retry_if_exception_type(OperationalError), stop=stop_after_attempt(5),
           wait=wait_exponential_jitter(multiplier=0.05, max=1.0), reraise=True)
    def add(self, answer_id: str, rating: str, comment: str | None = None, source: str = "api") -> dict:
        """Record one rating; returns the stored row. Raises ValueError for a rating other than up/down."""
        if rating not in RATINGS:
            raise ValueError(f"rating must be one of {RATINGS}, not {rating!r}")
        row = {"answer_id": str(answer_id), "rating": rating, "comment": comment[:COMMENT_MAX_CHARS] if comment else None,
               "client": source[:32], "created_at": dt.datetime.now(dt.timezone.utc)}
        with self.engine.begin() as connection:
            result = connection.execute(insert(feedback_table).values(**row))
            row["id"] = result.inserted_primary_key[0]
        return row

    def rows(self, since: dt.datetime | None = None, until: dt.datetime | None = None,
             joined: bool = False) -> Iterator[dict]:
        """Every rating, oldest first; `joined` adds what the question log holds about the rated answer
        (`question`, `article`, `route`, `answer`, `cited` — None when the log does not hold it)."""
        f, q = feedback_table.c, questions_table.c
        if joined:
            query = (select(feedback_table, q.question, q.article, q.route, q.answer, q.cited)
                     .select_from(feedback_table.outerjoin(questions_table, f.answer_id == q.answer_id)))
        else:
            query = select(feedback_table)
        query = query.order_by(f.id)
        if since is not None:
            query = query.where(f.created_at >= since)
        if until is not None:
            query = query.where(f.created_at < until)
        with self.engine.connect() as connection:
            for row in connection.execute(query):
                out = dict(row._mapping)
                out["created_at"] = _utc(out["created_at"]).isoformat()
                if joined:
                    out["cited"] = json.loads(out["cited"]) if out["cited"] else []
                yield out

    def count(self) -> int:
        return sum(1 for _ in self.rows())

    def export(self, fmt: Literal["jsonl", "csv"] = "jsonl", since: dt.datetime | None = None) -> Iterator[str]:
        """The table as JSON lines or CSV (with a header), one chunk of text per row, each rating joined to
        its question and answer when the question log holds them (`cited`: a list; in CSV, space-separated)."""
        if fmt == "jsonl":
            for row in self.rows(since, joined=True):
                yield json.dumps(row, ensure_ascii=False) + "\n"
            return
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=COLUMNS + JOINED)
        writer.writeheader()
        for row in self.rows(since, joined=True):
            row["cited"] = " ".join(row["cited"])
            writer.writerow({k: _csv_safe(row[k]) for k in COLUMNS + JOINED})
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
        yield buffer.getvalue()

    def close(self) -> None:
        if self._engine is not None:
            self._engine.dispose()


def _utc(value: dt.datetime) -> dt.datetime:
    """SQLite hands back naive datetimes; they were stored as UTC."""
    return value.replace(tzinfo=dt.timezone.utc) if value.tzinfo is None else value


def _csv_safe(value):
    """Comments are reader-written: keep a spreadsheet from evaluating one as a formula."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


# ----------------------------------------------------------------------------------- CLI ----


def main(argv: list[str] | None = None) -> int:
    from .settings import Settings

    parser = argparse.ArgumentParser(prog="python -m service.feedback", description="Reader feedback on answers.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_export = sub.add_parser("export", help="write every rating as JSON lines or CSV")
    p_export.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    p_export.add_argument("--since", type=dt.datetime.fromisoformat, help="only ratings at or after this ISO date/time (UTC)")
    p_export.add_argument("--output", type=Path, help="file to write (default: standard output)")
    args = parser.parse_args(argv)

    store = FeedbackStore(url_for(Settings()))
    since = args.since.replace(tzinfo=args.since.tzinfo or dt.timezone.utc) if args.since else None
    out = args.output.open("w", newline="", encoding="utf-8") if args.output else sys.stdout
    try:
        for chunk in store.export(args.format, since):
            out.write(chunk)
    finally:
        if args.output:
            out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
