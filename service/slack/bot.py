"""The bolt app: `/ask`, @mentions, follow-ups in the thread, feedback buttons.

Every request is acknowledged at once (bolt acks events itself; `/ask` calls `ack()` first) and the
answer is posted afterwards with `chat.postMessage` in the thread — bolt sends the HTTP response as
soon as `ack()` is called and finishes the listener in the background. Retried deliveries of an event
(`X-Slack-Retry-Num`) are recognised by their `event_id` and not answered twice; each channel has a
question budget per minute. Answers come from the same in-process `Assistant` as `POST /v1/ask`, each is
queued for the same question log (client "slack"; no Slack user id), and ratings go to the same
`FeedbackStore` as `POST /v1/feedback` (source "slack").
"""
from __future__ import annotations

import hashlib
import logging
import re
import threading
import time
import uuid
from collections import OrderedDict

from fastapi.concurrency import run_in_threadpool
from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from pydantic import ValidationError
from slack_bolt import BoltResponse
from slack_bolt.async_app import AsyncApp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from ingest.errors import StoreError

from ..answer.models import QUESTION_MAX_CHARS, AskRequest, AskResponse, Turn
from ..errors import ApiError
from ..http.logs import Redactor, secrets_of
from ..runtime import Runtime
from ..settings import Settings
from .blocks import FEEDBACK_ACTIONS, answer_blocks, notice_blocks, question_blocks
from .text import Question, escape, parse
from .thread import ANSWER_EVENT, QUESTION_EVENT, Thread, read_thread

COMMAND = "/ask"
USAGE = ("Ask me about the site: `/ask <question>`, `/ask <article id or article URL> <question>` "
         "(for example `/ask mooncake why keep the KV cache?`), or mention me in a channel. "
         "Follow-up questions in the thread keep the conversation going.")
_THREAD_PAGE, _THREAD_MAX = 200, 1000  # messages read per conversations.replies page / per thread at most


def configured(settings: Settings) -> bool:
    """HTTP mode needs both the signing secret (to verify requests) and the bot token (to answer)."""
    return bool(_secret(settings.slack_signing_secret) and _secret(settings.slack_bot_token))


class RecentIds:
    """Event ids seen in the last `ttl_s` seconds, at most `size` of them (oldest forgotten first)."""

    def __init__(self, ttl_s: float = 3600.0, size: int = 10_000):
        self.ttl_s, self.size = ttl_s, size
        self._seen: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def first(self, key: str) -> bool:
        """Records `key`; True the first time it is seen within the TTL, False for a repeat."""
        now = time.monotonic()
        with self._lock:
            while self._seen and (next(iter(self._seen.values())) < now or len(self._seen) >= self.size):
                self._seen.popitem(last=False)
            if key in self._seen:
                return False
            self._seen[key] = now + self.ttl_s
            return True


class SlackBot:
    """Answers with the running service's assistant and records ratings in its feedback store (`runtime`)."""

    def __init__(self, settings: Settings, runtime: Runtime, client: AsyncWebClient | None = None):
        self.settings, self.runtime = settings, runtime
        self.log = _redacting_logger("service.slack", settings)
        base_url = settings.slack_api_base_url.rstrip("/") + "/"
        client = client or AsyncWebClient(token=_secret(settings.slack_bot_token), base_url=base_url,
                                          logger=_redacting_logger("service.slack.web", settings))
        self.app = AsyncApp(name="ask-about-this-article", client=client, logger=self.log,
                            signing_secret=_secret(settings.slack_signing_secret) or "")
        self.events = RecentIds()
        per_minute = settings.slack_rate_limit_per_minute
        self.budget = RateLimitItemPerMinute(per_minute) if per_minute else None
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

        self.app.middleware(self._once_per_event)
        self.app.command(COMMAND)(self._on_command)
        self.app.event("app_mention")(self._on_mention)
        self.app.event("message")(self._on_message)
        self.app.action(re.compile(rf"^({'|'.join(FEEDBACK_ACTIONS)})$"))(self._on_feedback)

    @property
    def catalogue(self):
        return self.runtime.ready_assistant().catalogue

    # ---- delivery ------------------------------------------------------------------------------

    async def _once_per_event(self, body: dict, req, next):
        """Slack redelivers an event it thinks went unacknowledged (`X-Slack-Retry-Num: 1, 2, 3`); the
        event id is the same, so a repeat is acknowledged without being answered again. A retry whose
        first delivery never reached this process is answered (as the first)."""
        event_id = body.get("event_id") if isinstance(body, dict) else None
        if event_id and not self.events.first(event_id):
            retry = (req.headers.get("x-slack-retry-num") or ["?"])[0]
            reason = (req.headers.get("x-slack-retry-reason") or ["?"])[0]
            self.log.info("slack: event %s delivered again (retry %s, %s); already handled", event_id, retry, reason)
            return BoltResponse(status=200, body="")
        await next()

    def _allowed(self, channel: str) -> bool:
        return self.budget is None or self.limiter.hit(self.budget, "slack-channel", channel)

    def _rate_limited_text(self) -> str:
        return (f"I'm answering a lot of questions in this channel right now (up to {self.budget.amount} a minute). "
                "Please give me a minute and ask again :pray:")

    # ---- listeners -----------------------------------------------------------------------------

    async def _on_command(self, ack, command: dict, client: AsyncWebClient, respond, context):
        question = parse(command.get("text", ""), self.catalogue, context.bot_user_id, command=True)
        channel, user = command.get("channel_id", ""), command.get("user_id", "")
        if not question.text:
            await ack(text=USAGE, response_type="ephemeral")
            return
        if not self._allowed(channel):
            await ack(text=self._rate_limited_text(), response_type="ephemeral")
            return
        await ack()  # Slack has its answer within the 3 s; the work starts now
        blocks, text = question_blocks(user, question.text, question.article, self.catalogue)
        thread_ts = None
        try:
            posted = await client.chat_postMessage(
                channel=channel, text=text, blocks=blocks, unfurl_links=False,
                metadata={"event_type": QUESTION_EVENT, "event_payload": {"question": question.text,
                                                                         "article": question.article or ""}})
            thread_ts = posted["ts"]
        except SlackApiError as exc:  # a private channel or DM the bot is not in: answer through response_url
            self.log.info("slack: cannot post in %s (%s); answering through response_url", channel, _error(exc))
        conversation = f"{channel}:{thread_ts or command.get('trigger_id', '')}"
        response, problem = await self._ask(question, [], conversation)
        if thread_ts is not None:
            await self._post_answer(client, channel, thread_ts, question, response, problem)
        elif response is not None:
            blocks, text = answer_blocks(response, self.catalogue, question.article, _unknown_note(question))
            await respond(text=text, blocks=blocks, response_type="in_channel", replace_original=False)
        else:
            await respond(text=problem, response_type="ephemeral", replace_original=False)

    async def _on_mention(self, event: dict, client: AsyncWebClient, context):
        """`@bot question` in a channel, or in a thread (whose earlier messages are the history)."""
        channel, ts, thread_ts = event.get("channel", ""), event.get("ts", ""), event.get("thread_ts")
        if not self._allowed(channel):
            await self._ephemeral(client, channel, event.get("user"), thread_ts or ts, self._rate_limited_text())
            return
        thread = await self._thread(client, channel, thread_ts, ts, context) if thread_ts else Thread()
        await self._reply(client, context, event, thread)

    async def _on_message(self, event: dict, client: AsyncWebClient, context):
        """A reply in a thread the bot has answered in is a follow-up, mention or not."""
        if event.get("subtype") not in (None, "thread_broadcast") or event.get("bot_id"):
            return
        ts, thread_ts, channel = event.get("ts"), event.get("thread_ts"), event.get("channel", "")
        if not thread_ts or thread_ts == ts:
            return  # not in a thread: only mentions and /ask start a conversation
        if context.bot_user_id and f"<@{context.bot_user_id}" in event.get("text", ""):
            return  # the app_mention event for the same message answers it
        thread = await self._thread(client, channel, thread_ts, ts, context)
        if not thread.bot_took_part:
            return  # people talking among themselves
        if not self._allowed(channel):
            await self._ephemeral(client, channel, event.get("user"), thread_ts, self._rate_limited_text())
            return
        await self._reply(client, context, event, thread)

    async def _on_feedback(self, ack, action: dict, body: dict, client: AsyncWebClient):
        await ack()
        answer_id = str(action.get("value", ""))
        try:
            uuid.UUID(answer_id)
        except ValueError:
            self.log.warning("slack: feedback for a malformed answer id ignored")
            return
        rating = "up" if action.get("action_id") == FEEDBACK_ACTIONS[0] else "down"
        await run_in_threadpool(self.runtime.feedback.add, answer_id, rating, None, "slack")
        message = body.get("message") or {}
        await self._ephemeral(client, (body.get("channel") or {}).get("id", ""), (body.get("user") or {}).get("id"),
                              message.get("thread_ts") or message.get("ts"), "Thanks for the feedback: it was recorded.")

    # ---- answering -----------------------------------------------------------------------------

    async def _reply(self, client: AsyncWebClient, context, event: dict, thread: Thread) -> None:
        channel, ts = event.get("channel", ""), event.get("ts", "")
        root = event.get("thread_ts") or ts
        question = parse(event.get("text", ""), self.catalogue, context.bot_user_id)
        if not question.text:
            await self._post(client, channel, root, USAGE)
            return
        if question.article is None and thread.article:
            question = Question(question.text, thread.article, question.unknown_article)
        response, problem = await self._ask(question, thread.turns, conversation=f"{channel}:{root}")
        await self._post_answer(client, channel, root, question, response, problem)

    async def _ask(self, question: Question, history: list[Turn],
                   conversation: str | None = None) -> tuple[AskResponse | None, str | None]:
        """The Assistant's answer, or a short explanation for the reader of why there is none. The answer
        goes into the question log as client "slack"; `conversation` (channel and thread) only as a salted
        hash, and the asker's user id not at all."""
        try:
            request = AskRequest(question=question.text, article=question.article, history=history)
        except ValidationError:
            return None, f"That question is too long for me: please keep it under {QUESTION_MAX_CHARS:,} characters."
        try:
            assistant, started = self.runtime.ready_assistant(), time.perf_counter()
            prepared = await assistant.prepare(request)
            response = await assistant.respond(prepared)
            self.runtime.questions.record_answer(
                client="slack", article=question.article, question=question.text, prepared=prepared, response=response,
                latency_ms=(time.perf_counter() - started) * 1000, session=_conversation_id(conversation),
                release=self.runtime.release_id())
            return response, None
        except ApiError as exc:
            if exc.status == 404:
                return None, escape(exc.message)
            self.log.warning("slack: no answer (%s: %s)", exc.code, exc.message)
        except StoreError as exc:
            self.log.warning("slack: the index is unavailable: %s", exc)
        except Exception:  # noqa: BLE001 - the reader gets an apology; the traceback goes to the log
            self.log.exception("slack: answering failed")
        return None, "Sorry, I can't answer right now (the search index is not available). Please try again in a minute."

    async def _post_answer(self, client: AsyncWebClient, channel: str, thread_ts: str, question: Question,
                           response: AskResponse | None, problem: str | None) -> None:
        if response is None:
            await self._post(client, channel, thread_ts, problem or "Sorry, something went wrong.")
            return
        blocks, text = answer_blocks(response, self.catalogue, question.article, _unknown_note(question))
        try:
            await client.chat_postMessage(
                channel=channel, thread_ts=thread_ts, text=text, blocks=blocks, unfurl_links=False, unfurl_media=False,
                metadata={"event_type": ANSWER_EVENT, "event_payload": {"answer_id": response.answer_id,
                                                                       "article": question.article or ""}})
        except SlackApiError as exc:
            self.log.warning("slack: could not post the answer in %s: %s", channel, _error(exc))

    async def _post(self, client: AsyncWebClient, channel: str, thread_ts: str | None, text: str) -> None:
        try:
            await client.chat_postMessage(channel=channel, thread_ts=thread_ts, text=text, blocks=notice_blocks(text))
        except SlackApiError as exc:
            self.log.warning("slack: could not post in %s: %s", channel, _error(exc))

    async def _ephemeral(self, client: AsyncWebClient, channel: str, user: str | None, thread_ts: str | None,
                         text: str) -> None:
        if not user:
            return
        try:
            await client.chat_postEphemeral(channel=channel, user=user, thread_ts=thread_ts, text=text)
        except SlackApiError as exc:
            self.log.warning("slack: could not send a notice in %s: %s", channel, _error(exc))

    async def _thread(self, client: AsyncWebClient, channel: str, thread_ts: str, before_ts: str, context) -> Thread:
        messages: list[dict] = []
        try:
            async for page in await client.conversations_replies(channel=channel, ts=thread_ts, limit=_THREAD_PAGE,
                                                                 include_all_metadata=True):
                messages += page.get("messages") or []
                if len(messages) >= _THREAD_MAX:
                    break
        except SlackApiError as exc:
            self.log.warning("slack: could not read the thread in %s: %s", channel, _error(exc))
        return read_thread(messages, context.bot_user_id, context.bot_id, before_ts)


def _conversation_id(conversation: str | None) -> str | None:
    """A Slack thread as a session id the question log accepts (it hashes it; the raw id is not stored)."""
    if not conversation:
        return None
    return hashlib.sha256(conversation.encode()).hexdigest()[:40]


def _unknown_note(question: Question) -> str | None:
    return f"there is no article '{question.unknown_article}', so I searched the whole site" if question.unknown_article else None


def _error(exc: SlackApiError) -> str:
    return str(exc.response.get("error", "error")) if exc.response is not None else "error"


def _secret(value) -> str | None:
    return value.get_secret_value() if hasattr(value, "get_secret_value") else value


def _redacting_logger(name: str, settings: Settings) -> logging.Logger:
    """bolt copies its base logger's filters onto its own loggers: secrets are scrubbed at the source."""
    logger = logging.getLogger(name)
    redactor = next((f for f in logger.filters if isinstance(f, Redactor)), None)
    if redactor is None:
        logger.addFilter(Redactor(secrets_of(settings)))
    else:  # another bot in this process (tests): one filter, shared with bolt's loggers, knows both
        known = set(redactor.secrets) | {s for s in secrets_of(settings) if s and len(s) >= 6}
        redactor.secrets = sorted(known, key=len, reverse=True)
    return logger
