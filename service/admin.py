"""Admin endpoints, behind the `X-Admin-Key` header (401 without the right key).

They exist only when `ADMIN_KEY` is set; otherwise every `/v1/admin/*` path is a plain 404.

- `GET  /v1/admin/releases` — the index releases, marking the live one.
- `POST /v1/admin/releases/{release_id}/promote` — make a built release the live one.
- `GET  /v1/admin/feedback/export?format=jsonl|csv&since=…` — every rating, streamed.
"""
from __future__ import annotations

import datetime as dt
import hmac
from typing import Literal

from fastapi import APIRouter, Depends, Request
from fastapi.concurrency import run_in_threadpool, iterate_in_threadpool
from fastapi.responses import StreamingResponse
from pydantic import BaseModel

from ingest.store import StoreError

from .errors import ApiError
from .schemas import ErrorResponse

_ERRORS = {code: {"model": ErrorResponse} for code in (401, 404, 409, 503)}


class Releases(BaseModel):
    live: str | None
    releases: list[str]


class Promoted(BaseModel):
    live: str
    previous: str | None
    served_within_s: float


def router(admin_key: str) -> APIRouter:
    def require_admin(request: Request) -> None:
        given = request.headers.get("x-admin-key", "")
        if not hmac.compare_digest(given.encode(), admin_key.encode()):
            raise ApiError(401, "unauthorized", "this endpoint needs a valid X-Admin-Key header")

    # Full paths, no router prefix: request metrics label routes by their path template.
    api = APIRouter(tags=["admin"], dependencies=[Depends(require_admin)], responses=_ERRORS)

    def store(request: Request):
        return request.app.state.assistant.searcher.store

    @api.get("/v1/admin/releases", response_model=Releases, summary="List index releases")
    async def releases(request: Request) -> Releases:
        s = store(request)
        live, names = await run_in_threadpool(lambda: (s.live_release(), s.releases()))
        return Releases(live=live, releases=names)

    @api.post("/v1/admin/releases/{release_id}/promote", response_model=Promoted, summary="Make a built index release the live one")
    async def promote(release_id: str, request: Request) -> Promoted:
        s = store(request)
        previous, names = await run_in_threadpool(lambda: (s.live_release(), s.releases()))
        if release_id not in names:
            raise ApiError(404, "unknown_release", f"there is no index release '{release_id}'")
        try:
            await run_in_threadpool(s.promote, release_id)
        except StoreError as exc:
            if "not complete" in str(exc):
                raise ApiError(409, "release_incomplete", str(exc)) from exc
            raise
        settings = request.app.state.assistant.settings
        return Promoted(live=release_id, previous=previous, served_within_s=settings.release_check_s)

    @api.get("/v1/admin/feedback/export", summary="Export reader feedback (JSON lines or CSV)",
             responses={200: {"content": {"application/x-ndjson": {}, "text/csv": {}}}})
    async def export(request: Request, format: Literal["jsonl", "csv"] = "jsonl", since: dt.datetime | None = None):
        if since is not None and since.tzinfo is None:
            since = since.replace(tzinfo=dt.timezone.utc)
        chunks = request.app.state.feedback.export(format, since)
        media = "text/csv" if format == "csv" else "application/x-ndjson"
        name = f"feedback-{dt.datetime.now(dt.timezone.utc):%Y%m%dT%H%M%SZ}.{format}"
        return StreamingResponse(iterate_in_threadpool(chunks), media_type=media,
                                 headers={"Content-Disposition": f'attachment; filename="{name}"'})

    return api
