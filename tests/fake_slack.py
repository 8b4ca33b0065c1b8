"""A local stand-in for Slack's Web API, speaking its wire format, for the bot's tests.

`POST|GET /api/<method>` with form-encoded, query or JSON arguments (as slack_sdk sends them) and a
`Bearer` token; answers `{"ok": true, …}` shaped like Slack's. It keeps the messages posted per
channel (so `conversations.replies` returns a thread with the bot's own messages and their metadata)
and records every call; `POST /response/<id>` records what is sent to a slash command's response_url.
Tests add people's messages with `add_message`.
"""
from __future__ import annotations

import itertools
import json
import threading
import time
from urllib.parse import parse_qsl

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

BOT_USER_ID, BOT_ID, TEAM_ID = "UASKBOT01", "BASKBOT01", "T0STUDY01"
_JSON_ARGS = ("blocks", "metadata", "attachments")


class FakeSlack:
    def __init__(self, token: str):
        self.token = token
        self.calls: list[dict] = []  # {"method", "args"} in arrival order
        self.responses: list[dict] = []  # bodies posted to response_url
        self.messages: dict[str, list[dict]] = {}
        self._ts = itertools.count(1)
        self._lock = threading.Lock()
        self.app = FastAPI()
        self.app.api_route("/api/{method}", methods=["GET", "POST"])(self.api)
        self.app.post("/response/{hook}")(self.response_url)

    # ---- helpers for tests ------------------------------------------------------------------

    def next_ts(self) -> str:
        return f"{int(time.time())}.{next(self._ts):06d}"

    def add_message(self, channel: str, user: str, text: str, thread_ts: str | None = None) -> dict:
        """A person's message, as Slack would store it."""
        message = {"type": "message", "user": user, "text": text, "ts": self.next_ts(), "team": TEAM_ID}
        if thread_ts:
            message["thread_ts"] = thread_ts
        with self._lock:
            self.messages.setdefault(channel, []).append(message)
        return message

    def called(self, method: str, **match) -> list[dict]:
        with self._lock:
            return [c["args"] for c in self.calls
                    if c["method"] == method and all(c["args"].get(k) == v for k, v in match.items())]

    def wait_for(self, method: str, count: int = 1, timeout: float = 60.0, **match) -> list[dict]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.called(method, **match)
            if len(found) >= count:
                return found
            time.sleep(0.05)
        raise AssertionError(f"no {count}× {method} {match} within {timeout} s; calls: "
                             f"{[(c['method'], c['args'].get('channel')) for c in self.calls]}")

    # ---- the wire -----------------------------------------------------------------------------

    async def api(self, method: str, request: Request):
        args = dict(request.query_params)
        raw = await request.body()
        if request.headers.get("content-type", "").startswith("application/json"):
            args.update(json.loads(raw or b"{}"))
        else:
            args.update(parse_qsl(raw.decode()))
        for key in _JSON_ARGS:
            if isinstance(args.get(key), str):
                args[key] = json.loads(args[key])
        if request.headers.get("authorization") != f"Bearer {self.token}":
            return JSONResponse({"ok": False, "error": "invalid_auth"})
        with self._lock:
            self.calls.append({"method": method, "args": args})
        handler = getattr(self, "m_" + method.replace(".", "_"), None)
        if handler is None:
            return JSONResponse({"ok": False, "error": "unknown_method"})
        return JSONResponse(handler(args))

    async def response_url(self, hook: str, request: Request):
        with self._lock:
            self.responses.append({"hook": hook, **(await request.json())})
        return JSONResponse({"ok": True})

    def m_auth_test(self, args: dict) -> dict:
        return {"ok": True, "url": "https://study-group.slack.com/", "team": "Study group", "user": "askbot",
                "team_id": TEAM_ID, "user_id": BOT_USER_ID, "bot_id": BOT_ID, "is_enterprise_install": False}

    def m_chat_postMessage(self, args: dict) -> dict:
        channel = args.get("channel")
        if not channel or channel.startswith("G-private"):
            return {"ok": False, "error": "not_in_channel" if channel else "channel_not_found"}
        message = {"type": "message", "user": BOT_USER_ID, "bot_id": BOT_ID, "app_id": "A0ASKBOT1",
                   "text": args.get("text", ""), "ts": self.next_ts(), "team": TEAM_ID}
        for key in ("blocks", "metadata", "thread_ts"):
            if args.get(key):
                message[key] = args[key]
        with self._lock:
            self.messages.setdefault(channel, []).append(message)
        return {"ok": True, "channel": channel, "ts": message["ts"], "message": message}

    def m_chat_postEphemeral(self, args: dict) -> dict:
        return {"ok": True, "message_ts": self.next_ts()}

    def m_conversations_replies(self, args: dict) -> dict:
        thread_ts, with_metadata = args.get("ts"), str(args.get("include_all_metadata")).lower() in ("1", "true")
        with self._lock:
            messages = [dict(m) for m in self.messages.get(args.get("channel"), [])
                        if m["ts"] == thread_ts or m.get("thread_ts") == thread_ts]
        if not messages:
            return {"ok": False, "error": "thread_not_found"}
        for m in messages:
            if not with_metadata:
                m.pop("metadata", None)
        messages.sort(key=lambda m: float(m["ts"]))
        return {"ok": True, "messages": messages, "has_more": False, "response_metadata": {"next_cursor": ""}}
