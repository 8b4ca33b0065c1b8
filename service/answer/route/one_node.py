"""A replica on one node of a larger cluster, or on an even share of its GPUs → the GPUs it is sharded over.

"5 racks × 2 nodes × 8 gpus … mixtral 8x22b with tp over one node", "2 mi355x nodes, each node one replica with tp
over its 8 gpus", "32 l40s across 4 servers, each server one llama replica tensor-parallel over its cards", "of the 8
racks we only get one node … split over that node's gpus". The cluster is counted, but the model is sharded over one
node: the memory per GPU and the decode speed are one replica's. Read as typed, every GPU of the cluster went into
the tensor-parallel group, and a step came out ten times too short, with confidence. GPUs shared evenly among
replicas ("4 … replicas on our 16 mi355x, every replica tensor-parallel over the same number of gpus") are 4 each,
and a replica that takes a stated share of the fleet ("every pair of mi300x serves one copy", "one replica per card")
takes that many (fleet.py counts the share).
"""
from __future__ import annotations

import re

from .fleet import replica_size

_NODE = r"(?:node|tray|box|server|tower|host|machine|instance|workstation)"
_SHARDED = r"(?:tp|tensor[- ]parall?el(?:ism)?|sharded|split|spread)"
# "tp over one node", "tensor-parallel across a single tray", "split over that node's gpus", "tp inside each box"
_OVER_ONE = re.compile(rf"\b{_SHARDED}\b[^.;?!]{{0,25}}?\b(?:over|across|inside|within|in|on)\s+(?:just\s+)?"
                       rf"(?:one|a\s+single|a|each|that|the\s+one|the)\s+{_NODE}\b(?!s)(?:'s\s+(?P<n>\d+)?)?"
                       # "--tensor-parallel-size set to the gpus per node", "tp = node size"
                       rf"|\b(?:tp|tensor[- ]parall?el(?:[- ]size)?)\b\s*(?:set\s+to|equal\s+to|=|of|is)\s+(?:the\s+)?"
                       rf"(?:gpus\s+per\s+{_NODE}|{_NODE}\s+size)", re.I)
# "each node one replica", "one replica per server", "each box runs its own copy", "a replica per node"
_REPLICA_PER = re.compile(rf"\beach\s+{_NODE}\s+(?:(?:runs|serves|hosts|holds|is|gets|has)\s+)?(?:one|a|its\s+own)\s+"
                          rf"(?:[\w.-]+\s+){{0,4}}?(?:replica|copy|instance)\b|\b(?:one|a)\s+(?:[\w.-]+\s+){{0,4}}?"
                          rf"(?:replica|copy)\s+(?:per|on\s+each|in\s+each)\s+{_NODE}\b", re.I)
# "… over its 8 gpus", "tensor-parallel over its cards": the node's own GPUs, once a replica is one node's
_OVER_ITS = re.compile(rf"\b(?:{_SHARDED}|replica)\b[^.;?!]{{0,25}}?\b(?:over|across)\s+(?:all\s+)?(?:its|the\s+node's|their)\s+"
                       r"(?:own\s+)?(?P<n>\d+\s+)?(?:gpus?|cards?|chips?|accelerators?)\b", re.I)
# "deepseek v3 with tp over 2 trays" of an NVL72: that many nodes' GPUs
_OVER_SOME = re.compile(rf"\b{_SHARDED}\b[^.;?!]{{0,25}}?\b(?:over|across|spanning)\s+(?P<k>\d|two|three|four)\s+{_NODE}(?:e?s)\b",
                        re.I)
_SMALL = {"two": 2, "three": 3, "four": 4}
# "we run 4 … replicas on our 16 mi355x, every replica tensor-parallel over the same number of gpus"
_EVEN_SHARE = re.compile(r"\b(?P<replicas>\d+)\s+(?:[\w.-]+\s+){0,4}?replicas\b[^.;?!]{0,60}?\b(?:(?:over|across|on)\s+"
                         r"(?:the\s+)?(?:same|an?\s+equal)\s+(?:number|count|share)\s+of\s+(?:gpus|cards|chips)|evenly|equally)\b",
                         re.I)
_REPLICAS_SAID = re.compile(r"\b(?:replicas?|copies|copy)\b", re.I)


def replica_gpus(question: str, values: dict) -> tuple[int, str] | None:
    """The GPUs one replica is sharded over, when the question puts it on one node of several or shares the GPUs
    evenly among replicas; with the note to say."""
    even = _EVEN_SHARE.search(question)
    gpus = values.get("gpus")
    size = replica_size(question) if _REPLICAS_SAID.search(question) else None
    if size and gpus and gpus > size:  # "every pair of mi300x serves one copy", "one replica per card" of 12
        return size, f"one replica takes {size} of the {gpus} GPUs"
    if even and gpus and gpus % int(even.group("replicas")) == 0 and gpus > int(even.group("replicas")):
        share = gpus // int(even.group("replicas"))
        return share, f"“{even.group(0)}”: each replica is sharded over {share} of the {gpus} GPUs"
    m = _OVER_ONE.search(question) or (_REPLICA_PER.search(question) and _OVER_ITS.search(question)) or _OVER_SOME.search(question)
    if m is None:
        return None
    nodes, per_node = values.get("nodes"), values.get("gpus_per_node")
    said = int(m.group("n")) if "n" in m.groupdict() and m.group("n") else None
    count = said or per_node or (gpus // nodes if gpus and nodes and gpus % nodes == 0 else None)
    if not count or not (nodes and nodes > 1 or said):
        return None
    if "k" in m.groupdict():  # ("tp over 2 trays")
        k = int(_SMALL.get(m.group("k").lower(), m.group("k")))
        if said or (nodes and k >= nodes):
            return None
        return k * count, f"“{m.group(0).strip()}”: one replica is sharded over {k} nodes' {k * count} GPUs"
    return count, f"“{m.group(0).strip()}”: one replica is sharded over one node's {count} GPUs"


# "4 of its 8 h100s", "sharded over 4 of the 72 blackwell ultra GPUs": the GPUs the job uses, out of those there are
_SOME_OF = re.compile(r"\b(?P<k>\d+)\s+of\s+(?:its|the|our|their|those|these|that\s+node'?s|the\s+node'?s)\s+(?P<n>\d+)\s+"
                      r"(?P<what>(?:[\w.-]+\s+){0,3}?(?:gpus?|cards?|chips?|accelerators?|devices?|[a-z]+\d+[a-z]*s?))\b",
                      re.I)


def as_gpus_in_use(question: str) -> tuple[str, list[str]]:
    """The question with "k of its n GPUs" said as the k in use (n had been taken as the count)."""
    notes: list[str] = []

    def in_use(m: re.Match) -> str:
        if int(m.group("k")) >= int(m.group("n")):
            return m.group(0)
        notes.append(f"“{m.group(0)}” read as {m.group('k')} GPUs in use")
        return f"{m.group('k')} {m.group('what')}"
    return _SOME_OF.sub(in_use, question), notes
