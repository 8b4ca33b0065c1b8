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

from ingest.search import Query, Searcher
from ingest.store import Hit, Scope

from .catalogue import Catalogue
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
        p = hit.payload
        text_terms = terms(f"{p['title']} {p['section']} {p['text']}")
        return hit.dense_score + self.lexical_weight * self.weights.coverage(question_terms, text_terms)

    def tiers(self, article: str | None) -> list[tuple[str, Scope | None]]:
        if article is None:
            return [("site", None)]
        linked = self.catalogue.linked(article)
        return [("article", {"article": [article]})] + ([("site", linked)] if any(linked.values()) else []) + [("site", None)]

    def retrieve(self, query: Query, article: str | None, mode: str = "hybrid") -> Retrieved:
        question_terms = terms(query.text)
        results = []
        for scope, where in self.tiers(article):
            hits = self.searcher.search(query, where, self.top_k, mode)
            results.append((scope, hits, max((self.support(question_terms, h) for h in hits), default=0.0)))
        best = max(support for _, _, support in results)
        for scope, hits, support in results:
            # A narrower tier wins if it supports the question nearly as well as the best page anywhere.
            if support >= self.threshold and support >= best - self.margin:
                return Retrieved(hits, scope, True, best)
        return Retrieved(results[0][1], None, False, best)
