"""ASGI middleware: request ids + access log + latency metrics, rate limits, and the request-body limit.

Pure ASGI (no BaseHTTPMiddleware), so streamed (SSE) responses pass through untouched.
Order, outermost first: RequestContext → CORS → RateLimit → BodyLimit → the routes.
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import math
import re
import time
import uuid

import anyio.to_thread
from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import SlidingWindowCounterRateLimiter
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import metrics
from .errors import error_response
from .logs import request_id

log = logging.getLogger("service")
access = logging.getLogger("service.access")

REQUEST_ID_HEADER = "X-Request-ID"
_SANE_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
_QUIET = {"/healthz", "/readyz", "/metrics"}  # probes and scrapes: logged at debug level only


def client_ip(scope: Scope) -> str:
    client = scope.get("client")
    return client[0] if client else "unknown"


class RequestContext:
    """Gives every request an id (a sane incoming `X-Request-ID`, or a new one), returns it as a header,
    logs one line when the response is complete, and times it into `http_request_duration_seconds`.

    An unexpected exception becomes the JSON 500 here (with the id), so no response ever lacks the header.
    """

    def __init__(self, app: ASGIApp, worker_threads: int = 0):
        self.app = app
        self.worker_threads = worker_threads

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.worker_threads:  # set on the serving event loop (the limiter belongs to it), once
            anyio.to_thread.current_default_thread_limiter().total_tokens = self.worker_threads
            self.worker_threads = 0
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        incoming = Headers(scope=scope).get(REQUEST_ID_HEADER, "")
        rid = incoming if _SANE_ID.match(incoming) else uuid.uuid4().hex
        token = request_id.set(rid)
        started = time.perf_counter()
        status = 0

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                MutableHeaders(scope=message)[REQUEST_ID_HEADER] = rid
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except Exception:
            log.exception("unexpected error")
            if status:  # the response had started (a stream): nothing more can be sent
                raise
            await error_response(500, "internal_error", "something went wrong on our side; the error was logged",
                                 {REQUEST_ID_HEADER: rid})(scope, receive, send)
            status = 500
        finally:
            self._record(scope, status, time.perf_counter() - started)
            request_id.reset(token)

    @staticmethod
    def _record(scope: Scope, status: int, seconds: float) -> None:
        route = scope.get("route")
        endpoint = getattr(route, "path", None) or "unmatched"  # the template, never the raw path
        method = scope.get("method", "")
        metrics.HTTP_LATENCY.labels(method=method, endpoint=endpoint, status=str(status)).observe(seconds)
        if endpoint.startswith("/v1/calculate/") and status == 200:
            metrics.record_calculator(endpoint.rsplit("/", 1)[-1], "api")
        path = scope.get("path", "")
        access.log(logging.DEBUG if path in _QUIET else logging.INFO,
                   "%s %s %d %.1fms", method, path, status, seconds * 1000,
                   extra={"method": method, "path": path, "endpoint": endpoint, "status": status,
                          "duration_ms": round(seconds * 1000, 2), "client": client_ip(scope)})


class RateLimit:
    """Per-client-IP and per-API-key request budgets on `/v1/*` (a sliding window, `limits` in memory).

    A request with a known `X-API-Key` spends the key's budget (a server-side client such as the Slack
    bot sends everything from one IP); one without a key spends its IP's. An unknown key is a 401.
    Budgets are per process: with N api replicas the effective limit is N× the setting.
    """

    def __init__(self, app: ASGIApp, per_ip: int, per_key: int, api_keys: list[str]):
        self.app = app
        self.per_ip = RateLimitItemPerMinute(per_ip) if per_ip else None
        self.per_key = RateLimitItemPerMinute(per_key) if per_key else None
        self.keys = {_digest(k): k for k in api_keys}
        self.limiter = SlidingWindowCounterRateLimiter(MemoryStorage())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope.get("path", "").startswith("/v1/") or scope.get("method") == "OPTIONS":
            await self.app(scope, receive, send)
            return
        key = Headers(scope=scope).get("x-api-key")
        if key is not None:
            digest = _digest(key)
            known = self.keys.get(digest)
            if known is None or not hmac.compare_digest(known, key):
                await error_response(401, "invalid_api_key", "the X-API-Key header does not name a known key")(scope, receive, send)
                return
            item, who, kind = self.per_key, f"key:{digest}", "key"
        else:
            item, who, kind = self.per_ip, f"ip:{client_ip(scope)}", "ip"
        if item is not None and not self.limiter.hit(item, who):
            reset = self.limiter.get_window_stats(item, who).reset_time
            retry = max(1, math.ceil(reset - time.time()))
            metrics.RATE_LIMITED.labels(limit=kind).inc()
            await error_response(429, "rate_limited", f"too many requests: the limit is {item.amount} per minute per "
                                 f"{'API key' if kind == 'key' else 'client'}; retry in {retry} s",
                                 {"Retry-After": str(retry)})(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()[:32]


class BodyLimit:
    """Refuses request bodies over `max_bytes` with a 413: by Content-Length up front, or while a chunked body streams in."""

    def __init__(self, app: ASGIApp, max_bytes: int):
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await error_response(413, "payload_too_large", self._message())(scope, receive, send)
            return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise HTTPException(413, self._message())  # FastAPI re-raises HTTPException from body parsing
            return message

        await self.app(scope, limited, send)

    def _message(self) -> str:
        return f"the request body is larger than the limit of {self.max_bytes:,} bytes"
