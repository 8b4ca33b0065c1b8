"""Extractive answers: choose the sentences of the retrieved passages that best answer the question.

Sentences are scored by how much of the question's vocabulary they cover (terms weighted by their
rarity in the corpus, stemmed with Qdrant's own BM25 tokenizer) plus how well their passage matched.
Near-duplicates are skipped, chosen sentences keep their source order, and each carries an `[n]`
marker whose citation snippet contains that very sentence.
"""
from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass

from ingest.store import Hit

from .terms import TermWeights, terms

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"“(\[]?[A-Z0-9])")
_MD_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# Emphasis marks: an asterisk touching a word (not the one in "4 * 3"), an underscore only outside a word
# (`num_key_value_heads` survives).
_EMPHASIS = re.compile(r"\*{1,3}(?=\S)|(?<=\S)\*{1,3}|(?<!\w)_{1,3}|_{1,3}(?!\w)")
_LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_MIN_WORDS, _MAX_WORDS = 5, 70
# An article's reference list names where facts come from, not the facts: its entries answer a question
# about sources, but would crowd real sentences out of an answer. They count for half.
_REFERENCE_SECTIONS = frozenset({"sources", "references", "further reading"})
_REFERENCE_DISCOUNT = 0.5


@dataclass
class Citation:
    n: int
    doc_id: str
    kind: str
    title: str
    section: str
    anchor: str
    url: str
    snippet: str


@dataclass
class _Candidate:
    text: str
    terms: frozenset[int]
    hit_rank: int
    position: int
    score: float = 0.0


def clean(text: str) -> str:
    """Markdown to plain prose: link text kept, emphasis dropped, code spans kept verbatim without backticks."""
    text, out, last = _MD_LINK.sub(r"\1", text), [], 0
    for span in _CODE_SPAN.finditer(text):
        out += [_EMPHASIS.sub("", text[last:span.start()]), span.group(2)]
        last = span.end()
    out.append(_EMPHASIS.sub("", text[last:]))
    return "".join(out).strip()


@lru_cache(maxsize=16384)
def sentences(markdown: str) -> tuple[str, ...]:
    """Prose sentences of a passage; code blocks, tables and headings are not answer material."""
    out, in_fence, paragraph = [], False, []

    def flush():
        if paragraph:
            out.extend(s.strip() for s in _SENTENCE_END.split(clean(" ".join(paragraph))) if s.strip())
            paragraph.clear()

    for line in markdown.splitlines():
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            in_fence = not in_fence
            flush()
            continue
        if in_fence or stripped.startswith(("|", "#")) or not stripped:
            flush()
            continue
        if _LIST_MARK.match(line):
            flush()
            stripped = _LIST_MARK.sub("", line).strip()
        paragraph.append(stripped)
    flush()
    return tuple(s for s in out if _MIN_WORDS <= len(s.split()) <= _MAX_WORDS)


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
        citations = [citation_of(n, hits[rank], " … ".join(quoted[rank])) for rank, n in numbers.items()]
        return " ".join(parts), citations

    def citations_by_rank(self, hits: list[Hit]) -> list[Citation]:
        """Every passage as a citation numbered by rank, its first sentence as the snippet."""
        return [citation_of(rank + 1, hit, (sentences(hit.payload["text"]) or [hit.payload["text"][:300]])[0])
                for rank, hit in enumerate(hits)]

    def _choose(self, question_terms: frozenset[int], hits: list[Hit]) -> list[_Candidate]:
        candidates = []
        for rank, hit in enumerate(hits):
            discount = _REFERENCE_DISCOUNT if hit.payload["section"].strip().lower() in _REFERENCE_SECTIONS else 1.0
            for position, text in enumerate(sentences(hit.payload["text"])):
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


def citation_of(n: int, hit: Hit, snippet: str) -> Citation:
    p = hit.payload
    return Citation(n, p["doc_id"], p["kind"], p["title"], p["section"], p["anchor"], p["url"], snippet)


def _similar(a: frozenset[int], b: frozenset[int]) -> bool:
    return bool(a and b) and len(a & b) / len(a | b) > 0.6
