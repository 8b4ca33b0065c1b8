"""The index: one small store interface, two Qdrant backends, and the search the service reads it with.

- `edge.EdgeStore` (default): Qdrant Edge in-process, one shard directory per release under `data/index/`.
- `server.ServerStore` (`QDRANT_URL` set): qdrant-client against a Qdrant server or cluster.
- `schema`: vector names, point ids, fusion and hit order — the point schema, defined once.
"""
from __future__ import annotations

from pathlib import Path

from ..errors import IncompleteRelease, StoreError
from .interface import IndexReader, IndexStore, Point, ReleaseWriter
from .schema import MODES, Hit, Scope
from .search import Query, Searcher


def open_store(settings) -> IndexStore:
    """The store the settings name: a Qdrant server when `qdrant_url` is set, else Qdrant Edge under `data_dir`."""
    if settings.qdrant_url:
        from .server import ServerStore  # qdrant-client is only imported when a server is used

        return ServerStore(settings.qdrant_url, settings.qdrant_collection, settings.qdrant_api_key,
                           timeout_s=settings.qdrant_timeout_s, attempts=settings.qdrant_attempts,
                           shards=settings.qdrant_shards, replication_factor=settings.qdrant_replication_factor)
    from .edge import EdgeStore

    return EdgeStore(Path(settings.data_dir) / "index")


__all__ = ["MODES", "Hit", "IncompleteRelease", "IndexReader", "IndexStore", "Point", "Query", "ReleaseWriter",
           "Scope", "Searcher", "StoreError", "open_store"]
