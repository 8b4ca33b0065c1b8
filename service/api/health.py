"""Probes and metrics: `GET /healthz` (liveness), `GET /readyz` (an index release answers), `GET /metrics`."""
from __future__ import annotations

from fastapi import APIRouter, Depends, Response
from fastapi.concurrency import run_in_threadpool

from ..http import metrics
from ..http.errors import documented
from ..runtime import Runtime
from .deps import runtime

router = APIRouter()


@router.get("/healthz", summary="Liveness")
async def healthz() -> dict:
    return {"status": "ok"}


@router.get("/readyz", responses=documented(503), summary="Readiness: an index release is loaded")
async def readyz(rt: Runtime = Depends(runtime)) -> dict:
    searcher = rt.ready_assistant().searcher
    reader = await run_in_threadpool(lambda: searcher.reader)
    await run_in_threadpool(reader.ping)  # the store answers now, not just when the release was opened
    return {"status": "ready", "release": reader.manifest.get("release_id"), "chunks": reader.manifest.get("chunks")}


@router.get("/metrics", include_in_schema=False)
async def prometheus(rt: Runtime = Depends(runtime)) -> Response:
    reader = rt.assistant.searcher.current if rt.assistant else None  # never blocks on a store that is down
    metrics.set_index(reader.manifest if reader is not None else None)
    body, content_type = metrics.exposition()
    return Response(body, media_type=content_type)
