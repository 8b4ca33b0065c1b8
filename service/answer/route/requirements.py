"""A requirements list before the question → the requirements the question is about.

"Requirements:\n- Mixtral 8x7B in bf16\n- 24 concurrent users\n- SLO: 40 ms/token\n- budget: 2 GPUs max\nQuestion: total
memory for weights plus KV cache?" A product manager's list holds the setup and the constraints the service must
meet; read whole, "40 ms/token" made it a decode question and "nice-to-have: finish in 10 days" a training deadline.
A constraint line (a latency target or SLO, a budget, a region, a nice-to-have) is left out when the question does
not ask about it; the setup lines stay, and so does a deadline (how many GPUs a run needs depends on it).
"""
from __future__ import annotations

import re

from .background import kinds

_QUESTION = re.compile(r"^\s*(?:question|q|ask)\s*:\s*(?P<asked>.+)$", re.I | re.M)
_BULLET = re.compile(r"^\s*(?:(?:[-*•]|\d+[.)])\s+)?(?P<line>.*\S.*)$")  # (the chat reader may have taken the dash)
# what a constraint line is about, and the words a question uses when it asks about that
_CONSTRAINTS = {
    "latency": (r"\b(?:slo|sla|p50|p90|p95|p99|ttft|tpot|ms\s*/\s*token|ms per token)\b|"
                r"\blatency\s*(?:target|slo|budget|goal|:)",  # (not "no latency term": that is a setting)
                r"\b(?:slo|sla|latency|meet|target|ms\s*/\s*token|ms per token|fast enough)\b"),
    "money": (r"\b(?:budget|cost|price|\$|usd|eur)\b|\bper (?:hour|month)\b",
              r"\b(?:budget|cost|price|afford|\$)\b"),
    "other": (r"\b(?:region|uptime|availability|compliance|nice[- ]to[- ]have|prefix caching|should\s*:)",
              r"(?!)"),
}


def as_required(text: str) -> tuple[str, list[str]]:
    """The text with the requirement lines the question does not ask about left out, and a note of each."""
    question = _QUESTION.search(text)
    if question is None or "\n" not in text:
        return text, []
    asked = question["asked"]
    kept, notes = [], []
    for line in text[:question.start()].splitlines():
        bullet = _BULLET.match(line)
        kind = _constraint(bullet["line"]) if bullet else None
        # (a line that names the model or the part is setup, whatever else it says: "## Repro DeepSeek-V3 budget")
        if kind is not None and not re.search(_CONSTRAINTS[kind][1], asked, re.I) and not kinds(line, names_only=True):
            notes.append(f"requirement “{bullet['line'].strip()}” not asked about: not used")
            continue
        kept.append(line)
    return "\n".join(kept + [text[question.start():]]), notes


def _constraint(line: str) -> str | None:
    return next((kind for kind, (says, _) in _CONSTRAINTS.items() if re.search(says, line, re.I)), None)

