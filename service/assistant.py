"""The path of a question, top to bottom: route → retrieve → compose → respond."""
from __future__ import annotations

import time
import uuid
from contextlib import contextmanager
from dataclasses import asdict

from ingest.search import Searcher

from .catalogue import Catalogue
from .compose import ExtractiveComposer, TermWeights
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
            query_text = request.question
        with timed(timings, "retrieve"):
            retrieved = self.retriever.retrieve(self.searcher.query(query_text), request.article, mode)
        with timed(timings, "compose"):
            if retrieved.supported:
                answer, citations = self.composer.compose(request.question, retrieved.hits)
                route = "retrieval" if citations else "no_answer"
            else:
                answer, citations, route = "", [], "no_answer"
            if route == "no_answer":
                answer = self._not_covered(request.article, retrieved)
        timings["total"] = round(sum(timings.values()), 2)
        return AskResponse(
            answer_id=str(uuid.uuid4()),
            route=route,
            scope=retrieved.scope if route == "retrieval" else None,
            answer=answer,
            citations=[asdict(c) for c in citations],
            calculation=None,
            generator=EXTRACTIVE,
            timings_ms=timings,
            suggestions=self._suggestions(retrieved) if route == "no_answer" else [],
        )

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
