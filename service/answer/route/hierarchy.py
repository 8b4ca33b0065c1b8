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

from calculators.registry import gpus

from .rewrite import count_pattern, count_value, each_match_rewritten

_COUNT = count_pattern()
_UPPER = (r"(?:racks?|pods?|(?:data )?halls?|SUs?|scalable units?|rows?|buildings?|clusters?|superpods?|zones?|"
          r"placement groups?|cabinets?|data cent(?:er|re)s?|sites?|cages?|slices?|cubes?|shel(?:f|ves)|desks?|"
          r"(?:capacity )?blocks?|chassis|ultraservers?)")
_CHIPS = r"(?:chips?|gpus?|cards?|accelerators?)"  # what the lowest level holds
_LOWER = r"(?:nodes?|servers?|boxes|box|machines?|hosts?|towers?|workstations?|instances?|(?:compute )?trays?|DGX(?: [AHB]\d00)?s?|HGX(?: [AHB]\d00)?s?)"
_TIMES = r"\s*(?:[x×*]|times)\s*"
# up to two words naming the part a node holds: "2 gaudi 3 servers", "2 HGX B200 boxes"
_PART = r"(?:(?!(?:per|of|with|each|in|and|or|x)\b)[\w.-]+\s+){0,2}"
# "3 racks × 4 nodes", "2 pods of 16 nodes", "two halls with 32 nodes apiece", "3 racks, each with 18 trays"
_NESTED = re.compile(rf"\b{_COUNT}\s+(?P<upper>{_UPPER})(?:{_TIMES}|\s+of\s+|,?\s+(?:each\s+)?with\s+|"
                     rf",\s+each\s+(?:with|holding|of)\s+|\s+holding\s+){_COUNT}\s+(?P<lower>{_PART}(?:{_LOWER}|{_UPPER}))(?:\s+(?:apiece|each))?",
                     re.I)
# "two buildings, five racks each", "two trn2 ultraservers, each 4 instances"
_COMMA_EACH = re.compile(rf"\b{_COUNT}\s+(?P<upper>{_UPPER}),\s+(?:each\s+(?=(?:{_COUNT[1:-1]})\s+(?:{_LOWER}|{_UPPER}))|(?=(?:{_COUNT[1:-1]})\s+"
                         rf"(?:{_LOWER}|{_UPPER})\s+(?:each|apiece)\b)){_COUNT}\s+(?P<lower>{_PART}(?:{_LOWER}|{_UPPER}))(?:\s+(?:each|apiece))?",
                         re.I)
# "each of our 5 SUs has 32 DGX H100"
_EACH_OF = re.compile(rf"\beach of (?:our |the |these )?{_COUNT}\s+(?P<upper>{_UPPER})\s+(?:has|holds|is|gets)\s+{_COUNT}\s+"
                      rf"(?P<lower>{_LOWER}|{_UPPER})", re.I)
# "8 nodes per rack … 3 racks", "4 nodes per rack × 2 racks"
_PER_UPPER = re.compile(rf"\b{_COUNT}\s+(?P<lower>{_PART}(?:{_LOWER}|{_UPPER}|{_CHIPS}))\s+(?:per|a|in each|each|in every|in a)\s+(?P<upper>{_UPPER})\b",
                        re.I)
# "each rack holds 2 HGX B200 boxes", "each rack = 4 nodes": what one level holds, its count said elsewhere
_EACH_HOLDS = re.compile(rf"\b(?:each|every|one|a)\s+(?P<upper>{_UPPER})\s+(?:(?:has|holds|holding|is|=|contains|gets|carries|houses|"
                         rf"takes|a|is\s+a)\s+)?{_COUNT}\s+(?P<lower>{_PART}(?:{_LOWER}|{_UPPER}|{_CHIPS}))\b", re.I)
# "a node is 8 h200", "every host 8 chips": what one node holds, said before or after the nodes are counted
_NODE_HOLDS = re.compile(rf"\b(?:each|every|one|a)\s+(?:node|host|server|box|instance|machine)\s+(?:(?:has|holds|is|=|"
                         rf"contains|carries|takes|with)\s+)?{_COUNT}\s+(?:of\s+(?:the\s+)?)?(?P<part>(?:[\w.-]+\s+){{0,2}}?)(?P<unit>{_CHIPS}|[a-z]+\d+[a-z]*s?)\b",
                         re.I)
# "4 nodes, each with 8 H200s": what each node holds, said after the count (read as "each node has 8 H200s")
_EACH_WITH = re.compile(rf"(\b\d[\d,]*\s+{_LOWER}),?\s+each\s+(?:one\s+)?(?:with|has|having|holding|carrying|containing)\s+",
                        re.I)
# "we have 12 racks but this run only gets 3 of them": the job's share
_SHARE = re.compile(rf"\b{_COUNT}\s+(?P<upper>{_UPPER})\b[^.;?!]{{0,30}}?\b(?:but|,)\s+(?:this|the|our)\s+(?:run|job)\s+"
                    rf"(?:only\s+)?(?:gets|uses|has|takes)\s+{_COUNT}\s+of\s+them\b"
                    # "of our 10 racks only 4 are free", "of the 12 racks, 3 are ours"
                    rf"|\bof\s+(?:our|the|their|these)\s+{_COUNT}\s+(?P<upper2>{_UPPER})\b,?\s+(?:only\s+)?(?P<used2>{_COUNT})\s+"
                    rf"(?:are|is)\s+(?:free|available|ours|idle|open|usable|ours\s+for\s+this)\b"
                    # "12 racks … but racks 11 and 12 are down, so the run gets the other 10"
                    rf"|\b{_COUNT}\s+(?P<upper3>{_UPPER})\b[^.;?!]{{0,100}}?\b(?:gets|uses|has|takes|runs\s+on)\s+the\s+"
                    rf"(?:other|remaining)\s+(?P<used3>\d+)\b", re.I)
# "the job only gets racks 1-3": racks 1 to 3
_NUMBERED = re.compile(rf"\b(?P<upper>{_UPPER})\s+(?P<a>\d+)\s*(?:-|–|to|through)\s*(?P<b>\d+)\b", re.I)


# "2 trays × 4 gb200", "16 trays of 4 gb200": a compute tray is a node
_TRAYS = re.compile(rf"\b{_COUNT}\s+(?:compute\s+)?trays?\s*(?:[x×*]|of)\s*(?=\d)", re.I)


# "256 dgx h100 systems at 8 gpus apiece", "16 trn2 instances × 16 chips": the part named before the machines it
# comes in, and what each machine holds after them
_PART_WORD = r"(?!(?:across|over|on|in|of|with|at|for|and|or|the|our|my|their|total|more|separate|identical)\b)[a-z][\w.-]*"
_PART_MACHINES = re.compile(rf"(?<![\w-]){_COUNT}\s+(?P<part>(?:{_PART_WORD}\s+){{1,2}}?)(?:nodes?|instances?|systems?|servers?|"
                            rf"boxes|box|machines?|hosts?|vms?)\s*(?:[x×*]|of|with|at|,\s*each\s+(?:with|holding))\s*"
                            rf"{_COUNT}\s+(?P<unit>gpus?|chips?|cards?|accelerators?|devices?)(?:\s+(?:apiece|each))?\b", re.I)


# a TPU slice's or cube's shape: "a 16x16 chip topology", "4×4×4 chips", "an 8x8 torus" (the chips it holds)
_SHAPE = re.compile(r"(?<![\w.])(\d+)\s*[x×*]\s*(\d+)(?:\s*[x×*]\s*(\d+))?(?=\s+(?:chips?|chip\s+topology|topology|torus|"
                    r"mesh|slice|cube|grid)\b)", re.I)


# "8 h200 per node, 20 nodes": what a node holds said before the nodes are counted (it was read as 8 GPUs in all)
_PER_NODE_FIRST = re.compile(rf"\b(?P<per>{_COUNT[1:-1]})\s+(?P<part>(?:[\w.-]+\s+){{0,2}}?)per\s+node,?\s+(?:and\s+)?"
                             # ("8 mi325x per node and the job requests 7 nodes")
                             r"(?:(?:the\s+)?(?:job|run|we)\s+(?:requests?|gets?|uses?|has|have|takes?|spans?)\s+)?"
                             rf"(?P<nodes>\d+\s+(?:nodes|servers|hosts|boxes|machines))\b", re.I)
# "our cluster is 512 gpus in 8-gpu nodes and we get 20 of those nodes": the job's nodes, each holding that many
_SOME_OF_NODES = re.compile(r"\b\d+\s+(?P<part>(?:[\w.-]+\s+){0,2}?)(?:gpus|cards|chips)\s+in\s+(?P<per>\d+)[- ](?:gpu|card|chip)\s+"
                            r"(?:nodes|servers|boxes|hosts)\b[^.;?!]{0,30}?\b(?:get|gets|use|uses|have|has|take|takes)\s+"
                            r"(?P<used>\d+)\s+of\s+(?:those|these|the|them)(?:\s+(?:nodes|servers|boxes|hosts))?", re.I)
# "16 h20 boxes of 8 cards but a quarter of the boxes are down": the share that is up
_SHARE_DOWN = re.compile(r"\b(?P<all>\d+)\s+(?P<what>(?:[\w.-]+\s+){0,2}?(?:nodes|servers|boxes|hosts|racks))\b(?P<mid>[^.;?!]{0,40}?)"
                         r",?\s*(?:but|and|with)\s+(?P<share>a\s+quarter|a\s+third|half|a\s+fifth|a\s+tenth|\d+%)\s+of\s+"
                         r"(?:the\s+|them\s*)?(?:nodes|servers|boxes|hosts|racks)?\s*(?:are|is)\s+(?:down|offline|out|broken|"
                         r"in\s+maintenance|drained|reserved)\b(?:\s+for\s+maintenance)?", re.I)
_SHARES = {"a quarter": 0.25, "a third": 1 / 3, "half": 0.5, "a fifth": 0.2, "a tenth": 0.1}


def _some_of_nodes(m: re.Match, text: str) -> tuple[str, str]:
    said = f"{m.group('used')} nodes x {m.group('per')} {m.group('part')}gpus"
    return text[:m.start()] + said + text[m.end():], f"“{m.group(0)}”: the job's {said}"


def _share_down(m: re.Match, text: str) -> tuple[str, str] | None:
    share = m.group("share").lower()
    down = float(share[:-1]) / 100 if share.endswith("%") else _SHARES[re.sub(r"\s+", " ", share)]
    up = int(m.group("all")) * (1 - down)
    if not up.is_integer() or up < 1:
        return None
    said = f"{up:g} {m.group('what')}{m.group('mid')}"
    return text[:m.start()] + said + text[m.end():], f"“{m.group(0)}”: {up:g} {m.group('what').split()[-1]} up"


# "16 rtx 4090s, 4 to a box", "32 l4 cards at 8 per server": the GPUs counted in all, then how many a node holds
_TO_A_NODE = re.compile(rf"\b(?P<all>\d+)\s+(?P<part>(?:[\w.-]+\s+){{0,2}}?[\w.-]+?s?),?\s+(?:with\s+|at\s+)?(?P<per>\d+)\s+"
                        rf"(?:to\s+a|per|in\s+each|to\s+each)\s+(?:node|box|server|machine|host|tower|chassis)\b", re.I)


def _to_a_node(m: re.Match, text: str) -> tuple[str, str] | None:
    total, per = int(m.group("all")), int(m.group("per"))
    part = m.group("part").lower()
    if not (re.search(rf"{_CHIPS}$", part) or gpus().spans_in(part)):
        return None  # ("32 users, 4 per node" counts no GPUs)
    if per < 2 or total <= per or total % per:
        return None
    said = f"{total // per} nodes x {per} {m.group('part')}"
    return text[:m.start()] + said + text[m.end():], f"“{m.group(0)}” read as {said}"


def as_nodes(question: str) -> tuple[str, list[str]]:
    """The question with each count of racks, pods, halls… multiplied into the nodes under it, and a note of each."""
    question, shapes = each_match_rewritten(_SHAPE, question, _shape)
    question, to_a_node = each_match_rewritten(_TO_A_NODE, question, _to_a_node)
    question, some = each_match_rewritten(_SOME_OF_NODES, question, _some_of_nodes)
    question, down = each_match_rewritten(_SHARE_DOWN, question, _share_down)
    shapes += to_a_node + some + down
    question = _TRAYS.sub(lambda m: f"{m.group(1)} nodes x ", question)
    question = _PART_MACHINES.sub(_part_machines, question)
    question = _NODE_HOLDS.sub(_holds_after_count, _EACH_WITH.sub(r"\1, each node has ", question))
    if not re.search(_UPPER, question, re.I):
        return _nodes_counted_first(question), shapes
    question, notes = each_match_rewritten(_SHARE, question, _share)
    notes = shapes + notes
    numbered = _NUMBERED.search(question)
    if numbered and (said := _numbered(numbered, question)):
        question, notes = said[0], notes + [said[1]]
    question = _EACH_HOLDS.sub(lambda m: f"{m.group(2)} {m.group('lower')} per {m.group('upper')}", question)
    question = _NODE_HOLDS.sub(_node_holds, question)
    while True:  # level by level, down to the nodes: "2 buildings × 2 halls × 12 racks" is 48 racks, then nodes
        before = question
        for pattern, rewrite in ((_EACH_OF, _nested), (_NESTED, _nested), (_COMMA_EACH, _nested), (_PER_UPPER, _per_upper)):
            question, more = each_match_rewritten(pattern, question, rewrite)
            notes += more
        if question == before:
            return _nodes_counted_first(question), notes


def _node_holds(m: re.Match) -> str:
    if not re.fullmatch(_CHIPS, m.group("unit"), re.I) and not gpus().spans_in(f"{m.group('part')}{m.group('unit')}".lower()):
        return m.group(0)  # ("each box one qwen2.5 72b replica": a model, not what the box holds)
    return f"{m.group(1)} {m.group('part')}{m.group('unit')} per node"


def _holds_after_count(m: re.Match) -> str:
    """"4 nodes, each node has 8 H200s": what a node holds, said after the nodes are counted (said before, the levels
    above or `_nodes_counted_first` read it)."""
    counted = re.search(rf"\d[\d,]*\s+{_LOWER}", m.string[:m.start()], re.I) or re.search(
        rf"\d[\d,]*\s+{_LOWER}", m.string[m.end():], re.I)  # ("each node = 8 mi325x and the job requests 7 nodes")
    return _node_holds(m) if counted else m.group(0)


def _nodes_counted_first(question: str) -> str:
    """"8 h200 per node, 20 nodes" → "20 nodes, 8 h200 per node": what a node holds goes after the nodes are counted
    (run last, once the levels above have become nodes)."""
    return _PER_NODE_FIRST.sub(lambda m: f"{m.group('nodes')}, {m.group('per')} {m.group('part')}per node", question)


def _shape(m: re.Match, text: str) -> tuple[str, str]:
    chips = int(m.group(1)) * int(m.group(2)) * int(m.group(3) or 1)
    rest = text[m.end():]
    machines = re.match(rf"\s+(?:grid|mesh)\s+of\s+(?:[\w-]+\s+)?(?P<what>{_LOWER})", rest, re.I)
    if machines:  # "a 3×4 grid of serving boxes": 12 boxes, not chips
        said = f"{chips} {machines.group('what')}"
        return text[:m.start()] + said + rest[machines.end():], f"“{m.group(0)}{machines.group(0)}” read as {said}"
    noun = "" if re.match(r"\s+chips?\b", rest, re.I) else " chips"  # ("a 16x16 chip topology": 256 chips)
    rest = re.sub(r"^\s+chip\s+topology\b", " chips", rest, flags=re.I)
    return text[:m.start()] + f"{chips}{noun}" + rest, f"“{m.group(0).strip()}” read as {chips} chips"


def _part_machines(m: re.Match) -> str:
    part = re.sub(r"^(?:dgx|hgx)\s+", "", m.group("part").strip(), flags=re.I)  # (the system's part, not the system)
    return f"{m.group(1)} nodes x {m.group(3)} {part} {m.group('unit')}"


def _nested(match: re.Match, text: str) -> tuple[str, str]:
    nodes = _count(match.group(1)) * _count(match.group(3))
    if re.fullmatch(_UPPER, match.group("lower"), re.I):  # "2 halls × 12 racks": 24 racks, nodes still to come
        said = f"{nodes} {_plural(match.group('lower'))}"
        return text[:match.start()] + said + text[match.end():], f"“{match.group(0).strip()}” read as {said}"
    part = re.search(r"[AHB]\d00", match.group("lower"))
    named = _part_words(match.group("lower"))  # ("2 gaudi 3 servers": the part stays named)
    # a DGX or HGX holds 8 GPUs: "32 DGX H100" are 32 nodes of 8 H100s
    said = f"{nodes} nodes x 8 {part.group(0)} GPUs" if part else f"{nodes} {named + ' ' if named else ''}nodes"
    return text[:match.start()] + said + text[match.end():], f"“{match.group(0).strip()}” read as {said}"


def _per_upper(match: re.Match, text: str) -> tuple[str, str] | None:
    """"8 nodes per rack" with "3 racks" elsewhere in the question: 24 nodes (the racks are said once)."""
    per, upper_noun = _count(match.group(1)), match.group("upper").lower().rstrip("s")
    counted = re.search(rf"\b{_COUNT}\s+(?P<named>{_PART}){re.escape(upper_noun)}s?\b",
                        text[:match.start()] + " " + text[match.end():], re.I)  # ("16 tpu v5p cubes": the part stays)
    if counted is None:
        return None
    count = _count(counted.group(1))
    lower = match.group("lower")
    chips = re.search(rf"{_CHIPS}$", lower, re.I)
    noun = _plural(lower) if re.fullmatch(_UPPER, lower, re.I) else _plural(chips.group(0)) if chips else "nodes"
    # ("6 racks per row": racks; "256 chips per slice": chips)
    part = _part_words(lower) if noun == "nodes" else lower[:chips.start()].strip() if chips else ""
    # ("2 HGX B200 boxes per rack", "64 tpu v5p chips per cube")
    said = f"{per * count} {part + ' ' if part else ''}{noun}"
    rest = text[:match.start()] + said + text[match.end():]
    named = counted.group("named").strip()
    rest = re.sub(rf"[,;]?\s*(?:[x×*]\s*)?\b{re.escape(counted.group(0))}\b", f" {named}" if named else "", rest, count=1)
    return rest, f"“{match.group(0)}” × “{counted.group(0)}” read as {said}"


def _part_words(lower: str) -> str:
    """The words before a node's noun that name its part: "gaudi 3" of "gaudi 3 servers", "HGX B200" of "HGX B200"."""
    return re.sub(rf"\s*(?<![\w-]){_LOWER}$", "", lower, flags=re.I).strip() if not re.fullmatch(_LOWER, lower, re.I) \
        else re.sub(r"^(?:DGX|HGX)\s*|(?:nodes?|servers?|boxes|box|machines?|hosts?|towers?|workstations?|instances?|"
                    r"(?:compute )?trays?)$", "", lower,
                    flags=re.I).strip()


def _plural(noun: str) -> str:
    return noun if noun.lower().endswith("s") else noun + "s"


def _share(match: re.Match, text: str) -> tuple[str, str]:
    used, upper = ((match.group(3), match.group("upper")) if match.group("upper") else
                   (match.group("used2"), match.group("upper2")) if match.group("upper2") else
                   (match.group("used3"), _plural(match.group("upper3"))))
    if match.group("upper3"):  # (what follows "12 racks" stays said: "of 2 servers, 8 cards per server")
        rest = re.sub(r"^\S+\s+\S+", f"{used} {upper}", match.group(0), count=1)
        rest = re.sub(r"(?:,?\s*(?:but|so)\b)?[^,]*?\b(?:gets|uses|has|takes|runs\s+on)\s+the\s+(?:other|remaining)\s+\d+\b$",
                      "", rest)
        return text[:match.start()] + rest + text[match.end():], f"“{match.group(0)}”: the job's {used} {upper}"
    return (text[:match.start()] + f"{used} {upper}" + text[match.end():], f"“{match.group(0)}”: the job's {used} {upper}")


def _numbered(match: re.Match, text: str) -> tuple[str, str] | None:
    count = int(match.group("b")) - int(match.group("a")) + 1
    if not 1 <= count <= 1000:
        return None
    plural = _plural(match.group("upper"))
    said = f"{count} {plural}"
    before, after = text[:match.start()], text[match.end():]
    # the whole cluster's count is not the job's: "12 racks of 4 nodes … but the job only gets racks 1-3"
    total = re.search(rf"\b\d+\s+{re.escape(plural)}\b", before, re.I)
    if total:
        return before[:total.start()] + said + before[total.end():] + "those" + after, f"“{match.group(0)}” read as {said}"
    return before + said + after, f"“{match.group(0)}” read as {said}"


def _count(text: str) -> int:
    return int(count_value(text))
