"""`POST /slack/events`: the Slack bot's HTTP endpoint (exists only when the bot is configured); every
request is verified by bolt with the signing secret (401 otherwise). The bot itself is service/slack/."""
from __future__ import annotations

from fastapi import APIRouter, Request
from slack_bolt.adapter.fastapi.async_handler import AsyncSlackRequestHandler

from ..slack import SlackBot


def router(bot: SlackBot) -> APIRouter:
    handler = AsyncSlackRequestHandler(bot.app)
    routes = APIRouter(include_in_schema=False)

    @routes.post("/slack/events")
    async def slack_events(request: Request):
        return await handler.handle(request)

    return routes
