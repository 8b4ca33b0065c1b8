"""Figures given as a range or an estimate, with the one to use said → that one figure, as the tagger reads it.

"anywhere from 2 to 4 nodes; assume the minimum", "4k-8k tokens (plan on 8k)", "between 350 and 380 GB/s; take
the lower one", "data parallel 8-way or 16-way, say 16", "48-ish users (48 exactly)", "~100 ops per byte, call it
96": read as typed, both ends were figures, and whichever the binder met first won. The range becomes the figure
the reader chose (an end by its words, or the figure they picked inside it), the words that chose it go, and the
Assumed line says how it was read. A range with nothing said about which end to use is left alone.
"""
from __future__ import annotations

import re

from .rewrite import each_match_rewritten
from .tagger import in_thousands

_NUM = r"\d+(?:,\d{3})*(?:\.\d+)?"
# a figure's own unit, typed against it or after a space: "16k", "70%", "380 GB/s", "8-way"
_UNIT = r"(?:\s?(?:[kmbt](?![\w/])|%|[kmgt]i?b(?:/s|ps)?(?!\w)|gbit/s|gb/s|tb/s)|-way\b)?"
_LABEL = r"(?:(?P<label>tp|pp|dp|ep|batch|bs)\s*=?\s*)?"
_RANGE = re.compile(
    rf"(?<![\w.\-/])(?P<lead>(?:(?:somewhere|anywhere)\s+)?(?:between|from)\s+)?{_LABEL}"
    rf"(?P<lo>{_NUM})(?P<lo_unit>{_UNIT})(?:-ish)?"
    r"(?P<sep>(?<=[\w%])-(?=\d)|\s*[–—]\s*|\s+to\s+|\s+or\s+(?:maybe\s+|perhaps\s+|possibly\s+)?|\s+and\s+)"
    r"(?:(?P=label)\s*=?\s*)?"
    rf"(?P<hi>{_NUM})(?P<hi_unit>{_UNIT})(?![\w.\-])", re.I)

_LOW_WORDS = r"minimum|min|lowest|lower(?:\s+(?:one|end|bound|figure|number|count))?|low\s+end|smaller(?:\s+one)?|smallest|fewest|bottom"
_HIGH_WORDS = (r"maximum|max|highest|higher(?:\s+(?:one|end|figure|number))?|upper\s+(?:end|bound)|high\s+end|"
               r"bigger(?:\s+one)?|biggest|larger(?:\s+one)?|largest|top(?:\s+end)?|most")
_CHOOSE = r"(?:assume|take|use|plan\s+(?:on|for)|go(?:ing)?\s+with|size\s+(?:it\s+)?for|pick|budget\s+for|stick\s+with|call\s+it)"
_END_CHOSEN = re.compile(rf"\b{_CHOOSE}\s+the\s+(?:(?P<low>{_LOW_WORDS})|(?P<high>{_HIGH_WORDS}))\b"
                         r"|\b(?P<worst>worst[\s-]case|pessimistic|conservative)\b"
                         r"|\b(?P<best>best[\s-]case|optimistic)\b", re.I)
# the figure picked, said after the range: "say 16", "(use 16)", "call it 8192", "(48 exactly)", "worst case is 30,000"
_PICKED = re.compile(
    rf"[,;(]?\s*\b(?:say|use|(?<!or\s)take|call\s+it|plan\s+on|plan\s+for|go(?:ing)?\s+with|we're\s+going\s+with|assume|pick|"
    rf"settle\s+on|make\s+it|worst[\s-]case\s+is|size\s+(?:it\s+)?for)\s+{_LABEL.replace('label', 'plabel')}"
    rf"(?P<n>{_NUM})(?P<u>{_UNIT})(?P<exactly>\s+exactly)?(?P<bare>\s*\)|(?=\s*(?:[.,;!?—–-]|$)))?"
    rf"|[,;(]?\s*\(?(?P<n2>{_NUM})(?P<u2>{_UNIT})\s+exactly\)?", re.I)
# a figure said roughly, then exactly: "~100-ish ops per byte, call it 96", "48-ish users (48 exactly)"
# ("roughly 128k, say 128k exactly", "about 16 users, say 16": a rough word or "-ish" makes it rough)
_ROUGH = re.compile(rf"(?<![\w.])(?P<rough>~\s*|(?:roughly|about|around|approximately|approx\.?)\s+)?"
                    rf"(?P<lo>{_NUM})(?P<lo_unit>{_UNIT})(?P<ish>-ish\b)?", re.I)
_RATE_WORDS = re.compile(r"%|/s|ps\b|efficien|mfu|utili[sz]|bandwidth|busbw|algbw|intensity|flop|ops per", re.I)
_MAY_HOLD_ONE = re.compile(r"\d\S*\s*(?:[-–—]|\bto\b|\bor\b(?:\s+\w+)?|\band\b)\s*\S*\d|-ish\b|\bexactly\b|~|\b(?:roughly|about|around|approx)", re.I)
_SEARCH_AHEAD = 120  # characters after a range in which its choice is said


def as_one_value(question: str) -> tuple[str, list[str]]:
    """The question with each range or rough figure whose choice is said read as the figure chosen, and a note of
    each."""
    if not _MAY_HOLD_ONE.search(question):
        return question, []
    question, notes = each_match_rewritten(_RANGE, question, _one_of_range)
    question, more = each_match_rewritten(_ROUGH, question, _one_of_rough)
    question = re.sub(r"(?<=\d)(?P<u>[kKmMbBtT%]?)-ish\b", r"\g<u>", question)  # "8k-ish prompts": 8k
    return question, notes + more


def _one_of_range(match: re.Match, text: str) -> tuple[str, str] | None:
    lo, hi = _value(match.group("lo")), _value(match.group("hi"))
    lo_unit, hi_unit = match.group("lo_unit"), match.group("hi_unit")
    if match.group("sep").strip().lower() == "and" and not match.group("lead"):
        return None  # "8 and 16" with no "between" is two figures
    if lo_unit and hi_unit and lo_unit.strip().lower() != hi_unit.strip().lower():
        return None
    unit = hi_unit or lo_unit
    if not lo < hi:
        return None
    label = match.group("label") + " " if match.group("label") else ""
    ahead = text[match.end():match.end() + _SEARCH_AHEAD]
    picked = _picked(ahead, lo, hi, unit)
    if picked is not None:
        return _said_picked(text, match, picked, label)
    chosen = _END_CHOSEN.search(ahead)
    if chosen is None:  # "each 16k-32k tokens. size it for 8 chats at 32k": an end said again is the one meant
        again = re.search(rf"(?<![\w.,])(?:{re.escape(match.group('lo'))}|{re.escape(match.group('hi'))})"
                          rf"{re.escape(unit.strip())}(?![\w.])", ahead, re.I) if unit.strip() else None
        if again is None:
            return None
        return _said(text, match, label + again.group(0), text[match.end():])
    low = bool(chosen.group("low")) or (bool(chosen.group("worst")) and _is_rate(match, ahead)) or (
        bool(chosen.group("best")) and not _is_rate(match, ahead))
    figure = match.group("lo") + _spaced(unit.strip()) if low else match.group("hi") + _spaced(unit.strip())
    return _said(text, match, label + figure, text[match.end():])


def _one_of_rough(match: re.Match, text: str) -> tuple[str, str] | None:
    if not (match.group("rough") or match.group("ish")):
        return None
    ahead = text[match.end():match.end() + _SEARCH_AHEAD]
    value = _value(match.group("lo"))
    picked = _picked(ahead, value / 2, value * 2, match.group("lo_unit"))
    return None if picked is None else _said_picked(text, match, picked)


def _picked(ahead: str, lo: float, hi: float, unit: str) -> tuple[str, int | None, int | None] | None:
    """The figure picked within [lo, hi] (each in `unit`) in the words after a range, and where its words stand
    when they only pick (a pick with a noun after it, "size it for 8 chats", stays: it is also the setup)."""
    for m in _PICKED.finditer(ahead):
        number, its_unit = (m.group("n"), m.group("u")) if m.group("n") else (m.group("n2"), m.group("u2"))
        figure = _in_unit(number, its_unit, lo, hi, unit)
        if figure is not None:
            only_picks = m.group("n2") is not None or m.group("bare") is not None or m.group("exactly") is not None
            return figure, (m.start() if only_picks else None), (m.end() if only_picks else None)
    return None


def _in_unit(number: str, its_unit: str, lo: float, hi: float, unit: str) -> str | None:
    """The picked figure as it should be typed, when it lies in the range: "6" of "4-8k" is 6k, "8192" of "~8k"
    is 8192, "7.5 GB" of "7-8 GB" is 7.5 GB; None when it lies outside or its unit is another."""
    unit, its_unit = unit.strip(), its_unit.strip()
    value = _value(number)
    if its_unit.lower() == unit.lower() or (not its_unit and unit and unit.lower() not in _SCALES):
        return f"{number}{_spaced(unit)}" if lo <= value <= hi else None
    if not its_unit and unit.lower() in _SCALES:  # "call it 8192" of "~8k"
        if lo <= value <= hi:
            return number + unit
        if not lo * _SCALES[unit.lower()] <= value <= hi * _SCALES[unit.lower()]:
            return None
        return in_thousands(value, " ").strip() if unit.lower() == "k" else number  # "~8k, call it 8192": 8k
    return None


_SCALES = {"k": 1024, "m": 1e6, "b": 1e9, "t": 1e12}


def _spaced(unit: str) -> str:
    return unit if not unit or unit.lower() in _SCALES or unit in ("%", "-way") else " " + unit


def _said_picked(text: str, match: re.Match, picked: tuple[str, int | None, int | None], label: str = "") -> tuple[str, str]:
    """The range (or rough figure) said as the figure picked, the words that only picked it taken out."""
    figure, start, end = picked
    rest = text[match.end():]
    return _said(text, match, label + figure, rest[:start] + rest[end:] if start is not None else rest)


def _said(text: str, match: re.Match, figure: str, rest: str) -> tuple[str, str]:
    return text[:match.start()] + figure + rest, f"“{match.group(0).strip()}” read as {figure}"


def _is_rate(match: re.Match, ahead: str) -> bool:
    """A range of efficiencies, bandwidths or intensities, whose worst case is its low end."""
    return bool(_RATE_WORDS.search(match.group("hi_unit") or "") or _RATE_WORDS.search(ahead[:30]))


def _value(number: str) -> float:
    return float(number.replace(",", ""))
