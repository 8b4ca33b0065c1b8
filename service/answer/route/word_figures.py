"""Figures said in words the number reader does not take → digits.

"zero point three mfu", "point eight efficiency", "three quarters of a million tokens", "a million and a half", "a
quarter of a trillion", "two and a half flops per byte", "batch of two-fifty-six", "an eight-bit integer cache",
"two gibibytes". Read as typed, "point eight" had become 0.08 and "zero point three" 0.03 (confidently wrong), "three
quarters of a million" a million, "two-fifty-six" 106, and "two gibibytes" the default 1 GB. Each becomes the figure
it says, before the tagger reads the question (a dictated question is written first: its own reader goes first).
"""
from __future__ import annotations

import re

_UNITS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine".split())}
_TENS = {w: (i + 2) * 10 for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split())}
_DIGIT = "|".join(_UNITS)
_SCALE = r"(?P<scale>thousand|million|billion|trillion)"
_BITS = {"sixteen": 16, "thirty-two": 32}
_TEENS = {w: i + 10 for i, w in enumerate("ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen "
                                            "nineteen".split())}
_WHOLE = rf"(?:(?:{'|'.join(_TENS)})[\s-](?:{_DIGIT})|{'|'.join(_TENS)}|{'|'.join(_TEENS)}|{_DIGIT})"


def _whole(words: str | None) -> int:
    """'fourteen' 14, 'twenty-four' 24, 'zero' 0 (none said: 0)."""
    if not words:
        return 0
    parts = re.split(r"[\s-]+", words.lower())
    return sum(_TENS.get(p, _TEENS.get(p, _UNITS.get(p, 0))) for p in parts)
_REWRITES = [(re.compile(pattern, re.I), said) for pattern, said in (
    # "zero point three", "fourteen point eight", "point three five": a decimal said digit by digit
    (rf"\b(?:(?P<whole>{_WHOLE})\s+)?point\s+(?P<d1>{_DIGIT})(?:\s+(?P<d2>{_DIGIT}))?\b",
     lambda m: f"{_whole(m.group('whole'))}.{_UNITS[m.group('d1').lower()]}"
               f"{_UNITS[m.group('d2').lower()] if m.group('d2') else ''}"),
    # "three quarters of a million", "a quarter of a trillion", "half a million"
    (rf"\bthree[- ]quarters\s+of\s+an?\s+{_SCALE}\b", lambda m: f"0.75 {m.group('scale')}"),
    (rf"\b(?:a|one)\s+quarter\s+of\s+an?\s+{_SCALE}\b", lambda m: f"0.25 {m.group('scale')}"),
    (rf"\b(?:half\s+an?|a\s+half\s+of\s+an?)\s+{_SCALE}\b", lambda m: f"0.5 {m.group('scale')}"),
    # "a million and a half", "one and a half trillion", "two and a half flops"
    (rf"\b(?:a|one)\s+{_SCALE}\s+and\s+a\s+half\b", lambda m: f"1.5 {m.group('scale')}"),
    (rf"\b(?P<n>{_DIGIT}|a|one)\s+and\s+a\s+half\b",
     lambda m: f"{(_UNITS.get(m.group('n').lower(), 1))}.5"),
    # "two-fifty-six", "one-twenty-eight": a number said as a card's, hundreds then tens
    (rf"\b(?P<h>{_DIGIT})-(?P<t>{'|'.join(_TENS)})(?:-(?P<u>{_DIGIT}))?\b",
     lambda m: str(_UNITS[m.group('h').lower()] * 100 + _TENS[m.group('t').lower()]
                   + (_UNITS[m.group('u').lower()] if m.group('u') else 0))),
    # "an eight-bit integer cache", "four-bit weights"
    (rf"\b(?P<n>{_DIGIT}|sixteen|thirty-two)[- ]bits?\b(?:\s+integers?)?",
     lambda m: f"{_BITS.get(m.group('n').lower(), _UNITS.get(m.group('n').lower()))}-bit"),
    (r"\bgibibytes?\b", lambda m: "GiB"), (r"\bmebibytes?\b", lambda m: "MiB"), (r"\btebibytes?\b", lambda m: "TiB"),
)]


def as_digits(text: str) -> str:
    """The text with the figures it says in words written as digits."""
    if not re.search(r"point|quarter|half|and a half|-bit|bits?\b|ibytes|-(?:twenty|thirty|forty|fifty|sixty|seventy|"
                     r"eighty|ninety)", text, re.I):
        return text
    for pattern, said in _REWRITES:
        text = pattern.sub(said, text)
    return text
