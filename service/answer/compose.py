"""Extractive answers: choose the sentences of the retrieved passages that best answer the question.

Sentences are scored by how much of the question's vocabulary they cover (terms weighted by their
rarity in the corpus, stemmed with Qdrant's own BM25 tokenizer) plus how well their passage matched.
Near-duplicates are skipped, chosen sentences keep their source order, and each carries an `[n]`
marker whose citation snippet contains that very sentence.
"""
from __future__ import annotations

from dataclasses import dataclass

from ingest.index import Hit

from .models import Citation
from .sentences import first_sentence, sentences
from .terms import TermWeights, terms

# An article's reference list names where facts come from, not the facts: its entries answer a question
# about sources, but would crowd real sentences out of an answer. They count for half.
_REFERENCE_SECTIONS = frozenset({"sources", "references", "further reading"})
_REFERENCE_DISCOUNT = 0.5


@dataclass
class _Candidate:
    text: str
    terms: frozenset[int]
    hit_rank: int
    position: int
    score: float = 0.0


class ExtractiveComposer:
    def __init__(self, weights: TermWeights, max_sentences: int = 3):
        self.weights = weights
        self.max_sentences = max_sentences

    def compose(self, question: str, hits: list[Hit], numbering: str = "compact") -> tuple[str, list[Citation]]:
        """The answer with `[n]` markers and its citations.

        `compact` numbers the cited passages 1, 2, 3… in order of use; `rank` uses the passage's
        position in `hits` (1-based), matching the numbers an LLM was given for the same passages.
        """
        chosen = sorted(self._choose(terms(question), hits), key=lambda c: (c.hit_rank, c.position))
        numbers: dict[int, int] = {}
        quoted: dict[int, list[str]] = {}
        parts = []
        for cand in chosen:
            if cand.hit_rank not in numbers:
                numbers[cand.hit_rank] = len(numbers) + 1 if numbering == "compact" else cand.hit_rank + 1
                quoted[cand.hit_rank] = []
            quoted[cand.hit_rank].append(cand.text)
            parts.append(f"{cand.text} [{numbers[cand.hit_rank]}]")
        citations = [Citation.of(n, hits[rank].passage, " … ".join(quoted[rank])) for rank, n in numbers.items()]
        return " ".join(parts), citations

    def _choose(self, question_terms: frozenset[int], hits: list[Hit]) -> list[_Candidate]:
        candidates = []
        for rank, hit in enumerate(hits):
            discount = _REFERENCE_DISCOUNT if hit.passage.section.strip().lower() in _REFERENCE_SECTIONS else 1.0
            for position, text in enumerate(sentences(hit.passage.text)):
                if text.endswith(":"):  # it introduces a list the answer would not carry
                    continue
                cand = _Candidate(text, terms(text), rank, position)
                cand.score = discount * (self.weights.coverage(question_terms, cand.terms) + 0.5 * hit.dense_score) - 0.02 * rank
                candidates.append(cand)
        candidates.sort(key=lambda c: c.score, reverse=True)
        chosen: list[_Candidate] = []
        for cand in candidates:
            if len(chosen) == self.max_sentences or (chosen and cand.score < 0.6 * chosen[0].score):
                break
            if any(_similar(cand.terms, c.terms) for c in chosen):
                continue
            chosen.append(cand)
        return chosen


def citations_by_rank(hits: list[Hit]) -> list[Citation]:
    """Every passage as a citation numbered by rank, its first sentence as the snippet (what an LLM was given)."""
    return [Citation.of(rank + 1, hit.passage, first_sentence(hit.passage.text)) for rank, hit in enumerate(hits)]


def _similar(a: frozenset[int], b: frozenset[int]) -> bool:
    return bool(a and b) and len(a & b) / len(a | b) > 0.6
