"""`python -m service.slack --socket`: the Slack bot over Socket Mode, for groups without a public URL.

The bot opens a WebSocket to Slack (no inbound HTTP, so no signing secret is needed) and answers with
the same Assistant the service uses: the model and the index are loaded by the service's own start-up
(`create_app`'s lifespan), not by a second copy of that code.
"""
from __future__ import annotations

import argparse
import asyncio
import sys

from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

from ..http import logs
from ..app import create_app
from ..runtime import Runtime
from ..settings import Settings
from .bot import SlackBot, _secret


def socket_mode_handler(settings: Settings, runtime: Runtime) -> AsyncSocketModeHandler:
    """The bolt app on a Socket Mode connection (not opened yet: `await handler.start_async()`)."""
    bot = SlackBot(settings, runtime)
    return AsyncSocketModeHandler(bot.app, _secret(settings.slack_app_token))


async def serve(settings: Settings) -> None:
    app = create_app(settings)
    async with app.router.lifespan_context(app):  # loads the model and the index, opens the feedback store
        handler = socket_mode_handler(settings, app.state.runtime)
        try:
            await handler.start_async()  # runs until the process is stopped
        finally:
            await handler.close_async()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service.slack", description="Run the Slack bot.")
    parser.add_argument("--socket", action="store_true", help="connect over Socket Mode (needs SLACK_APP_TOKEN and SLACK_BOT_TOKEN)")
    args = parser.parse_args(argv)
    if not args.socket:
        parser.print_help()
        print("\nIn HTTP mode the bot is part of the service: set SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN and run "
              "`python -m service`; Slack sends requests to https://YOUR-HOST/slack/events.", file=sys.stderr)
        return 2
    settings = Settings()
    missing = [name for name, value in (("SLACK_APP_TOKEN", settings.slack_app_token),
                                        ("SLACK_BOT_TOKEN", settings.slack_bot_token)) if not _secret(value)]
    if missing:
        print(f"python -m service.slack --socket: set {' and '.join(missing)} (see README, 'Slack bot')", file=sys.stderr)
        return 2
    logs.configure(settings)  # JSON lines, tokens scrubbed

    try:
        asyncio.run(serve(settings))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
