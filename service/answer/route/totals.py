"""Topology given as totals and ratios → the counts the calculators take.

"2 nodes, 16 mi300x total" (8 a node), "one node = 8 h200, we have 300 nodes", "dp 32 × tp 4" (128 GPUs), "24 l4
cards … as 6 equal replicas, tensor parallel inside each" (4 a replica). Read as typed, a total became a per-node
count (32 ranks instead of 16) and a node count a GPU count. Each rewrite says the count the calculation takes, and
the Assumed line how it was worked out. Users split over replicas ("256 users split evenly over the 4 replicas")
are each replica's share in fleet.py, which reads them first.
"""
from __future__ import annotations

import re

from .rewrite import count_pattern, count_value, each_match_rewritten
from .fleet import asks_fleet_kv, one_replica_per_card

_N = count_pattern()
_PART = (r"(?P<part>tpu\s+v\d+\w*(?:\s+chips?)?|[a-z]+[\w-]*\d[\w-]*(?:\s+(?:sxm|pcie|nvl|80gb|40gb|cards?|chips?|gpus?))?|"
         r"gpus?|cards?|chips?|accelerators?)")
# "2 nodes, 16 mi300x total", "across 2 nodes, 16 b200s total"
_NODES_THEN_TOTAL = re.compile(rf"\b{_N}\s+nodes?\s*,\s*(?P<total>\d+)\s+{_PART}\s+(?:in\s+)?total\b", re.I)
# "64 h100s spread over 8 nodes", "16 gpus across 2 nodes"
_TOTAL_OVER_NODES = re.compile(rf"\b(?P<total>\d+)\s+{_PART}\s+(?:spread\s+|split\s+|evenly\s+)?(?:over|across)\s+{_N}\s+"
                               r"(?:nodes|boxes|servers|hosts|machines)\b", re.I)
# "one node = 8 cards, we have 6 nodes of a100 80gb sxm", "one node = 8 h200, we have 300 nodes"
_ONE_NODE_IS = re.compile(rf"\bone\s+(?:node|box|server)\s*(?:=|is|has)\s*(?P<per>\d+)\s*{_PART}?\s*[,;.]?\s*(?:and\s+)?"
                          rf"we\s+have\s+{_N}\s+(?:nodes|boxes|servers)(?:\s+of\s+(?P<of>[\w\s-]+?))?(?=\s+with\b|[,.;—]|$)",
                          re.I)
# "dp 32 × tp 4", "tp 8 × pp 16 × dp 4"
_DEGREES = re.compile(r"\b(?P<a>dp|tp|pp|ep)\s*=?\s*(?P<an>\d+)\s*[x×*]\s*(?P<b>dp|tp|pp|ep)\s*=?\s*(?P<bn>\d+)"
                      r"(?:\s*[x×*]\s*(?P<c>dp|tp|pp|ep)\s*=?\s*(?P<cn>\d+))?", re.I)
_REPLICAS = re.compile(r"\b(?:into\s+|as\s+|running\s+)?(?P<n>\d+)\s+(?:equal\s+)?replicas\b", re.I)
_PER_REPLICA_ASKED = re.compile(r"\bper[- ](?:user|sequence|seq|request|replica|node|stream)\b|\bone replica\b|\beach replica\b|"
                                r"\b(?:of|for)\s+one\s+(?:replica|node)\b|tok(?:ens)?/s|tokens per second|ms per token|"
                                r"latency", re.I)
_GPUS_TOTAL = re.compile(rf"\b(?P<total>\d+)\s+{_PART}", re.I)


def as_counts(question: str) -> tuple[str, list[str]]:
    """The question with its totals and ratios worked out into the counts a calculation takes, and a note of each."""
    notes: list[str] = []
    for pattern, said in ((_NODES_THEN_TOTAL, _nodes_then_total), (_TOTAL_OVER_NODES, _total_over_nodes),
                          (_ONE_NODE_IS, _one_node_is), (_DEGREES, _degrees)):
        question, more = each_match_rewritten(pattern, question, _in_place(said))
        notes += more
    question = _per_replica(question, notes)
    return question, notes


def _in_place(said):
    """A rewrite of the match alone (`said(match)`: its new words and a note, or None) as a rewrite of the text."""
    def rewrite(m: re.Match, text: str) -> tuple[str, str] | None:
        out = said(m)
        return None if out is None else (text[:m.start()] + out[0] + text[m.end():], out[1])
    return rewrite


def _nodes_then_total(m: re.Match) -> tuple[str, str] | None:
    nodes, total = count_value(m.group(1)), int(m.group("total"))
    return _nodes_of(nodes, total, m.group("part"), m.group(0))


def _total_over_nodes(m: re.Match) -> tuple[str, str] | None:
    return _nodes_of(count_value(m.group(3)), int(m.group("total")), m.group("part"), m.group(0))


def _nodes_of(nodes: float, total: int, part: str, said: str) -> tuple[str, str] | None:
    per = total / nodes
    if not per.is_integer() or nodes < 2:
        return None
    return f"{nodes:g} nodes of {per:g} {part}", f"“{said}” read as {nodes:g} nodes of {per:g} ({total} in all)"


def _one_node_is(m: re.Match) -> tuple[str, str]:
    nodes, per = count_value(m.group(3)), int(m.group("per"))
    part = (m.group("of") or m.group("part") or "gpus").strip()
    return f"{nodes:g} nodes of {per} {part}", f"“{m.group(0).strip()}” read as {nodes:g} nodes of {per}"


def _degrees(m: re.Match) -> tuple[str, str] | None:
    degrees = [(m.group(k).lower(), int(m.group(k + "n"))) for k in ("a", "b", "c") if m.group(k)]
    if len({d for d, _ in degrees}) != len(degrees):
        return None
    total = 1
    for _, n in degrees:
        total *= n
    if "dp" not in {d for d, _ in degrees} or _GPU_COUNT.search(m.string[:m.start()] + m.string[m.end():]):
        return None  # with no dp the product is one replica's; a count said elsewhere is the count
    said = ", ".join(f"{d} {n}" for d, n in degrees) + f" on {total} gpus"
    return said, f"“{m.group(0)}” read as {total} GPUs ({' × '.join(str(n) for _, n in degrees)})"


_GPU_COUNT = re.compile(r"\b\d+\s*(?:x\s*)?(?:gpus?|cards?|chips?|nodes?|ranks?|[a-z]{1,3}\d{2,3}[a-z]*s?)\b", re.I)


def _per_replica(question: str, notes: list[str]) -> str:
    """Replicas of a fleet, when one replica's (or one user's) figure is asked: the GPUs one replica takes."""
    replicas = _REPLICAS.search(question)
    one_per_gpu = one_replica_per_card(question)
    if not (replicas or one_per_gpu) or not _PER_REPLICA_ASKED.search(question) or asks_fleet_kv(question):
        return question  # (a fleet's KV cache is all the replicas' sequences, and their users' share: fleet.py)
    total = _GPUS_TOTAL.search(question)
    n = int(replicas.group("n")) if replicas else int(total.group("total")) if total else None
    if not n:
        return question
    if total and not re.search(r"\b(?:tp|tensor[- ]parallel(?:ism)?)\s*=?\s*\d", question, re.I):
        per = 1 if one_per_gpu else int(total.group("total")) / n
        if float(per).is_integer():
            question = question[:total.start()] + f"{per:g} {total.group('part')}" + question[total.end():]
            notes.append(f"“{total.group(0)}” as {n} replicas: {per:g} per replica")
    return question
