"""A value the reader rules out is no input: "not in fp8, plain bf16", "forget the h100 from the article".

"llama 3.1 70b weights — not in fp8, plain bf16 — how many GB?", "6ND flops for llama 3.1 70b — not on 15T tokens,
on 2T", "(the v5e, not v5p)", "not llama 3.1 70b — Llama 4 Maverick", "forget the h100 from the article, we're on
one h200", "never mind the 2 nodes, single node: …", "forget the 85% efficiency factor, ideal bandwidth bound".
Read as typed, the ruled-out value stood beside the one meant, and the router bound whichever came first (fp8, 15T
tokens, the article's H100, 2 nodes, 0.85). Two shapes are read:
- "not <value>" followed or preceded by a value of the same kind: the negated words go;
- "forget / never mind / ignore / disregard the <value> …" up to the clause's end: the clause goes, when it holds
  a value (a figure, a part, a model); "ignore the kv cache" names no value and is an instruction, left as it is.
A negation with nothing of its kind left ("not fp8", alone) is left as it is. Each removal is said.
"""
from __future__ import annotations

import re

from .rewrite import each_match_rewritten
from .tagger import tag

_VALUE_LABELS = {"MODEL": "MODEL", "UNKNOWN_MODEL": "MODEL", "GPU": "GPU", "UNKNOWN_GPU": "GPU",
                 "PRECISION": "PRECISION", "QUANTITY": "QUANTITY", "COUNT": "COUNT", "LINK": "LINK"}
_CLAUSE_END = r"(?=\s*(?:[,;:!?()\n]|\.(?!\d)|\s[—–-]\s|—|–|\bbut\b|$))"
# "not (in|on|at|with|for|the) <value>" — never "not counting …", "not sure", "does not fit"
_NOT = re.compile(r"(?<![\w-])not\s+(?!counting\b|including\b|sure\b|enough\b|fit\b|much\b|more\b|less\b|only\b|"
                  r"just\b|per\b)(?:(?:in|on|at|with|for|using|the|a|an)\s+)?(?P<old>[^,;:!?()\n—–]{1,40}?)"
                  + _CLAUSE_END, re.I)
_DISMISSED = re.compile(r"\b(?:forget|never\s*mind|nvm|ignore|disregard|scrap|drop)\s+(?:about\s+)?"
                        r"(?:the|that|those|this|our|your|my)\s+(?P<old>[^,;:!?()\n—–]{1,60}?)" + _CLAUSE_END, re.I)


def without_negated(question: str) -> tuple[str, list[str]]:
    """The question without the values the reader rules out, and a note of each."""
    if not re.search(r"\bnot\b|forget|never\s*mind|nvm|ignore|disregard|scrap|drop", question, re.I):
        return question, []
    notes: list[str] = []
    for pattern, needs_other in ((_NOT, True), (_DISMISSED, False)):
        question, said = each_match_rewritten(pattern, question, lambda m, text: _removed(m, text, needs_other))
        notes += said
    return question, notes


def _removed(m: re.Match, text: str, needs_other: bool) -> tuple[str, str] | None:
    ruled_out = _kinds(m.group("old"))
    if not ruled_out:
        return None
    rest = text[:m.start()] + text[m.end():]
    if needs_other and not ruled_out & _kinds(rest):
        return None  # "not fp8" with no other precision: nothing says what is meant instead
    typed = m.group(0).strip()
    return re.sub(r"[ \t]{2,}", " ", rest), f"“{typed}” left out: ruled out by the reader"


def _kinds(text: str) -> set[str]:
    return {_VALUE_LABELS[t.label] for t in tag(text).tags if t.label in _VALUE_LABELS}
