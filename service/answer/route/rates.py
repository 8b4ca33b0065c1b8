"""A decode rate asked per minute, per hour or per day, or a time per 100 tokens → the rate or step time computed.

"how many tokens per minute?", "tok per minute", "tokens per day", "ms per 100 tokens", "seconds per 1,000 generated
tokens". Read as typed, "per minute" asked nothing the router knew and "100 tokens" became a context, so a KV cache of
100 tokens was computed instead of the decode speed. The question is read as asking tokens per second (or the step
time per token), and the Assumed line says how to scale it to the unit asked.
"""
from __future__ import annotations

import re

from .rewrite import each_match_rewritten

_PER = {"minute": 60, "min": 60, "hour": 3600, "hr": 3600, "day": 86400}
_RATE = re.compile(r"\b(?P<what>tokens?|toks?)\s*(?:per|/|an?)\s*(?P<per>minute|min|hour|hr|day)\b", re.I)
_TIME_PER = re.compile(r"\b(?P<unit>ms|milliseconds?|seconds?|secs?|s|µs|us|microseconds?)\s+(?:per|for|/)\s+(?:every\s+)?"
                       r"(?P<n>\d[\d,]*)\s+(?:generated\s+|output\s+|new\s+)?tokens\b", re.I)


def as_decode_rate(question: str) -> tuple[str, list[str]]:
    """The question with a rate per minute/hour/day, or a time per N tokens, asked as the decode calculator gives it."""
    if not re.search(r"per\s+(?:minute|min|hour|hr|day)|/\s*(?:min|hour|hr|day)|(?:per|for)\s+(?:every\s+)?\d[\d,]*\s+\w*\s*tokens",
                     question, re.I):
        return question, []
    question, notes = each_match_rewritten(_RATE, question, _per_second)
    question, more = each_match_rewritten(_TIME_PER, question, _per_token)
    return question, notes + more


def _per_second(m: re.Match, text: str) -> tuple[str, str]:
    factor = _PER[m.group("per").lower()]
    return (text[:m.start()] + "tokens per second" + text[m.end():],
            f"{m.group(0)} asked: tokens per second computed (× {factor:,} for per {m.group('per').lower()})")


def _per_token(m: re.Match, text: str) -> tuple[str, str] | None:
    n = int(m.group("n").replace(",", ""))
    if n < 2:
        return None
    return (text[:m.start()] + f"{m.group('unit')} per token" + text[m.end():],
            f"{m.group(0)} asked: the step time per token computed (× {n:,} for {n:,} tokens)")
