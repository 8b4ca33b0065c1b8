"""Scoped retrieval: the article's own sections first, then the pages it links to, then the whole site.

A tier answers the question when its best passage is similar enough to the question (dense cosine
at or above the calibrated support threshold) and not clearly worse than the best passage anywhere
(within `margin`); otherwise the next, wider tier is tried. When no tier supports the question the
result is unsupported, with the closest passages of the narrowest tier kept as suggestions.
"""
from __future__ import annotations

from dataclasses import dataclass

from ingest.search import Query, Searcher
from ingest.store import Hit, Scope

from .catalogue import Catalogue


@dataclass
class Retrieved:
    hits: list[Hit]
    scope: str | None  # "article" | "site" | None when unsupported
    supported: bool

    @property
    def best_score(self) -> float:
        return max((h.dense_score for h in self.hits), default=0.0)


class Retriever:
    def __init__(self, searcher: Searcher, catalogue: Catalogue, top_k: int, threshold: float, margin: float):
        self.searcher, self.catalogue = searcher, catalogue
        self.top_k, self.threshold, self.margin = top_k, threshold, margin

    def tiers(self, article: str | None) -> list[tuple[str, Scope | None]]:
        if article is None:
            return [("site", None)]
        linked = self.catalogue.linked(article)
        return [("article", {"article": [article]})] + ([("site", linked)] if any(linked.values()) else []) + [("site", None)]

    def retrieve(self, query: Query, article: str | None, mode: str = "hybrid") -> Retrieved:
        results = [(scope, self.searcher.search(query, where, self.top_k, mode)) for scope, where in self.tiers(article)]
        best = max((h.dense_score for _, hits in results for h in hits), default=0.0)
        for scope, hits in results:
            tier_best = max((h.dense_score for h in hits), default=0.0)
            # A narrower tier wins if it supports the question nearly as well as the best page anywhere.
            if tier_best >= self.threshold and tier_best >= best - self.margin:
                return Retrieved(hits, scope, True)
        return Retrieved(results[0][1], None, False)
