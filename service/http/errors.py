"""Every error leaves the API as JSON `{"error": {"code", "message"}}` with the right status: our own
`ApiError`s, request validation (422, or 400 for malformed JSON), Starlette's HTTP errors, an index that
cannot be read (503 + Retry-After), and — logged, never shown — anything unexpected (500)."""
from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from ingest.errors import StoreError

from ..errors import ApiError

log = logging.getLogger("service")


class ErrorBody(BaseModel):
    code: str
    message: str


class ErrorResponse(BaseModel):
    error: ErrorBody


def documented(*statuses: int) -> dict:
    """The `responses=` of a route that can fail with these statuses (for the OpenAPI document)."""
    return {status: {"model": ErrorResponse} for status in statuses}


def error_response(status: int, code: str, message: str, headers: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=headers)


def describe_validation(errors: list[dict]) -> str:
    """pydantic's errors as one line a person can act on: `question: the question is empty; …`."""
    parts = []
    for err in errors:
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        message = str(err.get("msg", "invalid")).removeprefix("Value error, ")
        parts.append(f"{where}: {message}")
    return "; ".join(parts)


def install_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError):
        return error_response(exc.status, exc.code, exc.message, exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError):
        errors = list(exc.errors())
        if any(e.get("type") == "json_invalid" for e in errors):
            return error_response(400, "malformed_json", "the request body is not valid JSON")
        return error_response(422, "invalid_request", describe_validation(errors))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException):
        code = {404: "not_found", 405: "method_not_allowed", 413: "payload_too_large"}.get(exc.status_code, "http_error")
        return error_response(exc.status_code, code, str(exc.detail), getattr(exc, "headers", None))

    @app.exception_handler(StoreError)
    async def _store(_: Request, exc: StoreError):
        log.warning("index unavailable: %s", exc)
        return error_response(503, "index_unavailable", f"the index is not available: {exc}", {"Retry-After": "5"})

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, exc: Exception):
        log.exception("unexpected error")
        return error_response(500, "internal_error", "something went wrong on our side; the error was logged")
