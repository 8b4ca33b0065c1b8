"""Ask every golden question, once per retrieval mode, and record what came back.

Two targets speak the same small interface:
- `InProcessTarget` runs the service's question path in this process (`service.answer.open_assistant`,
  no HTTP stack), so the three retrieval modes (hybrid, dense-only, BM25-only) are compared on
  the same questions in one run, and the ranked passages behind each answer are recorded.
- `HttpTarget` posts to a deployed service's `/v1/ask`; it sees only what the API returns (the
  citations stand in for the retrieved passages) and only the service's own mode.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Iterable, Protocol

from tqdm import tqdm

from .datasets import Item
from .errors import EvalError

MODES = ("hybrid", "dense", "bm25")


@dataclass
class Context:
    """One retrieved passage, in rank order."""

    doc_id: str
    anchor: str
    text: str
    position: int = 0
    dense_score: float | None = None

    @property
    def section_id(self) -> str:
        return f"{self.doc_id}#{self.anchor}"


@dataclass
class Answer:
    """One question asked in one mode."""

    item_id: str
    mode: str
    route: str | None  # None when the request failed (see `error`)
    scope: str | None = None
    answer: str = ""
    citations: list[dict] = field(default_factory=list)
    calculation: dict | None = None
    contexts: list[Context] = field(default_factory=list)
    latency_ms: float = 0.0
    timings_ms: dict = field(default_factory=dict)
    generator: str | None = None
    error: str | None = None


class Target(Protocol):
    name: str
    modes: tuple[str, ...]
    release: str | None

    def ask(self, item: Item, mode: str) -> Answer: ...


class InProcessTarget:
    """The service's question path in this process (no HTTP), pinned to one index release (or the live one)."""

    modes = MODES

    def __init__(self, settings):
        self.settings = settings
        self.name = "in-process"
        self._opened = None

    def __enter__(self) -> "InProcessTarget":
        from service.answer import open_assistant

        self._opened = open_assistant(self.settings)
        self.assistant = self._opened.__enter__()
        self.release = self.assistant.searcher.release_id
        if self.release is None:
            self._opened.__exit__(None, None, None)
            raise EvalError("no index release can be opened: build one first (python -m ingest build)")
        return self

    def __exit__(self, *exc) -> None:
        self._opened.__exit__(*exc)

    @property
    def corpus(self):
        return self.assistant.catalogue.corpus

    def ask(self, item: Item, mode: str) -> Answer:
        import asyncio

        from pydantic import ValidationError

        from service.answer import AskRequest
        from service.errors import ApiError

        start = time.perf_counter()
        try:
            prepared = asyncio.run(self.assistant.prepare(AskRequest(question=item.question, article=item.article), mode))
            response = asyncio.run(self.assistant.respond(prepared))
        except (ValidationError, ApiError) as exc:
            return Answer(item.id, mode, None, latency_ms=_ms(start), error=f"{type(exc).__name__}: {exc}"[:300])
        latency = _ms(start)
        contexts = [Context(h.passage.doc_id, h.passage.anchor, h.passage.text, h.passage.position,
                            round(float(h.dense_score), 4)) for h in prepared.retrieved]
        body = response.model_dump()
        return Answer(item.id, mode, body["route"], body["scope"], body["answer"], body["citations"],
                      body["calculation"], contexts, latency, body["timings_ms"], body.get("generator"))


class HttpTarget:
    """A deployed service: POST {url}/v1/ask. Retrieval metrics are computed on its citations."""

    modes = ("hybrid",)

    def __init__(self, url: str, timeout_s: float = 30.0):
        self.url = url.rstrip("/")
        self.name = self.url
        self.timeout_s = timeout_s
        self.release = None
        self._http = None

    def __enter__(self) -> "HttpTarget":
        import httpx

        self._http = httpx.Client(base_url=self.url, timeout=self.timeout_s)
        try:
            ready = self._http.get("/readyz")
            if ready.status_code == 200:
                self.release = ready.json().get("release")
        except httpx.HTTPError as exc:
            raise EvalError(f"cannot reach {self.url}: {exc}") from exc
        return self

    def __exit__(self, *exc) -> None:
        self._http.close()

    def ask(self, item: Item, mode: str) -> Answer:
        import httpx

        start = time.perf_counter()
        try:
            reply = self._http.post("/v1/ask", json={"question": item.question, "article": item.article},
                                    headers={"X-Client": "eval"})  # eval runs are not logged as readers
        except httpx.HTTPError as exc:
            return Answer(item.id, mode, None, latency_ms=_ms(start), error=f"{type(exc).__name__}: {exc}"[:300])
        latency = _ms(start)
        if reply.status_code != 200:
            return Answer(item.id, mode, None, latency_ms=latency, error=f"HTTP {reply.status_code}: {reply.text[:200]}")
        body = reply.json()
        contexts = [Context(c["doc_id"], c.get("anchor") or "", c.get("snippet", "")) for c in body.get("citations", [])]
        return Answer(item.id, mode, body.get("route"), body.get("scope"), body.get("answer", ""), body.get("citations", []),
                      body.get("calculation"), contexts, latency, body.get("timings_ms", {}), body.get("generator"))


def run(items: list[Item], target: Target, modes: Iterable[str], progress: bool = True) -> list[Answer]:
    """Every item in every mode, mode by mode (so a mode's latencies are measured back to back)."""
    modes = [m for m in modes if m in target.modes]
    answers = []
    with tqdm(total=len(items) * len(modes), desc="asking", unit="q", disable=not progress) as bar:
        for mode in modes:
            bar.set_postfix_str(mode)
            for item in items:
                answers.append(target.ask(item, mode))
                bar.update()
    return answers


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 2)
