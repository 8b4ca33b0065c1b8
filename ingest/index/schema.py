"""The point schema of the index, for both backends: vector names, point ids, fusion, and hit order.

A point is one passage: its payload is `Passage.payload()` plus its units' vectors (`point_payload`), its
vectors a dense one (`DENSE`) and a sparse BM25 one (`SPARSE`). Search fuses the two with Qdrant's prefetch
+ reciprocal rank fusion.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Iterable

import numpy as np

from ..embedding.unit_vectors import PackedUnits, unit_cosines
from ..passage import Passage

DENSE = "dense"
SPARSE = "bm25"
MODES = ("hybrid", "dense", "bm25")
RRF_K = 60
PREFETCH = 40  # candidates each of the dense and sparse queries hands to the fusion
PAYLOAD_INDEXES = ("doc_id", "kind")  # keyword indexes the scope filters use

# A search scope: document kind → the ids of that kind to search ({"article": ["kv-cache"]}); None = the whole site.
# Ids are unique within a kind (the concept "Continuous Batching" and the article `continuous-batching` share one).
Scope = dict[str, list[str]]


@dataclass(frozen=True)
class Hit:
    passage: Passage
    score: float  # the fused (or single-mode) retrieval score: only meaningful as a rank
    dense_score: float  # cosine similarity of question and passage: meaningful as a level of support
    # each unit's cosine to the question, in the order of ingest.sentences.units(passage.text); () when the
    # release has no unit vectors
    unit_cosines: tuple[float, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class StoredVectors:
    """A stored passage's vectors, as a rebuild may reuse them (by the passage's content hash)."""

    dense: list[float]
    units: PackedUnits = PackedUnits()


def point_payload(passage: Passage, units: PackedUnits) -> dict:
    """What a point stores: the passage, and its units' packed vectors with the hash of the split they belong to."""
    return {**passage.payload(), **units.payload()}


def stored_vectors(payload: dict, dense) -> StoredVectors:
    return StoredVectors(list(dense), PackedUnits.from_payload(payload))


def point_id(passage: Passage) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"{passage.kind}/{passage.doc_id}#{passage.position}"))


def dense_scores(query: np.ndarray, vectors: Iterable[list[float]]) -> list[float]:
    matrix = np.asarray(list(vectors), dtype=np.float32)
    return (matrix @ query.astype(np.float32)).tolist() if len(matrix) else []


# Reciprocal rank fusion gives equal scores to passages with mirrored ranks (1st dense + 3rd sparse, 3rd
# dense + 1st sparse), and Qdrant leaves such ties in an order that changes from one process to the next:
# the same question could cite different passages after a restart, and evals moved by ±0.005 MRR between
# identical runs. So a few more points than needed are fetched and ties are broken by cosine, then id.
TIE_SLACK = 4


def ranked_hits(points, query: np.ndarray, limit: int, units: np.ndarray | None = None) -> list[Hit]:
    """Hits in a reproducible order: fused score, then cosine to the question, then point id; each unit's
    cosine is to `units` (the question as the adapter maps it) when given, else to `query`."""
    cosines = dense_scores(query, (p.vector[DENSE] for p in points))
    ranked = sorted(zip(points, cosines), key=lambda pc: (-pc[0].score, -pc[1], str(pc[0].id)))
    units = query if units is None else units
    return [Hit(Passage.from_payload(p.payload), float(p.score), c, unit_cosines(p.payload, units))
            for p, c in ranked[:limit]]
