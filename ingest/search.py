"""The read side of the index, used by the service: embed a question once, search the live release.

The live release is re-checked every few seconds, so a promotion (`ingest build`, `make release`)
is picked up without a restart; a reader that is in use keeps its release until the switch.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import numpy as np
import qdrant_edge

from .embedding import Embedder, sparse_query
from .store import Hit, IndexReader, IndexStore, Scope, StoreError


@dataclass
class Query:
    text: str
    dense: np.ndarray
    sparse: qdrant_edge.SparseVector


class Searcher:
    def __init__(self, store: IndexStore, embedder: Embedder, check_interval_s: float = 2.0, pinned: str | None = None):
        self.store = store
        self.pinned = pinned  # a fixed release (e.g. a staging build under evaluation): never switched
        self.embedder = embedder
        self.check_interval_s = check_interval_s
        self._reader: IndexReader | None = None
        self._checked_at = 0.0
        self._lock = threading.Lock()

    def query(self, text: str) -> Query:
        return Query(text, self.embedder.encode_query(text), sparse_query(text))

    @property
    def reader(self) -> IndexReader:
        """The live release's reader; raises StoreError when no release can be opened."""
        now = time.monotonic()
        if self._reader is None or now - self._checked_at > self.check_interval_s:
            with self._lock:
                self._checked_at = now
                live = self.pinned or self.store.live_release()
                if self._reader is None or (live and live != self._reader.manifest.get("release_id")):
                    self._reader = self.store.open(live)
        return self._reader

    @property
    def release_id(self) -> str | None:
        try:
            return self.reader.manifest.get("release_id")
        except StoreError:
            return None

    def search(self, query: Query, scope: Scope | None = None, limit: int = 6, mode: str = "hybrid") -> list[Hit]:
        return self.reader.search(query.dense, query.sparse, scope, limit, mode)
