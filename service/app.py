"""The FastAPI application: thin routes over the Assistant, loaded once at start-up."""
from __future__ import annotations

import logging
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from pydantic import ValidationError
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse
from fastapi.middleware.cors import CORSMiddleware

from ingest.search import Searcher
from ingest.store import IndexStore, StoreError, open_store

from calculators import INPUT_MODELS, Calculation, calculate

from . import errors, production, slack, widget
from .assistant import Assistant
from .batching import BatchingEmbedder
from .catalogue import Catalogue
from .errors import ApiError
from .schemas import AskRequest, AskResponse, ErrorResponse
from .settings import Settings
from .streaming import sse

log = logging.getLogger("service")
_ERRORS = {code: {"model": ErrorResponse} for code in (400, 404, 422, 503)}


def create_app(settings: Settings | None = None, store: IndexStore | None = None) -> FastAPI:
    """`store` overrides the one the settings name (tests share an in-memory Qdrant this way)."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        # Load the model and the index once, not per request; warm the model so the first reader isn't slow.
        embedder = settings.embedder()
        embedder.encode_query("warm-up")  # also exports the model to ONNX on a first start (a few seconds, once)
        searcher = Searcher(store or open_store(settings), BatchingEmbedder(embedder), settings.release_check_s,
                            settings.index_release)  # concurrent questions share one forward pass
        try:
            searcher.reader
        except StoreError as exc:
            log.warning("starting without an index: %s", exc)
        app.state.assistant = Assistant(settings, searcher, Catalogue.load(settings.corpus_dir))
        yield
        searcher.embedder.close()

    app = FastAPI(title="Ask about this article", version="0.1.0", lifespan=lifespan,
                  description="Cited answers from the site's own text; numeric answers from deterministic calculators.")
    errors.install(app)
    if settings.cors_origins:
        app.add_middleware(CORSMiddleware, allow_origins=settings.cors_origins, allow_methods=["GET", "POST"],
                           allow_headers=["content-type", "authorization", "x-api-key", "x-request-id"],
                           expose_headers=["x-request-id", "retry-after"])
    production.install(app, settings)  # request ids, JSON logs, metrics, limits, feedback, admin
    slack.install(app, settings)  # POST /slack/events, when the Slack bot is configured
    app.include_router(widget.router())  # GET /widget.js, /demo, /demo/{article}

    def assistant() -> Assistant:
        return app.state.assistant

    @app.post("/v1/ask", response_model=AskResponse, summary="Answer a question about an article",
              responses={**_ERRORS, 200: {"content": {"text/event-stream": {}},
                                          "description": "JSON, or SSE events meta/delta/calculation/done/error"}})
    async def ask(request: AskRequest, http_request: Request):
        """JSON by default; Server-Sent Events with `Accept: text/event-stream` or `"stream": true`."""
        prepared = await assistant().prepare(request)
        if request.stream or "text/event-stream" in http_request.headers.get("accept", ""):
            return StreamingResponse(sse(assistant().events(prepared)), media_type="text/event-stream",
                                     headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
        return await assistant().respond(prepared)

    for name, inputs_model in INPUT_MODELS.items():
        _add_calculator_route(app, name, inputs_model)

    @app.get("/v1/articles", summary="The articles that can be asked about")
    async def articles() -> dict:
        return {"articles": [a.listing() for a in assistant().catalogue.articles.values()]}

    @app.get("/v1/articles/{article_id}", responses=_ERRORS, summary="One article with its sections")
    async def article(article_id: str) -> dict:
        info = assistant().catalogue.articles.get(article_id)
        if info is None:
            raise ApiError(404, "unknown_article", f"there is no article with id '{article_id}'")
        return info.detail()

    @app.get("/healthz", summary="Liveness")
    async def healthz() -> dict:
        return {"status": "ok"}

    @app.get("/readyz", responses=_ERRORS, summary="Readiness: an index release is loaded")
    async def readyz() -> dict:
        searcher = assistant().searcher
        reader = await run_in_threadpool(lambda: searcher.reader)
        await run_in_threadpool(reader.ping)  # the store answers now, not just when the release was opened
        return {"status": "ready", "release": reader.manifest.get("release_id"), "chunks": reader.manifest.get("chunks")}

    return app


def _add_calculator_route(app: FastAPI, name: str, inputs_model) -> None:
    """`POST /v1/calculate/{name}`: typed inputs (422 naming the field), the DESIGN §5 calculation object."""

    async def run(inputs) -> Calculation:
        try:
            return calculate(name, inputs)
        except ValueError as exc:  # inputs that pass the schema but not the calculator (found by schemathesis): 422
            detail = errors._describe(exc.errors()) if isinstance(exc, ValidationError) else str(exc)
            raise ApiError(422, "invalid_request", detail) from exc

    run.__annotations__["inputs"] = inputs_model  # a real class, not a postponed string, so FastAPI reads the body

    app.post(f"/v1/calculate/{name}", response_model=Calculation, responses=_ERRORS, name=f"calculate_{name}",
             summary=f"Run the {name} calculator", tags=["calculators"])(run)
