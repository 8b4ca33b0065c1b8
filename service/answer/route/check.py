"""A reader checking their own arithmetic: "I got 28 GiB — did I double count?", "… ≈ 209 tok/s?",
"I say 3 H200s minimum — is that right?".

The reader's result is what the calculation has to check, not one of its inputs: read with it, "209 tok/s"
would be a rate given (so not a calculation), "3 H200s" three GPUs to fit on, "= 16 GB" a card to fit into.
So when the question asks for a check, the figures it claims (right after "I got", "I say", "I estimate",
"my number is", "=", "≈", "so") are taken out of the reading; what is left asks for the same quantity.
"""
from __future__ import annotations

import re

from .tagger import Reading, Tag

_CHECKING = re.compile(r"\b(?:sanity[- ]check|verify|double[- ]check|checking my|check my|is (?:that|this|it) right|"
                       r"am i right|right\s*\?|correct\s*\?|close\s*\?|did i|does that look|seems? (?:too|off|high|low)|"
                       r"my (?:math|maths|number|arithmetic|estimate))", re.IGNORECASE)
_CLAIMS = {"got", "get", "estimate", "say", "=", "≈", "~", "so", "reckon", "think", "be"}
_FIGURES = ("QUANTITY", "COUNT", "NUMBER")


def without_claimed_results(question: str, r: Reading) -> Reading:
    """The reading without the results the reader claims, when the question asks to check them."""
    if not _CHECKING.search(question):
        return r
    claimed = {id(t) for t in r.tags if t.label in _FIGURES and _claimed(r, t)}
    checking = Tag("CUE", "check", len(r.words), len(r.words), "")  # (history words such as "did I" are then not)
    return Reading(r.question, r.words, [t for t in r.tags if id(t) not in claimed] + [checking])


def _claimed(r: Reading, t: Tag) -> bool:
    """A figure right after a claim ("I got 28 GiB", "= 34 GB", "≈ 209 tok/s") or right before the "?"."""
    before = set(r.words[max(t.start - 3, 0):t.start])
    my_number = "is" in before and "number" in r.words[max(t.start - 4, 0):t.start]  # not "the batch is 8"
    return bool(_CLAIMS & before) or my_number or r.words[t.end:t.end + 1] == ["?"]
