"""A pasted chat transcript → the reader's earlier questions and the one asked now.

"User: llama 3.1 8b bf16 tok/s on one h100, batch 1, ignore the kv?\nAssistant: 3.35 TB/s / 16 GB = about 209
tok/s.\nUser: and on an L40S with the same settings?" Read as one question, the earlier answer's figures ("3.35
TB/s", "16 GB", "209") are inputs and two setups are mixed. A transcript is a conversation: the reader's turns
are questions asked one after the other, so the last is a follow-up of the ones before ("same settings", "and in
fp8?"), and the other side's turns are answers, whose figures are never inputs (some are wrong). Only when no
turn of the reader's sets anything up ("ChatGPT said: A full training checkpoint for a 13B model … is 208 GB.\nUser:
redo it for that 13B-param model: …") is the other side's turn read for its setup, without the sentence that
answers.
"""
from __future__ import annotations

import re

_READER = r"user|me|human|i|q|question"
_ANSWERER = r"assistant|bot|ai|a|chatgpt|claude|gemini|copilot|gpt[\w.-]*|llm|slackbot"  # (never "model:")
# a turn's label at a line's start: "User:", "me:", "Assistant:", "ChatGPT said:", "Sam said:"
_TURN = re.compile(rf"(?im)^[ \t]*(?:(?P<reader>{_READER})|(?P<answerer>{_ANSWERER})(?:[ \t]+said)?|"
                   rf"(?P<said>[A-Za-z][\w .'-]{{0,23}}?)[ \t]+said)[ \t]*:[ \t]*")
# an answer's own figures: "… = 208 GB", "so ~57 GB free", "you need about 2,000 GPUs", "is about 54 tok/s"
_ANSWERING = re.compile(r"(?:\s*=[^.\n]*|,?\s*\b(?:so|which (?:is|comes to)|you(?:'d| would)? need|that'?s|it'?s|"
                        r"comes to|is (?:about|around|roughly)|gives?)\b[^.\n]*)(?=[.\n]|$)", re.I)


def turns(text: str) -> list[tuple[str, str]]:
    """The transcript's turns as (role, text), role "reader" or "answerer"; [] when the text is no transcript (no
    answerer's turn, or a single turn)."""
    marks = list(_TURN.finditer(text))
    if len(marks) < 2 or not any(m["answerer"] or m["said"] for m in marks):
        return []
    out = []
    if text[:marks[0].start()].strip():
        out.append(("reader", text[:marks[0].start()].strip()))
    for k, mark in enumerate(marks):
        body = text[mark.end():marks[k + 1].start() if k + 1 < len(marks) else len(text)].strip()
        if body:
            out.append(("reader" if mark["reader"] else "answerer", body))
    return out if out and out[-1][0] == "reader" else []


def without_answer(turn: str) -> str:
    """An answerer's turn with the words that answer taken out: what is left restates the setup."""
    return _ANSWERING.sub("", turn)
