"""Stemmed terms (Qdrant's own BM25 tokenizer) and their rarity across the corpus.

Shared by retrieval (does a passage contain what the question asks about?) and the extractive
composer (which sentence covers the question best?).
"""
from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache

from ingest.embedding import sparse_query


@lru_cache(maxsize=65536)  # passages and their sentences recur across questions: tokenize each once
def terms(text: str) -> frozenset[int]:
    return frozenset(sparse_query(text).indices)


class TermWeights:
    """Inverse document frequency of stemmed terms over the corpus sections."""

    def __init__(self, texts: list[str]):
        df = Counter(t for text in texts for t in terms(text))
        self.n = max(len(texts), 1)
        self.unseen = math.log(1 + self.n)  # a term no section contains weighs the most
        self.idf = {t: math.log(1 + self.n / c) for t, c in df.items()}
        self._weighted = lru_cache(maxsize=4096)(self._weigh)  # a question's terms are weighed once, not per passage

    def weight(self, term: int) -> float:
        return self.idf.get(term, self.unseen)

    def _weigh(self, question_terms: frozenset[int]) -> tuple[tuple[tuple[int, float], ...], float]:
        weighted = tuple((t, self.weight(t)) for t in question_terms)
        return weighted, sum(w for _, w in weighted)

    def coverage(self, question_terms: frozenset[int], text_terms: frozenset[int]) -> float:
        """Share of the question's weight (rare terms count more) that the text contains."""
        weighted, total = self._weighted(question_terms)
        return sum(w for t, w in weighted if t in text_terms) / total if total else 0.0
