"""A client for any OpenAI-compatible chat-completions endpoint (vLLM, Ollama, llama.cpp, hosted APIs).

Streams text deltas over SSE with httpx. Every way the call can go wrong — timeout, refused
connection, HTTP error, a malformed or truncated stream — is raised as `LLMFailure` with a short
reason, so the caller can fall back to the extractive answer and say why.
"""
from __future__ import annotations

import asyncio
import json
import ssl
from typing import AsyncIterator

import certifi
import httpx

from ...errors import LLMFailure


class ChatClient:
    def __init__(self, base_url: str, model: str, api_key: str | None, timeout_s: float, max_tokens: int):
        self.model = model
        self.timeout_s = timeout_s
        self.max_tokens = max_tokens
        self.base_url = base_url.rstrip("/")
        self.headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.tls = ssl.create_default_context(cafile=certifi.where())  # built once: loading CAs costs ~30 ms

    def _http(self) -> httpx.AsyncClient:
        """A client per call, so it is never tied to another event loop; the TLS context is shared."""
        return httpx.AsyncClient(base_url=self.base_url, headers=self.headers, verify=self.tls,
                                 timeout=httpx.Timeout(self.timeout_s, connect=min(5.0, self.timeout_s)))

    def _body(self, messages: list[dict], stream: bool, max_tokens: int | None = None) -> dict:
        return {"model": self.model, "messages": messages, "stream": stream, "temperature": 0.1,
                "max_tokens": max_tokens or self.max_tokens}

    async def stream(self, messages: list[dict]) -> AsyncIterator[str]:
        """Yield the answer's text as it arrives; the whole call must finish within `timeout_s`."""
        try:
            async with asyncio.timeout(self.timeout_s):
                async with self._http() as http, http.stream("POST", "/chat/completions", json=self._body(messages, True)) as response:
                    if response.status_code >= 400:
                        raise LLMFailure(f"http {response.status_code}")
                    finished = False
                    async for line in response.aiter_lines():
                        if not line.startswith("data:"):
                            continue
                        payload = line[5:].strip()
                        if payload == "[DONE]":
                            finished = True
                            break
                        text, reason = _delta(payload)
                        if text:
                            yield text
                        if reason:
                            finished = True
                    if not finished:
                        raise LLMFailure("truncated stream")
        except TimeoutError:
            raise LLMFailure("timeout") from None
        except httpx.TimeoutException:
            raise LLMFailure("timeout") from None
        except httpx.ConnectError:
            raise LLMFailure("connection refused") from None
        except httpx.HTTPError as exc:
            raise LLMFailure(f"transport error: {type(exc).__name__}") from None

    async def complete(self, messages: list[dict], max_tokens: int = 120) -> str:
        """One short non-streamed completion (used to condense follow-up questions)."""
        try:
            async with asyncio.timeout(self.timeout_s):
                async with self._http() as http:
                    response = await http.post("/chat/completions", json=self._body(messages, False, max_tokens))
        except (TimeoutError, httpx.TimeoutException):
            raise LLMFailure("timeout") from None
        except httpx.HTTPError:
            raise LLMFailure("connection refused") from None
        if response.status_code >= 400:
            raise LLMFailure(f"http {response.status_code}")
        try:
            return str(response.json()["choices"][0]["message"]["content"]).strip()
        except (ValueError, KeyError, IndexError, TypeError):
            raise LLMFailure("malformed response") from None


def _delta(payload: str) -> tuple[str, str | None]:
    """(text, finish_reason) of one chat.completion.chunk."""
    try:
        choice = json.loads(payload)["choices"][0]
        return (choice.get("delta") or {}).get("content") or "", choice.get("finish_reason")
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        raise LLMFailure("malformed stream") from None
