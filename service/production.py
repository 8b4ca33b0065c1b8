"""What a production deployment adds around the routes, wired in one call from `create_app`:

request ids + JSON access logs + latency metrics, rate limits (per IP / per API key), a request-body
limit, `/metrics`, the feedback store and `POST /v1/feedback`, and the admin endpoints (when `ADMIN_KEY` is set).
"""
from __future__ import annotations

from fastapi import FastAPI, Request, Response
from starlette.middleware import Middleware

from . import admin, feedback, metrics
from .middleware import BodyLimit, RateLimit, RequestContext
from .settings import Settings


def install(app: FastAPI, settings: Settings) -> None:
    # user_middleware[0] is the outermost layer: the request id wraps everything (CORS included), while
    # rate and size limits sit inside CORS so a browser can read their 429/413.
    app.user_middleware.insert(0, Middleware(RequestContext, worker_threads=settings.worker_threads))
    app.user_middleware.append(Middleware(RateLimit, per_ip=settings.rate_limit_ip_per_minute,
                                          per_key=settings.rate_limit_key_per_minute,
                                          api_keys=[k.get_secret_value() for k in settings.api_keys]))
    app.user_middleware.append(Middleware(BodyLimit, max_bytes=settings.max_body_bytes))

    app.state.feedback = feedback.FeedbackStore(feedback.url_for(settings))
    app.include_router(feedback.router)
    if settings.admin_key is not None and settings.admin_key.get_secret_value():
        app.include_router(admin.router(settings.admin_key.get_secret_value()))

    @app.get("/metrics", include_in_schema=False)
    async def prometheus(request: Request) -> Response:
        metrics.set_index(_live_manifest(request.app))
        body, content_type = metrics.exposition()
        return Response(body, media_type=content_type)


def _live_manifest(app: FastAPI) -> dict | None:
    assistant = getattr(app.state, "assistant", None)
    if assistant is None:
        return None
    reader = assistant.searcher.current  # never blocks on a store that is down
    return reader.manifest if reader is not None else None
