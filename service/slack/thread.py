"""A Slack thread as conversation history: the earlier messages of the thread become `history` turns.

The bot marks what it posts with message metadata (returned by `conversations.replies` with
`include_all_metadata`): `ask_question` on the message that restates a `/ask` question (a user turn),
`ask_answer` on an answer (an assistant turn, and the article the thread is scoped to). Notices the
bot posts (rate limits, errors) carry neither and are left out; people's messages are user turns.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..answer.models import HISTORY_MAX_TURNS, TURN_MAX_CHARS, Turn
from .text import plain

QUESTION_EVENT = "ask_question"
ANSWER_EVENT = "ask_answer"


@dataclass
class Thread:
    turns: list[Turn] = field(default_factory=list)  # the most recent HISTORY_MAX_TURNS, oldest first
    article: str | None = None  # the scope the thread's last question was asked in
    bot_took_part: bool = False  # the bot has posted in it (a follow-up without a mention is for the bot)


def read_thread(messages: list[dict], bot_user_id: str | None, bot_id: str | None, before_ts: str | None) -> Thread:
    """`messages` as `conversations.replies` returns them (oldest first); only those before `before_ts` count."""
    thread, turns = Thread(), []
    for message in sorted(messages, key=lambda m: float(m.get("ts", 0))):
        if before_ts is not None and float(message.get("ts", 0)) >= float(before_ts):
            continue
        from_bot = (bot_id is not None and message.get("bot_id") == bot_id) or (
            bot_user_id is not None and message.get("user") == bot_user_id)
        metadata = message.get("metadata") or {}
        payload = metadata.get("event_payload") or {}
        if from_bot:
            thread.bot_took_part = True
            if metadata.get("event_type") == QUESTION_EVENT and payload.get("question"):
                turns.append(Turn(role="user", content=str(payload["question"])[:TURN_MAX_CHARS]))
                thread.article = payload.get("article") or None
            elif metadata.get("event_type") == ANSWER_EVENT:
                turns.append(Turn(role="assistant", content=plain(message.get("text", ""), bot_user_id)[:TURN_MAX_CHARS]))
                thread.article = payload.get("article") or None
        elif message.get("bot_id") is None and message.get("subtype") in (None, "thread_broadcast"):
            text = plain(message.get("text", ""), bot_user_id)
            if text:
                turns.append(Turn(role="user", content=text[:TURN_MAX_CHARS]))
    thread.turns = turns[-HISTORY_MAX_TURNS:]
    return thread
