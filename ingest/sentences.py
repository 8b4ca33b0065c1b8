"""Passage Markdown → the units an answer may quote (code blocks, tables and headings are not answer
material), with Markdown reduced to plain text: prose sentences and list items, each knowing whether it
introduces a list (a lead-in ending in a colon) and which list it belongs to. Shared by the index build
(each unit gets a vector: embedding/unit_vectors.py), the extractive composer and the citation snippets of
generated answers."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"“(\[]?[A-Z0-9])")
_MD_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# Emphasis marks: an asterisk touching a word (not the one in "4 * 3"), an underscore only outside a word
# (`num_key_value_heads` survives).
_EMPHASIS = re.compile(r"\*{1,3}(?=\S)|(?<=\S)\*{1,3}|(?<!\w)_{1,3}|_{1,3}(?!\w)")
_LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
MIN_WORDS, MAX_WORDS = 5, 70


def clean(text: str) -> str:
    """Markdown to plain prose: link text kept, emphasis dropped, code spans kept verbatim without backticks."""
    text, out, last = _MD_LINK.sub(r"\1", text), [], 0
    for span in _CODE_SPAN.finditer(text):
        out += [_EMPHASIS.sub("", text[last:span.start()]), span.group(2)]
        last = span.end()
    out.append(_EMPHASIS.sub("", text[last:]))
    return "".join(out).strip()


@dataclass(frozen=True)
class Unit:
    """One quotable piece of a passage: a prose sentence or a list item."""

    text: str
    index: int  # order within the passage
    item_of: int | None = None  # the list (numbered within the passage) this is an item of; None for prose
    leads: int | None = None  # the list this sentence introduces (it ends with a colon right before the list)
    row: bool = False  # a table row, said as "first cell: heading value; heading value"

    @property
    def words(self) -> int:
        return len(self.text.split())

    @property
    def quotable(self) -> bool:
        """Long enough to say something on its own, short enough to quote."""
        return MIN_WORDS <= self.words <= MAX_WORDS


@lru_cache(maxsize=16384)
def units(markdown: str) -> tuple[Unit, ...]:
    """The units of a passage, in order. A list is the run of items between two non-item lines; the
    sentence just before it introduces it when that sentence ends with a colon."""
    pieces: list[tuple[str, bool | str]] = []  # (text, is a list item — or "row" for a table row)
    in_fence, paragraph, table = False, [], []

    def flush():
        if paragraph:
            pieces.extend((s.strip(), False) for s in _SENTENCE_END.split(clean(" ".join(paragraph))) if s.strip())
            paragraph.clear()

    for line in markdown.splitlines():
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            in_fence = not in_fence
            flush()
            continue
        if not in_fence and stripped.startswith("|"):
            flush()
            table.append(stripped)
            continue
        if table:
            pieces.extend((row, "row") for row in _table_rows(table))
            table = []
        if in_fence or stripped.startswith("#") or not stripped:
            flush()
            continue
        if _LIST_MARK.match(line):
            flush()
            paragraph.append(_LIST_MARK.sub("", line).strip())
            pieces.append((clean(" ".join(paragraph)), True))
            paragraph.clear()
            continue
        if pieces and pieces[-1][1] and line.startswith((" ", "\t")) and not paragraph:  # an item's continuation line
            pieces[-1] = (f"{pieces[-1][0]} {clean(stripped)}", True)
            continue
        paragraph.append(stripped)
    flush()
    pieces.extend((row, "row") for row in _table_rows(table))
    out: list[Unit] = []
    lists, current = -1, None
    for text, is_item in pieces:
        if is_item == "row":
            current = None
            out.append(Unit(text, len(out), row=True))
        elif is_item:
            if current is None:
                lists += 1
                current = lists
                # what comes just before a list introduces it: "It needs three things:", or a label ("Hardware.")
                if out and out[-1].item_of is None and (out[-1].text.endswith(":") or out[-1].words <= 4):
                    out[-1] = Unit(out[-1].text, out[-1].index, None, current)
            out.append(Unit(text, len(out), current))
        else:
            current = None
            out.append(Unit(text, len(out)))
    return tuple(out)


def sentences(markdown: str) -> tuple[str, ...]:
    """The quotable sentences and items of a passage (not its table rows), in order, as plain strings."""
    return tuple(u.text for u in units(markdown) if u.quotable and not u.row)


def _table_rows(lines: list[str]) -> list[str]:
    """A Markdown table's body rows as sentences: "Llama 3.1 8B: layers 32; KV heads 8; head dim 128."."""
    cells = [[clean(c) for c in line.strip("|").split("|")] for line in lines]
    if len(cells) < 3 or not all(set(c) <= set("-: ") for c in cells[1]):
        return []
    header, out = cells[0], []
    for row in cells[2:]:
        if len(row) != len(header) or not row[0]:
            continue
        said = "; ".join(f"{h} {v}" if h else v for h, v in zip(header[1:], row[1:]) if v)
        out.append(f"{row[0]}: {said}." if said else f"{row[0]}.")
    return out


def first_sentence(markdown: str) -> str:
    """The passage's first quotable sentence (or its opening characters): a snippet for a passage as a whole."""
    return (sentences(markdown) or (markdown[:300],))[0]
