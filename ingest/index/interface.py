"""What an index store is, whichever backend holds it: releases written beside the live one, and read."""
from __future__ import annotations

from typing import Protocol

import numpy as np
import qdrant_edge as edge

from ..embedding.unit_vectors import PackedUnits
from ..passage import Passage
from .schema import Hit, Scope, StoredVectors

# One point to write: the passage, its dense vector, its sparse BM25 vector and its units' packed vectors.
Point = tuple[Passage, list[float], edge.SparseVector, PackedUnits]


class IndexReader(Protocol):
    manifest: dict

    def search(self, dense: np.ndarray, sparse: edge.SparseVector, scope: Scope | None,
               limit: int, mode: str = "hybrid", units: np.ndarray | None = None) -> list[Hit]: ...
    def count(self) -> int: ...
    def ping(self) -> None: ...  # raises StoreError when the release can no longer be read (readiness)
    def vectors_by_hash(self, model_id: str) -> dict[str, StoredVectors]: ...
    def close(self) -> None: ...


class ReleaseWriter(Protocol):
    def write(self, points: list[Point]) -> None: ...
    def finish(self, manifest: dict) -> IndexReader: ...
    def abort(self) -> None: ...


class IndexStore(Protocol):
    def live_release(self) -> str | None: ...
    def open(self, release: str | None = None) -> IndexReader: ...
    def new_release(self, release_id: str, dimension: int) -> ReleaseWriter: ...
    def promote(self, release_id: str) -> None: ...  # raises IncompleteRelease for an unfinished build
    def releases(self) -> list[str]: ...
    def prune(self, keep: int) -> list[str]: ...
