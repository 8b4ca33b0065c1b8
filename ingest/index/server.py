"""The index on a Qdrant server or cluster through qdrant-client (`QDRANT_URL`).

One collection per release (`<alias>-<release>`), and the alias `<alias>` names the live one; the
alias is switched in a single `update_collection_aliases` call, so readers never see a half-built index.
The release manifest lives in the collection's metadata.

Every call goes through `_Guarded`: a per-request timeout, a bounded number of retries with exponential
backoff on transient failures (connection refused or reset, timeouts, 502/503/504), and any failure
that remains leaves as a `StoreError`, which the service turns into a 503 with `Retry-After`.
"""
from __future__ import annotations

import logging

import httpx
import numpy as np
from qdrant_client import QdrantClient, models
from qdrant_client.http.exceptions import ApiException, ResponseHandlingException, UnexpectedResponse
from tenacity import Retrying, retry_if_exception, stop_after_attempt, stop_after_delay, wait_exponential_jitter

from ..embedding.unit_vectors import UNIT_VECTORS, UNITS_HASH
from ..errors import IncompleteRelease, StoreError
from .interface import Point
from .schema import (DENSE, MODES, PAYLOAD_INDEXES, PREFETCH, RRF_K, SPARSE, TIE_SLACK, Hit, Scope, StoredVectors,
                     point_id, point_payload, ranked_hits, stored_vectors)

_TRANSIENT_STATUS = {502, 503, 504}

log = logging.getLogger("ingest.index.server")


def _transient(exc: BaseException) -> bool:
    """Worth another try: the transport failed (refused, reset, timed out) or a proxy/node said "not now"."""
    if isinstance(exc, UnexpectedResponse):
        return exc.status_code in _TRANSIENT_STATUS
    return isinstance(exc, (ResponseHandlingException, httpx.TransportError, ConnectionError, TimeoutError))


def _describe(exc: BaseException) -> str:
    if isinstance(exc, ResponseHandlingException):
        exc = exc.source
    if isinstance(exc, UnexpectedResponse):
        return f"HTTP {exc.status_code} {exc.reason_phrase}".strip()
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


class _Guarded:
    """A QdrantClient whose every method retries transient failures a bounded number of times, then raises StoreError."""

    def __init__(self, client: QdrantClient, where: str, attempts: int = 3, deadline_s: float = 15.0):
        self._client, self._where = client, where
        self._retrying = Retrying(
            retry=retry_if_exception(_transient), reraise=True,
            stop=stop_after_attempt(max(1, attempts)) | stop_after_delay(deadline_s),
            wait=wait_exponential_jitter(multiplier=0.2, max=2.0, jitter=0.1),
            before_sleep=lambda state: log.warning("Qdrant call failed (%s), retrying (attempt %d)",
                                                   _describe(state.outcome.exception()), state.attempt_number),
        )

    def __getattr__(self, name: str):
        attr = getattr(self._client, name)
        if not callable(attr):
            return attr

        def call(*args, **kwargs):
            try:
                return self._retrying.copy()(attr, *args, **kwargs)  # a copy per call: no state shared by threads
            except (ApiException, httpx.HTTPError, OSError) as exc:
                raise StoreError(f"Qdrant at {self._where} failed ({name}): {_describe(exc)}") from exc

        return call


def _sparse(vector) -> models.SparseVector:
    return models.SparseVector(indices=list(vector.indices), values=list(vector.values))


class ServerStore:
    def __init__(self, url: str, alias: str, api_key: str | None = None, client: QdrantClient | None = None,
                 timeout_s: float = 5.0, attempts: int = 3, shards: int = 1, replication_factor: int = 1):
        self.alias = alias
        self.shards, self.replication_factor = shards, replication_factor
        if client is None and url == ":memory:":
            client = QdrantClient(":memory:")
        elif client is None:
            # No version probe at construction: a server that is down must not block start-up; calls report it.
            client = QdrantClient(url=url, api_key=api_key, timeout=max(1, round(timeout_s)), check_compatibility=False)
        # Bounded: at most `attempts` tries, and no retry starts after ~3 timeouts have passed.
        self.client = _Guarded(client, url, attempts, deadline_s=3 * timeout_s)

    def _collection(self, release_id: str) -> str:
        return f"{self.alias}-{release_id}"

    def live_release(self) -> str | None:
        for alias in self.client.get_aliases().aliases:
            if alias.alias_name == self.alias:
                return alias.collection_name.removeprefix(f"{self.alias}-")
        return None

    def open(self, release: str | None = None) -> "ServerReader":
        release = release or self.live_release()
        if not release:
            raise StoreError(f"no index release is live in Qdrant (alias '{self.alias}'): run `python -m ingest build`")
        return ServerReader(self.client, self._collection(release))

    def new_release(self, release_id: str, dimension: int) -> "ServerWriter":
        name = self._collection(release_id)
        self.client.create_collection(
            name,
            vectors_config={DENSE: models.VectorParams(size=dimension, distance=models.Distance.COSINE)},
            sparse_vectors_config={SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)},
            shard_number=self.shards, replication_factor=self.replication_factor,
        )
        for field in PAYLOAD_INDEXES:
            self.client.create_payload_index(name, field, models.PayloadSchemaType.KEYWORD)
        return ServerWriter(self.client, name)

    def promote(self, release_id: str) -> None:
        name = self._collection(release_id)
        if not (self.client.get_collection(name).config.metadata or {}).get("complete"):
            raise IncompleteRelease(f"release {release_id} is not complete; refusing to promote it")
        ops: list = [models.CreateAliasOperation(create_alias=models.CreateAlias(collection_name=name, alias_name=self.alias))]
        if self.live_release():
            ops.insert(0, models.DeleteAliasOperation(delete_alias=models.DeleteAlias(alias_name=self.alias)))
        self.client.update_collection_aliases(change_aliases_operations=ops)

    def releases(self) -> list[str]:
        prefix = f"{self.alias}-"
        return sorted(c.name.removeprefix(prefix) for c in self.client.get_collections().collections if c.name.startswith(prefix))

    def prune(self, keep: int) -> list[str]:
        live = self.live_release()
        complete = [r for r in self.releases()
                    if (self.client.get_collection(self._collection(r)).config.metadata or {}).get("complete")]
        doomed = [r for r in self.releases() if r not in complete[-keep:] and r != live]
        for release in doomed:
            self.client.delete_collection(self._collection(release))
        return doomed


class ServerWriter:
    def __init__(self, client: QdrantClient, name: str):
        self.client, self.name = client, name

    def write(self, points: list[Point]) -> None:
        self.client.upsert(self.name, points=[
            models.PointStruct(id=point_id(p), vector={DENSE: dense, SPARSE: _sparse(sparse)}, payload=point_payload(p, units))
            for p, dense, sparse, units in points
        ])

    def finish(self, manifest: dict) -> "ServerReader":
        self.client.update_collection(self.name, metadata={**manifest, "complete": True})
        return ServerReader(self.client, self.name)

    def abort(self) -> None:
        self.client.delete_collection(self.name)


def _filter(scope: Scope | None) -> models.Filter | None:
    if not scope:
        return None
    kind_and_ids = lambda kind, ids: models.Filter(must=[  # noqa: E731
        models.FieldCondition(key="kind", match=models.MatchValue(value=kind)),
        models.FieldCondition(key="doc_id", match=models.MatchAny(any=ids))])
    return models.Filter(should=[kind_and_ids(kind, ids) for kind, ids in scope.items() if ids])


class ServerReader:
    def __init__(self, client: QdrantClient, name: str):
        self.client, self.name = client, name
        try:
            self.manifest = dict(client.get_collection(name).config.metadata or {})
        except Exception as exc:
            raise StoreError(f"Qdrant collection {name} cannot be read: {exc}") from exc

    def search(self, dense: np.ndarray, sparse, scope: Scope | None = None, limit=10, mode="hybrid",
               units: np.ndarray | None = None) -> list[Hit]:
        assert mode in MODES
        flt = _filter(scope)
        dense_q, sparse_q = dense.tolist(), _sparse(sparse)
        common = dict(limit=limit + TIE_SLACK, with_payload=True, with_vectors=[DENSE], query_filter=flt)
        if mode == "hybrid":
            result = self.client.query_points(
                self.name,
                prefetch=[models.Prefetch(query=dense_q, using=DENSE, limit=PREFETCH, filter=flt),
                          models.Prefetch(query=sparse_q, using=SPARSE, limit=PREFETCH, filter=flt)],
                query=models.RrfQuery(rrf=models.Rrf(k=RRF_K)), **common)
        else:
            result = self.client.query_points(self.name, query=dense_q if mode == "dense" else sparse_q,
                                              using=DENSE if mode == "dense" else SPARSE, **common)
        return ranked_hits(result.points, dense, limit, units)

    def count(self) -> int:
        return self.client.count(self.name, exact=True).count

    def ping(self) -> None:
        """A cheap round trip: raises StoreError when the server is unreachable or the collection is gone."""
        if not self.client.collection_exists(self.name):
            raise StoreError(f"Qdrant collection {self.name} no longer exists")

    def vectors_by_hash(self, model_id: str) -> dict[str, StoredVectors]:
        if self.manifest.get("model_id") != model_id:
            return {}
        out, offset = {}, None
        while True:
            records, offset = self.client.scroll(self.name, limit=256, offset=offset, with_vectors=[DENSE],
                                                 with_payload=["content_hash", UNITS_HASH, UNIT_VECTORS])
            out.update({r.payload["content_hash"]: stored_vectors(r.payload, r.vector[DENSE]) for r in records})
            if offset is None:
                return out

    def close(self) -> None:
        pass
