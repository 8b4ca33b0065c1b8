"""A local OpenAI-compatible chat-completions server for tests, with scripted behaviours.

It speaks the real wire format: `POST /v1/chat/completions` returns a `chat.completion` JSON object,
or with `"stream": true` an SSE stream of `chat.completion.chunk` objects ending in `data: [DONE]`.
"""
from __future__ import annotations

import asyncio
import json
import threading
import time

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse

from service.answer.generate.prompt import SYSTEM_PROMPT

SCRIPTS = {
    # marker split across chunks on purpose: the filter must hold "[" until "1]" arrives
    "grounded": ["Decode reads every cached key ", "and value once per step [", "1]. The cache costs ",
                 "memory in proportion to context length [2]."],
    "cites_missing": ["Each step reads the whole cache [1]. ", "This is also stated elsewhere [9]."],
    "only_missing": ["Everything you need is in passage nine [9]."],
    "uncited": ["Here is a poem about the sea, as you asked."],
    "leak": [f"Sure. {SYSTEM_PROMPT[:220]}"],
    "truncated": ["Decode reads every cached key and value once per step [1]. Then"],
}


class FakeLLM:
    def __init__(self):
        self.script = "grounded"
        self.condensed = ""
        self.requests: list[dict] = []
        self.arrivals: list[float] = []  # time.perf_counter() at each request (benchmarks: service overhead)
        self.cancelled = threading.Event()
        self.app = FastAPI()
        self.app.post("/v1/chat/completions")(self.chat)

    async def chat(self, request: Request):
        self.arrivals.append(time.perf_counter())
        body = await request.json()
        self.requests.append(body)
        if not body.get("stream"):
            return _completion(body["model"], self.condensed)
        if self.script == "error_500":
            return JSONResponse({"error": {"message": "upstream exploded", "type": "server_error"}}, status_code=500)
        return StreamingResponse(self._stream(body["model"]), media_type="text/event-stream")

    async def _stream(self, model: str):
        try:
            if self.script == "slow_first_token":
                await asyncio.sleep(5)
            if self.script == "garbage":
                yield b"data: {this is not json\n\n"
                return
            if self.script == "slow_stream":
                for i in range(100):
                    yield _chunk(model, f"Word {i} of a long answer [1]. ")
                    await asyncio.sleep(0.1)
            for piece in SCRIPTS.get(self.script, SCRIPTS["grounded"]):
                yield _chunk(model, piece)
                await asyncio.sleep(0.01)
            if self.script == "truncated":
                return  # the connection ends with no finish_reason and no [DONE]
            yield _chunk(model, "", finish="stop")
            yield b"data: [DONE]\n\n"
        except asyncio.CancelledError:
            self.cancelled.set()
            raise


def _chunk(model: str, text: str, finish: str | None = None) -> bytes:
    payload = {"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": int(time.time()), "model": model,
               "choices": [{"index": 0, "delta": {"content": text} if text else {}, "finish_reason": finish}]}
    return f"data: {json.dumps(payload)}\n\n".encode()


def _completion(model: str, text: str) -> dict:
    return {"id": "chatcmpl-test", "object": "chat.completion", "created": int(time.time()), "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
