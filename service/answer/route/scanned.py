"""Text read off a screenshot, a slide photo or a scanned PDF (OCR) → the figures and names it shows.

OCR reads the letter O for a zero and l or I for a one inside figures ("l6 users", "4,O96 tokens", "l5T tokens",
"5OOB", "0 .4 mfu", "O.45"), and "rn" for "m" ("llarna 3.1 8B", "rnixtral"). Read as typed, "l6" is no count and
"Hl00" no part: the router dropped the figure, or took "llarna" for an unknown model. A token that holds a digit and
otherwise only O, l or I (with a unit after it: "4O5B", "8OGB") is read as digits; a part's name is read the same
way ("Hl00" → H100, "MI3OOX" → MI300X), but the parts whose names start with a real L ("L4", "L40S") and the
Llama shorthand "l3-8b" stay; "rn" becomes "m" only where that spells a model or part family ("llarna" → llama).
Messages without such a token come back as they are.
"""
from __future__ import annotations

import re

_FAMILIES = {"llarna": "llama", "rnixtral": "mixtral", "rnistral": "mistral", "gernma": "gemma",
             "trainiurn": "trainium", "trainiurn2": "trainium2", "rnfu": "mfu", "rnoe": "moe"}
_MISREAD_FAMILY = re.compile(r"\b(?:" + "|".join(_FAMILIES) + r")\b", re.I)
# (O, l and I as typed: only the family names are matched in any case)
_LOOKS_SCANNED = re.compile(r"(?<![A-Za-z])[0-9]*[OlI][0-9OlI]*[0-9][0-9OlI]*|[0-9][0-9OlI]*[OlI]|\d\s\.\d|"
                            r"(?i:" + _MISREAD_FAMILY.pattern + ")")
# a figure with O, l or I for digits, and the unit or the scale after it ("4O96", "l5T", "8OGB", "l,024", "O.45")
_FIGURE = re.compile(r"(?<![\w.])(?=[0-9OlI,.]*[0-9])([0-9OlI]+(?:[,.][0-9OlI]+)*)(?=[A-Za-z]{0,3}\b|[%/])")
# a part or a model with its number misread: "Hl00", "A1OO", "MI3OOX", "B2OO", "RTX 4O90"
_NAMED = re.compile(r"\b(H|A|B|GB|MI|V)([0-9OlI]{2,3})([A-Za-z]?)\b")
_REAL_L = re.compile(r"^l(?:4|40s?|20)$", re.I)  # L4, L40S: the L is the part's letter


def as_read_from_scan(text: str) -> str:
    """The text with OCR's letters-for-digits read as digits, and "rn" for "m" in a family's name."""
    if not _LOOKS_SCANNED.search(text):
        return text
    text = re.sub(r"(\d)\s\.(\d)", r"\1.\2", text)  # "0 .4 mfu"
    text = _MISREAD_FAMILY.sub(lambda m: _family(m.group(0)), text)
    text = _NAMED.sub(lambda m: m.group(1) + _digits(m.group(2)) + m.group(3), text)
    return _FIGURE.sub(lambda m: m.group(0) if _is_an_l_part(m) else _digits(m.group(0)), text)


def _is_an_l_part(m: re.Match) -> bool:
    """"l4", "l40s" are parts ("gpt-oss-l20b" is no L20), and "l3-8b", "l3.1-70b", "l3.1 8b", "l3.1 70", "l3.2 3b"
    shorthand for Llama 3, 3.1 and 3.2."""
    shorthand = m.group(0).startswith("l") and (m.string[m.end():m.end() + 1] == "-"
                                                or re.match(r"\s(?:\d{1,3}b|8|70|405)\b", m.string[m.end():], re.I) is not None)
    return shorthand or bool(_REAL_L.match(m.group(0))) and m.string[m.start() - 1:m.start()] != "-"


def _digits(typed: str) -> str:
    return typed.translate(str.maketrans("OlI", "011"))


def _family(word: str) -> str:
    said = _FAMILIES[word.lower()]
    return said.capitalize() if word[0].isupper() else said
