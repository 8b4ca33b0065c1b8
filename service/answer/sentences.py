"""Passage Markdown → the prose sentences an answer may quote (code blocks, tables and headings are not
answer material), with Markdown reduced to plain text. Shared by the extractive composer and by the
citation snippets of generated answers."""
from __future__ import annotations

import re
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


@lru_cache(maxsize=16384)
def sentences(markdown: str) -> tuple[str, ...]:
    """Prose sentences of a passage, in order."""
    out, in_fence, paragraph = [], False, []

    def flush():
        if paragraph:
            out.extend(s.strip() for s in _SENTENCE_END.split(clean(" ".join(paragraph))) if s.strip())
            paragraph.clear()

    for line in markdown.splitlines():
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            in_fence = not in_fence
            flush()
            continue
        if in_fence or stripped.startswith(("|", "#")) or not stripped:
            flush()
            continue
        if _LIST_MARK.match(line):
            flush()
            stripped = _LIST_MARK.sub("", line).strip()
        paragraph.append(stripped)
    flush()
    return tuple(s for s in out if MIN_WORDS <= len(s.split()) <= MAX_WORDS)


def first_sentence(markdown: str) -> str:
    """The passage's first quotable sentence (or its opening characters): a snippet for a passage as a whole."""
    return (sentences(markdown) or (markdown[:300],))[0]
