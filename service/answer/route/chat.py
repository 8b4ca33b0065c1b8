"""A chat message's markup → the plain words the tagger reads, and the earlier message it quotes.

Questions arrive from Slack and chat tools as their clients send them: `&gt;` and `&amp;` escaped, mentions
and channels wrapped (`<@U04ABCD12>`, `<#C0123|gpu-infra>`), links as `<https://…|label>`, emoji as
`:thinking_face:`, a post's trailing hashtags and karma ("#vllm #h100 [+12]"), mrkdwn emphasis (`*bold*`, `_italic_`), a struck-out word the writer took back
(`~mistral 7b~ *llama 3.1 8b*`), code in backticks and fences, bullets, ticket numbers ("OPS-7781"). None of
that is a figure or a name,
except the struck-out words, which are a figure or a name the reader no longer means. Lines that start
with `>` quote an earlier message: its figures are someone else's question, which the message may build on
("redo it for batch 128, same model") or only quote.
"""
from __future__ import annotations

import html
import re

_REWRITES = [(re.compile(pattern, re.M), words) for pattern, words in (
    (r"<[@!][^<>]*>", " "),  # a mention, @here
    (r"<#[^<>|]*(?:\|[^<>]*)?>", " "),  # a channel
    (r"<(?:https?|mailto):[^<>|]*\|([^<>]*)>", r"\1"),  # a link with its label: the label
    (r"<(?:https?|mailto):[^<>]*>", " "),  # a bare link
    (r"(?<![\w:]):[a-z][a-z0-9_+-]*:(?![\w:])", " "),  # an emoji shortcode (never "10:30" or "2:1")
    (r"(?<![\w~])~(?=\S)[^~\n]*?\S~(?![\w~])", " "),  # ~struck out~: taken back
    (r"(?<![\w*])\*\*(?=[^\s*])([^*\n]*?[^\s*])\*\*(?![\w*])", r"\1"),  # markdown's **bold** (never "2**15")
    (r"(?<![\w*])\*(?=\S)([^*\n]*?\S)\*(?![\w*])", r"\1"),  # *bold*
    (r"(?<![\w_])_(?=[^\s_])([^_\n]*?[^\s_])_(?![\w_])", r"\1"),  # _italic_ (never snake_case)
    (r"^\s*```\w*\s*$|```", " "),  # a code fence
    (r"`([^`\n]*)`", r"\1"),  # inline code
    (r"^\s*(?:[-•◦▪*]|\d+[.)])\s+", ""),  # a bullet, a numbered line
    # a post's trailing hashtags and karma ("… tok/s? #intel #habana [+5]"): labels of the post, no names of its setup
    (r"(?:[ \t]+(?:#[A-Za-z][\w-]*|\[[+-]?\d+\]))+[ \t]*$", ""),
    # a ticket, an issue or a pull request: "(ticket OPS-7781)", "jira INFRA-220", "see #4521"
    (r"\b(?:tickets?|issues?|jira|bugs?|incidents?|cases?|prs?|pull requests?)\s*:?\s*(?:#\s*|[A-Za-z]+-)\d+\b"
     r"|(?<![\w-])(?!(?:RTX|DGX|HGX|GPT|NVL|MIG)-)[A-Z]{3,}-\d{2,}\b|(?<![\w&])#\d{3,}\b", " "),
)]
_QUOTE = re.compile(r"^\s*>(?!>)")  # a quoted line (">>> " is a Python prompt)


def as_plain(text: str) -> str:
    """The message without its markup (a question typed as plain words comes back as it is)."""
    text = html.unescape(text)
    for pattern, words in _REWRITES:
        text = pattern.sub(words, text)
    return text


def quoted_and_asked(text: str) -> tuple[str, str]:
    """(the quoted earlier message, the rest): "> 1 GB on 16 ranks = 6 ms?\n+1, same but 8 GB" → both halves.
    A message that quotes nothing, or only quotes, is all asked."""
    lines = text.splitlines()
    quoted = [line for line in lines if _QUOTE.match(line)]
    asked = [line for line in lines if not _QUOTE.match(line) and line.strip()]
    if not quoted or not asked:
        return "", text
    return "\n".join(_QUOTE.sub("", line).strip() for line in quoted), "\n".join(asked)
