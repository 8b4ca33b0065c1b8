"""The answer's records: the request a reader sends, the response they get (DESIGN §5), and the
citation both the API and the evals read. Defined once, here."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, field_validator

from ingest.passage import Passage

QUESTION_MAX_CHARS = 2000
HISTORY_MAX_TURNS = 6
TURN_MAX_CHARS = 4000

Route = Literal["retrieval", "calculator", "no_answer"]


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


class Citation(BaseModel):
    """What `[n]` in an answer points at: a section of a page, and the words of it the answer relies on."""

    n: int
    doc_id: str
    kind: str
    title: str
    section: str
    anchor: str
    url: str
    snippet: str

    @classmethod
    def of(cls, n: int, passage: Passage, snippet: str) -> "Citation":
        return cls(n=n, doc_id=passage.doc_id, kind=passage.kind, title=passage.title, section=passage.section,
                   anchor=passage.anchor, url=passage.url, snippet=snippet)

    @property
    def section_id(self) -> str:
        return f"{self.doc_id}#{self.anchor}"


class Suggestion(BaseModel):
    title: str
    section: str
    url: str


class AskResponse(BaseModel):
    answer_id: str
    route: Route
    scope: Literal["article", "site"] | None
    answer: str
    citations: list[Citation]
    calculation: dict | None = None
    generator: str
    timings_ms: dict[str, float]
    suggestions: list[Suggestion] = Field(default_factory=list, description="Closest sections, for no_answer.")
