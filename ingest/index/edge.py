"""The embedded index (the default): Qdrant Edge in-process, one shard directory per release.

Releases live under `<root>/releases/<id>/`; the `LIVE` pointer file names the one being served and
is replaced atomically (a rename) when a release is promoted.
"""
from __future__ import annotations

import json
import os
import shutil
from functools import lru_cache
from pathlib import Path
from typing import Iterator

import qdrant_edge as edge

from ..errors import IncompleteRelease, StoreError
from .interface import Point
from .schema import (DENSE, PAYLOAD_INDEXES, PREFETCH, RRF_K, SPARSE, TIE_SLACK, Hit, Scope, StoredVectors, point_id,
                     point_payload, ranked_hits, stored_vectors)


class EdgeStore:
    def __init__(self, root: Path):
        self.root = root
        self.releases_dir = root / "releases"

    def live_release(self) -> str | None:
        pointer = self.root / "LIVE"
        if not pointer.exists():
            return None
        return pointer.read_text().strip() or None

    def open(self, release: str | None = None) -> "EdgeReader":
        release = release or self.live_release()
        if not release:
            raise StoreError(f"no index release is live under {self.root}: run `python -m ingest build`")
        return EdgeReader(self.releases_dir / release)

    def new_release(self, release_id: str, dimension: int) -> "EdgeWriter":
        return EdgeWriter(self.releases_dir / release_id, dimension)

    def promote(self, release_id: str) -> None:
        """Point LIVE at the release with a rename, which is atomic: readers see old or new, never half."""
        if not (self.releases_dir / release_id / "manifest.json").exists():
            raise IncompleteRelease(f"release {release_id} is not complete; refusing to promote it")
        tmp = self.root / f"LIVE.{os.getpid()}.tmp"
        tmp.write_text(release_id + "\n")
        os.replace(tmp, self.root / "LIVE")

    def releases(self) -> list[str]:
        if not self.releases_dir.exists():
            return []
        return sorted(p.name for p in self.releases_dir.iterdir() if p.is_dir())

    def prune(self, keep: int) -> list[str]:
        """Delete all but the newest `keep` complete releases; the live one is never deleted."""
        live = self.live_release()
        complete = [r for r in self.releases() if (self.releases_dir / r / "manifest.json").exists()]
        doomed = [r for r in self.releases() if r not in complete[-keep:] and r != live]
        for release in doomed:
            shutil.rmtree(self.releases_dir / release, ignore_errors=True)
        return doomed


def _config(dimension: int) -> edge.EdgeConfig:
    return edge.EdgeConfig(
        vectors={DENSE: edge.EdgeVectorParams(size=dimension, distance=edge.Distance.Cosine)},
        sparse_vectors={SPARSE: edge.EdgeSparseVectorParams(modifier=edge.Modifier.Idf)},
        # A finished release is never written again; without a WAL (and its lock) the service and a
        # concurrent build can both open it. The writer flushes before the manifest marks it complete.
        wal_enabled=False,
    )


class EdgeWriter:
    def __init__(self, path: Path, dimension: int):
        self.path = path
        path.mkdir(parents=True, exist_ok=False)
        self.shard = edge.EdgeShard.create(str(path / "shard"), _config(dimension))
        for field in PAYLOAD_INDEXES:
            self.shard.update(edge.UpdateOperation.create_field_index(field, edge.PayloadSchemaType.Keyword))

    def write(self, points: list[Point]) -> None:
        batch = [edge.Point(id=point_id(p), vector={DENSE: dense, SPARSE: sparse}, payload=point_payload(p, units))
                 for p, dense, sparse, units in points]
        self.shard.update(edge.UpdateOperation.upsert_points(batch))

    def finish(self, manifest: dict) -> "EdgeReader":
        """Flush, then write the manifest last: its presence is what marks a release complete."""
        self.shard.optimize()
        self.shard.flush()
        self.shard.close()
        tmp = self.path / "manifest.json.tmp"
        tmp.write_text(json.dumps(manifest, indent=2))
        os.replace(tmp, self.path / "manifest.json")
        return EdgeReader(self.path)

    def abort(self) -> None:
        try:
            self.shard.close()
        finally:
            shutil.rmtree(self.path, ignore_errors=True)


def _filter(scope: Scope | None) -> edge.Filter | None:
    if not scope:
        return None
    return _filter_of(tuple((kind, tuple(ids)) for kind, ids in scope.items()))


@lru_cache(maxsize=256)  # a page's scope recurs with every question asked on it
def _filter_of(scope: tuple[tuple[str, tuple[str, ...]], ...]) -> edge.Filter:
    return edge.Filter(should=[
        edge.Filter(must=[edge.FieldCondition(key="kind", match=edge.MatchValue(kind)),
                          edge.FieldCondition(key="doc_id", match=edge.MatchAny(any=list(ids)))])
        for kind, ids in scope if ids
    ])


class EdgeReader:
    def __init__(self, path: Path):
        manifest = path / "manifest.json"
        if not manifest.exists():
            raise StoreError(f"index release {path.name} is incomplete (no manifest)")
        self.path = path
        try:
            self.manifest = json.loads(manifest.read_text())
            self.shard = edge.EdgeShard.load(str(path / "shard"))
        except Exception as exc:  # a corrupted release must be a clear error, not a crash
            raise StoreError(f"index release {path.name} cannot be opened: {exc}") from exc

    def search(self, dense, sparse, scope: Scope | None = None, limit=10, mode="hybrid", units=None) -> list[Hit]:
        flt = _filter(scope)
        dense_query = edge.Query.Nearest(dense.tolist(), using=DENSE)
        sparse_query = edge.Query.Nearest(sparse, using=SPARSE)
        if mode == "hybrid":
            request = edge.QueryRequest(
                limit=limit + TIE_SLACK,
                prefetches=[edge.Prefetch(limit=PREFETCH, query=dense_query, filter=flt),
                            edge.Prefetch(limit=PREFETCH, query=sparse_query, filter=flt)],
                query=edge.Fusion.Rrf(k=RRF_K), filter=flt, with_payload=True, with_vector=[DENSE],
            )
        else:
            query = dense_query if mode == "dense" else sparse_query
            request = edge.QueryRequest(limit=limit + TIE_SLACK, query=query, filter=flt, with_payload=True,
                                        with_vector=[DENSE])
        return ranked_hits(self.shard.query(request), dense, limit, units)

    def count(self) -> int:
        return self.shard.count(edge.CountRequest())

    def ping(self) -> None:
        if not (self.path / "manifest.json").exists():
            raise StoreError(f"index release {self.path.name} has disappeared from {self.path.parent}")

    def _scroll(self) -> Iterator:
        offset = None
        while True:
            records, offset = self.shard.scroll(edge.ScrollRequest(offset=offset, limit=256, with_payload=True, with_vector=[DENSE]))
            yield from records
            if offset is None:
                return

    def vectors_by_hash(self, model_id: str) -> dict[str, StoredVectors]:
        if self.manifest.get("model_id") != model_id:
            return {}
        return {r.payload["content_hash"]: stored_vectors(r.payload, r.vector[DENSE]) for r in self._scroll()}

    def close(self) -> None:
        self.shard.close()
