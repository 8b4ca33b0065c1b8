"""The path of a question, top to bottom: route → retrieve → compose → respond."""
from __future__ import annotations

import time
import uuid
from contextlib import contextmanager
from dataclasses import asdict

from pydantic import ValidationError

from calculators import Calculation, calculate
from ingest.search import Searcher

from .catalogue import Catalogue
from .answers import FORMULA_PAGES, calculation_answer
from .compose import ExtractiveComposer, TermWeights
from .numeric_router import NumericRequest, UnknownModel, route_numeric
from .errors import ApiError
from .retrieval import Retrieved, Retriever
from .schemas import AskRequest, AskResponse
from .settings import Settings

EXTRACTIVE = "extractive"


class Assistant:
    def __init__(self, settings: Settings, searcher: Searcher, catalogue: Catalogue):
        self.settings = settings
        self.searcher = searcher
        self.catalogue = catalogue
        self.retriever = Retriever(searcher, catalogue, settings.top_k, settings.support_threshold, settings.scope_margin)
        self.composer = ExtractiveComposer(TermWeights(catalogue.texts()), settings.answer_sentences)

    def ask(self, request: AskRequest, mode: str = "hybrid") -> AskResponse:
        if request.article is not None and request.article not in self.catalogue.articles:
            raise ApiError(404, "unknown_article", f"there is no article with id '{request.article}'")
        timings: dict[str, float] = {}

        with timed(timings, "route"):
            numeric = route_numeric(request.question)
            calculation = self._calculate(numeric) if isinstance(numeric, NumericRequest) else None
        if isinstance(numeric, UnknownModel):
            return self._respond("calculator", None, numeric.message, [], None, timings)
        if calculation is not None and not numeric.explain:
            return self._respond("calculator", None, self._calculation_prose(calculation, numeric), [], calculation, timings)

        with timed(timings, "retrieve"):
            retrieved = self.retriever.retrieve(self.searcher.query(request.question), request.article, mode)
        with timed(timings, "compose"):
            answer, citations = self.composer.compose(request.question, retrieved.hits) if retrieved.supported else ("", [])
        if not citations:
            return self._respond("no_answer", None, self._not_covered(request.article, retrieved), [], calculation,
                                 timings, suggestions=self._suggestions(retrieved))
        return self._respond("retrieval", retrieved.scope, answer, [asdict(c) for c in citations], calculation, timings)

    def _respond(self, route, scope, answer, citations, calculation: Calculation | None, timings, suggestions=()) -> AskResponse:
        timings["total"] = round(sum(timings.values()), 2)
        return AskResponse(
            answer_id=str(uuid.uuid4()), route=route, scope=scope, answer=answer, citations=citations,
            calculation=calculation.model_dump() if calculation else None, generator=EXTRACTIVE,
            timings_ms=timings, suggestions=list(suggestions),
        )

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

    def _not_covered(self, article: str | None, retrieved: Retrieved) -> str:
        where = "this article or elsewhere on the site" if article else "the site"
        lines = [f"I can't find an answer to that in {where}, so I won't guess."]
        suggestions = self._suggestions(retrieved)
        if suggestions:
            lines.append("The closest sections are:")
            lines += [f"- [{s['title']} › {s['section']}]({s['url']})" for s in suggestions]
        return "\n".join(lines)

    @staticmethod
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
