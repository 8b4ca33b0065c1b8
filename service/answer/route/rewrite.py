"""Rewriting a question match by match, where each rewrite needs what the text says around its match; and the small
counts such rewrites read in words ("two racks", "a couple of fortnights")."""
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


# a small count in words, before a noun
COUNT_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
               "ten": 10, "twelve": 12, "sixteen": 16, "a pair of": 2, "a couple of": 2}


def count_pattern(*extra: str, decimals: bool = False) -> str:
    """A capturing group for a count: digits (with decimals if asked) or a count word (or one of `extra`: "a")."""
    words = sorted([*COUNT_WORDS, *extra], key=len, reverse=True)
    return r"(\d+" + (r"(?:\.\d+)?" if decimals else "") + "|" + "|".join(words) + r")"


def count_value(text: str) -> float:
    """'16' → 16, 'two' → 2, 'a couple of' → 2, 'a' → 1."""
    text = text.lower()
    return float(text) if text[0].isdigit() else COUNT_WORDS.get(text, 1)
