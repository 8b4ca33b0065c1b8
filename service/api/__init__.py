"""The HTTP API: one thin router per resource; app.py includes them (admin and Slack only when configured)."""
from __future__ import annotations

from . import admin, articles, ask, calculate, feedback, health, widget

ALWAYS = (ask.router, calculate.router, articles.router, feedback.router, health.router, widget.router)

__all__ = ["ALWAYS", "admin"]
