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
_NAME = r"[A-Za-z][\w .,'-]{0,30}?"
# the labels chat apps put before a turn: "**You:**", "<kofi>", "[me]", "You (10:02):", a Telegram line "Oleg, [02.04.2025
# 11:05]", a Slack or Teams line "Rivera, Ana  10:14" or "rui  4:02 PM"
_LABELS = re.compile(rf"(?im)^[ \t]*(?:\*\*(?P<bold>{_NAME})[ \t]*(?::\*\*|\*\*[ \t]*:)|<(?P<irc>[\w.-]{{1,20}})>|"
                     rf"\[(?P<bracket>[A-Za-z][\w .-]{{0,19}})\][ \t]*:?|"
                     rf"(?P<timed>{_NAME})[ \t]*\([ \t]*\d{{1,2}}:\d{{2}}(?:[ \t]*[ap]m)?[ \t]*\)[ \t]*:|"
                     rf"(?P<dated>{_NAME}),?[ \t]*\[\d[\d./-]*,?[ \t]+\d{{1,2}}:\d{{2}}(?::\d{{2}})?\][ \t]*$|"
                     rf"(?P<clocked>{_NAME})[ \t]{{2,}}\d{{1,2}}:\d{{2}}(?:[ \t]*[ap]m)?[ \t]*$)[ \t]*")
# any one-word speaker at a line's very start: "dev: …", "Perplexity: …" (not an indented or snake_case config key)
_PLAIN = re.compile(r"(?m)^(?P<plain>[A-Za-z][A-Za-z-]{0,15}):[ \t]+")
# a speaker who answers: an assistant, a bot, a named model or product ("ServingBot", "calcbot", "Perplexity")
_ANSWERING_SPEAKER = re.compile(r"bot\b|\b(?:assistant|ai|chatgpt|gpt[\w.-]*|llm|copilot|gemini|claude|perplexity|a|"
                                r"grok|le chat)\b", re.I)
# an answer's own figures: "… = 208 GB", "so ~57 GB free", "you need about 2,000 GPUs", "is about 54 tok/s"
_ANSWERING = re.compile(r"(?:\s*=[^.\n]*|,?\s*\b(?:so|which (?:is|comes to)|you(?:'d| would)? need|that'?s|it'?s|"
                        r"comes to|is (?:about|around|roughly)|gives?)\b[^.\n]*)(?=[.\n]|$)", re.I)


def turns(text: str) -> list[tuple[str, str]]:
    """The transcript's turns as (role, text), role "reader" or "answerer"; [] when the text is no transcript (no
    answerer's turn, or a single turn)."""
    marks = _marks(text)
    if len(marks) < 2 or not any(role == "answerer" for _, _, role in marks):
        return []
    out = []
    if text[:marks[0][0]].strip():
        out.append(("reader", text[:marks[0][0]].strip()))
    for k, (_, end, role) in enumerate(marks):
        body = text[end:marks[k + 1][0] if k + 1 < len(marks) else len(text)].strip()
        if body:
            out.append((role, body))
    return out if out and out[-1][0] == "reader" else []


# a transcript pasted on one line: "User: kv at 128k? Assistant: about 42.9 GB. User: so why …?"
_INLINE = re.compile(rf"(?i)(?:^|(?<=[.?!])\s+)(?:(?P<reader>{_READER})|(?P<answerer>{_ANSWERER}))\s*:\s+")


def _marks(text: str) -> list[tuple[int, int, str]]:
    """Each turn's label as (start, end, role), in order; where a chat app's label and a plain one overlap, the
    plain one. A transcript on one line is read by its labels after each sentence's end."""
    marks = _labelled(_TURN, text)
    if "\n" not in text.strip():
        inline = _labelled(_INLINE, text)
        if len(inline) >= 3 and inline[0][0] == 0:
            return inline
    labelled = [(m.start(), m.end(), _role(next(g for g in m.groups() if g)))
                for pattern in (_LABELS, _PLAIN) for m in pattern.finditer(text)]
    return sorted(marks + [m for m in labelled if not any(a <= m[0] < b for a, b, _ in marks)])


def _labelled(pattern: re.Pattern, text: str) -> list[tuple[int, int, str]]:
    """A reader's or answerer's labels (`_TURN`, `_INLINE`) as (start, end, role)."""
    return [(m.start(), m.end(), "reader" if m["reader"] else "answerer") for m in pattern.finditer(text)]


def _role(speaker: str) -> str:
    return "answerer" if _ANSWERING_SPEAKER.search(speaker.strip()) else "reader"


def without_answer(turn: str) -> str:
    """An answerer's turn with the words that answer taken out: what is left restates the setup."""
    return _ANSWERING.sub("", turn)
