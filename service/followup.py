"""Follow-up questions: turn "and in fp8?" into something retrieval and the calculators can answer.

Deterministic by default: a short continuation is joined to the previous question, and a numeric
follow-up re-runs the previous calculation with the changed slots (model kept, precision changed…).
With an LLM configured, the LLM writes the standalone question instead, falling back to this.
"""
from __future__ import annotations

import re

from .numeric_router import NumericRequest, route_numeric
from .schemas import Turn

_CONTINUATION = re.compile(
    r"^\s*(and|what about|how about|also|then|so|but|same|now|ok|okay|what if|instead|with|in|at|for)\b|"
    r"\b(it|its|that|this|those|these|they|them|there)\b",
    re.IGNORECASE,
)
_SHORT_WORDS = 12


def user_questions(history: list[Turn]) -> list[str]:
    return [t.content for t in history if t.role == "user"]


def is_continuation(question: str) -> bool:
    return len(question.split()) <= _SHORT_WORDS and bool(_CONTINUATION.search(question))


def standalone_question(question: str, history: list[Turn]) -> str:
    """The previous question carries the subject of a short continuation."""
    previous = user_questions(history)
    if previous and is_continuation(question):
        return f"{previous[-1]} {question}"
    return question


def previous_calculation(history: list[Turn]) -> NumericRequest | None:
    """The calculation the conversation was last about, following follow-ups turn by turn."""
    current = None
    for question in user_questions(history):
        routed = route_numeric(question, current)
        if isinstance(routed, NumericRequest):
            current = routed
    return current
