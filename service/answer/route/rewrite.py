"""Rewriting a question match by match, where each rewrite needs what the text says around its match."""
from __future__ import annotations

import re
from typing import Callable


def each_match_rewritten(pattern: re.Pattern, text: str,
                         rewrite: Callable[[re.Match, str], tuple[str, str] | None]) -> tuple[str, list[str]]:
    """`text` with every match of `pattern` rewritten by `rewrite(match, text)` (the whole new text, and a note of
    how the match was read), searching again after each rewrite; a match it returns None for is left as it is and
    the search goes on after it. Returns the text and the notes."""
    start, notes = 0, []
    while match := pattern.search(text, start):
        rewritten = rewrite(match, text)
        if rewritten is None:
            start = match.end()
            continue
        text, note = rewritten
        notes.append(note)
    return text, notes
