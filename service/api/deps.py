"""FastAPI dependencies: how a route gets the running service's parts (no route reads `app.state` itself).

All `async def`: FastAPI runs a plain `def` dependency in the thread pool, and these only read attributes —
the two thread hops cost more than the calculator route's whole answer."""
from __future__ import annotations

import hmac

from fastapi import Depends, Request

from ..answer import Assistant
from ..catalogue import Catalogue
from ..errors import ApiError
from ..feedback import FeedbackStore
from ..questions import QuestionLog
from ..runtime import Runtime


async def runtime(request: Request) -> Runtime:
    return request.app.state.runtime


async def assistant(rt: Runtime = Depends(runtime)) -> Assistant:
    return rt.ready_assistant()


async def catalogue(rt: Runtime = Depends(runtime)) -> Catalogue:
    return rt.ready_assistant().catalogue


async def feedback_store(rt: Runtime = Depends(runtime)) -> FeedbackStore:
    return rt.feedback


async def question_log(rt: Runtime = Depends(runtime)) -> QuestionLog:
    return rt.questions


async def require_admin(request: Request, rt: Runtime = Depends(runtime)) -> None:
    """`X-Admin-Key` must equal `ADMIN_KEY` (the admin router only exists when it is set)."""
    expected = rt.settings.admin_key.get_secret_value() if rt.settings.admin_key else ""
    given = request.headers.get("x-admin-key", "")
    if not expected or not hmac.compare_digest(given.encode(), expected.encode()):
        raise ApiError(401, "unauthorized", "this endpoint needs a valid X-Admin-Key header")
