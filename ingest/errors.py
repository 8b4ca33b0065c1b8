"""The errors of the ingest package: one root, so a caller can catch "the index side failed" in one clause."""
from __future__ import annotations


class IngestError(Exception):
    """Anything the corpus, the index build or the index store refuses or cannot do."""


class StoreError(IngestError):
    """The index cannot be reached or read (server down, no release built, corrupted files)."""


class IncompleteRelease(StoreError):
    """A release that never finished building cannot be promoted."""


class BuildError(IngestError):
    """A build that stopped before promoting anything; `problems` lists the corpus errors behind it."""

    def __init__(self, message: str, problems: list | None = None):
        super().__init__(message)
        self.problems = problems or []
