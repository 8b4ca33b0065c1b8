"""nccl-tests figures said the way its output reads: a busbw or algbw measured before its label is in GB/s, "the 4G
row" a size.

"nccl gives us ~370 busbw on the 8x h100 box … how long does a 2 GB all-reduce take?", "the 4G row reports algbw
40 GB/s" ("busbw 180", the label first, is bound in slots.py the same way). nccl-tests prints its bandwidths in
GB/s and its sizes as "4G" in the size column, and readers quote them that way. Read as typed, the 370 was a bare number left unused (the time was
worked out from the link's spec, not the measured rate) and "4G" a 4 Gb/s rate. The figures are given their units
here, and the Assumed line says so.
"""
from __future__ import annotations

import re

_ABOUT = r"(?:~\s*|about\s+|around\s+|roughly\s+|≈\s*)?"
# "gives us ~370 busbw", "we see 95 algbw", "for 5.90 algbw": a figure measured before its label (a count before it,
# "8 busbw?", is more likely ranks: only a measured, hedged or quoted figure is read this way)
_BEFORE = re.compile(r"(?:\b(?:gives?(?:\s+us)?|gets?|got|sees?|seeing|saw|shows?|showing|measures?|measured|hits?|reach(?:es)?|"
                     r"tops?\s+out\s+at|peaks?\s+at|only)\s+(?:~\s*|about\s+|around\s+|roughly\s+|≈\s*)?|~\s*|≈\s*|\babout\s+|"
                     r"\baround\s+|\broughly\s+|\b(?:for|with|at)\s+|[:,]\s*)(?P<n>\d+(?:\.\d+)?)\s+(?P<label>busbw|algbw)\b"
                     r"(?!\s+(?:figures?|numbers?|values?))", re.I)
# "the 4G row", "the 512M line": a size from nccl-tests' size column
_SIZE_ROW = re.compile(r"\bthe\s+(?P<n>\d+(?:\.\d+)?)\s?(?P<prefix>[kmg])\s+(?P<row>row|line|entry|size)\b", re.I)
_NCCL = re.compile(r"busbw|algbw|nccl|rccl|_perf\b", re.I)


def as_nccl_figures(question: str) -> tuple[str, list[str]]:
    """The question with nccl-tests' unit-less bandwidths in GB/s and its size column's "4G" in bytes."""
    if not _NCCL.search(question):
        return question, []
    notes: list[str] = []

    def in_gbs(m: re.Match) -> str:  # ("gives us ~" stays before it)
        notes.append(f"“{m.group('n')} {m.group('label')}” read as {m.group('n')} GB/s (the unit nccl-tests prints)")
        return m.group(0)[:m.start("n") - m.start()] + f"{m.group('label')} {m.group('n')} GB/s"

    def in_bytes(m: re.Match) -> str:
        size = f"{m.group('n')} {m.group('prefix').upper()}B"
        notes.append(f"“{m.group(0)}” read as the {size} message size")
        return f"the {size} {m.group('row')}"

    return _SIZE_ROW.sub(in_bytes, _BEFORE.sub(in_gbs, question)), notes

