"""The service's one SQL database: reader feedback and the question log, side by side.

SQLite in WAL mode by default (`DATA_DIR/feedback.sqlite3`); any SQLAlchemy URL in production
(`FEEDBACK_URL=postgresql+psycopg://…`). Both tables are declared here, on one `MetaData`, and
`ensure_schema` is the whole migration story:

- a table that is missing is created (`CREATE TABLE IF NOT EXISTS`, through `create_all`);
- nothing existing is ever dropped, renamed or rewritten;
- a column declared here but missing from an existing table is added with `ALTER TABLE … ADD COLUMN`
  (every column added after a table's first release must therefore be nullable, or carry a
  `server_default`); rows written before it read back with NULL there, and the readers expect that.

So an old database keeps working with new code, and a new column is one line below.
"""
from __future__ import annotations

import logging
import time
from pathlib import Path

from sqlalchemy import (CheckConstraint, Column, DateTime, Float, Integer, MetaData, String, Table, Text, create_engine,
                        event, inspect, text)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.schema import CreateColumn

log = logging.getLogger("service")

metadata = MetaData()

feedback_table = Table(
    "feedback", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("answer_id", String(64), nullable=False, index=True),
    Column("rating", String(4), CheckConstraint("rating IN ('up', 'down')", name="rating_up_or_down"), nullable=False),
    Column("comment", Text, nullable=True),
    Column("client", String(32), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False, index=True),
)

# One row per answer served to a reader (service/questions.py writes it). No IP address, no Slack user id:
# `session` is a salted hash of the widget's per-conversation id (or of a Slack thread), never the id itself.
questions_table = Table(
    "questions", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("answer_id", String(64), nullable=False, unique=True),
    Column("created_at", DateTime(timezone=True), nullable=False, index=True),
    Column("client", String(16), nullable=False),  # widget | slack | api
    Column("session", String(64), nullable=True),
    Column("article", String(100), nullable=True, index=True),  # the page the reader was on; NULL = site-wide
    Column("question", Text, nullable=False),  # as the reader typed it
    Column("standalone", Text, nullable=True),  # the condensed question of a follow-up (NULL when the same)
    Column("route", String(16), nullable=False),  # retrieval | calculator | no_answer
    Column("scope", String(8), nullable=True),  # article | site
    Column("support", Float, nullable=True),  # the best support retrieval found (NULL when it did not run)
    Column("generator", String(100), nullable=True),
    Column("cited", Text, nullable=True),  # JSON list of the cited sections, "doc_id#anchor"
    Column("answer", Text, nullable=True),
    Column("latency_ms", Float, nullable=True),
    Column("release", String(64), nullable=True),  # the index release that answered
)


def default_url(data_dir: Path | str) -> str:
    return f"sqlite:///{Path(data_dir).resolve() / 'feedback.sqlite3'}"


def url_for(settings) -> str:
    return settings.feedback_url or default_url(settings.data_dir)


def connect(url: str, busy_timeout_s: float = 30.0, pool_size: int = 5, max_overflow: int = 10) -> Engine:
    """An engine on `url` (not connected yet). SQLite: WAL, `busy_timeout_s` of waiting for a lock before
    "database is locked"; PostgreSQL: the same wait as `lock_timeout`."""
    if url.startswith("sqlite"):
        database = make_url(url).database or ""
        if database and database != ":memory:" and not database.startswith("file:"):
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": busy_timeout_s, "check_same_thread": False},
                               pool_size=pool_size, max_overflow=max_overflow, pool_timeout=60)
        event.listen(engine, "connect", _sqlite_pragmas(busy_timeout_s))
        return engine
    connect_args: dict = {}
    if url.startswith("postgresql"):
        connect_args = {"options": f"-c lock_timeout={int(busy_timeout_s * 1000)}", "connect_timeout": 10}
    return create_engine(url, pool_pre_ping=True, pool_size=pool_size, max_overflow=max_overflow,
                         connect_args=connect_args)


def _sqlite_pragmas(busy_timeout_s: float):
    def on_connect(connection, _record) -> None:
        cursor = connection.cursor()
        try:
            cursor.execute("PRAGMA journal_mode=WAL")  # writers append to the log; readers never wait for them
            cursor.execute("PRAGMA synchronous=NORMAL")  # durable at checkpoints; safe with WAL
        except Exception as exc:  # noqa: BLE001 - a read-only database cannot switch modes; it can still be read
            log.debug("sqlite pragmas not applied: %s", exc)
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_s * 1000)}")  # a writer waits its turn
        cursor.close()

    return on_connect


def ensure_schema(engine: Engine, attempts: int = 3) -> list[str]:
    """Create the missing tables and add the missing columns (see the module docstring); returns the
    `table.column`s it added. Replicas starting at once may race to create the same thing: the loser
    looks again and finds it done."""
    for attempt in range(attempts):
        try:
            return _ensure_schema(engine)
        except DBAPIError:
            if attempt == attempts - 1:
                raise
            time.sleep(0.05 * (attempt + 1))
    return []


def _ensure_schema(engine: Engine) -> list[str]:
    metadata.create_all(engine)  # checkfirst: only what does not exist yet
    added: list[str] = []
    existing = inspect(engine)
    for table in metadata.sorted_tables:
        have = {c["name"] for c in existing.get_columns(table.name)}
        missing = [c for c in table.columns if c.name not in have]
        if not missing:
            continue
        with engine.begin() as connection:
            for column in missing:
                if not column.nullable and column.server_default is None:
                    raise RuntimeError(f"{table.name}.{column.name} cannot be added to an existing table: a column "
                                       "added later must be nullable or have a server_default")
                ddl = CreateColumn(column).compile(dialect=engine.dialect)
                connection.execute(text(f"ALTER TABLE {table.name} ADD COLUMN {ddl}"))
                added.append(f"{table.name}.{column.name}")
        for index in table.indexes:  # an index declared on a column that was just added
            index.create(engine, checkfirst=True)
    if added:
        log.info("database schema: added %s", ", ".join(added))
    return added
