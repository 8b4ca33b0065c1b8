"""An answer as Block Kit: the cited text, the worked calculation, a context line and feedback buttons.

    section   the answer in mrkdwn, each [n] a link to its section     (split at 3,000 characters)
    section   Sources: <url|[n] title — section>, one per line
    section   the calculation: result, inputs, numbered steps          (when a calculator ran)
    context   its assumptions and any warning the answer did not already state
    context   scope · generator
    actions   👍 / 👎 — `feedback_up` / `feedback_down`, value = answer_id
"""
from __future__ import annotations

from ..catalogue import Catalogue
from ..answer.models import AskResponse
from .text import escape, link, mrkdwn

SECTION_MAX = 3000  # Block Kit's limit for a section's text
FEEDBACK_ACTIONS = ("feedback_up", "feedback_down")
_MAX_STEPS = 12


def answer_blocks(response: AskResponse, catalogue: Catalogue, asked_article: str | None = None,
                  note: str | None = None) -> tuple[list[dict], str]:
    """(blocks, text): `text` is the notification/fallback text, the answer in mrkdwn."""
    urls = {c.n: c.url for c in response.citations}
    text = mrkdwn(response.answer, urls)
    blocks = [_section(part) for part in _split(text)]
    if response.citations:
        lines = [link(c.url, f"[{c.n}] {_where(c.title, c.section)}") for c in response.citations]
        blocks += [_section(part) for part in _split("*Sources*\n" + "\n".join(lines))]
    if response.calculation:
        blocks += calculation_blocks(response.calculation, response.answer)
    blocks.append(_context(_context_line(response, catalogue, asked_article, note)))
    blocks.append(feedback_block(response.answer_id))
    return blocks, text[:SECTION_MAX]


def calculation_blocks(calc: dict, answer: str = "") -> list[dict]:
    primary = calc.get("primary") or {}
    head = f"*Worked calculation* · `{escape(str(calc.get('calculator', '')))}`"
    if primary:
        head += f" → *{escape(str(primary.get('display', '')))}* ({escape(str(primary.get('name', '')).replace('_', ' '))})"
    inputs = " · ".join(f"{escape(str(k))} `{escape(_value(v))}`" for k, v in (calc.get("inputs") or {}).items()
                        if v is not None)
    steps = [f"{i}. {s}" for i, s in enumerate(calc.get("steps") or [], 1)][:_MAX_STEPS]
    body = "\n".join(part for part in (head, inputs) if part)
    if steps:
        room = SECTION_MAX - len(body) - 10
        body += "\n```" + escape("\n".join(steps))[:room] + "```"
    blocks = [_section(body)]
    notes = [f":warning: {escape(w)}" for w in calc.get("warnings") or [] if w not in answer]
    if calc.get("assumptions"):
        notes.append("_Assumes:_ " + escape("; ".join(calc["assumptions"])))
    if notes:
        blocks.append(_context("\n".join(notes)[:SECTION_MAX]))
    return blocks


def feedback_block(answer_id: str) -> dict:
    return {"type": "actions", "block_id": f"feedback:{answer_id}"[:255], "elements": [
        {"type": "button", "action_id": FEEDBACK_ACTIONS[0], "value": answer_id,
         "text": {"type": "plain_text", "text": "👍 Helpful", "emoji": True}},
        {"type": "button", "action_id": FEEDBACK_ACTIONS[1], "value": answer_id,
         "text": {"type": "plain_text", "text": "👎 Not helpful", "emoji": True}},
    ]}


def question_blocks(user_id: str, question: str, article: str | None, catalogue: Catalogue) -> tuple[list[dict], str]:
    """The channel message that restates a `/ask` question; the answer goes in its thread."""
    where = f" about {_article_link(article, catalogue)}" if article else ""
    text = f"<@{user_id}> asked{where}:\n>{escape(question)}"
    return [_section(text[:SECTION_MAX])], f"<@{user_id}> asked: {escape(question)}"[:SECTION_MAX]


def notice_blocks(text: str) -> list[dict]:
    return [_section(text[:SECTION_MAX])]


def _context_line(response: AskResponse, catalogue: Catalogue, asked: str | None, note: str | None) -> str:
    if response.scope == "article" and asked:
        scope = f":page_facing_up: from {_article_link(asked, catalogue)}"
    elif response.scope == "site" and asked:
        scope = f":globe_with_meridians: site-wide (the article {_article_link(asked, catalogue)} did not cover it)"
    elif response.scope == "site":
        scope = ":globe_with_meridians: site-wide"
    elif response.route == "calculator":
        scope = ":abacus: calculator"
    else:
        scope = ":grey_question: not covered on the site"
    parts = [scope, f"generator: {escape(response.generator)}"]
    if note:
        parts.append(escape(note))
    return " · ".join(parts)


def _article_link(article: str, catalogue: Catalogue) -> str:
    info = catalogue.articles.get(article)
    return link(info.url, info.title) if info else f"`{escape(article)}`"


def _where(title: str, section: str) -> str:
    return f"{title} — {section}" if section and section != title else title


def _value(v) -> str:
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 10_000:
        return f"{v:,}"
    return str(v)


def _split(text: str, limit: int = SECTION_MAX) -> list[str]:
    """Pieces of at most `limit` characters, cut at paragraph or line breaks where possible."""
    pieces = []
    while len(text) > limit:
        cut = max(text.rfind("\n\n", 0, limit), text.rfind("\n", 0, limit))
        if cut <= 0:
            cut = text.rfind(" ", 0, limit)
        if cut <= 0:
            cut = limit
        pieces.append(text[:cut].rstrip())
        text = text[cut:].lstrip()
    return pieces + [text] if text else pieces


def _section(text: str) -> dict:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def _context(text: str) -> dict:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": text}]}
