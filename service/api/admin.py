"""Admin endpoints, behind the `X-Admin-Key` header (401 without the right key).

They exist only when `ADMIN_KEY` is set (app.py includes this router then); otherwise every
`/v1/admin/*` path is a plain 404.

- `GET  /v1/admin/releases` — the index releases, marking the live one.
- `POST /v1/admin/releases/{release_id}/promote` — make a built release the live one.
- `GET  /v1/admin/feedback/export?format=jsonl|csv&since=…` — every rating, streamed, joined to its question.
- `GET  /v1/admin/insights?since=…&until=…&format=json|html` — what readers asked (service/insights.py).
"""
from __future__ import annotations

import datetime as dt
from typing import Literal

from fastapi import APIRouter, Depends
from fastapi.concurrency import iterate_in_threadpool, run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, StreamingResponse
from pydantic import BaseModel
from sqlalchemy.exc import SQLAlchemyError

from ingest.index import IncompleteRelease, IndexStore

from .. import insights
from ..errors import ApiError
from ..feedback import FeedbackStore
from ..http.errors import documented
from ..runtime import Runtime
from .deps import feedback_store, require_admin, runtime


class Releases(BaseModel):
    live: str | None
    releases: list[str]


class Promoted(BaseModel):
    live: str
    previous: str | None
    served_within_s: float


# Full paths, no router prefix: request metrics label routes by their path template.
router = APIRouter(tags=["admin"], dependencies=[Depends(require_admin)], responses=documented(401, 404, 409, 503))


async def _store(rt: Runtime = Depends(runtime)) -> IndexStore:
    return rt.ready_assistant().searcher.store


@router.get("/v1/admin/releases", response_model=Releases, summary="List index releases")
async def releases(store: IndexStore = Depends(_store)) -> Releases:
    live, names = await run_in_threadpool(lambda: (store.live_release(), store.releases()))
    return Releases(live=live, releases=names)


@router.post("/v1/admin/releases/{release_id}/promote", response_model=Promoted,
             summary="Make a built index release the live one")
async def promote(release_id: str, store: IndexStore = Depends(_store), rt: Runtime = Depends(runtime)) -> Promoted:
    previous, names = await run_in_threadpool(lambda: (store.live_release(), store.releases()))
    if release_id not in names:
        raise ApiError(404, "unknown_release", f"there is no index release '{release_id}'")
    try:
        await run_in_threadpool(store.promote, release_id)
    except IncompleteRelease as exc:
        raise ApiError(409, "release_incomplete", str(exc)) from exc
    return Promoted(live=release_id, previous=previous, served_within_s=rt.settings.release_check_s)


@router.get("/v1/admin/feedback/export", summary="Export reader feedback (JSON lines or CSV)",
            responses={200: {"content": {"application/x-ndjson": {}, "text/csv": {}}}})
async def export(format: Literal["jsonl", "csv"] = "jsonl", since: dt.datetime | None = None,
                 feedback: FeedbackStore = Depends(feedback_store)):
    if since is not None and since.tzinfo is None:
        since = since.replace(tzinfo=dt.timezone.utc)
    media = "text/csv" if format == "csv" else "application/x-ndjson"
    name = f"feedback-{dt.datetime.now(dt.timezone.utc):%Y%m%dT%H%M%SZ}.{format}"
    return StreamingResponse(iterate_in_threadpool(feedback.export(format, since)), media_type=media,
                             headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/v1/admin/insights", summary="What readers asked: volumes, no-answer rate, content gaps, down-votes",
            responses={**documented(422, 503), 200: {"content": {"application/json": {}, "text/html": {}}}})
async def insights_report(since: dt.datetime | None = None, until: dt.datetime | None = None,
                          format: Literal["json", "html"] = "json", rt: Runtime = Depends(runtime)):
    """`since <= asked < until`, UTC (an ISO date or date-time; default: the 30 days up to now)."""
    try:
        insights.period(since, until)
    except ValueError as exc:
        raise ApiError(422, "invalid_request", str(exc)) from exc
    assistant = rt.ready_assistant()
    titles = {a.id: a.title for a in assistant.catalogue.articles.values()}
    options = insights.Options.from_settings(rt.settings)
    try:
        report = await run_in_threadpool(insights.build, rt.questions, rt.feedback, assistant.searcher.embedder.encode,
                                         since, until, options, titles)
    except SQLAlchemyError as exc:
        raise ApiError(503, "database_unavailable", f"the question log cannot be read: {str(exc).splitlines()[0]}",
                       {"Retry-After": "30"}) from exc
    if format == "html":
        return HTMLResponse(insights.render_html(report), headers={
            "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'", "Cache-Control": "no-store"})
    return JSONResponse(report, headers={"Cache-Control": "no-store"})
