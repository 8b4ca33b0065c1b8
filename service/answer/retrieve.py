"""Retrieval: the passages that answer a question asked on a page, best first.

1. Candidates: hybrid search (dense + BM25, fused by Qdrant) over the whole site and, when the reader is
   on an article, over that article's own sections — two queries.
2. Ranking: each candidate's features (features.py) are scored by the trained passage ranker
   (`learned/passage_ranker.*`, gradient-boosted trees); without one, by the hand-set rule it replaced:
   cosine + `lexical_weight` × the share of the question's rarer terms the passage contains, a page's own
   sections preferred within `margin`.
Each passage's sentences are compared with the question as the trained question adapter maps it
(`learned/question_adapter.*`), which brings the sentence that answers closer than the raw vector does.
Whether the best of them answers at all is the judge's call (answerability.py).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ingest.index import Hit, Query, Searcher

from ..catalogue import Catalogue
from .features import Candidate, passage_features, question_features
from .learned import LinearModel, MatrixModel, TreeModel
from .reading import Reading
from .terms import TermWeights

CANDIDATES_PER_TIER = 12


@dataclass
class Retrieved:
    hits: list[Hit]  # the best `top_k` passages, best first
    support: float  # the best passage's cosine + lexical_weight × coverage (the question log reports it)
    candidates: list[Candidate]  # every candidate, ranked, with its features (for training and evals)
    question: dict[str, float]  # the question's features against them


class Retriever:
    def __init__(self, searcher: Searcher, catalogue: Catalogue, weights: TermWeights, english: frozenset[str],
                 top_k: int, margin: float, lexical_weight: float, ranker: LinearModel | TreeModel | None = None,
                 adapter: MatrixModel | None = None):
        self.searcher, self.catalogue, self.weights, self.english = searcher, catalogue, weights, english
        self.top_k, self.margin, self.lexical_weight, self.ranker = top_k, margin, lexical_weight, ranker
        self.adapter = adapter

    def retrieve(self, reading: Reading, query: Query, article: str | None, mode: str = "hybrid") -> Retrieved:
        if self.adapter is not None:  # sentences are compared with the question as the adapter maps it
            query = replace(query, units=self.adapter.apply(query.dense))
        candidates = self._candidates(query, article, mode)
        linked = {(kind, i) for kind, ids in (self.catalogue.linked(article) if article else {}).items() for i in ids}
        passage_features(reading, candidates, self.weights, article, linked)
        ranked = self._rank(candidates)
        question = question_features(reading, ranked, self.english, self.weights)
        support = max((self._rule(c) for c in ranked), default=0.0)
        return Retrieved([c.hit for c in ranked[:self.top_k]], support, ranked, question)

    def _candidates(self, query: Query, article: str | None, mode: str) -> list[Candidate]:
        """The site's best passages and the page's own, merged (a passage found by both keeps both ranks)."""
        found: dict[tuple, Candidate] = {}
        tiers = [("site", None)] + ([("page", {"article": [article]})] if article else [])
        for tier, scope in tiers:
            for rank, hit in enumerate(self.searcher.search(query, scope, CANDIDATES_PER_TIER, mode)):
                p = hit.passage
                candidate = found.setdefault((p.kind, p.doc_id, p.position), Candidate(hit))
                setattr(candidate, f"{tier}_rank", rank)
        return list(found.values())

    def _rank(self, candidates: list[Candidate]) -> list[Candidate]:
        if self.ranker is not None:
            for c, probability in zip(candidates, self.ranker.probabilities([c.features for c in candidates])):
                c.score = float(probability)
        else:  # the rule: support, with the page's own passages preferred unless clearly worse
            for c in candidates:
                c.score = self._rule(c) + self.margin * c.features["in_article"]
        # ties (mirrored ranks, equal scores) broken by cosine, then by position: reproducible
        return sorted(candidates, key=lambda c: (-c.score, -c.hit.dense_score, c.key))

    def _rule(self, c: Candidate) -> float:
        return c.features["cos"] + self.lexical_weight * c.features["cov"]
