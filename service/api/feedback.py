"""`POST /v1/feedback`: a reader's thumbs up/down (and optional comment) on an `answer_id`."""
from __future__ import annotations

import uuid
from typing import Literal

from fastapi import APIRouter, Depends
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field

from ..feedback import COMMENT_MAX_CHARS, FeedbackStore
from ..http.errors import documented
from .deps import feedback_store

router = APIRouter()


class FeedbackRequest(BaseModel):
    answer_id: uuid.UUID = Field(description="The `answer_id` of the answer being rated.")
    rating: Literal["up", "down"]
    comment: str | None = Field(None, max_length=COMMENT_MAX_CHARS)
    source: str = Field("api", pattern=r"^[a-z0-9_-]{1,32}$", description="Which client sent it: widget, slack, api…")


class FeedbackOut(BaseModel):
    id: int
    answer_id: str
    rating: Literal["up", "down"]
    created_at: str


@router.post("/v1/feedback", status_code=201, response_model=FeedbackOut, summary="Rate an answer (thumbs up/down)",
             responses=documented(400, 413, 422, 429))
async def post_feedback(body: FeedbackRequest, store: FeedbackStore = Depends(feedback_store)) -> FeedbackOut:
    row = await run_in_threadpool(store.add, str(body.answer_id), body.rating, body.comment, body.source)
    return FeedbackOut(id=row["id"], answer_id=row["answer_id"], rating=row["rating"],
                       created_at=row["created_at"].isoformat())
