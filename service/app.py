"""The FastAPI application, wiring only: the parts are loaded once at start-up, the routers are included,
the middleware is stacked. What each route does is in service/api/; the question's path in service/answer/."""
from __future__ import annotations

import logging
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.concurrency import run_in_threadpool
from fastapi.middleware.cors import CORSMiddleware
from starlette.middleware import Middleware

from ingest.index import IndexStore

from . import api, slack
from .answer import open_assistant
from .api import slack as slack_api
from .feedback import FeedbackStore, url_for
from .questions import QuestionLog
from .http.errors import install_handlers
from .http.middleware import BodyLimit, RateLimit, RequestContext
from .runtime import Runtime
from .settings import Settings

log = logging.getLogger("service")


def create_app(settings: Settings | None = None, store: IndexStore | None = None) -> FastAPI:
    """`store` overrides the one the settings name (tests share an in-memory Qdrant this way)."""
    settings = settings or Settings()
    runtime = Runtime(settings, FeedbackStore(url_for(settings)), QuestionLog(url_for(settings), settings))

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        # The model and the index are loaded once, not per request.
        with open_assistant(settings, store) as assistant:
            runtime.assistant = assistant
            runtime.questions.start()  # the question log's writer thread (prunes old rows first)
            try:
                yield
            finally:
                await run_in_threadpool(runtime.questions.close)  # what is still queued is written

    app = FastAPI(title="Ask about this article", version="0.1.0", lifespan=lifespan,
                  description="Cited answers from the site's own text; numeric answers from deterministic calculators.")
    app.state.runtime = runtime
    install_handlers(app)
    _stack_middleware(app, settings)
    for router in api.ALWAYS:
        app.include_router(router)
    if settings.admin_key is not None and settings.admin_key.get_secret_value():
        app.include_router(api.admin.router)
    if slack.configured(settings):
        app.state.slack = slack.SlackBot(settings, runtime)
        app.include_router(slack_api.router(app.state.slack))
    elif settings.slack_signing_secret is not None or settings.slack_bot_token is not None:
        log.warning("slack: set both SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN to serve /slack/events; it is off")
    return app


def _stack_middleware(app: FastAPI, settings: Settings) -> None:
    """Outermost first: request ids (around everything, CORS included), CORS, then the rate and size
    limits inside CORS so that a browser can read their 429/413."""
    app.user_middleware.insert(0, Middleware(RequestContext, worker_threads=settings.worker_threads))
    if settings.cors_origins:
        app.user_middleware.append(Middleware(
            CORSMiddleware, allow_origins=settings.cors_origins, allow_methods=["GET", "POST"],
            allow_headers=["content-type", "authorization", "x-api-key", "x-request-id", "x-client", "x-session"],
            expose_headers=["x-request-id", "retry-after"]))
    app.user_middleware.append(Middleware(RateLimit, per_ip=settings.rate_limit_ip_per_minute,
                                          per_key=settings.rate_limit_key_per_minute,
                                          api_keys=[k.get_secret_value() for k in settings.api_keys]))
    app.user_middleware.append(Middleware(BodyLimit, max_bytes=settings.max_body_bytes))
