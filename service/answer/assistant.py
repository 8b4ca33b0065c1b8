"""The path of a question, top to bottom: route → retrieve → compose → respond.

`prepare` routes and retrieves (CPU work, run in a worker thread). The prepared question is then
composed and answered either as one JSON response (`respond`) or as a stream of events (`stream`:
`meta`, `delta`…, `calculation`, `done`); both build the same `AskResponse` from the same composition.
"""
from __future__ import annotations

import asyncio
import logging
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import AsyncIterator

from fastapi.concurrency import run_in_threadpool
from pydantic import ValidationError

from calculators import Calculation, calculate
from ingest.index import Hit, Searcher

from ..catalogue import Catalogue
from ..errors import ApiError, LLMFailure
from ..http import metrics
from ..settings import Settings
from .answerability import Judge
from .compose import ExtractiveComposer, Quote, citations_by_rank
from .generate import EXTRACTIVE, ChatClient, Generation, condense_messages
from .markers import pieces
from .models import AskRequest, AskResponse, Citation, Route, Suggestion
from .asked_unit import units_asked
from .prose import FORMULA_PAGES, calculation_answer, closest_sections, not_covered
from .learned import load_model
from .reading import Reader, Reading
from .retrieve import Retriever
from .spelling import Speller
from .route import tagger
from .route.followup import standalone_question
from .route.numeric import NumericRequest, UnknownName, previous_calculation, route_numeric
from .terms import TermWeights

log = logging.getLogger("service")
Event = tuple[str, dict]  # (SSE event name, its JSON data)


@dataclass
class Prepared:
    """A routed, retrieved question, ready to be composed."""

    answer_id: str
    route: Route
    question: str  # the standalone question (follow-ups condensed)
    scope: str | None = None
    hits: list[Hit] = field(default_factory=list)  # the passages the answer is composed from
    retrieved: list[Hit] = field(default_factory=list)  # what retrieval returned, supported or not (evals read it)
    text: str = ""  # the fixed answer of the calculator and no_answer routes
    calculation: Calculation | None = None
    suggestions: list[Suggestion] = field(default_factory=list)
    support: float | None = None  # the best support retrieval found (None when it did not run)
    reading: Reading | None = None  # the question as retrieval read it (typos fixed, "it" resolved)
    quotes: list[Quote] = field(default_factory=list)  # the scored sentences of the best passages
    confidence: float | None = None  # the judge's confidence that the site answers the question
    timings: dict[str, float] = field(default_factory=dict)


@dataclass
class Composed:
    """The answer text, its citations, and what wrote it."""

    answer: str
    citations: list[Citation]
    generator: str = EXTRACTIVE


class Assistant:
    def __init__(self, settings: Settings, searcher: Searcher, catalogue: Catalogue):
        self.settings = settings
        self.searcher = searcher
        self.catalogue = catalogue
        texts = catalogue.texts()
        weights = TermWeights(texts)
        speller = Speller(texts + [d.title for d in catalogue.corpus.documents])
        self.reader = Reader(speller, catalogue.subjects(), catalogue.page_terms(), frozenset(weights.idf))
        self.page_calculators = catalogue.page_calculators()  # article id → the calculator its page is about
        self.retriever = Retriever(searcher, catalogue, weights, speller.english, settings.top_k,
                                   settings.scope_margin, settings.lexical_weight, ranker=load_model("passage_ranker"),
                                   adapter=load_model("question_adapter"))
        self.composer = ExtractiveComposer(weights, settings.answer_sentences, load_model("sentence_ranker"))
        self.judge = Judge(settings.support_threshold, load_model("answerable"))
        tagger.warm()  # the numeric tagger's spaCy pipeline, built now rather than on a reader's first question
        self.llm = (ChatClient(settings.llm_base_url, settings.llm_model or "default", settings.llm_api_key,
                               settings.llm_timeout_s, settings.llm_max_tokens) if settings.llm_base_url else None)

    # ---- 1. route, 2. retrieve ------------------------------------------------------------------

    async def prepare(self, request: AskRequest, mode: str = "hybrid") -> Prepared:
        if request.article is not None and request.article not in self.catalogue.articles:
            raise ApiError(404, "unknown_article", f"there is no article with id '{request.article}'")
        question = await self._standalone(request)
        # Routing is about a millisecond of pure Python, so it runs on the event loop: a calculator answer
        # never waits for a worker thread. Retrieval blocks on the embedder, so it takes a thread.
        prepared = self._route(request, question)
        if prepared.route == "retrieval":
            await run_in_threadpool(self._retrieve, prepared, request, mode)
        return prepared

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

    def _route(self, request: AskRequest, question: str) -> Prepared:
        """A calculator answer when the question is a calculation (route "calculator"), else route "retrieval"
        (a calculation the question also wants explained rides along)."""
        prepared = Prepared(answer_id=str(uuid.uuid4()), route="retrieval", question=question)
        with timed(prepared.timings, "route"):
            computes = self.page_calculators.get(request.article or "")  # what "it" computes on the reader's page
            numeric = self._read_numeric(request, question, computes)
            calculation = self._calculate(numeric) if isinstance(numeric, NumericRequest) else None
        if isinstance(numeric, UnknownName):  # a model or GPU the registries do not know: said, not guessed
            prepared.route, prepared.text = "calculator", numeric.message
        elif calculation is not None:
            prepared.calculation = calculation
            prepared.text = self._calculation_prose(calculation, numeric, question)
            if not numeric.explain:
                prepared.route = "calculator"
        return prepared

    @staticmethod
    def _read_numeric(request: AskRequest, question: str, computes: str | None):
        """The router's reading of the question (and of its standalone form). A reading that raises is a bug in
        the router, not in the question: it is logged and counted, and the reader is answered from the site."""
        try:
            numeric = route_numeric(request.question, previous_calculation(request.history), computes)
            if numeric is None and question != request.question:
                numeric = route_numeric(question)
            return numeric
        except Exception:
            log.exception("the numeric router failed on %r; answering from the site", request.question[:200])
            metrics.record_router_error()
            return None

    def _retrieve(self, prepared: Prepared, request: AskRequest, mode: str) -> None:
        question = prepared.question
        with timed(prepared.timings, "retrieve"):
            prepared.reading = reading = self.reader.read(question, request.article)
            retrieved = self.retriever.retrieve(reading, self.searcher.query(reading.text), request.article, mode)
            prepared.quotes = self.composer.candidates(reading, retrieved.hits)
            verdict = self.judge.decide(reading, retrieved, prepared.quotes)
        prepared.support, prepared.retrieved = retrieved.support, retrieved.hits
        prepared.confidence = verdict.confidence
        if verdict.supported:
            prepared.scope, prepared.hits = verdict.scope, retrieved.hits
        elif prepared.calculation is not None:
            prepared.route = "calculator"
        else:
            prepared.route = "no_answer"
            prepared.suggestions = closest_sections(retrieved.hits)
            prepared.text = not_covered(request.article, prepared.suggestions)

    @staticmethod
    def _calculate(numeric: NumericRequest) -> Calculation | None:
        """Run the calculator the router chose; inputs it refuses send the question to retrieval (logged, counted)."""
        try:
            return calculate(numeric.calculator, numeric.validated or numeric.inputs)
        except (ValidationError, ValueError) as exc:
            log.info("calculator %s refused %s: %s", numeric.calculator, numeric.inputs, str(exc).splitlines()[0])
            metrics.record_calculator_refused(numeric.calculator)
            return None

    def _calculation_prose(self, calculation: Calculation, numeric: NumericRequest, question: str) -> str:
        formula_page = self.catalogue.concept(FORMULA_PAGES.get(calculation.calculator, ""))
        return calculation_answer(calculation, numeric.assumed, formula_page, tuple(units_asked(question)))

    # ---- 3. compose -----------------------------------------------------------------------------

    def _extractive(self, prepared: Prepared) -> Composed:
        if prepared.route != "retrieval":
            return Composed(prepared.text, [])
        return Composed(*self.composer.compose(prepared.reading or prepared.question, prepared.hits, quotes=prepared.quotes))

    def _generation(self, prepared: Prepared) -> Generation | None:
        """The LLM's answer for a retrieval answer when an LLM is configured, else None (extractive)."""
        if self.llm is None or prepared.route != "retrieval":
            return None
        fallback = lambda: self.composer.compose(prepared.reading or prepared.question, prepared.hits,  # noqa: E731
                                                 numbering="rank")
        return Generation(self.llm, prepared.question, prepared.hits, fallback)

    # ---- 4. respond -----------------------------------------------------------------------------

    async def respond(self, prepared: Prepared) -> AskResponse:
        """The whole answer as one response."""
        started = time.perf_counter()
        generation = self._generation(prepared)
        if generation is None:
            composed = self._extractive(prepared)
        else:
            async for _ in generation:  # the deltas are only for streams
                pass
            composed = Composed(generation.answer, generation.citations, generation.generator)
        return self._response(prepared, composed, started)

    async def stream(self, prepared: Prepared) -> AsyncIterator[Event]:
        """The answer as events; `done` carries the complete response, exactly as `respond` returns it."""
        started = time.perf_counter()
        generation = self._generation(prepared)
        if generation is None:
            composed = self._extractive(prepared)
            yield self._meta(prepared, composed.citations)
            for piece in pieces(composed.answer):
                yield "delta", {"text": piece}
        else:
            yield self._meta(prepared, citations_by_rank(prepared.hits))  # every passage, numbered as the model saw it
            async for text in generation:
                yield "delta", {"text": text}
            composed = Composed(generation.answer, generation.citations, generation.generator)
        if prepared.calculation is not None:
            yield "calculation", prepared.calculation.model_dump()
        yield "done", self._response(prepared, composed, started).model_dump()

    def _meta(self, prepared: Prepared, citations: list[Citation]) -> Event:
        return "meta", {"answer_id": prepared.answer_id, "route": prepared.route, "scope": prepared.scope,
                        "citations": [c.model_dump() for c in citations]}

    def _response(self, prepared: Prepared, composed: Composed, started: float) -> AskResponse:
        timings = prepared.timings
        timings["compose"] = round((time.perf_counter() - started) * 1000, 2)
        timings["total"] = round(sum(v for k, v in timings.items() if k != "total"), 2)
        metrics.observe_answer(prepared.route, timings["total"], prepared.calculation, composed.generator)
        return AskResponse(
            answer_id=prepared.answer_id, route=prepared.route, scope=prepared.scope, answer=composed.answer,
            citations=composed.citations, generator=composed.generator, timings_ms=timings,
            calculation=prepared.calculation.model_dump() if prepared.calculation else None,
            suggestions=prepared.suggestions,
        )

    # ---- the whole path, for scripts and the eval runner -----------------------------------------

    async def answer(self, request: AskRequest, mode: str = "hybrid") -> AskResponse:
        return await self.respond(await self.prepare(request, mode))

    def ask(self, question: str | AskRequest, article: str | None = None, mode: str = "hybrid") -> AskResponse:
        """Synchronous `answer` for scripts (not for use inside a running event loop):
        `assistant.ask("who built it?", article="mooncake")`."""
        request = question if isinstance(question, AskRequest) else AskRequest(question=question, article=article)
        return asyncio.run(self.answer(request, mode))


@contextmanager
def timed(timings: dict[str, float], stage: str):
    """Add the wall time of the `with` block, in milliseconds, to `timings[stage]`."""
    start = time.perf_counter()
    yield
    timings[stage] = round((time.perf_counter() - start) * 1000, 2)
