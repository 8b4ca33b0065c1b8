"""The errors of the service package: one root. An `ApiError` leaves the API as its JSON error; the
others are caught where they happen and turned into a fallback (see service/http/errors.py for how
every exception, ours and the libraries', becomes a response)."""
from __future__ import annotations


class ServiceError(Exception):
    """Anything the service refuses or cannot do."""


class ApiError(ServiceError):
    """A request the API answers with a 4xx/5xx `{"error": {"code", "message"}}`."""

    def __init__(self, status: int, code: str, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers


class LLMFailure(ServiceError):
    """The LLM endpoint did not deliver a usable answer; `reason` is short and low-cardinality ("timeout")."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason
