"""The Slack bot for study groups: `/ask` and @mentions answered in a thread with the same cited,
calculator-exact answers as the API, follow-ups that use the thread's history, and feedback buttons.

HTTP mode: app.py mounts `POST /slack/events` (service/api/slack.py) when `SLACK_SIGNING_SECRET` and
`SLACK_BOT_TOKEN` are set. Socket Mode: `python -m service.slack --socket` (needs `SLACK_APP_TOKEN`).
"""
from __future__ import annotations

from .bot import SlackBot, configured

__all__ = ["SlackBot", "configured"]
