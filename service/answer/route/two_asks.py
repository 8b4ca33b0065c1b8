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
from .tagger import tag

_NAMES = ("MODEL", "GPU", "UNKNOWN_MODEL", "UNKNOWN_GPU")
# a sentence ends at "?" or "." before a space, or at "and"/"also" opening a second ask after a dash or a comma
_SENTENCE = re.compile(r"(?<=[?.!])\s+|\s+[—–]\s+(?=(?:and|also|but|plus|how|what|worth|is|good|overkill)\b)"
                       r"|,\s+(?=(?:is|was)\s+(?:that|it|this)\s+(?:overkill|worth|a good|a bad|sane|enough|too)\b)"
                       r"|,\s+(?=and\s+(?:what'?s|whats|is|why|should)\b)", re.I)
_ASKS = re.compile(r"\?\s*$|^\s*(?:and\s+|also\s+|but\s+|plus\s+|honestly\s+|so\s+)*(?:why|how|what|which|is|are|does|do|"
                   r"should|would|could|can|will|(?:i'?m\s+|also\s+)?curious(?:\s+too)?\s+(?:whether|if|why|how)|"
                   r"(?:i'?m\s+)?wondering\s+(?:whether|if|why|how)|i\s+wonder)\b", re.I)

_ORDERS = re.compile(r"^\s*(?:and\s+|also\s+|so\s+|for planning:?\s+)?(?:give|time|compute|calculate|estimate|tell|show|"
                     r"work out|size|figure out)\b|\b(?:how many|how much|how long|how fast|how big|what'?s the|what is the|what are the|"
                     r"what does|what tok/s)\b"
                     r"|\bwhat\s+(?:[\w/-]+\s+){1,3}(?:is|are|does|do|would|will)\b"  # "what busbw is that", "what algbw does …"
                     r"|\b(?:time|tok/s|tokens/s|tps|gb|gib|tb|ms|seconds|total|size|flops|days|"
                     r"hours|ceiling|celing|algbw|busbw|kv|bandwidth|peak|tflop/s|tflops|flop/s|roofline|ridge|"
                     r"throughput)\s*\??\s*$", re.I)

# a sentence asking for a figure whose setup is in another sentence ("free memory per gpu after state +
# activations?") is no qualitative ask
_FIGURE_ASKED = re.compile(r"\b(?:how many|how much|how long|how big|free memory|memory left|headroom|free vram)\b|"
                           r"\bwhat\s+(?:tok/s|tokens/s|throughput|busbw|algbw)\b|"  # "what tok/s does the bound give …"
                           r"\bwhat'?s\s+(?:its|the)\s+(?:kv|kv cache|memory|footprint|step time|latency)\b|"
                           r"\b(?:tok/s|tokens/s|gb|kv|busbw|algbw|flops|days|hours)\s*\??\s*$|"
                           # a figure named first: "decode tok/s for mixtral …", "total kv for qwen2.5 72b, …"
                           r"^\s*(?:the\s+)?(?:decode\s+|total\s+|aggregate\s+|per-gpu\s+)?(?:tok/s|tokens/s|throughput|"
                           r"kv cache|kv|weights|memory|step time|latency|all-reduce time)\s+(?:for|of|on)\b", re.I)


def calculation_half(question: str, asks_a_calculation: Callable[[str], bool]) -> str | None:
    """The message without its qualitative asks, when it has one of each kind; None otherwise."""
    sentences = [s for s in _SENTENCE.split(question) if s and s.strip()]
    if len(sentences) < 2:
        return None
    qualitative = [s for s in sentences if _ASKS.search(s) and not asks_a_calculation(s) and not _FIGURE_ASKED.search(s)]
    if not qualitative or len(qualitative) == len(sentences):
        return None
    kept = [s for s in sentences if s not in qualitative]
    if not any(_ORDERS.search(s) or _FIGURE_ASKED.search(s) or (s.rstrip().endswith("?") and asks_a_calculation(s))
               for s in kept):
        return None  # "… OOMs only in the backward pass. why the backward?": the rest tells, it asks nothing
    half = " ".join(kept)
    # a model or a part named only in the qualitative half ("is the mi300a any good? … tok/s on it?", "does vllm store
    # deepseek r1's latent as-is? related number: 10 traces of 48,000 tokens, total kv") is the one the calculation
    # is about: it is said before the calculation's half (without it a default would silently stand in), unless that
    # half names one of its own kind, or the qualitative half names two (which one is meant is left open)
    missing = kinds(" ".join(qualitative), names_only=True) - kinds(half, names_only=True)
    if missing:
        named = {t.text.lower(): t.text for s in qualitative for t in tag(s).tags
                 if t.label in _NAMES and (t.label.removeprefix("UNKNOWN_"), "") in missing}
        if len(named) != len(missing):
            return None
        half = ", ".join(named.values()) + ": " + half
    return half


# what follows a message's first question mark, when more than a word or two follows it
_AFTER_THE_FIRST_ASK = re.compile(r"\?\s+(?=\S+\s+\S+)")


def first_question(question: str) -> str | None:
    """The message up to its first question mark, when more follows it: "HBM bandwidth of one H20? We have 8 per
    server across 12 servers, the H100s we lost had 3.35 TB/s, and our kernels need 90% of whatever it offers." What
    the reader adds after asking is read as background, once the whole message has been read and routed to nothing."""
    m = _AFTER_THE_FIRST_ASK.search(question)
    return question[:m.start() + 1] if m else None

