"""Follow-up questions, recognised in one place: "and in fp8?", "what about decode?", "who built it?".

`opens_as_followup` is the shape both routes read (a question that starts like a continuation of the
previous one); `standalone_question` joins a short continuation to the previous question so retrieval
has its subject. With an LLM configured, the LLM writes the standalone question instead (falling back
to this). A numeric follow-up re-runs the previous calculation with what changed (numeric.py).
"""
from __future__ import annotations

import re

from ..models import Turn

_OPENING = re.compile(
    r"^\s*(and|what about|how about|what if|also|then|so|but|same|now|ok|okay|instead|with|in|at|for|using|on|if)\b",
    re.IGNORECASE,
)
_PRONOUN = re.compile(r"\b(it|its|that|this|those|these|they|them|there)\b", re.IGNORECASE)
_SHORT_WORDS = 12


def opens_as_followup(question: str) -> bool:
    return bool(_OPENING.search(question))


def is_continuation(question: str) -> bool:
    """Short, and either opens like a follow-up or leans on a pronoun for its subject."""
    return len(question.split()) <= _SHORT_WORDS and (opens_as_followup(question) or bool(_PRONOUN.search(question)))


def user_questions(history: list[Turn]) -> list[str]:
    return [t.content for t in history if t.role == "user"]


def standalone_question(question: str, history: list[Turn]) -> str:
    """The previous question carries the subject of a short continuation."""
    previous = user_questions(history)
    if previous and is_continuation(question):
        return f"{previous[-1]} {question}"
    return question
