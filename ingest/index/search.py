"""The read side of the index, used by the service: embed a question once, search the live release.

The live release is re-checked every few seconds, so a promotion (`ingest build`, `make release`)
is picked up without a restart. A reader that is in use keeps its release until the searches running
on it finish; the replaced reader is closed once the last of them is done.
"""
from __future__ import annotations

import logging
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator, Protocol

import numpy as np
import qdrant_edge

from ..embedding.sparse import sparse_query
from ..errors import StoreError
from .interface import IndexReader, IndexStore
from .schema import Hit, Scope

log = logging.getLogger("ingest.index.search")


class QueryEncoder(Protocol):
    def encode_query(self, text: str) -> np.ndarray: ...


@dataclass(frozen=True)
class Query:
    text: str
    dense: np.ndarray
    sparse: qdrant_edge.SparseVector
    # the vector the passages' units (sentences) are compared with: a trained question adapter's output, which
    # matches a question to the sentence that answers it better than `dense` does; None: `dense`
    units: np.ndarray | None = None


class _Lease:
    """A reader and the number of searches using it; a retired reader is closed when that reaches 0."""

    def __init__(self, reader: IndexReader):
        self.reader, self.users, self.retired = reader, 0, False


class Searcher:
    def __init__(self, store: IndexStore, embedder: QueryEncoder, check_interval_s: float = 2.0, pinned: str | None = None):
        self.store = store
        self.pinned = pinned  # a fixed release (e.g. a staging build under evaluation): never switched
        self.embedder = embedder
        self.check_interval_s = check_interval_s
        self._lease: _Lease | None = None
        self._failure: StoreError | None = None  # the last check's error, answered until the next check is due
        self._checked_at = 0.0
        self._lock = threading.Lock()  # one check of the store at a time
        self._leases = threading.Lock()  # guards lease counts

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
        if self._lease is None:
            raise self._failure or StoreError("no index release is open")
        return self._lease.reader

    @contextmanager
    def reading(self) -> Iterator[IndexReader]:
        """The live reader, held for the block: a promotion meanwhile closes it only afterwards."""
        self.reader  # noqa: B018 - checks for a new release first
        with self._leases:
            lease = self._lease
            lease.users += 1
        try:
            yield lease.reader
        finally:
            with self._leases:
                lease.users -= 1
                done = lease.retired and lease.users == 0
            if done:
                _close(lease.reader)

    def _due(self) -> bool:
        never_checked = self._lease is None and self._failure is None
        return never_checked or time.monotonic() - self._checked_at > self.check_interval_s

    def _check(self) -> None:
        self._checked_at = time.monotonic()
        try:
            live = self.pinned or self.store.live_release()
            current = self._lease.reader if self._lease else None
            if current is None or (live and live != current.manifest.get("release_id")):
                self._switch(live)
            self._failure = None
        except StoreError as exc:
            self._failure = exc
            raise

    def _switch(self, live: str | None) -> None:
        """Open the new live release; one that cannot be opened (corrupted) never replaces a working reader."""
        try:
            reader = self.store.open(live)
        except StoreError as exc:
            if self._lease is None:
                raise
            log.error("index release %s cannot be opened, still serving %s: %s", live,
                      self._lease.reader.manifest.get("release_id"), exc)
            return
        with self._leases:
            old, self._lease = self._lease, _Lease(reader)
            if old is not None:
                old.retired = True
                idle = old.users == 0
        if old is not None and idle:
            _close(old.reader)

    @property
    def current(self) -> IndexReader | None:
        """The reader in use, without checking for a new release (never blocks on the store)."""
        return self._lease.reader if self._lease else None

    @property
    def release_id(self) -> str | None:
        try:
            return self.reader.manifest.get("release_id")
        except StoreError:
            return None

    def search(self, query: Query, scope: Scope | None = None, limit: int = 6, mode: str = "hybrid") -> list[Hit]:
        with self.reading() as reader:
            return reader.search(query.dense, query.sparse, scope, limit, mode, query.units)

    def close(self) -> None:
        with self._leases:
            lease, self._lease = self._lease, None
        if lease is not None:
            _close(lease.reader)


def _close(reader: IndexReader) -> None:
    try:
        reader.close()
    except Exception as exc:  # closing a replaced release must never fail a request
        log.warning("closing index release %s failed: %s", reader.manifest.get("release_id"), exc)
