"""A long, rambling message → the sentence that asks and the sentences just before it that set it up.

"Bit of a saga. Our lab got an allocation … 50,000 node-hours total … The PI wants to poke at Llama 3.1 405B in full
bf16 … So: what's the minimum number of MI325X GPUs just to hold the bf16 weights? … Last semester we ran a 70B model
on 2 of them … Anyway, also wondering whether ROCm 6.2 plays nicely with vLLM yet." Read whole, such a message
holds a dozen figures about other things (dates, prices, team sizes, old runs) and the binder takes the wrong ones.
A reader sets a question up just before asking it, and what follows the ask is commentary. So the message is read
from a sentence that asks, back: the sentences before it are taken in while the question cannot be computed
without them, and then while each still adds a name, or (when it tells no background) a kind of figure, the
question does not have yet. The first sentence that adds nothing ends the setup.
"""
from __future__ import annotations

import re
from typing import Callable, TypeVar

from .background import kinds, tells

T = TypeVar("T")

_LONG_WORDS = 70  # messages shorter than this are read whole
_MIN_SENTENCES = 4
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[\"'(A-Z0-9])")  # (a line break alone may be pasted output)
_ASKS = re.compile(r"\?|\b(?:how (?:many|much|long|fast|big)|what(?:'s| is| would| does)|which)\b", re.I)
_ASIDE = re.compile(r"^\s*(?:anyway|also|btw|p\.?s\.?)\b", re.I)  # "Anyway, also wondering whether …": no ask


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s.strip()]


def is_long(text: str) -> bool:
    return len(text.split()) >= _LONG_WORDS and len(sentences(text)) >= _MIN_SENTENCES


def read(text: str, route: Callable[[str], T | None]) -> T | None:
    """`route` applied to the setup window of the first sentence that asks and routes ("?" first, then asking
    words); None when no window of any routes."""
    parts = sentences(text)
    marked = [k for k, s in enumerate(parts) if "?" in s and not _ASIDE.match(s)]
    worded = [k for k, s in enumerate(parts) if "?" not in s and _ASKS.search(s) and not _ASIDE.match(s)]
    for k in marked + worded:
        start = k
        routed = route(parts[k])
        while routed is None and start > 0:  # what it cannot be computed without
            start -= 1
            routed = route(" ".join(parts[start:k + 1]))
        if routed is None:
            continue
        first = start
        while start > 0 and _adds_setup(parts[start - 1], " ".join(parts[start:k + 1])):
            start -= 1
        return routed if start == first else route(" ".join(parts[start:k + 1]))
    return None


def _adds_setup(sentence: str, window: str) -> bool:
    """The sentence names a model or a part the window does not, or tells no background and gives a kind of
    figure the window has none of."""
    if kinds(sentence, names_only=True) - kinds(window, names_only=True):
        return True
    return not tells(sentence) and bool(kinds(sentence) - kinds(window))
