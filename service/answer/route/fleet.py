"""A fleet of replicas → one replica's share, or the fleet's KV cache as one batch.

"kv for the whole fleet: 12 replicas x 24 concurrent chats x 16k tokens each", "a node of 8 gpus each running its
own replica with 64 users at 4k — total kv across the node", "3 racks × 4 nodes, each node serving 32 sequences at
8k — total kv across the fleet?", "16 trays of 4 gb200, each tray running 64 streams of 16k — total kv over all
trays". Read as typed, the batch was one replica's, and the fleet's count a figure left over (or a GPU count). The
KV cache of a fleet is one replica's times the replicas: the batch becomes the sequences of all of them, said in the
Assumed line. Only for the KV cache, whose size depends on nothing but the sequences it holds: a fleet's throughput
or memory per GPU is not one calculation. The other way round, users spread evenly over the replicas and asked of
one are that one's share. Replicas are counted as said ("dp 6", "three copies"), or as the fleet's GPUs over the
GPUs one replica takes ("32 h100s split into tp-4 replicas", "every pair of mi300x serves one copy", "one replica
per chip").
"""
from __future__ import annotations

import re

from calculators.registry import gpus

from .rewrite import count_pattern, count_value

_COUNT = count_pattern()
_UNITS = r"replicas?|nodes?|trays?|racks?|servers?|boxes|box|gpus?|cards?|instances?|pods?|deployments?|engines?"
_SEQUENCES = (r"(?:concurrent\s+|parallel\s+|active\s+|live\s+)?(?:users?|chats?|seqs?|sequences?|requests?|streams?|sessions?|"
              r"conversations?|convos?|students?|clients?)")
# "12 replicas x 24 concurrent chats"
_TIMES = re.compile(rf"\b{_COUNT}\s+(?P<unit>{_UNITS})\s*[x×*]\s*(?P<n>\d+)\s+(?P<seqs>{_SEQUENCES})\b", re.I)
# "8 gpus each running its own replica with 64 users", "12 nodes, each node serving 32 concurrent … sequences"
_EACH = re.compile(rf"\b{_COUNT}\s+(?P<unit>{_UNITS})\b(?P<between>[^.;?]{{0,40}}?)\beach(?:\s+(?:{_UNITS}))?\s+"
                   rf"(?:(?:is\s+)?(?:running|serving|holding|handling|hosting|with|has|having|takes|taking|gets|"
                   rf"carrying|carries|keeping|keeps|holds|serves|runs)\s+|"
                   rf"(?=its\s+own\s+replica))(?:its\s+own\s+replica\s+with\s+)?(?P<n>\d+)\s+(?P<what>(?:[\w.-]+\s+){{0,4}}?)"
                   rf"(?P<seqs>{_SEQUENCES})\b", re.I)
_KV = re.compile(r"\bkv\b|kv[- ]?cache|latent cache|\bcache\b", re.I)
_ALL_OF_THEM = re.compile(r"\b(?:whole|entire)\s+(?:fleet|node|cluster|rack|pod|box|deployment)|\bfleet\b|"
                          r"\bacross\s+(?:the\s+|all\s+)?(?:fleet|node|cluster|replicas|nodes|trays|racks|gpus|cards|"
                          r"servers|instances|pods|deployment)|\bover\s+all\b|\bover\s+the\s+(?:cluster|fleet|node)\b|"
                          r"\bcluster[- ]wide\b|\bacross\s+both\b|\ball\s+(?:the\s+)?(?:replicas|nodes|"
                          r"trays|racks|gpus|cards|servers|instances|pods)\b|\bsummed\b|\bcombined\b|\bin total\b|"
                          r"\ball-up\b|\bover\s+the\s+(?:deployment|servers|nodes)\b", re.I)
# "…, each server carrying 20 sessions … — total kv cache?": with each one's sequences said, "total" is all of them
_TOTAL = re.compile(r"\btotal\b|\baltogether\b|\ball[ -]up\b", re.I)


# "3 nodes × 8 gpus, each gpu its own replica": 24 replicas
_NODES_TIMES = re.compile(r"\b(\d+)\s+nodes?\s*[x×*]\s*(\d+)\s+[\w-]+\b(?=\s*,?\s*each\s+(?:gpu|card|chip)\b)", re.I)


# "96 chats split evenly over 3 l4 nodes", "600 requests load-balanced evenly over 24 gpus", "384 users balanced
# across the nodes" (the nodes counted elsewhere): each replica serves its share
_SPLIT = re.compile(rf"\b(?P<n>\d[\d,]*)\s+(?P<seqs>{_SEQUENCES})(?:\s+(?:total|in\s+total|overall|altogether))?,?"
                    rf"(?=[^.;?]{{0,24}}?\b(?:evenly|equally|split|spread|balanced|divided|distributed|shared|sharded|round))"
                    rf"(?:\s+(?:are|is|get|gets))?(?:\s+(?:evenly|equally))?(?:\s+(?:split|spread|balanced|load[- ]balanced|"
                    rf"divided|distributed|shared|sharded|round[- ]robin(?:ed)?))?(?:\s+(?:evenly|equally))?"
                    rf"(?:\s+(?:over|across|among|between)\s+(?:the\s+|our\s+|all\s+)?(?:(?P<m>\d+)\s+)?"
                    rf"(?:[\w.-]+\s+){{0,2}}?(?P<unit>them|copies|{_UNITS})\b|(?=\s*(?:[,;.—]|-\s|at\b|\d)))", re.I)


# "4 users per card", "20 sequences per replica", "one replica per node with 40 sessions": one unit's sequences, the
# units counted elsewhere ("8 rtx 4090s", "dp 6 × tp 4", "12 nodes")
_PER_UNIT = re.compile(rf"\b(?P<n>\d[\d,]*)\s+(?P<seqs>{_SEQUENCES})\s+(?:per|on\s+each|in\s+each|a)\s+"
                       r"(?P<unit>replica|card|gpu|chip|node|box|server|instance)\b"
                       rf"|\b(?:one|a)\s+(?:[\w.-]+\s+){{0,3}}?replica\s+(?:per|on\s+each)\s+(?P<unit2>node|card|gpu|box|server)"
                       rf"\s+with\s+(?P<n2>\d[\d,]*)\s+(?P<seqs2>{_SEQUENCES})"
                       # "each server hosting one llama 3.1 8b replica with 20 sessions"
                       rf"|\beach\s+(?P<unit3>node|card|gpu|box|server|instance)\s+(?:(?:is\s+)?(?:hosting|running|serving|"
                       rf"holding|with|has|runs|hosts|serves|holds)\s+)?(?:one|a|its\s+own)\s+(?:[\w.-]+\s+){{0,4}}?replica\s+"
                       rf"with\s+(?P<n3>\d[\d,]*)\s+(?P<seqs3>{_SEQUENCES})"
                       # "every replica serving 24 users", "each node holding 32 sequences"
                       rf"|\b(?:each|every)\s+(?P<unit4>replica|node|card|gpu|box|server|instance)\s+(?:is\s+)?(?:serving|"
                       rf"running|holding|handling|with|has|having|takes|taking|gets|keeps|serves|holds|runs)\s+"
                       rf"(?P<n4>\d[\d,]*)\s+(?P<seqs4>{_SEQUENCES})", re.I)
_REPLICAS = re.compile(r"\bdp\s*[=:]?\s*(\d+)\b|\b(\d+)[- ]way\s+(?:dp|data[- ]parallel)"
                       r"|(?<!tp-)(?<!tp)(?<!tp )\b(\d+)\s+(?:(?!\d)[\w.-]+\s+){0,3}?replicas\b", re.I)  # (not "tp-4 replicas")
# "one tp-8 replica per node": as many replicas as nodes
_ONE_PER_NODE = re.compile(r"\bone\s+(?:[\w.-]+\s+){0,3}?(?:replica|copy)\s+per\s+(?:node|box|server|host)\b", re.I)
# "64 h100s with tp 8 per replica", "one replica per pair of chips": the GPUs one replica takes, the GPUs counted apart
_TP = re.compile(r"\b(?:tp|tensor[- ]parall?el(?:ism)?)\s*[-=:]?\s*(?:of\s+|over\s+)?(\d+)\b", re.I)
# the GPUs one replica takes: "one replica per 8 gpus", "every pair of mi300x serves one copy", "replicas of 8",
# "each replica 4 gpus", "every 2 mi355x serve one copy"
_PER_GROUP = re.compile(r"\b(?:one|a)\s+(?:replica|copy)\s+per\s+(pair|\d+)\s+(?:of\s+)?(?:gpus|cards|chips)\b"
                        r"|\bevery\s+(pair|\d+)\s+(?:of\s+)?(?:[\w.-]+\s+){0,2}?(?:serves?|runs?|holds?|hosts?)\s+(?:one|a)\s+"
                        r"(?:[\w.-]+\s+){0,3}?(?:replica|copy)\b|\breplicas\s+of\s+(\d+)\b"
                        r"|\beach\s+replica\s+(?:takes\s+|is\s+|uses\s+|on\s+|spans\s+)?(\d+)\s+(?:gpus|cards|chips)\b", re.I)
_COPIES = re.compile(rf"\b{_COUNT}\s+(?:copies|instances)\s+of\b", re.I)
# "one replica per card", "one replica of llama 3.1 8b in int8 per card", "one replica per l4", "each gpu is its own
# replica"
_ONE_PER_CARD = re.compile(r"\bone\s+(?:[\w.-]+\s+){0,4}?(?:replica|copy)\s+(?:of\s+(?:[\w.-]+\s+){1,5}?)?(?:\([^()]{1,20}\)\s+)?"
                           r"(?:(?:per|on\s+each)\s+(?:gpu|card|chip|[a-z]{1,3}\d{1,3}[a-z]?)\b|on\s+each\b(?=\s*[,;.]))"
                           r"|\beach\s+(?:gpu|card|chip)\s+(?:is\s+)?its\s+own\s+replica\b", re.I)
# a rate asked: a fleet's throughput is no one calculation
_RATE = re.compile(r"tok(?:ens)?/s|tokens? per second|ms per token|latency|step time", re.I)
_UNIT_NOUNS = {"node": r"nodes|boxes|servers|instances|machines|hosts", "card": r"gpus|cards|chips|accelerators"}
_UNIT_ONE = {"node": r"node|box|server|instance|machine|host", "card": r"gpu|card|chip|accelerator"}  # "a 32-chip slice"


def _units_counted(question: str, unit: str) -> int | None:
    """How many replicas, nodes or GPUs the question counts."""
    unit = {"gpu": "card", "chip": "card", "box": "node", "server": "node", "instance": "node"}.get(unit.lower(), unit.lower())
    if unit == "replica":
        return replicas_counted(question)
    nodes_of = re.search(r"\b(\d+)\s+(?:nodes|boxes|servers)\s+of\s+(\d+)\b", question, re.I)
    if unit == "card" and nodes_of:  # "4 nodes of 8 a100 80gb"
        return int(nodes_of.group(1)) * int(nodes_of.group(2))
    counts = [int(m.group(1)) for m in re.finditer(
        rf"\b(\d+)(?:\s+(?:[\w.-]+\s+){{0,2}}?(?:{_UNIT_NOUNS[unit]})|-(?:{_UNIT_ONE[unit]}))\b", question, re.I)]
    if unit == "card":  # "8 rtx 4090s": a count before a GPU's name
        low = question.lower()
        counts += [int(c.group(1)) for start, _ in gpus().spans_in(low) if (c := re.search(r"(\d+)\s*(?:x\s*)?$", low[:start]))]
    return max(counts, default=None)  # (the fleet's count, not one replica's "4 gpus")


def one_replica_per_card(question: str) -> bool:
    """"one replica per card", "each gpu is its own replica": every GPU holds a whole replica."""
    return bool(_ONE_PER_CARD.search(question))


def replica_size(question: str) -> int | None:
    """The GPUs one replica takes, when the question says so ("every pair of mi300x serves one copy", "tp 8")."""
    if _ONE_PER_CARD.search(question):
        return 1
    group = _PER_GROUP.search(question) or _TP.search(question)
    if group is None:
        return None
    said = next(g for g in group.groups() if g)
    return 2 if said.lower() == "pair" else int(said)


def replicas_counted(question: str) -> int | None:
    """How many replicas: counted ("dp 6", "4 … replicas"), or the GPUs over the GPUs each takes ("64 h100s with tp 8
    per replica" are 8, "48 chips, one replica per pair of chips" 24)."""
    m = _REPLICAS.search(question)
    if m:
        return int(next(g for g in m.groups() if g))
    copies = _COPIES.search(question)
    if copies:
        return int(count_value(copies.group(1)))
    if _ONE_PER_NODE.search(question):
        return _units_counted(question, "node")
    size = replica_size(question)
    gpus = _units_counted(question, "card") if size else None
    if not gpus:
        return None
    return gpus // size if size and gpus % size == 0 and gpus > size else None


def _per_unit_batch(question: str) -> tuple[str, list[str]]:
    """Each replica's, node's or GPU's sequences, asked for all of them: the units' count times each one's."""
    m = _PER_UNIT.search(question)
    if m is None:
        return question, []
    form = next(f for f in ("", "2", "3", "4") if m.group("n" + f))
    n, seqs, unit = m.group("n" + form), m.group("seqs" + form), m.group("unit" + form)
    units = _units_counted(question[:m.start()] + " " + question[m.end():], unit)
    if not units or units < 2:
        return question, []
    total = units * int(n.replace(",", ""))
    if form:  # (only the count changes: "one llama replica per node with 480 sessions", "every gpu holding 96 … chats")
        new = question[:m.start("n" + form)] + str(total) + question[m.end("n" + form):]
    else:
        new = question[:m.start()] + f"{total} {seqs}" + question[m.end():]
    return new, [f"“{m.group(0)}” read as {total} {seqs.split()[-1]} in all ({units} × {n})"]


def _split_batch(question: str) -> tuple[str, list[str]]:
    """Sequences split evenly over replicas, asked of one of them: each one's share is the batch."""
    m = _SPLIT.search(question)
    if m is None or _ALL_OF_THEM.search(question[m.end():]):
        return question, []  # (the fleet's total is asked: the batch is all of them)
    units = m.group("m")
    unit = _singular(m.group("unit") or "them")  # ("384 users spread evenly": over the replicas said elsewhere)
    if units is None and unit in ("replica", "them"):  # "… over the replicas" of "dp 8 × tp 2", "16 h200s with tp 8"
        units = replicas_counted(question) or (_units_counted(question, "card") if _ONE_PER_CARD.search(question) else None)
    if units is None:  # "… balanced across the nodes", their count said elsewhere ("3 nodes", "3 boxes of 8 h20")
        counted = re.search(rf"\b(\d+)\s+(?:[\w.-]+\s+){{0,2}}?{re.escape(unit)}(?:e?s)?\b", question[:m.start()], re.I)
        if counted is None and re.fullmatch(_UNIT_ONE["node"], unit):  # ("2 trn2 instances of 16 chips" read as nodes)
            counted = re.search(r"\b(\d+)\s+nodes\b", question[:m.start()], re.I)
        units = counted.group(1) if counted else None
        if units is None and re.fullmatch(_UNIT_ONE["card"], unit):  # "over the gpus" of "6 a100 80gb"
            units = _units_counted(question, "card")
    n = int(m.group("n").replace(",", ""))
    if not units or int(units) < 2 or n % int(units):
        return question, []
    share = n // int(units)
    new = f"{share} {m.group('seqs')} per {'replica' if unit == 'them' else unit}"
    note = f"“{m.group(0)}” read as {share} {m.group('seqs').split()[-1]} on each ({n} ÷ {units})"
    return question[:m.start()] + new + question[m.end():], [note]


def _singular(unit: str) -> str:
    return {"boxes": "box", "copies": "replica"}.get(unit.lower(), unit.lower().rstrip("s"))


def asks_fleet_kv(question: str) -> bool:
    """Whether the question asks the KV cache of a whole fleet ("total kv over all the replicas")."""
    return bool(_KV.search(question) and _ALL_OF_THEM.search(question) and not _RATE.search(question))


def as_fleet_batch(question: str) -> tuple[str, list[str]]:
    """The question with a fleet's sequences as one batch, when it asks the KV cache of all of them; sequences split
    evenly over replicas, asked of one, as that one's share."""
    question, split = _split_batch(question)
    if split:
        return question, split
    if not (_KV.search(question) and (_ALL_OF_THEM.search(question) or (_TOTAL.search(question) and _EACH.search(question)))):
        return question, []
    question = _NODES_TIMES.sub(lambda m: f"{int(m.group(1)) * int(m.group(2))} gpus", question)
    question, per_unit = _per_unit_batch(question)
    if per_unit:
        return question, per_unit
    for pattern in (_TIMES, _EACH):
        m = pattern.search(question)
        if m is None:
            continue
        units, each = count_value(m.group(1)), int(m.group("n"))
        total = int(units * each)
        seqs = m.group("seqs")
        if pattern is _TIMES:
            new = f"{total} {seqs}"
        else:  # the units stay said (a node of 8 GPUs is still 8 GPUs); each one's sequences become all of them
            what = m.group("what").strip()  # ("16 deepseek r1 sessions": the model, then the count beside its noun)
            new = f"{m.group(1)} {m.group('unit')}{m.group('between')}with {what + ', ' if what else ''}{total} {seqs}"
            # ("in all" after them, unless their length follows: "384 sessions of 100,000 tokens" stays one phrase)
            new += "" if re.match(r"\s+(?:of|at|with)\s+\d", question[m.end():]) else " in all"
        note = f"“{m.group(0)}” read as {total} {seqs.split()[-1]} in all ({units:g} × {each})"
        return question[:m.start()] + new + question[m.end():], [note]
    return question, []
