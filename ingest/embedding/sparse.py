"""Sparse BM25 vectors with Qdrant's own tokenizer and stemmer (`qdrant_edge.Bm25`), for passages and questions."""
from __future__ import annotations

import qdrant_edge

BM25 = qdrant_edge.Bm25(qdrant_edge.Bm25Config(language="english"))


def sparse_document(text: str) -> qdrant_edge.SparseVector:
    return BM25.embed_document(text)


def sparse_query(text: str) -> qdrant_edge.SparseVector:
    return BM25.embed_query(text)
