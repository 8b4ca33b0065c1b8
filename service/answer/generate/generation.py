"""One LLM answer with its guard rails: streamed only once it cites, markers checked, prompt leaks caught,
and any failure replaced by the extractive answer before (or after) what the reader has already seen.

`Generation` is iterated for its text deltas (the SSE path shows them as they come; the JSON path just
drains them); once exhausted, `result` holds the complete answer, its citations and the generator.
"""
from __future__ import annotations

import logging
from typing import AsyncIterator, Callable

from ingest.index import Hit
from ingest.sentences import sentences

from ...errors import LLMFailure
from ...http import metrics
from ..markers import MarkerFilter, cited_sentences, pieces
from ..models import Citation
from ..terms import terms
from .client import ChatClient
from .prompt import answer_messages, leaks_prompt

log = logging.getLogger("service")
EXTRACTIVE = "extractive"

# The extractive answer over the same passages, numbered by rank (as the model saw them).
Fallback = Callable[[], tuple[str, list[Citation]]]


class Generation:
    def __init__(self, llm: ChatClient, question: str, hits: list[Hit], fallback: Fallback):
        self.llm, self.question, self.hits, self.fallback = llm, question, hits, fallback
        self.answer, self.citations, self.generator = "", [], llm.model

    async def __aiter__(self) -> AsyncIterator[str]:
        """Text is held back until the first valid `[n]` arrives, so a model that never cites (or fails
        early) is replaced by the extractive answer before the reader has seen a word of it. Markers
        pointing at passages that were not given are dropped on the way through."""
        markers = MarkerFilter(range(1, len(self.hits) + 1))
        held, shown, failure = "", "", None
        try:
            async for delta in self.llm.stream(answer_messages(self.question, self.hits)):
                held += markers.feed(delta)
                if leaks_prompt(shown + held):
                    failure = "prompt leak"  # caught before the leaked words reach the reader
                    break
                if markers.cited and held:
                    shown, text, held = shown + held, held, ""
                    yield text
            else:
                held += markers.flush()
                if not markers.cited:
                    failure = "no valid citation"
                elif held:
                    shown, text, held = shown + held, held, ""
                    yield text
        except LLMFailure as exc:
            failure = exc.reason
        if failure is None:
            self.answer, self.citations = shown.strip(), citations_for(shown, self.hits)
            return
        log.warning("llm fallback: %s", failure)
        metrics.record_llm_fallback(failure)
        self.generator = f"{EXTRACTIVE} (llm fallback: {failure})"
        extractive, citations = self.fallback()
        if shown:  # the reader already has part of a cited answer: keep it and add the extractive one
            yield "\n\n" + extractive
            merged = {c.n: c for c in [*citations_for(shown, self.hits), *citations]}
            self.answer, self.citations = f"{shown.rstrip()}\n\n{extractive}", sorted(merged.values(), key=lambda c: c.n)
        else:
            for piece in pieces(extractive):
                yield piece
            self.answer, self.citations = extractive, citations


def citations_for(answer: str, hits: list[Hit]) -> list[Citation]:
    """Citations of a generated answer: marker n is passage n, and the snippet is the passage sentence
    closest to what the answer said with it."""
    out = []
    for n, said in sorted(cited_sentences(answer).items()):
        if not 1 <= n <= len(hits):
            continue
        text = hits[n - 1].passage.text
        claim = terms(" ".join(said))
        snippet = max(sentences(text) or [text[:300]], key=lambda s: len(claim & terms(s)))
        out.append(Citation.of(n, hits[n - 1].passage, snippet))
    return out
