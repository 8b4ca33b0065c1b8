"""All service settings in one pydantic-settings class (environment variables or `.env`)."""
from __future__ import annotations

from pydantic import Field

from ingest.settings import IndexSettings


class Settings(IndexSettings):
    host: str = "127.0.0.1"
    port: int = 8000
    cors_origins: list[str] = Field(default_factory=list, description="Origins allowed to call the API from a browser.")
    max_question_chars: int = 2000
    top_k: int = Field(6, ge=1, le=20, description="Passages retrieved per scope tier.")
    answer_sentences: int = Field(3, ge=1, le=8, description="Sentences in an extractive answer.")
    support_threshold: float = Field(
        0.42, description="Minimum question–passage cosine for a passage to count as support (calibrated: see README)."
    )
    scope_margin: float = Field(
        0.12, description="A narrower scope (the article) answers only if its best passage is within this of the best anywhere."
    )
    release_check_s: float = Field(2.0, description="How often the service looks for a newly promoted index release.")
