"""Small arithmetic the reader did not work out → its value, as the tagger reads it.

"batch = 4*8", "ctx 2*4096", "16k+2k tokens", "100,000 - 4,000 tokens", "256/4 users", "AI = 600 / 2", "20 × 7B
tokens", "(1 + 1) rtx 5090s", "3 × 60 GB/s". Read as typed, each is two figures, and the router took one of them.
An expression of two plain numbers (a "k", "M", "B" or "T" after either scales it; k is 1,024 in a context, as
the calculators read "32k") joined by +, *, ×, / (or −, before tokens) is replaced by its value; the Assumed line
says so. Left as they are: a count times a part or a node ("2 × 8 h100s": nodes of so many GPUs), "64 × 4096-token
sequences" (a batch of them), "32 x 8192" and "32 × 8,192" (a batch and a context, as readers and the pages write them; in a training question a
product), a name ("Mixtral 8×22B"),
a list's dash ("- ctx: 128k - 4 users") and a power ("4*1024**3").
"""
from __future__ import annotations

import re

from .rewrite import each_match_rewritten

_NUMBER = r"(\d+(?:,\d{3})*(?:\.\d+)?(?:e\d+)?)([kKMBT]?)"
_EXPRESSION = re.compile(rf"(?<![\w.^/*-])(?:\(\s*)?{_NUMBER}\s*(?P<op>[+*×/]|\s-\s|−)\s*{_NUMBER}(?:\s*\))?(?![\w.^*])"
                         r"(?P<after>\s*[A-Za-z/%][\w/%]*|)")
_SCALE = {"": 1, "k": 1024, "K": 1024, "M": 1e6, "B": 1e9, "T": 1e12}
# what follows a product that makes it nodes of GPUs, not a number: "2 × 8 h100s", "4 x 8 gpus"
_PARTS = re.compile(r"^\s*(?:[a-z]+\d|gpus?\b|nodes?\b|cards?\b|chips?\b|nics?\b)", re.I)
_SEQUENCES = re.compile(r"^[-\s]*tokens?[-\s]+(?:sequences|seqs|requests|prompts|chats)\b", re.I)
_TOKENS = re.compile(r"^\s*(?:tokens?|ctx|context)\b", re.I)
_MODEL_BEFORE = re.compile(r"(?:mixtral|mistral|llama|qwen|gemma|phi|deepseek|gpt)[\s-]*$", re.I)
_COUNTED = re.compile(r"\((\d+\s+[A-Za-z][\w-]*)\)\s*([x×*])\s*\((\d+\s+[A-Za-z][\w-]*)\)")  # "(8 nodes) × (8 mi355x)"


def as_worked_out(question: str) -> tuple[str, list[str]]:
    """The question with each small expression replaced by its value, and a note of each."""
    if not re.search(r"\d[kKMBT]?\s*[+*×/−-]\s*\d|\)\s*[x×*]\s*\(", question):
        return question, []
    question = _COUNTED.sub(r"\1 \2 \3", question)
    return each_match_rewritten(_EXPRESSION, question, _worked_out)


def _worked_out(m: re.Match, text: str) -> tuple[str, str] | None:
    op = m.group("op").strip()
    following = text[m.end() - len(m.group("after")):]
    if op in ("×", "*") and (_PARTS.match(following) or _SEQUENCES.match(following)):
        return None  # "2 × 8 h100s": two nodes of eight; "64 × 4096-token sequences": a batch of them
    if op in ("-", "−") and not _TOKENS.match(following):
        return None  # "- ctx: 128k - 4 users" is a list; "100,000 - 4,000 tokens" a difference
    if _MODEL_BEFORE.search(text[:m.start()]):
        return None  # "Mixtral 8×22B" is a name
    if op == "+" and _PIECES_AFTER.match(following):
        return None  # "sys 1,400 + 4 tool results of ~900": a count of pieces, added after they are multiplied
    a, b = (float(m.group(i).replace(",", "")) * _SCALE[m.group(i + 1)] for i in (1, 4))  # (group 3 is the op)
    if op in ("×", "*") and _batch_and_context(a, b) and not _TRAINING.search(text) and not _BATCH_SAID.search(text):
        return None  # "the 32 × 8,192 line": a batch and a context, as the pages write them
    if op in ("×", "*") and _COUNTED_AFTER.match(following) and _batch_and_context(b, a):
        return None  # "bf16 at 32k × 8 seqs": a context for each of 8 sequences
    value = {"+": a + b, "-": a - b, "−": a - b, "*": a * b, "×": a * b, "x": a * b, "/": b and a / b}[op]
    if not value or value < 0:
        return None
    said = _said(value, m.group(2) or m.group(5))
    expression = m.group(0)[:len(m.group(0)) - len(m.group("after"))].strip()
    return text[:m.start()] + said + m.group("after") + text[m.end():], f"“{expression}” read as {said}"


_PIECES_AFTER = re.compile(r"^\s*(?:[\w-]+\s+)?(?:results|chunks|passages|docs|documents|examples|shots|turns|messages|"
                           r"msgs|exchanges|replies|files|pages|calls)\b", re.I)
_COUNTED_AFTER = re.compile(r"^\s*(?:seqs|sequences|users|requests|chats|streams|sessions|conversations)\b", re.I)
_BATCH_SAID = re.compile(r"\bbatch\b|\bbs\s*\d|\d+\s+(?:concurrent\s+)?(?:users|seqs|sequences|requests|chats|streams)\b", re.I)
_TRAINING = re.compile(r"\b(?:gbs|global batch|per step|steps?|train\w*|mfu|6nd)\b", re.I)


def _batch_and_context(a: float, b: float) -> bool:
    """A few hundred sequences times a window-sized context (a power of two from 1,024)."""
    return a.is_integer() and 1 <= a <= 4096 and b >= 1024 and b.is_integer() and (int(b) & (int(b) - 1)) == 0


def _said(value: float, suffix: str) -> str:
    if suffix in ("B", "T", "M"):  # a size or a token count: said in its scale ("140B", "2T")
        return f"{value / _SCALE[suffix]:g}{suffix}"
    return f"{value:.0f}" if abs(value - round(value)) < 1e-9 else f"{value:.6g}"
