"""Server-Sent Events on the wire: `event: <name>` + `data: <json>` per event (DESIGN §7).

Events: `meta` (route, scope, citations), `delta` (text), `calculation`, `done` (the complete
response, with answer_id and timings), and `error` if something breaks after the stream started.
When the client disconnects, Starlette cancels this generator, which closes the upstream LLM request.
"""
from __future__ import annotations

import json
import logging
from typing import AsyncIterator

from fastapi.sse import format_sse_event

log = logging.getLogger("service")


async def sse(events: AsyncIterator[tuple[str, dict]]) -> AsyncIterator[bytes]:
    try:
        async for name, data in events:
            yield format_sse_event(event=name, data_str=json.dumps(data, ensure_ascii=False))
    except Exception:  # the status line is already sent: report in-band, never a broken stream
        log.exception("error while streaming an answer")
        error = {"code": "internal_error", "message": "the answer could not be completed; please retry"}
        yield format_sse_event(event="error", data_str=json.dumps(error))
