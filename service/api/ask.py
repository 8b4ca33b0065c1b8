"""`POST /v1/ask`: JSON by default; Server-Sent Events with `Accept: text/event-stream` or `"stream": true`.

Every answer is queued for the question log here (service/questions.py) — for a stream, when its `done`
event carries the complete answer. `X-Client: widget` marks the widget's questions (anything else is
`api`), and the widget's `X-Session` conversation id is stored only as a salted hash.
"""
from __future__ import annotations

import time
from contextlib import aclosing
from typing import AsyncIterator

from fastapi import APIRouter, Depends, Request
from fastapi.responses import StreamingResponse

from ..answer import Assistant, Prepared
from ..answer.models import AskRequest, AskResponse
from ..http.errors import documented
from ..http.sse import sse
from ..questions import CLIENT_HEADER, SESSION_HEADER, client_of
from ..runtime import Runtime
from .deps import assistant, runtime

router = APIRouter()


@router.post("/v1/ask", response_model=AskResponse, summary="Answer a question about an article",
             responses={**documented(400, 404, 422, 503),
                        200: {"content": {"text/event-stream": {}},
                              "description": "JSON, or SSE events meta/delta/calculation/done/error"}})
async def ask(request: AskRequest, http_request: Request, answers: Assistant = Depends(assistant),
              rt: Runtime = Depends(runtime)):
    started = time.perf_counter()
    prepared = await answers.prepare(request)
    logged = _Logged(rt, request, prepared, http_request, started)
    if request.stream or "text/event-stream" in http_request.headers.get("accept", ""):
        return StreamingResponse(sse(logged.events(answers.stream(prepared))), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    response = await answers.respond(prepared)
    logged.record(response)
    return response


class _Logged:
    """What the question log needs from one request, and the hook that queues its row."""

    def __init__(self, rt: Runtime, request: AskRequest, prepared: Prepared, http_request: Request, started: float):
        self.rt, self.request, self.prepared, self.started = rt, request, prepared, started
        headers = http_request.headers
        self.client = client_of(headers.get(CLIENT_HEADER))
        self.session = headers.get(SESSION_HEADER)

    def record(self, response) -> None:
        self.rt.questions.record_answer(
            client=self.client, article=self.request.article, question=self.request.question, prepared=self.prepared,
            response=response, latency_ms=(time.perf_counter() - self.started) * 1000, session=self.session,
            release=self.rt.release_id())

    async def events(self, events: AsyncIterator[tuple[str, dict]]) -> AsyncIterator[tuple[str, dict]]:
        async with aclosing(events) as inner:  # closed with this stream (a reader who leaves stops the LLM)
            async for name, data in inner:
                if name == "done":  # the answer is complete: log it before the reader sees the end
                    self.record(data)
                yield name, data
