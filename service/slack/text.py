"""Slack's text formats, both ways: what a message says (mentions, `<url|label>` links, `&amp;`
escapes) → a plain question and its article scope; and an answer's Markdown → Slack mrkdwn.

Slack escapes `&`, `<` and `>` in message text and wraps links, mentions and channels in `<…>`;
text we send must be escaped the same way or a `<` from the corpus would open a bogus link.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..catalogue import Catalogue

_ARTICLE_ID = r"[a-z0-9]+(?:-[a-z0-9]+)*"
_WRAPPED = re.compile(r"<([^<>]*)>")  # <@U123>, <#C1|name>, <!here>, <https://…|label>
_URL = re.compile(r"https?://[^\s<>|]+")


def escape(text: str) -> str:
    """Text from the corpus or a reader, made safe for mrkdwn (Slack's three control characters)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def link(url: str, label: str) -> str:
    """`<url|label>`, with the label escaped (a `|` in a URL would end it, so it is percent-encoded)."""
    return f"<{url.replace('|', '%7C').replace('>', '%3E')}|{escape(label)}>"


# ---------------------------------------------------------------------------- incoming ----


@dataclass(frozen=True)
class Question:
    text: str  # plain text: mentions of the bot gone, links unwrapped, escapes undone
    article: str | None = None  # article id when the message named one (its id first, or its URL)
    unknown_article: str | None = None  # an /articles/<id> URL of this site whose id is not an article


def plain(text: str, bot_user_id: str | None = None) -> str:
    """A message's text as a reader typed it: the bot's mention removed, other markup unwrapped."""

    def unwrap(match: re.Match) -> str:
        inner = match.group(1)
        target, _, label = inner.partition("|")
        if target.startswith("@"):
            return "" if target[1:] == bot_user_id else "@" + (label or target[1:])
        if target.startswith("#"):
            return "#" + (label or target[1:])
        if target.startswith("!"):
            return "" if target[1:] in ("here", "channel", "everyone") else (label or "")
        return label or target

    return _tidy(unescape(_WRAPPED.sub(unwrap, text)))


def _tidy(text: str) -> str:
    """Runs of spaces made one, blank lines dropped; line breaks kept (a quoted line or a list is one per line)."""
    return "\n".join(" ".join(line.split()) for line in text.splitlines() if line.strip())


def parse(text: str, catalogue: Catalogue, bot_user_id: str | None = None, command: bool = False) -> Question:
    """The question and its scope. An article URL of this site anywhere in the text sets the scope (and
    is removed from the question); for `/ask`, so does an article id as the first word."""
    found: list[tuple[str, bool]] = []

    def take(url: str) -> bool:
        hit = _article_of(url, catalogue)
        if hit is not None:
            found.append(hit)
        return hit is not None

    # Slack wraps links as <url> or <url|label>; a slash command without escaping sends them bare
    def unwrap(match: re.Match) -> str:  # a descriptive label ("this article") stays part of the question
        url, _, label = match.group(1).partition("|")
        if not take(url):
            return match.group(0)
        return f" {label} " if label and not re.search(r"[./]", label) else " "

    words = _WRAPPED.sub(unwrap, text)
    words = plain(words, bot_user_id)
    words = _URL.sub(lambda m: " " if take(m.group(0)) else m.group(0), words)
    words = re.sub(r"[ \t]+([?.,;:!])", r"\1", _tidy(words))
    article = next((i for i, known in found if known), None)
    unknown = next((i for i, known in found if not known), None)
    if command and article is None:
        first, _, rest = words.partition(" ")
        if first in catalogue.articles:
            article, words = first, rest.strip()
    return Question(words, article, None if article else unknown)


def _article_of(url: str, catalogue: Catalogue) -> tuple[str, bool] | None:
    """(id, is a known article) for `<base_url>/articles/<id>[#anchor]` of this site; None for any other URL."""
    for base in _site_bases(catalogue):
        match = re.fullmatch(re.escape(base) + rf"/articles/({_ARTICLE_ID})/?(?:[#?].*)?", url.rstrip(".,;:!?)"))
        if match:
            return match.group(1), match.group(1) in catalogue.articles
    return None


def _site_bases(catalogue: Catalogue) -> set[str]:
    bases = {a.url.rsplit("/articles/", 1)[0] for a in catalogue.articles.values()}
    return bases | {b.replace("https://", "http://", 1) for b in bases}


# ---------------------------------------------------------------------------- outgoing ----

_CODE = re.compile(r"```.*?```|`[^`\n]+`", re.S)
_MD_LINK = re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)")
_MARKER = re.compile(r"\[(\d{1,2})\]")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__")
_ITALIC = re.compile(r"(?<![*\w])\*(?=[^\s*])([^*\n]+?)(?<=[^\s*])\*(?![*\w])")
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*$", re.M)
_BULLET = re.compile(r"^(\s*)[-*+]\s+", re.M)
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")


def mrkdwn(markdown: str, citation_urls: dict[int, str] | None = None) -> str:
    """An answer's Markdown as Slack mrkdwn: text escaped, `**bold**` → `*bold*`, `*it*` → `_it_`,
    headings bold, bullets •, `[text](url)` → `<url|text>`, and each `[n]` a link to its section.
    Code spans and blocks are kept as they are (escaped, as Slack requires)."""
    citation_urls = citation_urls or {}
    out, last = [], 0
    for code in _CODE.finditer(markdown):
        out.append(_inline(markdown[last:code.start()], citation_urls))
        out.append(escape(code.group(0)))
        last = code.end()
    out.append(_inline(markdown[last:], citation_urls))
    return "".join(out)


def _inline(text: str, citation_urls: dict[int, str]) -> str:
    links: list[str] = []

    def keep(rendered: str) -> str:  # links are set aside so the emphasis rules cannot touch their URLs
        links.append(rendered)
        return f"\x00{len(links) - 1}\x00"

    text = _MD_LINK.sub(lambda m: keep(link(m.group(2), m.group(1))), text)
    text = _MARKER.sub(lambda m: keep(link(citation_urls[int(m.group(1))], m.group(0)))
                       if int(m.group(1)) in citation_urls else m.group(0), text)
    text = escape(text)
    text = _ITALIC.sub(r"_\1_", text)
    text = _BOLD.sub(lambda m: f"*{m.group(1) or m.group(2)}*", text)
    text = _STRIKE.sub(r"~\1~", text)
    text = _HEADING.sub(r"*\1*", text)
    text = _BULLET.sub(r"\1• ", text)
    return re.sub(r"\x00(\d+)\x00", lambda m: links[int(m.group(1))], text)
