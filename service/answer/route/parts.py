"""A figure given in parts is their total: "prompt 3k + 1k output", "20 turns of 500 tokens", "two 512 MB buckets".

Readers describe one request's length, one buffer or one training run's tokens in pieces: "a 2k system prompt
plus a 6k user message", "12k in + 4k out", "sys prompt 1k, history 14k, new msg 1k", "three docs of 8k plus a
2k instruction", "a 700 MB embedding table + 300 MB of other weights", "1T tokens + 500B more". Read as typed,
the binder took the first piece and computed on it with confidence. Pieces of one kind (tokens, bytes) joined by
"+", "plus", "and", a comma or "in … out", with nothing but their own words between them, become one figure
whose value is their sum; "N turns / docs / chunks / buckets of X" and "two 512 MB buckets" are N × X.
Different kinds ("16 users at 32k") are never added.
"""
from __future__ import annotations

import re

from spacy.tokens import Doc

_JOINS = {"+", "plus", "and", ",", "&", "then", "followed"}  # ("a 500B-token stage then a 100B-token one")
_PIECES = {"turns", "turn", "docs", "doc", "documents", "chunks", "chunk", "messages", "pages", "files", "passages",
           "buckets", "bucket", "tensors", "shards", "rounds", "exchanges"}
_STOPS = {".", "?", "!", ";", ":", "—", "-", "at", "on", "for", "per", "each", "with", "x", "×", "batch", "users",
          "requests", "seqs", "sequences", "chats", "gpus"}
_GAP = 5  # words a piece's own description may run to ("of prompt", "system prompt", "of other weights")


def with_parts_added(doc: Doc, tags: list) -> list:
    """The tags with each figure given in parts made one figure."""
    tags = _multiplied(doc, tags)
    figures = [t for t in tags if t.label == "QUANTITY"]
    groups, i = [], 0
    while i < len(figures):
        j = i
        while j + 1 < len(figures) and (_same_kind(figures[j], figures[j + 1]) or _token_sizes(doc, figures[j], figures[j + 1])) \
                and _joined(doc, tags, figures[j], figures[j + 1]):
            j += 1
        if j > i:
            groups.append(figures[i:j + 1])
        i = j + 1
    for group in groups:
        tags = [t for t in tags if t not in group] + [_total(group, tokens=_tokens_follow(doc, group[-1]))]
    return sorted(tags, key=lambda t: (t.start, -t.end))


def _total(group: list, tokens: bool = False):
    """One figure for its pieces, with how it was read ("“3k + 1k” added up (k = 1,024)")."""
    first, said = group[0], " + ".join(t.text for t in group)
    kind = "tokens" if tokens or any(_kind(t.key) == "tokens" for t in group) else _kind(first.key)
    note = f"“{said}” added up" + (" (k = 1,024)" if any(_thousands(t) for t in group) else "")
    return type(first)(first.label, kind, first.start, group[-1].end, said, sum(_piece(t) for t in group), first.unit,
                       note)


def _kind(key: str) -> str:
    return "tokens" if key.startswith("tokens") else key


def _thousands(t) -> bool:
    return _kind(t.key) == "tokens" and bool(re.fullmatch(r"[\d.,]+\s*k", t.text.strip(), re.I))


def _piece(t) -> float:
    """A piece's value; "k" tokens are 1,024s in a request's parts (they add up to a window: 3k + 1k = 4k)."""
    if _thousands(t):
        return float(re.match(r"[\d.,]+", t.text.strip()).group(0).replace(",", "")) * 1024
    return t.value or 0.0


def _same_kind(a, b) -> bool:
    if not (a.value and b.value):
        return False
    kinds = {_kind(a.key), _kind(b.key)}
    # a training run's tokens in parts: "1T tokens + 500B more", "800B english + 200B multilingual tokens"
    if kinds == {"tokens", "size_name"}:
        return min(a.value, b.value) >= 1e9
    return len(kinds) == 1 and kinds <= {"tokens", "bytes"}


def _token_sizes(doc: Doc, a, b) -> bool:
    """"800B english + 200B multilingual tokens": two bare sizes that the word "tokens" after them counts."""
    return (a.key == b.key == "size_name" and min(a.value or 0, b.value or 0) >= 1e9 and _tokens_follow(doc, b))


def _tokens_follow(doc: Doc, t) -> bool:
    return any(w.lower_ in ("tokens", "token", "toks") for w in doc[t.end:t.end + 2])


def _joined(doc: Doc, tags: list, a, b) -> bool:
    """Nothing but a join and the pieces' own words between two figures: "3k + 1k", "2k system prompt plus a 6k"."""
    between = [doc[k].lower_ for k in range(a.end, b.start)]
    if len(between) > _GAP + 2 or not (_JOINS & set(between) or {"in", "out"} <= set(between) | _after(doc, b)):
        return False
    if _STOPS & set(between):
        return False
    return not any(t.label in ("QUANTITY", "COUNT", "NUMBER", "MODEL", "GPU") and a.end <= t.start < b.start for t in tags)


def _after(doc: Doc, b) -> set[str]:
    return {doc[b.end].lower_} if b.end < len(doc) else set()


def _multiplied(doc: Doc, tags: list) -> list:
    """"20 turns of 500 tokens", "3 docs of 2k", "two 512 MB buckets": so many pieces of one size."""
    out = list(tags)
    numbers = [t for t in tags if t.label == "NUMBER" and t.value]
    figures = [t for t in tags if t.label == "QUANTITY" and t.value and _kind(t.key) in ("tokens", "bytes")]
    for n in numbers:
        for f in figures:
            words = [doc[k].lower_ for k in range(n.end, f.start)]
            before = len(words) in (2, 3) and words[0] in _PIECES and words[-1] in ("of", "x", "×") and (
                len(words) == 2 or words[1] in ("each",))
            after = f.start == n.end and f.end < len(doc) and doc[f.end].lower_ in _PIECES
            if before or after:
                product = type(f)(f.label, _kind(f.key), n.start, f.end + (1 if after else 0),
                                  f"{n.text} × {f.text}", n.value * f.value, f.unit, f"“{n.text} × {f.text}” multiplied")
                out = [t for t in out if t is not n and t is not f] + [product]
                break
    out.sort(key=lambda t: (t.start, -t.end))
    return out
