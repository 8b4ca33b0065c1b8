"""`POST /v1/ask`: JSON by default; Server-Sent Events with `Accept: text/event-stream` or `"stream": true`."""
from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import StreamingResponse

from ..answer import Assistant
from ..answer.models import AskRequest, AskResponse
from ..http.errors import documented
from ..http.sse import sse
from .deps import assistant

router = APIRouter()


@router.post("/v1/ask", response_model=AskResponse, summary="Answer a question about an article",
             responses={**documented(400, 404, 422, 503),
                        200: {"content": {"text/event-stream": {}},
                              "description": "JSON, or SSE events meta/delta/calculation/done/error"}})
async def ask(request: AskRequest, http_request: Request, answers: Assistant = Depends(assistant)):
    prepared = await answers.prepare(request)
    if request.stream or "text/event-stream" in http_request.headers.get("accept", ""):
        return StreamingResponse(sse(answers.stream(prepared)), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    return await answers.respond(prepared)
