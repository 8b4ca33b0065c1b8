"""The read side of the index, used by the service: embed a question once, search the live release.

The live release is re-checked every few seconds, so a promotion (`ingest build`, `make release`)
is picked up without a restart; a reader that is in use keeps its release until the switch.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

import numpy as np
import qdrant_edge

from .embedding import Embedder, sparse_query
from .store import Hit, IndexReader, IndexStore, Scope, StoreError

log = logging.getLogger("ingest.search")


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
        self._failure: StoreError | None = None  # the last check's error, answered until the next check is due
        self._checked_at = 0.0
        self._lock = threading.Lock()

    def query(self, text: str) -> Query:
        return Query(text, self.embedder.encode_query(text), sparse_query(text))

    @property
    def reader(self) -> IndexReader:
        """The live release's reader; raises StoreError when no release can be opened.

        At most one thread checks the store at a time, and at most once per `check_interval_s`: while a
        store is down (or hangs), waiting requests get the last check's error at once instead of each
        taking its turn at the store's timeout.
        """
        if self._due():
            with self._lock:
                if self._due():  # another thread may have checked while this one waited for the lock
                    self._check()
        if self._reader is None:
            raise self._failure or StoreError("no index release is open")
        return self._reader

    def _due(self) -> bool:
        never_checked = self._reader is None and self._failure is None
        return never_checked or time.monotonic() - self._checked_at > self.check_interval_s

    def _check(self) -> None:
        self._checked_at = time.monotonic()
        try:
            live = self.pinned or self.store.live_release()
            if self._reader is None or (live and live != self._reader.manifest.get("release_id")):
                self._reader = self._switch(live)
            self._failure = None
        except StoreError as exc:
            self._failure = exc
            raise

    def _switch(self, live: str | None) -> IndexReader:
        """Open the new live release; one that cannot be opened (corrupted) never replaces a working reader."""
        try:
            return self.store.open(live)
        except StoreError as exc:
            if self._reader is None:
                raise
            log.error("index release %s cannot be opened, still serving %s: %s", live, self._reader.manifest.get("release_id"), exc)
            return self._reader

    @property
    def current(self) -> IndexReader | None:
        """The reader in use, without checking for a new release (never blocks on the store)."""
        return self._reader

    @property
    def release_id(self) -> str | None:
        try:
            return self.reader.manifest.get("release_id")
        except StoreError:
            return None

    def search(self, query: Query, scope: Scope | None = None, limit: int = 6, mode: str = "hybrid") -> list[Hit]:
        return self.reader.search(query.dense, query.sparse, scope, limit, mode)
