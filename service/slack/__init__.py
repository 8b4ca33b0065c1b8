"""The Slack bot for study groups: `/ask` and @mentions answered in a thread with the same cited,
calculator-exact answers as the API, follow-ups that use the thread's history, and feedback buttons.

HTTP mode: `install(app, settings)` mounts `POST /slack/events` (only when `SLACK_SIGNING_SECRET`
and `SLACK_BOT_TOKEN` are set). Socket Mode: `python -m service.slack --socket` (needs `SLACK_APP_TOKEN`).
"""
from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from slack_bolt.adapter.fastapi.async_handler import AsyncSlackRequestHandler

from ..settings import Settings
from .bot import SlackBot, configured

__all__ = ["SlackBot", "configured", "install"]
log = logging.getLogger("service.slack")


def install(app: FastAPI, settings: Settings) -> None:
    """`POST /slack/events`: every request verified by bolt with the signing secret (401 otherwise)."""
    if not configured(settings):
        if settings.slack_signing_secret is not None or settings.slack_bot_token is not None:
            log.warning("slack: set both SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN to serve /slack/events; it is off")
        return
    bot = SlackBot(settings, app.state)
    handler = AsyncSlackRequestHandler(bot.app)
    app.state.slack = bot

    @app.post("/slack/events", include_in_schema=False)
    async def slack_events(request: Request):
        return await handler.handle(request)
