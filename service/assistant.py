"""The path of a question, top to bottom: route → retrieve → compose → respond.

`prepare` does the routing and retrieval (CPU work, run in a thread); `events` composes the answer
as a stream of events — `meta`, `delta`…, `calculation`, `done` — which is what SSE clients read
and what `answer` collects into one JSON response, so every route and both outputs share one path.
"""
from __future__ import annotations

import asyncio
import logging
import time
import uuid
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import AsyncIterator

from fastapi.concurrency import run_in_threadpool
from pydantic import ValidationError

from calculators import Calculation, calculate
from ingest.search import Searcher
from ingest.store import Hit

from . import metrics
from .answers import FORMULA_PAGES, calculation_answer
from .catalogue import Catalogue
from .citations import MarkerFilter, citations_for
from .compose import Citation, ExtractiveComposer
from .terms import TermWeights
from .errors import ApiError
from .followup import previous_calculation, standalone_question
from .generator import ChatClient, LLMFailure
from .numeric_router import NumericRequest, UnknownModel, route_numeric
from .prompt import answer_messages, condense_messages, leaks_prompt
from .retrieval import Retrieved, Retriever
from .schemas import AskRequest, AskResponse
from .settings import Settings

log = logging.getLogger("service")
EXTRACTIVE = "extractive"
Event = tuple[str, dict]


@dataclass
class Prepared:
    """A routed, retrieved question, ready to be composed."""

    answer_id: str
    route: str  # retrieval | calculator | no_answer
    question: str  # the standalone question (follow-ups condensed)
    scope: str | None = None
    hits: list[Hit] = field(default_factory=list)
    text: str = ""  # the fixed answer of the calculator and no_answer routes
    calculation: Calculation | None = None
    suggestions: list[dict] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)


class Assistant:
    def __init__(self, settings: Settings, searcher: Searcher, catalogue: Catalogue):
        self.settings = settings
        self.searcher = searcher
        self.catalogue = catalogue
        weights = TermWeights(catalogue.texts())
        self.retriever = Retriever(searcher, catalogue, weights, settings.top_k, settings.support_threshold,
                                   settings.scope_margin, settings.lexical_weight)
        self.composer = ExtractiveComposer(weights, settings.answer_sentences)
        self.llm = (ChatClient(settings.llm_base_url, settings.llm_model or "default", settings.llm_api_key,
                               settings.llm_timeout_s, settings.llm_max_tokens) if settings.llm_base_url else None)

    # ---- route and retrieve ------------------------------------------------------------------

    async def prepare(self, request: AskRequest, mode: str = "hybrid") -> Prepared:
        if request.article is not None and request.article not in self.catalogue.articles:
            raise ApiError(404, "unknown_article", f"there is no article with id '{request.article}'")
        question = await self._standalone(request)
        return await run_in_threadpool(self._route_and_retrieve, request, question, mode)

    async def _standalone(self, request: AskRequest) -> str:
        if not request.history:
            return request.question
        if self.llm is not None:
            history = [t.model_dump() for t in request.history]
            try:
                return await self.llm.complete(condense_messages(request.question, history)) or request.question
            except LLMFailure as failure:
                metrics.record_llm_fallback(f"condense: {failure.reason}")
        return standalone_question(request.question, request.history)

    def _route_and_retrieve(self, request: AskRequest, question: str, mode: str) -> Prepared:
        prepared = Prepared(answer_id=str(uuid.uuid4()), route="retrieval", question=question)
        with timed(prepared.timings, "route"):
            numeric = route_numeric(request.question, previous_calculation(request.history))
            if numeric is None and question != request.question:
                numeric = route_numeric(question)
            calculation = self._calculate(numeric) if isinstance(numeric, NumericRequest) else None
        if isinstance(numeric, UnknownModel):
            prepared.route, prepared.text = "calculator", numeric.message
            return prepared
        if calculation is not None:
            prepared.calculation = calculation
            prepared.text = self._calculation_prose(calculation, numeric)
            if not numeric.explain:
                prepared.route = "calculator"
                return prepared
        with timed(prepared.timings, "retrieve"):
            retrieved = self.retriever.retrieve(self.searcher.query(question), request.article, mode)
        if retrieved.supported:
            prepared.scope, prepared.hits = retrieved.scope, retrieved.hits
        elif calculation is not None:
            prepared.route = "calculator"
        else:
            prepared.route = "no_answer"
            prepared.suggestions = _suggestions(retrieved)
            prepared.text = _not_covered(request.article, prepared.suggestions)
        return prepared

    @staticmethod
    def _calculate(numeric: NumericRequest) -> Calculation | None:
        """Run the calculator the router chose; inputs it cannot accept send the question to retrieval."""
        try:
            return calculate(numeric.calculator, numeric.inputs)
        except (ValidationError, ValueError):
            return None

    def _calculation_prose(self, calculation: Calculation, numeric: NumericRequest) -> str:
        formula_page = self.catalogue.concept(FORMULA_PAGES.get(calculation.calculator, ""))
        return calculation_answer(calculation, numeric.assumed, formula_page)

    # ---- compose and respond -----------------------------------------------------------------

    async def events(self, prepared: Prepared) -> AsyncIterator[Event]:
        """The answer as events; `done` carries the complete response."""
        started = time.perf_counter()
        if prepared.route != "retrieval":
            stream = self._fixed(prepared)
        elif self.llm is None:
            stream = self._extractive(prepared)
        else:
            stream = self._generated(prepared)
        answer, citations, generator = "", [], EXTRACTIVE
        async for name, data in stream:
            if name == "result":
                answer, citations, generator = data["answer"], data["citations"], data["generator"]
                continue
            yield name, data
        if prepared.calculation is not None:
            yield "calculation", prepared.calculation.model_dump()
        prepared.timings["compose"] = round((time.perf_counter() - started) * 1000, 2)
        prepared.timings["total"] = round(sum(v for k, v in prepared.timings.items() if k != "total"), 2)
        metrics.observe_answer(prepared.route, prepared.timings["total"], prepared.calculation, generator)
        yield "done", AskResponse(
            answer_id=prepared.answer_id, route=prepared.route, scope=prepared.scope, answer=answer,
            citations=[asdict(c) for c in citations],
            calculation=prepared.calculation.model_dump() if prepared.calculation else None,
            generator=generator, timings_ms=prepared.timings, suggestions=prepared.suggestions,
        ).model_dump()

    def _meta(self, prepared: Prepared, citations: list[Citation]) -> Event:
        return "meta", {"answer_id": prepared.answer_id, "route": prepared.route, "scope": prepared.scope,
                        "citations": [asdict(c) for c in citations]}

    async def _fixed(self, prepared: Prepared) -> AsyncIterator[Event]:
        yield self._meta(prepared, [])
        yield "delta", {"text": prepared.text}
        yield "result", {"answer": prepared.text, "citations": [], "generator": EXTRACTIVE}

    async def _extractive(self, prepared: Prepared, generator: str = EXTRACTIVE) -> AsyncIterator[Event]:
        answer, citations = self.composer.compose(prepared.question, prepared.hits)
        yield self._meta(prepared, citations)
        for sentence in _pieces(answer):
            yield "delta", {"text": sentence}
        yield "result", {"answer": answer, "citations": citations, "generator": generator}

    async def _generated(self, prepared: Prepared) -> AsyncIterator[Event]:
        """LLM answer, streamed once it has cited a passage; any failure falls back to extractive.

        Text is held back until the first valid `[n]` arrives, so a model that never cites (or
        fails early) is replaced by the extractive answer before the reader has seen a word of it.
        Markers pointing at passages that were not given are dropped on the way through.
        """
        given = self.composer.citations_by_rank(prepared.hits)
        yield self._meta(prepared, given)
        markers = MarkerFilter(range(1, len(prepared.hits) + 1))
        held, shown, failure = "", "", None
        try:
            async for delta in self.llm.stream(answer_messages(prepared.question, prepared.hits)):
                held += markers.feed(delta)
                if leaks_prompt(shown + held):
                    failure = "prompt leak"  # caught before the leaked words reach the reader
                    break
                if markers.cited and held:
                    shown, text, held = shown + held, held, ""
                    yield "delta", {"text": text}
            else:
                held += markers.flush()
                if not markers.cited:
                    failure = "no valid citation"
                elif held:
                    shown, text, held = shown + held, held, ""
                    yield "delta", {"text": text}
        except LLMFailure as exc:
            failure = exc.reason
        if failure is None:
            yield "result", {"answer": shown.strip(), "citations": citations_for(shown, prepared.hits),
                             "generator": self.llm.model}
            return
        log.warning("llm fallback: %s", failure)
        metrics.record_llm_fallback(failure)
        extractive, citations = self.composer.compose(prepared.question, prepared.hits, numbering="rank")
        if shown:  # the reader already has part of a cited answer: keep it and add the extractive one
            yield "delta", {"text": "\n\n" + extractive}
            citations = sorted({c.n: c for c in [*citations_for(shown, prepared.hits), *citations]}.values(),
                               key=lambda c: c.n)
            answer = f"{shown.rstrip()}\n\n{extractive}"
        else:
            for sentence in _pieces(extractive):
                yield "delta", {"text": sentence}
            answer = extractive
        yield "result", {"answer": answer, "citations": citations, "generator": f"{EXTRACTIVE} (llm fallback: {failure})"}

    async def respond(self, prepared: Prepared) -> AskResponse:
        """The whole answer as one response: the `done` event of the stream."""
        async for name, data in self.events(prepared):
            if name == "done":
                return AskResponse(**data)
        raise RuntimeError("the event stream ended without `done`")

    async def answer(self, request: AskRequest, mode: str = "hybrid") -> AskResponse:
        return await self.respond(await self.prepare(request, mode))

    def ask(self, request: AskRequest, mode: str = "hybrid") -> AskResponse:
        """Synchronous `answer`, for scripts and the eval runner (not for use inside an event loop)."""
        return asyncio.run(self.answer(request, mode))


def _pieces(answer: str) -> list[str]:
    """Stream an extractive answer sentence by sentence (each piece keeps its trailing space)."""
    parts = [p for p in answer.replace("] ", "]\x00").split("\x00") if p]
    return [p if i == len(parts) - 1 else p + " " for i, p in enumerate(parts)]


def _not_covered(article: str | None, suggestions: list[dict]) -> str:
    where = "this article or elsewhere on the site" if article else "the site"
    lines = [f"I can't find an answer to that in {where}, so I won't guess."]
    if suggestions:
        lines.append("The closest sections are:")
        lines += [f"- [{s['title']} › {s['section']}]({s['url']})" for s in suggestions]
    return "\n".join(lines)


def _suggestions(retrieved: Retrieved, limit: int = 3) -> list[dict]:
    seen, out = set(), []
    for hit in retrieved.hits:
        p = hit.payload
        if p["url"] not in seen:
            seen.add(p["url"])
            out.append({"title": p["title"], "section": p["section"] or p["title"], "url": p["url"]})
    return out[:limit]


@contextmanager
def timed(timings: dict[str, float], stage: str):
    """Add the wall time of the `with` block, in milliseconds, to `timings[stage]`."""
    start = time.perf_counter()
    yield
    timings[stage] = round((time.perf_counter() - start) * 1000, 2)
