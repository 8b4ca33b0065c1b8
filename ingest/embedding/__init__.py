"""Embedding: dense vectors (sentence-transformers / its ONNX export), sparse BM25 vectors, and the
micro-batcher that lets concurrent questions share one forward pass."""
from __future__ import annotations

from . import offline  # noqa: F401 - first: nothing below may reach a model hub
from .batching import BatchingEmbedder
from .dense import Embedder
from .sparse import sparse_document, sparse_query

__all__ = ["BatchingEmbedder", "Embedder", "sparse_document", "sparse_query"]
