"""A message with two asks, one a calculation and one a question of why, whether or which → the calculation's half.

"how many GB are llama 3.1 405b's weights in fp8? and honestly is fp8 good enough at that size?", "why does zero-1
only shard the optimizer states? and what's the per-gpu state for llama 3.1 8b under zero-1 on 32 gpus?". Read as
one, the qualitative half made the whole message conceptual and nothing was computed. The message is cut into
sentences; the ones that ask something and, read alone, ask no calculation are the qualitative half (the article
answers it: the request is marked explain + compute); setup sentences that ask nothing always stay, and a message
whose qualitative half names a model or a part the other half does not is left whole.
"""
from __future__ import annotations

import re
from typing import Callable

from .background import kinds

# a sentence ends at "?" or "." before a space, or at "and"/"also" opening a second ask after a dash or a comma
_SENTENCE = re.compile(r"(?<=[?.!])\s+|\s+[—–]\s+(?=(?:and|also|but|plus)\b)")
_ASKS = re.compile(r"\?\s*$|^\s*(?:and\s+|also\s+|but\s+|plus\s+|honestly\s+|so\s+)*(?:why|how|what|which|is|are|does|do|"
                   r"should|would|could|can|will)\b", re.I)

_ORDERS = re.compile(r"^\s*(?:and\s+|also\s+|so\s+|for planning:?\s+)?(?:give|time|compute|calculate|estimate|tell|show|"
                     r"work out|size|figure out)\b|\b(?:how many|how much|how long|how fast|how big|what'?s the|what is the|what are the|"
                     r"what does|what tok/s)\b|\b(?:time|tok/s|tokens/s|tps|gb|gib|tb|ms|seconds|total|size|flops|days|"
                     r"hours|ceiling|celing|algbw|busbw)\s*\??\s*$", re.I)


def calculation_half(question: str, asks_a_calculation: Callable[[str], bool]) -> str | None:
    """The message without its qualitative asks, when it has one of each kind; None otherwise."""
    sentences = [s for s in _SENTENCE.split(question) if s and s.strip()]
    if len(sentences) < 2:
        return None
    qualitative = [s for s in sentences if _ASKS.search(s) and not asks_a_calculation(s)]
    if not qualitative or len(qualitative) == len(sentences):
        return None
    kept = [s for s in sentences if s not in qualitative]
    if not any(_ORDERS.search(s) for s in kept):
        return None  # "… OOMs only in the backward pass. why the backward?": the rest tells, it asks nothing
    half = " ".join(kept)
    # a model or a part named only in the qualitative half ("is the mi300a any good? … tok/s on it?") stays asked
    # about: without it, a default would silently stand in
    if not kinds(" ".join(qualitative), names_only=True) <= kinds(half, names_only=True):
        return None
    return half
