"""Durations said the way people talk about calendars → days, as the tagger reads them.

"must finish in a fortnight", "a week and a half of compute", "within two and a half weeks", "three fortnights":
read as typed, none is a figure, and a training question that asks how many GPUs finish in time had no deadline.
Each is said in days here ("14 days"), and the Assumed line says how it was read. Vague calendar words ("a month",
"end of quarter") are left alone: how many days the reader means is theirs to say.
"""
from __future__ import annotations

import re

from .rewrite import count_pattern, count_value, each_match_rewritten

_COUNT = count_pattern("a", "an", decimals=True)
_DURATION = re.compile(rf"\b(?:{_COUNT}\s+(?P<fortnights>fortnights?)|{_COUNT}\s+and\s+a\s+half\s+(?P<half>weeks?|fortnights?)"
                       rf"|(?P<one>an?|one)\s+(?P<unit>week|fortnight)\s+and\s+a\s+half)\b", re.I)
_DAYS = {"week": 7, "fortnight": 14}


def as_days(question: str) -> tuple[str, list[str]]:
    """The question with each calendar duration said in days, and a note of each."""
    if not re.search(r"fortnight|and a half", question, re.I):
        return question, []
    return each_match_rewritten(_DURATION, question, _in_days)


def _in_days(match: re.Match, text: str) -> tuple[str, str]:
    if match.group("fortnights"):
        days = count_value(match.group(1)) * 14
    elif match.group("half"):
        days = (count_value(match.group(3)) + 0.5) * _DAYS[match.group("half").lower().rstrip("s")]
    else:
        days = 1.5 * _DAYS[match.group("unit").lower()]
    said = f"{days:g} days"
    return text[:match.start()] + said + text[match.end():], f"“{match.group(0)}” read as {said}"

