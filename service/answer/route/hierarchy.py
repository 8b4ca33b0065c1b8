"""Hardware counted as a hierarchy → the nodes it adds up to, as the tagger reads them.

Readers count a cluster the way it is built: "3 racks × 4 nodes × 8 h100s", "2 pods of 16 nodes, 8 h200 each", "two
data halls with 32 nodes apiece", "each of our 5 SUs has 32 DGX H100", "8 nodes per rack, 3 racks", "3 gb200
nvl72 racks, each with 18 compute trays of 4 gpus", "we have 12 racks but this run only gets 3 of them". Read as
typed, the router took one level's count ("4 nodes", "32 DGX") and dropped the others, and a training run came out
three or five times too long, with confidence. Each rewrite below multiplies a level above the node (rack, pod, hall,
SU, row, building, cluster) into the node count under it, so the rest reads "12 nodes × 8 h100s"; what a level
holds is said in the Assumed line. A compute tray is a node (a GB200 NVL72 tray holds four GPUs).
"""
from __future__ import annotations

import re

from .rewrite import count_pattern, count_value, each_match_rewritten

_COUNT = count_pattern()
_UPPER = r"(?:racks?|pods?|(?:data )?halls?|SUs?|scalable units?|rows?|buildings?|clusters?|superpods?|zones?)"
_LOWER = r"(?:nodes?|servers?|boxes|box|machines?|hosts?|(?:compute )?trays?|DGX(?: [AHB]\d00)?s?|HGX(?: [AHB]\d00)?s?)"
_TIMES = r"\s*(?:[x×*]|times)\s*"
# "3 racks × 4 nodes", "2 pods of 16 nodes", "two halls with 32 nodes apiece", "3 racks, each with 18 trays"
_NESTED = re.compile(rf"\b{_COUNT}\s+(?P<upper>{_UPPER})(?:{_TIMES}|\s+of\s+|,?\s+(?:each\s+)?with\s+|"
                     rf",\s+each\s+(?:with|holding|of)\s+|\s+holding\s+){_COUNT}\s+(?P<lower>{_LOWER})(?:\s+(?:apiece|each))?",
                     re.I)
# "each of our 5 SUs has 32 DGX H100"
_EACH_OF = re.compile(rf"\beach of (?:our |the |these )?{_COUNT}\s+(?P<upper>{_UPPER})\s+(?:has|holds|is|gets)\s+{_COUNT}\s+"
                      rf"(?P<lower>{_LOWER})", re.I)
# "8 nodes per rack … 3 racks", "4 nodes per rack × 2 racks"
_PER_UPPER = re.compile(rf"\b{_COUNT}\s+(?P<lower>{_LOWER})\s+(?:per|a|in each|each)\s+(?P<upper>{_UPPER})\b", re.I)
# "we have 12 racks but this run only gets 3 of them": the job's share
_SHARE = re.compile(rf"\b{_COUNT}\s+(?P<upper>{_UPPER})\b[^.;?!]{{0,30}}?\b(?:but|,)\s+(?:this|the|our)\s+(?:run|job)\s+"
                    rf"(?:only\s+)?(?:gets|uses|has|takes)\s+{_COUNT}\s+of\s+them\b", re.I)


# "2 trays × 4 gb200", "16 trays of 4 gb200": a compute tray is a node
_TRAYS = re.compile(rf"\b{_COUNT}\s+(?:compute\s+)?trays?\s*(?:[x×*]|of)\s*(?=\d)", re.I)


# "256 dgx h100 systems at 8 gpus apiece", "16 trn2 instances × 16 chips": the part named before the machines it
# comes in, and what each machine holds after them
_PART_WORD = r"(?!(?:across|over|on|in|of|with|at|for|and|or|the|our|my|their|total|more|separate|identical)\b)[a-z][\w.-]*"
_PART_MACHINES = re.compile(rf"(?<![\w-]){_COUNT}\s+(?P<part>(?:{_PART_WORD}\s+){{1,2}}?)(?:nodes?|instances?|systems?|servers?|"
                            rf"boxes|box|machines?|hosts?|vms?)\s*(?:[x×*]|of|with|at|,\s*each\s+(?:with|holding))\s*"
                            rf"{_COUNT}\s+(?P<unit>gpus?|chips?|cards?|accelerators?|devices?)(?:\s+(?:apiece|each))?\b", re.I)


def as_nodes(question: str) -> tuple[str, list[str]]:
    """The question with each count of racks, pods, halls… multiplied into the nodes under it, and a note of each."""
    question = _TRAYS.sub(lambda m: f"{m.group(1)} nodes x ", question)
    question = _PART_MACHINES.sub(_part_machines, question)
    if not re.search(_UPPER, question, re.I):
        return question, []
    question, notes = each_match_rewritten(_SHARE, question, _share)
    for pattern, rewrite in ((_EACH_OF, _nested), (_NESTED, _nested), (_PER_UPPER, _per_upper)):
        question, more = each_match_rewritten(pattern, question, rewrite)
        notes += more
    return question, notes


def _part_machines(m: re.Match) -> str:
    part = re.sub(r"^(?:dgx|hgx)\s+", "", m.group("part").strip(), flags=re.I)  # (the system's part, not the system)
    return f"{m.group(1)} nodes x {m.group(3)} {part} {m.group('unit')}"


def _nested(match: re.Match, text: str) -> tuple[str, str]:
    nodes = _count(match.group(1)) * _count(match.group(3))
    part = re.search(r"[AHB]\d00", match.group("lower"))
    # a DGX or HGX holds 8 GPUs: "32 DGX H100" are 32 nodes of 8 H100s
    said = f"{nodes} nodes x 8 {part.group(0)} GPUs" if part else f"{nodes} nodes"
    return text[:match.start()] + said + text[match.end():], f"“{match.group(0).strip()}” read as {said}"


def _per_upper(match: re.Match, text: str) -> tuple[str, str] | None:
    """"8 nodes per rack" with "3 racks" elsewhere in the question: 24 nodes (the racks are said once)."""
    per, upper_noun = _count(match.group(1)), match.group("upper").lower().rstrip("s")
    counted = re.search(rf"\b{_COUNT}\s+{re.escape(upper_noun)}s?\b", text[:match.start()] + " " + text[match.end():],
                        re.I)
    if counted is None:
        return None
    count = _count(counted.group(1))
    rest = text[:match.start()] + f"{per * count} nodes" + text[match.end():]
    rest = re.sub(rf"[,;]?\s*(?:[x×*]\s*)?\b{re.escape(counted.group(0))}\b", "", rest, count=1)
    return rest, f"“{match.group(0)}” × “{counted.group(0)}” read as {per * count} nodes"


def _share(match: re.Match, text: str) -> tuple[str, str]:
    used = match.group(3)
    return (text[:match.start()] + f"{used} {match.group('upper')}" + text[match.end():],
            f"“{match.group(0)}”: the job's {used} {match.group('upper')}")


def _count(text: str) -> int:
    return int(count_value(text))
