"""Section-first chunking: each `##` section is split into passages that fit the embedding window.

Sizes are counted in word pieces of the embedding model's own tokenizer, because all-MiniLM-L6-v2
reads at most 256 of them and silently drops the rest: a chunk sized in characters could lose its end.
"""
from __future__ import annotations

import hashlib
import re

from llama_index.core.node_parser import SentenceSplitter

from .corpus import Corpus, Document
from .embedding import Embedder
from .passage import Passage

_SAFETY_TOKENS = 8  # the splitter re-joins pieces with separators; leave room for that
_OVERLAP_TOKENS = 24  # consecutive passages of a long section share this many word pieces
# The section where the ask widget lives tells readers what to ask; it answers nothing itself.
_NOT_INDEXED = {"ask-about-this-article"}
# Bump when chunking changes in a way that changes chunks: it is part of the build's input fingerprint.
CHUNKER_VERSION = 2  # 2: a code block split across chunks is re-fenced in each
_FENCE = re.compile(r"^\s*(```|~~~)(.*)$", re.M)


def chunk_corpus(corpus: Corpus, embedder: Embedder) -> list[Passage]:
    chunker = _Chunker(embedder, corpus)
    return [chunk for doc in corpus.documents for chunk in chunker.chunk_document(doc)]


class _Chunker:
    def __init__(self, embedder: Embedder, corpus: Corpus):
        self.embedder = embedder
        self.corpus = corpus
        self.tokenize = lambda text: embedder.tokenizer.encode(text, add_special_tokens=False).ids

    def _splitter(self, budget: int) -> SentenceSplitter:
        overlap = min(_OVERLAP_TOKENS, budget // 4)
        return SentenceSplitter(chunk_size=budget, chunk_overlap=overlap, tokenizer=self.tokenize)

    def chunk_document(self, doc: Document) -> list[Passage]:
        passages: list[Passage] = []
        for section in doc.sections:
            if not section.text.strip() or section.anchor in _NOT_INDEXED:
                continue
            probe = Passage(doc.id, doc.kind, doc.title, section.heading, section.anchor, "", "", 0)
            budget = self.embedder.max_tokens - self.embedder.count_tokens(probe.embed_text) - _SAFETY_TOKENS
            for text in refence(section.text, self._split(section.text, budget)):
                passage = Passage(doc.id, doc.kind, doc.title, section.heading, section.anchor,
                                  self.corpus.url(doc, section.anchor), text, position=len(passages))
                passages.append(passage.with_hash(hashlib.sha256(passage.embed_text.encode()).hexdigest()))
        return passages

    def _split(self, text: str, budget: int) -> list[str]:
        """Split, then re-split any piece that still overflows the window with a smaller budget."""
        pieces = []
        for piece in self._splitter(max(budget, 32)).split_text(text):
            if len(self.tokenize(piece)) > budget and budget > 48:
                pieces += self._split(piece, budget - 16)
            else:
                pieces.append(piece)
        return pieces


def refence(text: str, pieces: list[str]) -> list[str]:
    """Each piece as Markdown that stands alone: a piece that starts inside a fenced code block gets the
    block's opening fence, and one that ends inside it gets a closing fence. Without this, the code in a
    chunk cut mid-block reads as prose (and the prose after its closing fence as code) to everything
    downstream: the extractive composer, the LLM, the widget. Pieces are substrings of `text`, in order."""
    fences = [(m.start(), m.group(1), m.group(2).strip()) for m in _FENCE.finditer(text)]
    out, cursor = [], 0
    for piece in pieces:
        start = text.find(piece, cursor)
        if start < 0:  # not located (cannot happen with the splitter's output): leave it as it is
            out.append(piece)
            continue
        cursor = start + 1
        before = [f for f in fences if f[0] < start]
        inside = [f for f in fences if start <= f[0] < start + len(piece)]
        opening = before[-1] if len(before) % 2 else None  # odd count: an unclosed block runs into the piece
        fixed = f"{opening[1]}{opening[2]}\n{piece}" if opening else piece
        if (len(before) + len(inside)) % 2:
            fixed += "\n" + (inside[-1][1] if inside else opening[1])
        out.append(fixed)
    return out
