"""A table pasted into the question → one "field: value" line per cell, as a pasted config reads.

Readers paste the row they are looking at: a CSV header and its row ("model,bs,ctx,kv_dtype\nllama-3.1-70b,24,
12000,fp8\ntotal kv cache?"), a markdown table (header, `|---|` rule, row), a spreadsheet row copied with tabs.
Read as typed, a value stands far from its name and the binder pairs nothing ("24" and "12000" are two bare
numbers). Each cell is said next to its header instead ("bs: 24", "ctx: 12000"), which the tagger reads as it
reads a YAML line. A table of several rows is left as it is: which row is meant is the reader's to say; a
two-column table of names and values ("| setting | value |", then "| ctx | 128k |" a row) is one field a row.
Field names that carry their unit ("algbw_GB/s: 95", "busbw_GBps: 180", "intensity (FLOP/B): 2.5") become the
figure with its unit.
"""
from __future__ import annotations

import re

_RULE = re.compile(r"^\s*\|?\s*:?-{2,}")  # a markdown table's |---|---| line
_HEADER = re.compile(r"^[A-Za-z_][\w /().\[\]-]*$")  # a column's name: starts with a letter
_UNIT_FIELDS = [(re.compile(pattern, re.I), words) for pattern, words in (
    (r"\b(busbw|algbw|bus[ _]bandwidth|alg[ _]bandwidth|bandwidth|bw)[ _]?[(\[]?(?:GB/s|GBps)[)\]]?\s*[:=]\s*"
     r"(\d[\d.]*)", r"\1 \2 GB/s"),
    (r"\b(?:arithmetic[ _])?intensity[ _]?[(\[]?(?:FLOPs?/B(?:yte)?|flops?[ _]per[ _]byte)[)\]]?\s*[:=]\s*(\d[\d.]*)",
     r"intensity \1 FLOP/B"),
)]


def as_fields(text: str) -> str:
    """The question with a one-row pasted table said field by field (a question with no table is unchanged)."""
    if "\n" in text:
        text = "\n".join(_fields(text.split("\n")))
    for pattern, words in _UNIT_FIELDS:
        text = pattern.sub(words, text)
    return text


def _fields(lines: list[str]) -> list[str]:
    out, i = [], 0
    while i < len(lines):
        header = _cells(lines[i])
        pairs = _key_value_rows(lines, i) if header and len(header) == 2 else []
        if pairs:  # "| setting | value |\n|---|---|\n| ctx | 128k |\n| concurrent seqs | 4 |": one field a row
            out += [f"{name}: {value}" for name, value in pairs]
            i += 2 + len(pairs)
            continue
        j = i + 2 if i + 1 < len(lines) and _RULE.match(lines[i + 1]) else i + 1
        row = _cells(lines[j]) if header and j < len(lines) else None
        another = _cells(lines[j + 1]) if row and j + 1 < len(lines) else None
        if (row and len(row) == len(header) >= 2 and all(_HEADER.match(c) for c in header)
                and not (another and len(another) == len(header))):
            out += [f"{name}: {value}" for name, value in zip(header, row) if value]
            i = j + 1
        else:
            out.append(lines[i])
            i += 1
    return out


def _key_value_rows(lines: list[str], i: int) -> list[tuple[str, str]]:
    """A two-column markdown table of names and values under its header and rule: its rows, as (name, value)."""
    if not (i + 1 < len(lines) and _RULE.match(lines[i + 1])):
        return []
    pairs = []
    for line in lines[i + 2:]:
        cells = _cells(line) if line.strip().startswith("|") else None
        if not cells or len(cells) != 2 or not _HEADER.match(cells[0]):
            break
        pairs.append((cells[0], cells[1]))
    return pairs if len(pairs) >= 2 else []


def _cells(line: str) -> list[str] | None:
    """A line's cells: split by tabs, by a markdown table's bars, or by the commas of a CSV line (no spaces)."""
    s = line.strip()
    if "\t" in s:
        cells = s.split("\t")
    elif s.startswith("|") and s.endswith("|") and len(s) > 1:
        cells = s.strip("|").split("|")
    elif "," in s and " " not in s:
        cells = s.split(",")
    else:
        return None
    return [c.strip() for c in cells]
