"""Request and response bodies of the HTTP API (DESIGN §5, §7)."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, field_validator

QUESTION_MAX_CHARS = 2000
HISTORY_MAX_TURNS = 6
TURN_MAX_CHARS = 4000


class Turn(BaseModel):
    role: Literal["user", "assistant"]
    content: str = Field(max_length=TURN_MAX_CHARS)


class AskRequest(BaseModel):
    question: str = Field(description="The reader's question, 1–2,000 characters.")
    article: str | None = Field(None, description="Id of the article the reader is on; omit for the whole site.",
                                pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=100)
    history: list[Turn] = Field(default_factory=list, max_length=HISTORY_MAX_TURNS,
                                description=f"Earlier turns, oldest first (at most {HISTORY_MAX_TURNS}).")
    stream: bool = False

    @field_validator("question")
    @classmethod
    def _question_length(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("the question is empty")
        if len(value) > QUESTION_MAX_CHARS:
            raise ValueError(f"the question is {len(value)} characters long; the limit is {QUESTION_MAX_CHARS}")
        return value


class CitationOut(BaseModel):
    n: int
    doc_id: str
    kind: str
    title: str
    section: str
    anchor: str
    url: str
    snippet: str


class Suggestion(BaseModel):
    title: str
    section: str
    url: str


class AskResponse(BaseModel):
    answer_id: str
    route: Literal["retrieval", "calculator", "no_answer"]
    scope: Literal["article", "site"] | None
    answer: str
    citations: list[CitationOut]
    calculation: dict | None = None
    generator: str
    timings_ms: dict[str, float]
    suggestions: list[Suggestion] = Field(default_factory=list, description="Closest sections, for no_answer.")


class ErrorBody(BaseModel):
    code: str
    message: str


class ErrorResponse(BaseModel):
    error: ErrorBody
