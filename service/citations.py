"""Citation checks for generated answers: only `[n]` markers that point at a given passage survive."""
from __future__ import annotations

import re

from ingest.store import Hit

from .compose import Citation, citation_of, sentences, terms

_MARKER = re.compile(r"\s?\[(\d+(?:\s*,\s*\d+)*)\]")
_MAX_MARKER = 12  # "[12, 13, 14]" — longer open brackets are text, not a marker in progress


class MarkerFilter:
    """Filters streamed text: drops markers whose number was not given to the model.

    A delta can end in the middle of a marker ("… per token [1"), so an open bracket at the end is
    held back until it closes, then kept or dropped as a whole.
    """

    def __init__(self, valid: range):
        self.valid = set(valid)
        self.cited: set[int] = set()
        self.pending = ""

    def feed(self, text: str) -> str:
        buffer = self.pending + text
        cut = buffer.rfind("[")
        if cut != -1 and "]" not in buffer[cut:] and len(buffer) - cut <= _MAX_MARKER:
            buffer, self.pending = buffer[:cut], buffer[cut:]
        else:
            self.pending = ""
        return _MARKER.sub(self._keep, buffer)

    def flush(self) -> str:
        rest, self.pending = self.pending, ""
        return _MARKER.sub(self._keep, rest)

    def _keep(self, match: re.Match) -> str:
        numbers = [int(n) for n in re.findall(r"\d+", match.group(1)) if int(n) in self.valid]
        if not numbers:
            return ""
        self.cited.update(numbers)
        space = " " if match.group(0).startswith(" ") else ""
        return space + "".join(f"[{n}]" for n in numbers)


def cited_sentences(answer: str) -> dict[int, list[str]]:
    """For each marker number, the answer sentences that carry it."""
    out: dict[int, list[str]] = {}
    for sentence in re.split(r"(?<=[.!?\]])\s+", answer):
        for number in {int(n) for n in re.findall(r"\[(\d+)\]", sentence)}:
            out.setdefault(number, []).append(_MARKER.sub("", sentence).strip())
    return out


def citations_for(answer: str, hits: list[Hit]) -> list[Citation]:
    """Citations of a generated answer: marker n is passage n, and the snippet is the passage sentence
    closest to what the answer said with it."""
    out = []
    for n, said in sorted(cited_sentences(answer).items()):
        if not 1 <= n <= len(hits):
            continue
        text = hits[n - 1].payload["text"]
        claim = terms(" ".join(said))
        snippet = max(sentences(text) or [text[:300]], key=lambda s: len(claim & terms(s)))
        out.append(citation_of(n, hits[n - 1], snippet))
    return out
