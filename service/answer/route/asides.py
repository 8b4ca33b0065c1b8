"""What the reader sets aside is not what they ask: "kv cache only, not the weights", "aggregate, not per user",
"b200 fp8 dense tflops (not the 2:4 sparse figure)", "— not counting the kv cache", "on top of the weights, how much
kv", "tokens/s rather than ms/token".

A "not" that opens an aside (after a comma, a dash, a bracket or a colon), or "on top of", names the quantity or reading the
reader does not want; its cue words ("weights", "per user", "sparse") would otherwise choose that very quantity.
They are taken out of the reading, up to the aside's end; the figures and names in it stay.
"""
from __future__ import annotations

from .tagger import Reading

_OPENS_ASIDE = {",", "-", "—", "–", "(", ";", ":"}
_ENDS_ASIDE = {",", ".", ";", ":", ")", "?", "!", "-", "—", "–"}
_KEPT = {"question_mark", "of"}  # cues of the sentence's shape, not of what is asked
_LONGEST = 6  # words an aside may run to


def _ends_aside(word: str) -> bool:
    """A closing mark, alone or run together ("(not 3.1): KV cache": the tokenizer keeps "):" as one word)."""
    return bool(word) and all(ch in _ENDS_ASIDE for ch in word)


def without_set_aside(r: Reading) -> Reading:
    """The reading without the cues of what the reader sets aside."""
    spans = []
    for i, word in enumerate(r.words):
        opens = (word == "not" and (i == 0 or r.words[i - 1] in _OPENS_ASIDE)) or r.words[i:i + 3] == ["on", "top", "of"]
        instead = r.words[i:i + 2] in (["rather", "than"], ["instead", "of"])  # "tokens/s rather than ms/token"
        if opens or instead:
            start = i + (3 if word == "on" else 1)  # (from "than"/"of": a comparison's "than" is no outside word here)
            end = next((j for j in range(start, min(len(r.words), start + _LONGEST)) if _ends_aside(r.words[j])),
                       min(len(r.words), start + _LONGEST))
            figures = any(t.label in ("QUANTITY", "NUMBER") and start <= t.start < end for t in r.tags)
            if opens or not figures:  # ("141 GB rather than 140 GB": two figures compared, not a unit set aside)
                spans.append((start, end))
    if not spans:
        return r
    set_aside = [t for t in r.tags if t.label == "CUE" and t.key not in _KEPT and any(a <= t.start < b for a, b in spans)]
    if not set_aside:
        return r
    gone = {id(t) for t in set_aside}
    return Reading(r.question, r.words, [t for t in r.tags if id(t) not in gone])
