"""Sentence vectors: one dense vector per unit of a passage (ingest/sentences.py), stored with the passage.

The composer leads with the sentence that answers, and the passage ranker prefers a passage with one sentence
that matches the question over one that matches it only on average; both read each unit's cosine to the
question. The vectors are made at build time (encoding a question's ~30 candidate sentences would cost more
than the whole answer) and kept in the passage's payload as one base64 string of float16 rows in unit order:
the same for Qdrant Edge and a server, about 1 KB per unit, and decoded only for the hits a search returns.
`units_hash` names the split they belong to, so a rebuild reuses them only while the passage still splits
into the same units.
"""
from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..sentences import units

UNIT_VECTORS, UNITS_HASH = "unit_vectors", "units_hash"  # the payload fields


def unit_texts(text: str) -> list[str]:
    """What is embedded for a passage's text: each unit as the composer quotes it, in order."""
    return [u.text for u in units(text)]


@dataclass(frozen=True)
class PackedUnits:
    """A passage's unit vectors as a point stores them: `vectors` (`pack`'s string) for the split `units_hash`
    names ("" for both: none stored)."""

    units_hash: str = ""
    vectors: str = ""

    def payload(self) -> dict:
        return {UNITS_HASH: self.units_hash, UNIT_VECTORS: self.vectors}

    @classmethod
    def from_payload(cls, payload: dict) -> "PackedUnits":
        return cls(payload.get(UNITS_HASH, ""), payload.get(UNIT_VECTORS, ""))


def units_hash(texts: list[str]) -> str:
    return hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]


def pack(vectors: np.ndarray) -> str:
    """Rows of unit vectors → the payload string (float16: cosines stay within ~1e-3)."""
    return base64.b64encode(np.asarray(vectors, dtype=np.float16).tobytes()).decode("ascii")


@lru_cache(maxsize=8192)  # every passage of today's corpus (~12 MB): a search decodes ~30 of them
def unpack(packed: str, dimension: int) -> np.ndarray:
    """The payload string → a (units × dimension) float32 matrix (0 rows for a passage with no units)."""
    return np.frombuffer(base64.b64decode(packed), dtype=np.float16).reshape(-1, dimension).astype(np.float32)


def unit_cosines(payload: dict, query: np.ndarray) -> tuple[float, ...]:
    """Each unit's cosine to the question, in unit order; () for a passage stored without unit vectors."""
    packed = payload.get(UNIT_VECTORS)
    if not packed:
        return ()
    return tuple((unpack(packed, len(query)) @ query.astype(np.float32)).tolist())
