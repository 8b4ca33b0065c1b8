"""Structured logs: one JSON object per line, the request id on every line logged during a request,
and secrets scrubbed before anything is written.

`configure(settings)` is called once per process by `python -m service`; tests attach `JsonFormatter`
and `Redactor` to a handler of their own.
"""
from __future__ import annotations

import contextvars
import datetime as dt
import json
import logging
import os
import re
import sys

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)

# Tokens recognisable by their shape, wherever they appear: Slack tokens, bearer credentials, OpenAI-style keys.
_TOKENS = re.compile(r"xox[abposr]-[A-Za-z0-9-]{8,}|(?i:bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}|sk-[A-Za-z0-9_-]{16,}")
# `api_key=…`, `"x-admin-key": "…"`, `token: …`: keep the name, drop the value.
_ASSIGNED = re.compile(r"(?i)((?:api[_-]?key|admin[_-]?key|token|secret|password|authorization)[\"']?\s*[:=]\s*[\"']?)[^\s\"',;&]+")
_SECRET_ENV = re.compile(r"(?i)(KEY|TOKEN|SECRET|PASSWORD)")
_REDACTED = "[redacted]"
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName", "color_message"}


class Redactor(logging.Filter):
    """Replaces known secret values (settings, secret-named environment variables) and token shapes."""

    def __init__(self, secrets: list[str] | None = None):
        super().__init__()
        values = {v for v in (secrets or []) if v and len(v) >= 6}
        values |= {v for k, v in os.environ.items() if _SECRET_ENV.search(k) and v and len(v) >= 6}
        self.secrets = sorted(values, key=len, reverse=True)

    def scrub(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, _REDACTED)
        text = _TOKENS.sub(_REDACTED, text)
        return _ASSIGNED.sub(lambda m: m.group(1) + _REDACTED, text)

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed format string: log the template, never drop the line
            message = str(record.msg)
        record.msg = self.scrub(message)
        record.args = None
        if record.exc_info and record.exc_info[1] is not None:
            record.exc_text = self.scrub(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        for key, value in list(vars(record).items()):
            if key not in _STANDARD and isinstance(value, str):
                setattr(record, key, self.scrub(value))
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "ts": dt.datetime.fromtimestamp(record.created, dt.timezone.utc).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        rid = getattr(record, "request_id", None) or request_id.get()
        if rid:
            entry["request_id"] = rid
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in entry and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exc"] = record.exc_text
        return json.dumps(entry, default=str, ensure_ascii=False)


class _PlainWithId(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        rid = getattr(record, "request_id", None) or request_id.get()
        return f"{text} [request_id={rid}]" if rid else text


def secrets_of(settings) -> list[str]:
    """Every secret the settings hold, as plain strings (for the redactor)."""
    out: list[str] = []
    for name in type(settings).model_fields:
        value = getattr(settings, name, None)
        values = value if isinstance(value, list) else [value]
        for v in values:
            if hasattr(v, "get_secret_value"):
                out.append(v.get_secret_value())
            elif isinstance(v, str) and _SECRET_ENV.search(name):
                out.append(v)
    return out


def handler(settings, stream=None) -> logging.Handler:
    h = logging.StreamHandler(stream or sys.stderr)
    h.setFormatter(JsonFormatter() if settings.log_json else _PlainWithId("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    h.addFilter(Redactor(secrets_of(settings)))
    return h


def configure(settings) -> None:
    """Route every logger (uvicorn's included) through one redacting handler on the root logger."""
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler(settings))
    root.setLevel(settings.log_level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers.clear()
        logging.getLogger(name).propagate = True
    # Library chatter at INFO: a progress bar per encode() (sentence-transformers), a line per HTTP call (httpx).
    for noisy in ("sentence_transformers", "httpx", "httpcore"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    if settings.log_json:  # tqdm progress bars (model loading) are not JSON lines
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
