"""The article's own example, set against the reader's setup, is no part of the reader's question.

"the article uses 8 users at 4k, but we have 24 users at 16k each on Llama 3.1 70B — what's our total KV?", "the
example assumes 40% MFU on H100s; we get 35% on 512 H200s …", "you quote 2 bytes per parameter, but we run int4 —
so how big are the weights of qwen2.5 72b?", "instead of the article's 4 users at 128k, we run gpt-oss-20b with 32
users at 8k". Read whole, the example's figures came first and the binder took them (8 users at 4k, not 24 at
16k). A clause that opens the message about the article, the post, its example or "you", up to where the reader
turns to their own case (", but", ";", ". ", " — ", ", we", "ours", "mine"), is left out, and the Assumed line says
so, when what is left still names a model, a part or a collective and does not lean on what the article says: a
question whose setup is the example ("the article's example: llama 70b, 8 users at 8k. what about 32 users?", "the
page says … on one H200. does the same hold on one MI300X?") keeps it.
"""
from __future__ import annotations

import re

from .tagger import tag

_SOURCE = (r"(?:article|post|blog(?:\s+post)?|page|piece|walkthrough|example|tutorial|guide|write-?up|lesson|section|"
           r"chapter|docs?|text|video|roofline|checkpoint figure|[\w-]+\s+example|[\w-]+\s+math)")
_ABOUT_THE_ARTICLE = re.compile(
    rf"^\s*(?:(?:instead of|unlike|compared (?:to|with)|vs\.?)\s+)?(?:(?:the|this|that|your)\s+)?{_SOURCE}(?:'s|’s)?"
    rf"(?:\s+{_SOURCE})?(?:\s+in\s+the\s+{_SOURCE})?\b"
    r"|^\s*you\s+(?:show|quote|use|assume|say|work|size|run|give|used|assumed|showed|quoted)\b", re.I | re.M)
# where the reader turns to their own case
_TURN = re.compile(r";\s*|\.\s+|\s[—–-]\s|,?\s+but\s+|,\s*(?=(?:we|we're|we'd|i'd|i|mine|ours|my|our)\b)|"
                   r"\s(?=(?:ours|mine)\s*(?:is|:|are)\b)", re.I)
_SETUP_LABELS = ("MODEL", "GPU", "UNKNOWN_MODEL", "UNKNOWN_GPU", "COLLECTIVE")
# the rest leans on what the article says: "does the same hold on one MI300X?", "that gives me roughly 1 TB — check?"
_LEANS = re.compile(r"\b(?:the same|does that (?:hold|apply|work|change)|that gives|gives me|that figure|that number|"
                    r"those figures)\b|check\s*\?",
                    re.I)


def without_the_articles_example(question: str) -> tuple[str, list[str]]:
    """The question without an opening clause about the article's example, and a note of what was left out."""
    opening = _ABOUT_THE_ARTICLE.search(question)  # at the message's start, or a line's ("Hi,\n\nthe article uses …")
    if opening is None:
        return question, []
    before, about = question[:opening.start()], question[opening.start():]
    turn = _TURN.search(about, _ABOUT_THE_ARTICLE.match(about).end())
    if turn is None:
        return question, []
    rest = about[turn.end():].strip()
    rest = re.sub(r"^(?:ours|mine)\s*(?::|is|are)\s*", "", rest, flags=re.I)
    rest_tags = tag(rest).tags
    if _LEANS.search(rest) or not any(t.label in _SETUP_LABELS or t.key == "params" for t in rest_tags):
        return question, []  # the example is the setup the question leans on
    left_out = about[:turn.start()].strip()
    model = [t for t in tag(left_out).tags if t.label == "MODEL"]
    if len(model) == 1 and not any(t.label in ("MODEL", "UNKNOWN_MODEL") or t.key == "params" for t in rest_tags):
        rest = f"{model[0].text}: {rest}"  # "the article runs DeepSeek V3 on 8 H200s; we have 8 MI300X …": its model
    return before + rest, [f"the article's example (“{left_out}”) is not your setup: left out"]
