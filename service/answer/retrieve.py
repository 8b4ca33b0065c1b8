"""Scoped retrieval: the article's own sections first, then the pages it links to, then the whole site.

A passage's support for a question is its dense cosine plus `lexical_weight` × the share of the
question's (rarity-weighted) terms it contains: meaning and vocabulary must both agree, which is what
tells "What is the roofline model?" (short, on-topic) from "How do I paginate a REST API?" (close in
embedding space, absent from the site). A tier answers when its best passage reaches the calibrated
threshold and is not clearly worse than the best passage anywhere (within `margin`); otherwise the
next, wider tier is tried. When no tier supports the question the result is unsupported, with the
closest passages of the narrowest tier kept as suggestions.
"""
from __future__ import annotations

from dataclasses import dataclass

from ingest.index import Hit, Query, Scope, Searcher

from ..catalogue import Catalogue
from .terms import TermWeights, terms


@dataclass
class Retrieved:
    hits: list[Hit]
    scope: str | None  # "article" | "site" | None when unsupported
    supported: bool
    support: float  # the best support found in any tier


class Retriever:
    def __init__(self, searcher: Searcher, catalogue: Catalogue, weights: TermWeights, top_k: int,
                 threshold: float, margin: float, lexical_weight: float):
        self.searcher, self.catalogue, self.weights = searcher, catalogue, weights
        self.top_k, self.threshold, self.margin, self.lexical_weight = top_k, threshold, margin, lexical_weight

    def support(self, question_terms: frozenset[int], hit: Hit) -> float:
        p = hit.passage
        text_terms = terms(f"{p.title} {p.section} {p.text}")
        return hit.dense_score + self.lexical_weight * self.weights.coverage(question_terms, text_terms)

    def tiers(self, article: str | None) -> list[tuple[str, Scope | None]]:
        if article is None:
            return [("site", None)]
        linked = self.catalogue.linked(article)
        return [("article", {"article": [article]})] + ([("site", linked)] if any(linked.values()) else []) + [("site", None)]

    def retrieve(self, query: Query, article: str | None, mode: str = "hybrid") -> Retrieved:
        question_terms = terms(query.text)

        def search(where: Scope | None) -> tuple[list[Hit], float]:
            hits = self.searcher.search(query, where, self.top_k, mode)
            return hits, max((self.support(question_terms, h) for h in hits), default=0.0)

        # The whole site is searched first: its best passage sets the bar ("the best anywhere") a narrower
        # tier is held to. The narrower tiers follow, narrowest first, and only until one wins, so a
        # question its article answers costs two Qdrant queries rather than three.
        *narrower, (_, everywhere) = self.tiers(article)
        site_hits, site_support = search(everywhere)
        best, closest = site_support, None
        for scope, where in narrower:
            hits, support = search(where)
            best = max(best, support)
            closest = hits if closest is None else closest  # the narrowest tier's: suggestions if none wins
            if self.wins(support, best):
                return Retrieved(hits, scope, True, best)
        if self.wins(site_support, best):
            return Retrieved(site_hits, "site", True, best)
        return Retrieved(site_hits if closest is None else closest, None, False, best)

    def wins(self, support: float, best: float) -> bool:
        """A tier answers if it clears the threshold and is nearly as good as the best page anywhere."""
        return support >= self.threshold and support >= best - self.margin
