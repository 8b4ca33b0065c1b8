"""The Slack bot over real HTTP: requests signed like Slack's (slack_sdk's SignatureVerifier) to
`POST /slack/events`, and the bot's Web API calls going to a local fake that speaks Slack's wire format."""
from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

import httpx
import pytest
import yaml
from slack_bolt.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.signature import SignatureVerifier

from conftest import LiveServer
from fake_slack import BOT_USER_ID, TEAM_ID, FakeSlack
from service.app import create_app
from service.feedback import default_url
from service.slack.bot import COMMAND
from service.slack.__main__ import main as slack_main, socket_mode_handler
from service.slack.text import mrkdwn, parse
from service.slack.thread import read_thread

SIGNING_SECRET = "5c1e0d3f9a7b4e2c8d6f0a1b2c3d4e5f"
BOT_TOKEN = "xoxb-1111111111-2222222222-testbottokenvalue"
APP_TOKEN = "xapp-1-A0ASKBOT1-3333333333-testapptokenvalue"
SITE = "https://learn.ai-infra.example"
MEMORY_70B = "How much memory does Llama 3.1 70B need in bf16?"


@pytest.fixture(scope="module")
def fake():
    slack = FakeSlack(BOT_TOKEN)
    with LiveServer(slack.app) as server:
        slack.url = server.url
        yield slack


@pytest.fixture(scope="module")
def settings(built, fake, tmp_path_factory):
    return type(built)(**{**built.model_dump(), "slack_bot_token": BOT_TOKEN, "slack_signing_secret": SIGNING_SECRET,
                          "slack_api_base_url": fake.url + "/api/", "slack_rate_limit_per_minute": 3,
                          "feedback_url": default_url(tmp_path_factory.mktemp("slack-feedback"))})


@pytest.fixture(scope="module")
def service(settings):
    app = create_app(settings)
    with LiveServer(app) as server:
        server.app = app
        yield server


@pytest.fixture
def slack(service):
    with httpx.Client(base_url=service.url, timeout=30) as client:
        yield client


def signed(body: str, content_type: str, timestamp: int | None = None, secret: str = SIGNING_SECRET, **headers) -> dict:
    ts = str(int(time.time()) if timestamp is None else timestamp)
    return {"Content-Type": content_type, "X-Slack-Request-Timestamp": ts,
            "X-Slack-Signature": SignatureVerifier(secret).generate_signature(timestamp=ts, body=body), **headers}


def post_event(slack: httpx.Client, event: dict, event_id: str | None = None, **headers) -> httpx.Response:
    body = json.dumps({"token": "legacy-verification", "team_id": TEAM_ID, "api_app_id": "A0ASKBOT1",
                       "type": "event_callback", "event": event, "event_id": event_id or f"Ev{uuid.uuid4().hex[:10]}",
                       "event_time": int(time.time()), "event_context": "4-eyJldCI6ImFwcF9tZW50aW9uIn0",
                       "authorizations": [{"team_id": TEAM_ID, "user_id": BOT_USER_ID, "is_bot": True}]})
    return slack.post("/slack/events", content=body, headers=signed(body, "application/json", **headers))


def post_command(slack: httpx.Client, fake: FakeSlack, channel: str, text: str, user: str = "U0READER1") -> httpx.Response:
    body = urlencode({"token": "legacy-verification", "team_id": TEAM_ID, "team_domain": "study-group",
                      "channel_id": channel, "channel_name": "study", "user_id": user, "user_name": "reader",
                      "command": "/ask", "text": text, "api_app_id": "A0ASKBOT1", "is_enterprise_install": "false",
                      "response_url": f"{fake.url}/response/{uuid.uuid4().hex}", "trigger_id": "1.2.3"})
    return slack.post("/slack/events", content=body, headers=signed(body, "application/x-www-form-urlencoded"))


def mention(fake: FakeSlack, channel: str, text: str, thread_ts: str | None = None, user: str = "U0READER1") -> dict:
    message = fake.add_message(channel, user, f"<@{BOT_USER_ID}> {text}", thread_ts)
    event = {"type": "app_mention", "user": user, "text": message["text"], "ts": message["ts"], "channel": channel,
             "event_ts": message["ts"], "team": TEAM_ID}
    if thread_ts:
        event["thread_ts"] = thread_ts
    return event


def texts(blocks: list[dict]) -> str:
    out = []
    for block in blocks:
        if "text" in block:
            out.append(block["text"]["text"])
        out += [e.get("text") if isinstance(e.get("text"), str) else "" for e in block.get("elements", [])]
    return "\n".join(out)


def answer_in(fake: FakeSlack, channel: str, thread_ts: str, count: int = 1) -> dict:
    posts = fake.wait_for("chat.postMessage", count=count, channel=channel, thread_ts=thread_ts)
    return posts[count - 1]


# ---- security -------------------------------------------------------------------------------


def test_url_verification_answers_the_challenge(slack):
    body = json.dumps({"token": "legacy-verification", "challenge": "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
                       "type": "url_verification"})
    response = slack.post("/slack/events", content=body, headers=signed(body, "application/json"))
    assert response.status_code == 200
    assert response.json() == {"challenge": "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P"}


def test_bad_missing_and_stale_signatures_are_401(slack, fake):
    event = mention(fake, "C0SECURE1", "What is Mooncake?")
    body = json.dumps({"type": "event_callback", "team_id": TEAM_ID, "event": event, "event_id": "EvSecure1"})
    cases = {
        "wrong secret": signed(body, "application/json", secret="not-the-signing-secret"),
        "no signature": {"Content-Type": "application/json", "X-Slack-Request-Timestamp": str(int(time.time()))},
        "no timestamp": {"Content-Type": "application/json",
                         "X-Slack-Signature": signed(body, "application/json")["X-Slack-Signature"]},
        "replayed, 6 minutes old": signed(body, "application/json", timestamp=int(time.time()) - 360),
        "tampered body": signed(body.replace("Mooncake", "Moonpie"), "application/json"),
    }
    for case, headers in cases.items():
        response = slack.post("/slack/events", content=body, headers=headers)
        assert response.status_code == 401, case
    time.sleep(0.5)
    assert fake.called("chat.postMessage", channel="C0SECURE1") == []


def test_without_slack_settings_there_is_no_slack_route(http):
    assert http.post("/slack/events", json={"type": "url_verification", "challenge": "x"}).status_code == 404


# ---- /ask -----------------------------------------------------------------------------------


def test_slash_command_acks_at_once_and_answers_in_a_thread(slack, fake):
    started = time.monotonic()
    response = post_command(slack, fake, "C0SLASH01", "mooncake What is Mooncake?")
    assert response.status_code == 200 and time.monotonic() - started < 3.0

    header = fake.wait_for("chat.postMessage", channel="C0SLASH01")[0]
    assert "thread_ts" not in header and "What is Mooncake?" in header["text"]
    assert header["metadata"]["event_payload"] == {"question": "What is Mooncake?", "article": "mooncake"}
    root = fake.messages["C0SLASH01"][0]["ts"]

    answer = answer_in(fake, "C0SLASH01", root)
    blocks = answer["blocks"]
    shown = texts(blocks)
    assert f"<{SITE}/articles/mooncake#what-mooncake-is|[" in shown  # citations link to the section
    sources = next(b for b in blocks if b.get("text", {}).get("text", "").startswith("*Sources*"))
    for line in sources["text"]["text"].splitlines()[1:]:
        assert line.startswith(f"<{SITE}/") and "|[" in line and " — " in line and line.endswith(">")
    context = next(b for b in blocks if b["type"] == "context")
    assert "from <" in context["elements"][0]["text"] and "generator: extractive" in context["elements"][0]["text"]
    buttons = next(b for b in blocks if b["type"] == "actions")["elements"]
    assert [b["action_id"] for b in buttons] == ["feedback_up", "feedback_down"]
    assert uuid.UUID(buttons[0]["value"]) and answer["metadata"]["event_type"] == "ask_answer"


def test_slash_command_without_a_question_gets_the_usage(slack, fake):
    response = post_command(slack, fake, "C0SLASH02", "   ")
    assert response.status_code == 200 and "/ask" in response.json()["text"]


def test_slash_command_in_a_channel_the_bot_cannot_post_in_answers_through_response_url(slack, fake):
    before = len(fake.responses)
    assert post_command(slack, fake, "G-private-1", "How big is the KV cache per token for Llama 3.1 8B?").status_code == 200
    deadline = time.monotonic() + 60
    while len(fake.responses) == before and time.monotonic() < deadline:
        time.sleep(0.05)
    reply = fake.responses[-1]
    assert reply["response_type"] == "in_channel" and "131,072" in texts(reply["blocks"])


# ---- mentions and threads -------------------------------------------------------------------


def test_a_mention_with_an_article_url_is_answered_in_its_thread(slack, fake):
    event = mention(fake, "C0MENTION", f"what is <{SITE}/articles/kv-cache|this article> about?")
    assert post_event(slack, event).status_code == 200
    answer = answer_in(fake, "C0MENTION", event["ts"])
    assert answer["metadata"]["event_payload"]["article"] == "kv-cache"
    assert f"<{SITE}/articles/kv-cache" in texts(answer["blocks"])


def test_a_numeric_mention_shows_the_worked_calculation(slack, fake):
    event = mention(fake, "C0NUMERIC", "How big is the KV cache per token for Llama 3.1 8B?")
    post_event(slack, event)
    shown = texts(answer_in(fake, "C0NUMERIC", event["ts"])["blocks"])
    assert "*Worked calculation* · `kv_cache`" in shown and "131,072" in shown
    assert "```1. " in shown and "model `llama-3.1-8b`" in shown and "calculator" in shown


def test_a_follow_up_in_the_thread_uses_the_thread_history(slack, fake):
    first = mention(fake, "C0FOLLOW1", MEMORY_70B)
    post_event(slack, first)
    answer = answer_in(fake, "C0FOLLOW1", first["ts"])
    assert "`bf16`" in texts(answer["blocks"])

    reply = fake.add_message("C0FOLLOW1", "U0READER2", "and in fp8?", thread_ts=first["ts"])
    event = {"type": "message", "channel": "C0FOLLOW1", "user": "U0READER2", "text": "and in fp8?",
             "ts": reply["ts"], "thread_ts": first["ts"], "channel_type": "channel", "event_ts": reply["ts"]}
    assert post_event(slack, event).status_code == 200
    follow_up = answer_in(fake, "C0FOLLOW1", first["ts"], count=2)
    shown = texts(follow_up["blocks"])
    assert "precision `fp8`" in shown and "70,553,706,496" in shown
    replies = fake.called("conversations.replies", channel="C0FOLLOW1")
    assert replies and all(r["ts"] == first["ts"] and str(r["include_all_metadata"]).lower() in ("1", "true") for r in replies)


def test_people_talking_in_a_thread_without_the_bot_are_left_alone(slack, fake):
    root = fake.add_message("C0QUIET01", "U0READER1", "lunch?")
    reply = fake.add_message("C0QUIET01", "U0READER2", "and in fp8?", thread_ts=root["ts"])
    post_event(slack, {"type": "message", "channel": "C0QUIET01", "user": "U0READER2", "text": reply["text"],
                       "ts": reply["ts"], "thread_ts": root["ts"], "channel_type": "channel"})
    top = fake.add_message("C0QUIET01", "U0READER1", "How much memory does Llama 3.1 8B need?")
    post_event(slack, {"type": "message", "channel": "C0QUIET01", "user": "U0READER1", "text": top["text"],
                       "ts": top["ts"], "channel_type": "channel"})
    fake.wait_for("conversations.replies", channel="C0QUIET01")
    time.sleep(1.0)
    assert fake.called("chat.postMessage", channel="C0QUIET01") == []


def test_a_retried_event_is_answered_once(slack, fake):
    event = mention(fake, "C0RETRY01", "What is Mooncake?")
    assert post_event(slack, event, event_id="EvRetried0001").status_code == 200
    # Slack thought the first delivery timed out: the same event again, at once and later
    assert post_event(slack, event, event_id="EvRetried0001", **{"X-Slack-Retry-Num": "1",
                      "X-Slack-Retry-Reason": "http_timeout"}).status_code == 200
    answer_in(fake, "C0RETRY01", event["ts"])
    assert post_event(slack, event, event_id="EvRetried0001", **{"X-Slack-Retry-Num": "2",
                      "X-Slack-Retry-Reason": "http_timeout"}).status_code == 200
    sentinel = mention(fake, "C0RETRY01", "What is the KV cache?")
    post_event(slack, sentinel)
    answer_in(fake, "C0RETRY01", sentinel["ts"])
    time.sleep(0.5)
    assert len(fake.called("chat.postMessage", channel="C0RETRY01", thread_ts=event["ts"])) == 1


# ---- feedback, rate limit, logs ---------------------------------------------------------------


def test_feedback_buttons_go_to_the_feedback_store(slack, fake, service):
    event = mention(fake, "C0FEEDBK1", "What is Mooncake?")
    post_event(slack, event)
    answer = answer_in(fake, "C0FEEDBK1", event["ts"])
    answer_id = answer["metadata"]["event_payload"]["answer_id"]
    message = fake.messages["C0FEEDBK1"][-1]
    payload = {"type": "block_actions", "team": {"id": TEAM_ID}, "user": {"id": "U0READER1", "team_id": TEAM_ID},
               "api_app_id": "A0ASKBOT1", "token": "legacy-verification", "trigger_id": "1.2.3",
               "container": {"type": "message", "message_ts": message["ts"], "channel_id": "C0FEEDBK1"},
               "channel": {"id": "C0FEEDBK1", "name": "study"}, "message": message,
               "response_url": f"{fake.url}/response/{uuid.uuid4().hex}",
               "actions": [{"type": "button", "action_id": "feedback_down", "block_id": f"feedback:{answer_id}",
                            "value": answer_id, "action_ts": str(time.time())}]}
    body = urlencode({"payload": json.dumps(payload)})
    response = slack.post("/slack/events", content=body, headers=signed(body, "application/x-www-form-urlencoded"))
    assert response.status_code == 200
    thanks = fake.wait_for("chat.postEphemeral", channel="C0FEEDBK1")[0]
    assert thanks["user"] == "U0READER1" and thanks["thread_ts"] == event["ts"]
    rows = [r for r in service.app.state.runtime.feedback.rows() if r["answer_id"] == answer_id]
    assert [(r["rating"], r["client"]) for r in rows] == [("down", "slack")]


def test_a_busy_channel_gets_a_polite_message(slack, fake):
    acks = [post_command(slack, fake, "C0BUSY001", f"What is Mooncake? ({i})") for i in range(4)]
    assert all(a.status_code == 200 for a in acks)
    assert "give me a minute" in acks[3].json()["text"]
    event = mention(fake, "C0BUSY001", "What is the KV cache?")
    post_event(slack, event)
    notice = fake.wait_for("chat.postEphemeral", channel="C0BUSY001")[0]
    assert "give me a minute" in notice["text"] and notice["user"] == "U0READER1"
    other = mention(fake, "C0CALM001", "What is the KV cache?")  # the budget is per channel
    post_event(slack, other)
    answer_in(fake, "C0CALM001", other["ts"])


def test_tokens_never_reach_the_logs(slack, fake, caplog):
    with caplog.at_level(logging.DEBUG):
        event = mention(fake, "C0LOGS001", "What is Mooncake?")
        post_event(slack, event)
        answer_in(fake, "C0LOGS001", event["ts"])
        body = json.dumps({"type": "event_callback", "event": event, "token": BOT_TOKEN})
        assert slack.post("/slack/events", content=body, headers=signed(body, "application/json", secret="x")).status_code == 401
    assert caplog.records  # the flow did log (bolt, the web client, the access log)
    for secret in (BOT_TOKEN, SIGNING_SECRET):
        assert secret not in caplog.text


# ---- socket mode ------------------------------------------------------------------------------


def test_socket_mode_builds_the_same_bot_without_connecting(settings, service, fake):
    socket_settings = type(settings)(**{**settings.model_dump(), "slack_app_token": APP_TOKEN, "slack_signing_secret": None})

    async def run():
        handler = socket_mode_handler(socket_settings, service.app.state.runtime)
        assert isinstance(handler.app, AsyncApp) and handler.client.app_token == APP_TOKEN
        assert handler.client.closed is False and handler.client.current_session is None  # nothing connected
        # what Slack sends over the socket: no signature, the same listeners answer it
        command = {"team_id": TEAM_ID, "channel_id": "C0SOCKET1", "user_id": "U0READER1", "command": "/ask",
                   "text": "What is Mooncake?", "response_url": f"{fake.url}/response/socket"}
        ack = await handler.app.async_dispatch(AsyncBoltRequest(body=command, mode="socket_mode"))
        assert ack.status == 200
        deadline = time.monotonic() + 60
        while len(fake.called("chat.postMessage", channel="C0SOCKET1")) < 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        await handler.client.close()

    asyncio.run(run())
    root = fake.messages["C0SOCKET1"][0]["ts"]
    assert fake.called("chat.postMessage", channel="C0SOCKET1", thread_ts=root)


def test_socket_mode_cli_says_which_tokens_are_missing(monkeypatch, capsys):
    for name in ("SLACK_APP_TOKEN", "SLACK_BOT_TOKEN"):
        monkeypatch.setenv(name, "")
    assert slack_main(["--socket"]) == 2
    assert "SLACK_APP_TOKEN and SLACK_BOT_TOKEN" in capsys.readouterr().err


# ---- text and threads, without the network ----------------------------------------------------


def test_scope_comes_from_the_article_id_or_url(service):
    catalogue = service.app.state.runtime.assistant.catalogue
    assert parse("mooncake why keep the cache?", catalogue, command=True).article == "mooncake"
    assert parse("why keep the mooncake?", catalogue, command=True).article is None
    asked = parse(f"<@{BOT_USER_ID}> what is <{SITE}/articles/kv-cache#why|this article> about &amp; why?",
                  catalogue, BOT_USER_ID)
    assert (asked.text, asked.article) == ("what is this article about & why?", "kv-cache")
    assert parse(f"{SITE}/articles/no-such-page who?", catalogue, command=True).unknown_article == "no-such-page"
    assert parse("<https://example.com/articles/mooncake> hi", catalogue).article is None


def test_a_message_keeps_its_lines(service):
    """A quoted earlier message and a bulleted setup stay one per line, so the router can tell the quote from the
    question (the quote's figures are someone else's)."""
    catalogue = service.app.state.runtime.assistant.catalogue
    asked = parse(f"<@{BOT_USER_ID}>  &gt; kv for llama 3.1 8b at 4k\n\nredo it   for batch 32 ,  same model", catalogue,
                  BOT_USER_ID)
    assert asked.text == "> kv for llama 3.1 8b at 4k\nredo it for batch 32, same model"


def test_answers_are_escaped_for_slack():
    text = mrkdwn("**Weights: 1 GB** if a < b & c > d [1]; see [the page](https://x.example/p) [7].",
                  {1: "https://x.example/a#s"})
    assert text == ("*Weights: 1 GB* if a &lt; b &amp; c &gt; d <https://x.example/a#s|[1]>; "
                    "see <https://x.example/p|the page> [7].")


def test_thread_history_keeps_the_last_six_turns():
    messages = [{"ts": "1.0", "user": BOT_USER_ID, "bot_id": "B1", "text": "asked",
                 "metadata": {"event_type": "ask_question", "event_payload": {"question": "q0", "article": "mooncake"}}}]
    messages += [{"ts": f"{i + 2}.0", "user": "U1", "text": f"<@{BOT_USER_ID}> q{i + 1}"} for i in range(6)]
    messages += [{"ts": "9.0", "user": BOT_USER_ID, "bot_id": "B1", "text": "rate limited"},
                 {"ts": "10.0", "user": BOT_USER_ID, "bot_id": "B1", "text": "a &amp; b",
                  "metadata": {"event_type": "ask_answer", "event_payload": {"answer_id": "x", "article": "kv-cache"}}},
                 {"ts": "11.0", "user": "U1", "text": "the current message"}]
    thread = read_thread(messages, BOT_USER_ID, "B1", before_ts="11.0")
    assert [t.content for t in thread.turns] == ["q2", "q3", "q4", "q5", "q6", "a & b"]
    assert thread.turns[-1].role == "assistant" and thread.article == "kv-cache" and thread.bot_took_part


def test_the_app_manifest_matches_what_the_bot_handles():
    manifest = yaml.safe_load((Path(__file__).parent.parent / "deploy" / "slack-manifest.yaml").read_text())
    features, settings = manifest["features"], manifest["settings"]
    assert [c["command"] for c in features["slash_commands"]] == [COMMAND]
    urls = [c["url"] for c in features["slash_commands"]]
    urls += [settings["event_subscriptions"]["request_url"], settings["interactivity"]["request_url"]]
    assert all(url.endswith("/slack/events") for url in urls)
    assert {"app_mention", "message.channels"} <= set(settings["event_subscriptions"]["bot_events"])
    assert {"chat:write", "commands", "app_mentions:read", "channels:history"} <= set(manifest["oauth_config"]["scopes"]["bot"])
    assert settings["interactivity"]["is_enabled"] is True
