"""What an abbreviation stands for: "what does fsdp stand for" is answered by the sentence that spells it out.

A sentence spells out an abbreviation when a run of its words has the abbreviation's letters as initials:
"Fully Sharded Data Parallel" for FSDP, "multi-head latent attention" for MLA (a hyphenated word counts once
or as its parts), "Mixture of Experts" for MoE (small words may sit inside the run). An abbreviation the page
writes in mixed case gives its capitals: ZeRO is Z-R-O, "Zero Redundancy Optimizer".
"""
from __future__ import annotations

import re

from .reading import defined_subject

_ASKS = re.compile(r"\b(?:stands?|stood) for\b|\bshort for\b|\bacronym\b|\babbreviat\w*|\bfull (?:form|name)\b|"
                   r"\bexpan(?:d|sion)\b|^\s*what does \w{2,6} mean\b", re.I)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'’]*(?:-[A-Za-z0-9'’]+)*")
_SMALL = {"of", "and", "for", "the", "to", "in", "on", "a"}
_NOT_ABBREVIATIONS = {"what", "does", "do", "it", "its", "this", "that", "they", "them", "even", "stand", "stands",
                      "for", "short", "mean", "means", "the", "and", "is", "are", "full", "form", "name", "of", "vs",
                      "acronym", "abbreviation", "expand", "expansion", "again", "exactly", "actually", "btw", "pls"}


def asked_abbreviations(question: str, searched: str) -> list[str]:
    """The words whose expansion is asked ("fsdp" in "what does fsdp stand for"; the page's subject for "it"), or
    the one short word a bare definition asks about ("mla" in "what is mla")."""
    defined = defined_subject(question)
    if defined.isalpha() and 2 <= len(defined) <= 6 and defined.lower() not in _NOT_ABBREVIATIONS:
        return [defined]  # "what is mla": one short word, answered by what it stands for
    if not _ASKS.search(question):
        return []
    short = lambda text: [w for w in dict.fromkeys(_WORD.findall(text))  # noqa: E731
                          if 2 <= len(w) <= 6 and w.lower() not in _NOT_ABBREVIATIONS and w.isalpha()]
    return short(question) or short(searched)  # the reader's own word first; "it" is the page's subject


def spells_out(abbreviation: str, sentence: str) -> bool:
    """Does the sentence write the abbreviation out in full?"""
    written = next((w for w in _WORD.findall(sentence) if w.lower() == abbreviation.lower()), abbreviation)
    capitals = [c for c in written if c.isupper()]
    letters = ("".join(capitals) if len(capitals) >= 2 and len(capitals) < len(written) else written).lower()
    words = _WORD.findall(sentence)
    named = any(w.lower() == abbreviation.lower() for w in words)
    for split in (False, True):
        parts = [p for w in words for p in (w.split("-") if split else [w])]
        for i in range(len(parts)):
            end = _initials_end(parts, i, letters)
            # two words with the right initials are everywhere: the run counts beside the abbreviation itself
            # ("Fully Sharded Data Parallel (FSDP)") or written as a name ("Zero Redundancy Optimizer")
            if end and (named or all(w[0].isupper() for w in parts[i:end] if w.lower() not in _SMALL)):
                return True
    return False


def _initials_end(words: list[str], start: int, letters: str) -> int:
    """Where a run of words from `start` whose initials are `letters` ends (small words may sit inside), or 0."""
    i, k = start, 0
    while k < len(letters):
        if i >= len(words):
            return 0
        word = words[i].lower()
        if word[0] == letters[k] and not (k == 0 and word == letters):
            k += 1
        elif k == 0 or word not in _SMALL:
            return 0
        i += 1
    return i if i - start >= 2 else 0
