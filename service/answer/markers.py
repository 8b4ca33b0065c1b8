"""The citation-marker grammar, defined once: a run of `[1]` / `[1, 2]` markers ("… cache. [1][2]") that
starts after a space, a line start or punctuation. A bracketed number glued to a word (`tile[32][32]`) is text. The widget's renderer uses the same
pattern (`MARKER_SOURCE`, checked by a test against static/widget.js), the evals count with `markers`,
and generated answers pass through `MarkerFilter`.
"""
from __future__ import annotations

import re

MARKER_SOURCE = r"(?<![^\s.,;:!?)])((?:\[\d{1,3}(?:\s*,\s*\d{1,3})*\])+)"
MARKER = re.compile(MARKER_SOURCE)
_MARKER_WITH_SPACE = re.compile(r"\s?" + MARKER_SOURCE)
_LONGEST_OPEN_MARKER = 12  # "[12, 13, 14]": an open bracket further back is text, not a marker in progress


def numbers(match: re.Match) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", match.group(1))]


def strip(text: str) -> str:
    """The text without its markers."""
    return _MARKER_WITH_SPACE.sub("", text).strip()


def markers(text: str) -> list[tuple[str, int]]:
    """(the sentence it marks, n) for every number of every marker run, in order: the text since the
    previous run is the sentence a run marks."""
    out, start = [], 0
    for match in MARKER.finditer(text):
        sentence = text[start:match.start()].lstrip(".,;:!?) \n").strip()  # "[2]. Three [3]": the "." was Two's
        out += [(sentence, n) for n in numbers(match)]
        start = match.end()
    return out


def cited_sentences(answer: str) -> dict[int, list[str]]:
    """For each marker number, the answer sentences that carry it."""
    out: dict[int, list[str]] = {}
    for sentence, n in markers(answer):
        out.setdefault(n, []).append(sentence)
    return out


class MarkerFilter:
    """Filters streamed text: keeps markers whose numbers were given to the model, drops the others.

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
        if cut != -1 and "]" not in buffer[cut:] and len(buffer) - cut <= _LONGEST_OPEN_MARKER:
            buffer, self.pending = buffer[:cut], buffer[cut:]
        else:
            self.pending = ""
        return _MARKER_WITH_SPACE.sub(self._keep, buffer)

    def flush(self) -> str:
        rest, self.pending = self.pending, ""
        return _MARKER_WITH_SPACE.sub(self._keep, rest)

    def _keep(self, match: re.Match) -> str:
        kept = [n for n in numbers(match) if n in self.valid]
        if not kept:
            return ""
        self.cited.update(kept)
        space = " " if match.group(0)[:1].isspace() else ""
        return space + "".join(f"[{n}]" for n in kept)


def pieces(answer: str) -> list[str]:
    """An answer streamed sentence by sentence: split after each marker (each piece keeps its trailing space)."""
    parts = [p for p in answer.replace("] ", "]\x00").split("\x00") if p]
    return [p if i == len(parts) - 1 else p + " " for i, p in enumerate(parts)]
