"""Binding a tagged question's figures to the roles a calculator reads (DESIGN §9: every figure bound).

A figure with a unit or a noun has a type (bytes, bandwidth, tokens, GPUs, ranks, users…) and the type
gives its role; where a type has several roles (a bandwidth may be a measured busbw, a measured algbw,
a link's rate or a NIC's), the label nearest to the figure decides — "busbw 300 GB/s on 16 ranks,
what's the algbw?" binds 300 GB/s to busbw because "busbw" sits next to it and "algbw" is what is asked.
A bare number takes the role of the label next to it ("batch 32", "tp=8", "context of 16384"). A count
written against a GPU name is the number of GPUs ("8 H100s", "H100 x 8"); against nodes it builds a
topology ("4 nodes × 8 GPUs" = 32 ranks, 8 per node).

`bind(reading)` returns `Slots`: calculator-neutral values, the readings to state ("“128k” read as
131,072 tokens"), the names no registry holds, and the figures nothing took (stated too, never dropped
silently). Choosing the calculator and mapping these onto its inputs is numeric.py's job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from calculators.registry import gpus, links, models
from calculators.units import fmt_int

from .tagger import COUNT_NOUNS, WEAK_OPS, Reading, Tag

# Words that may sit between a label and its number without breaking the link ("context of 16384").
_CONNECTORS = {"#num", "of", "=", ":", "is", "at", "with", "a", "an", "the", "size", "length", "degree", "set",
               "was", "about", "around", "~", "equals", "be", "in", "to", "measured", "shows", "got", "nccl", "tests"}
# words before a count of requests that were not served ("1,900 failed requests", "300 dropped requests")
_NOT_SERVED = {"failed", "dropped", "rejected", "errored", "lost", "aborted", "timed-out", "declined", "refused"}
LABEL_ROLES = {"batch": "batch", "context": "context", "tp": "tp", "pp": "pp", "dp": "dp", "ranks_label": "ranks",
               "shard_group": "shard_group", "nodes_label": "nodes", "per_node_label": "gpus_per_node",
               "mfu": "mfu", "efficiency": "efficiency", "intensity": "intensity"}
_ASKING = {"to", "what_is", "how_much", "how_many", "compute", "how_big"}
_NODE_NOUNS = set(COUNT_NOUNS["nodes"])
_CHIP_NOUNS = {"chip", "chips", "gpu", "gpus", "card", "cards", "accelerators"}
_ONE_OF = _NODE_NOUNS | {"tray", "tower", "replica", "copy", "instance"}
_MANY_OF = {"nodes", "trays", "towers", "servers", "boxes", "hosts", "machines"}  # ("a tp 4 replica" is a degree)
_PER_NODE_BEFORE = {"x", "×", "of", ",", "with", "and", "*"}
# "<size> per step": still the size of one collective call, not a rate
_PER_CALL = {"step", "iteration", "iter", "call", "op", "message", "microbatch", "micro", "layer", "rank"}


@dataclass
class Slots:
    """What the figures and names of a question say, before one calculator's inputs are chosen."""

    values: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    unknown_model: str | None = None
    unknown_gpu: str | None = None
    unheld_precision: Tag | None = None  # a bit width no calculator holds ("Q5_K_M", "6-bit")
    asked: str | None = None  # busbw | algbw: the side of a conversion the question asks for
    capacity: int | None = None  # bytes the question offers to fit into ("is 24 GB enough")
    size_text: str = ""  # the bytes figure as typed
    token_counts: list[Tag] = field(default_factory=list)  # contexts or training tokens, placed by the calculator
    loose: list[Tag] = field(default_factory=list)  # bare numbers no label took
    unused: list[Tag] = field(default_factory=list)  # other figures nothing took
    other_names: list[str] = field(default_factory=list)  # further models / GPUs named

    def note(self, text: str) -> None:
        if text and text not in self.notes:
            self.notes.append(text)


def bind(r: Reading) -> Slots:
    s = Slots()
    used: set[int] = set()  # ids of tags consumed
    _names(r, s, used)
    _gpu_counts(r, s, used)
    _quantities(r, s, used)
    _counts(r, s, used)
    _bare_numbers(r, s, used)
    _topology(s)
    if s.asked is None and "busbw" not in s.values and "algbw" not in s.values:
        asked = [c for c in r.tags if c.label == "CUE" and c.key in ("busbw", "algbw")]
        s.asked = asked[0].key if asked else None  # "what busbw does a 1 GB all-reduce on 8 H100s get?"
    if r.has("binary_unit") and not any(t.unit.lower() in ("gib", "mib", "tib", "kib") for t in r.of("QUANTITY")):
        s.note("sizes are in decimal units (1 GB = 10^9 B); 1 GiB = 2^30 B ≈ 1.074 GB")
    s.unused += [t for t in r.tags if t.label in ("QUANTITY", "COUNT") and id(t) not in used
                 and t not in s.token_counts and t.key not in ("seconds",)]
    return s


# --- names -----------------------------------------------------------------------------------------------


def _names(r: Reading, s: Slots, used: set[int]) -> None:
    v = s.values
    known_models = r.of("MODEL")
    for i, t in enumerate(known_models):
        if i == 0:
            v["model"] = t.key
            s.note(t.note)
        elif t.key != v["model"]:
            s.other_names.append(models().entries[t.key].name)
    for t in r.of("UNKNOWN_MODEL"):
        if known_models and not re.search(r"\d", t.text):
            continue  # "meta-llama/Llama-3.1-8B": the bare family word beside a known name
        s.unknown_model = s.unknown_model or t.text
    for t in r.of("GPU"):
        if "gpu" not in v:
            v["gpu"] = t.key
            s.note(t.note)
        elif t.key != v["gpu"]:
            s.other_names.append(t.text)
    for t in r.of("UNKNOWN_GPU"):
        s.unknown_gpu = s.unknown_gpu or t.text
    for t in r.of("LINK"):
        if set(r.words[max(0, t.start - 2):t.start]) & _NEGATIONS:
            continue  # "no NVLink bridges", "without InfiniBand": the link the question rules out
        key, note = _own_link(t, v.get("gpu"))
        scope = links().entries[key].scope
        slot = "inter_link" if scope == "inter-node" else "link"
        if slot not in v:
            v[slot] = key
            s.note(note)
    _precisions(r, s)
    for t in r.of("STAGE"):
        if t.key.startswith("zero_"):
            v.setdefault("zero_stage", int(t.key[-1]))
        elif t.key == "fsdp_hybrid" or v.get("fsdp") != "hybrid":  # "FSDP in hybrid-shard mode" is hybrid
            v["fsdp"] = t.key.split("_")[1]
    _op(r, s)


_NEGATIONS = {"no", "without", "not", "non", "lacking"}


def _own_link(t: Tag, gpu: str | None) -> tuple[str, str]:
    """A bare family word beside a named part is that part's own link: "nvlink" is NVLink 5 on a B200 and the
    bridge of an H100 NVL pair, "roce" in a Gaudi 3 server its on-chip RoCE; with no part named, "nvlink" is
    NVLink 4 and "roce" a 400 GbE NIC, and the note says so."""
    own = gpus().entries[gpu].link if gpu else None
    family = t.text.lower()
    if family in ("nvlink", "roce") and own and own != t.key and family in own:
        return own, f"“{t.text}” read as the {gpus().entries[gpu].name}'s {links().entries[own].name}"
    return t.key, t.note


def is_kv_precision(r: Reading, t: Tag) -> bool:
    """A precision said of the KV cache: "fp8 kv", "fp8 MLA cache", "kv cache is bf16", "kv in fp8"."""
    kv_cues = r.of("CUE", "kv")
    after = r.words[t.end] if t.end < len(r.words) else ""
    before = r.words[max(t.start - 2, 0):t.start]
    return (after in ("kv", "cache") or any(0 <= t.start - c.end <= 3 for c in kv_cues)
            or any(c.start == t.end for c in kv_cues)
            or before in (["cached", "in"], ["cached", "as"], ["stored", "as"]))  # "32k already cached in fp8"


def _precisions(r: Reading, s: Slots) -> None:
    kv_cues = r.of("CUE", "kv")
    s.unheld_precision = next(iter(r.of("UNHELD_PRECISION")), None)
    named = r.of("PRECISION")
    if len(named) > 1:  # "upcast it from the fp8 release to bf16": the precision it goes to
        named = [t for t in named if not _from_precision(r, t)] or named
    for t in named:
        kv = is_kv_precision(r, t)
        if t.key == s.values.get("precision") and not kv:
            continue  # "AWQ (4bit)": the same precision said twice, not a second one for the KV cache
        slot = "kv_precision" if kv else "precision"
        if slot in s.values and slot == "precision":
            slot = "kv_precision" if kv_cues and "kv_precision" not in s.values else slot
        s.values.setdefault(slot, t.key)


def _from_precision(r: Reading, t: Tag) -> bool:
    """'from fp8', 'from the fp8 release': the precision something is converted from."""
    before = r.words[max(t.start - 3, 0):t.start]
    return "from" in before and not {"to", "into", "in"} & set(before[before.index("from"):])


_LEFT_OUT = {"ignore", "ignoring", "ignored", "skip", "skipping", "excluding", "without", "minus", "no", "sans"}


def _op(r: Reading, s: Slots) -> None:
    # ("treat the bandwidth as one pool and ignore the all-reduces — tok/s?": the collective is left out of a decode)
    ops = [t for t in r.of("COLLECTIVE") if not _LEFT_OUT & set(r.words[max(t.start - 2, 0):t.start])]
    strong = [t for t in ops if t.text.lower() not in WEAK_OPS]
    weak = [t for t in ops if t.text.lower() in WEAK_OPS]
    if strong:
        s.values["op"] = strong[0].key
    elif weak and (r.of("QUANTITY", "bytes") or r.of("QUANTITY", "bandwidth") or r.of("COUNT", "ranks")
                   or r.of("LINK") or r.has("busbw", "algbw") or r.has("grads")):
        s.values["op"] = weak[0].key


# --- figures -----------------------------------------------------------------------------------------------


def _gap(r: Reading, a: Tag, b: Tag) -> int:
    """Tokens between two spans that are not connectors ("context of 16384": 0)."""
    lo, hi = (a.end, b.start) if a.end <= b.start else (b.end, a.start)
    return sum(1 for w in r.words[lo:hi] if w not in _CONNECTORS)


# "8 x h100", "8 of the h100s", "four AWS Trainium2 chips", "two NVIDIA H200s": a word between count and part
_BETWEEN_COUNT_AND_PART = {"x", "*", "of", "aws", "nvidia", "amd", "google", "intel", "habana"}
# and up to three such words, with a vendor's possessive or a part's architecture: "64 of amazon's trainium 2 chips",
# "two ada 4090s", "8 of the h100s"
_BEFORE_A_PART = _BETWEEN_COUNT_AND_PART | {"the", "amazon", "'s", "intels", "ada", "hopper", "blackwell", "ampere",
                                            "geforce", "instinct"}


def _count_before(r: Reading, count: Tag, part: Tag) -> bool:
    between = r.words[count.end:part.start]
    return count.end == part.start or (0 < len(between) <= 3 and set(between) <= _BEFORE_A_PART
                                       and between != ["the"])


def _gpu_counts(r: Reading, s: Slots, used: set[int]) -> None:
    """'8 H100s', 'two H200s', 'a single RTX 4090', 'H100 x 8', '8x H100': the number of GPUs."""
    for name in r.of("GPU") + r.of("UNKNOWN_GPU"):
        before = [t for t in r.tags if t.label == "NUMBER" and id(t) not in used
                  and t.end <= name.start and _count_before(r, t, name)]
        after = [t for t in r.tags if t.label == "NUMBER" and id(t) not in used and name.end < len(r.words)
                 and r.words[name.end] in ("x", "*") and t.start == name.end + 1]
        pair = next((t for t in r.tags if t.label == "NUMBER" and id(t) not in used and t.start == name.end
                     and t.text.lower() in ("pair", "couple")), None)  # "h100 nvl pair"
        if pair is not None and not before and not after:
            used.add(id(pair))
            s.values.setdefault("gpu_count", 2)
            s.values.setdefault("gpu_count_at", name.start)
            continue
        count = (before or after or [None])[0]
        boxed = count is not None and before and name.end < len(r.words) and r.words[name.end] in _NODE_NOUNS
        if boxed and r.words[count.end] in ("x", "*"):  # "one 8x b200 box", "two 8x h100 servers": 8 per node
            used.add(id(count))
            boxes = next((t for t in r.tags if t.label == "NUMBER" and id(t) not in used and t.end == count.start), None)
            if boxes is not None:
                used.add(id(boxes))
            if boxes is not None and boxes.value > 1:
                s.values.setdefault("nodes", int(boxes.value))
                s.values.setdefault("gpus_per_node", int(count.value))
            else:
                s.values.setdefault("gpu_count", int(count.value))
                s.values.setdefault("gpu_count_at", count.start)
            continue
        if boxed and _one_box(r, count, name):  # "our 8 MI300X box": one node, and its 8 GPUs
            boxed = False
        if boxed:
            used.add(id(count))  # "16 b300 nodes (8 each)": nodes of that GPU, and the GPUs in each
            s.values.setdefault("nodes", int(count.value))
            each = next((t for t in r.tags if t.label == "NUMBER" and id(t) not in used and t.end < len(r.words)
                         and r.words[t.end] in ("each", "apiece")), None)
            if each is not None:
                used.add(id(each))
                s.values.setdefault("gpus_per_node", int(each.value))
            continue
        if count is not None:
            used.add(id(count))
            nodes = _nodes_times(r, count, used) if before else None
            if nodes is not None:  # "2x8 h100": 2 nodes of 8
                used.add(id(nodes))
                s.values.setdefault("nodes", int(nodes.value))
                s.values.setdefault("gpus_per_node", int(count.value))
                continue
            s.values.setdefault("gpu_count", int(count.value))
            s.values.setdefault("gpu_count_at", count.start)
            if _each_after(r, name):  # "20 trn2 nodes, 16 trainium2 chips apiece": what each node holds
                s.values.setdefault("gpu_count_each", True)


_ONE_BOX_BEFORE = {"our", "the", "a", "an", "one", "my", "this", "that", "single", "same", "their", "your"}


def _one_box(r: Reading, count: Tag, name: Tag) -> bool:
    """"our 8 MI300X box", "a 4 l40s server": a node named in the singular after its GPU count is one node of them
    ("16 b300 nodes" are 16)."""
    noun = r.words[name.end]
    return (count.value > 1 and noun in _ONE_OF and noun not in _MANY_OF
            and count.start > 0 and r.words[count.start - 1] in _ONE_BOX_BEFORE)


def _each_after(r: Reading, name: Tag) -> bool:
    """'16 trainium2 chips apiece', '8 h100 each': the count before a GPU's name is each one's."""
    after = name.end + (1 if name.end < len(r.words) and r.words[name.end] in _CHIP_NOUNS else 0)
    return any(c.key == "each" and c.start == after for c in r.of("CUE"))


def _nodes_times(r: Reading, count: Tag, used: set[int]) -> Tag | None:
    """The 2 of '2x8 H100' (nodes × GPUs per node, written before a GPU name), if there is one."""
    if count.start < 2 or r.words[count.start - 1] not in ("x", "*"):
        return None
    return next((t for t in r.tags if t.label == "NUMBER" and id(t) not in used and t.end == count.start - 1), None)


def _quantities(r: Reading, s: Slots, used: set[int]) -> None:
    v = s.values
    for t in r.of("QUANTITY"):
        if t.key == "bandwidth":
            _bandwidth(r, s, t)
            used.add(id(t))
        elif t.key == "bytes":
            if t.end + 1 < len(r.words) and r.words[t.end] == "per" and r.words[t.end + 1] not in _PER_CALL:
                continue  # "16 bytes per param" is a rate the question quotes, not a size ("128 MB per step" is one)
            if _a_link_speed(r, t):
                continue  # "HDR 200Gb IB per GPU": the link's speed with its "/s" dropped, said as unused
            if "size" not in v:
                v["size"], s.size_text = int(round(t.value)), t.text
            if t.unit.lower() in ("gib", "mib", "tib", "kib"):
                s.note(f"“{t.text}” read as {fmt_int(t.value)} B (binary units: 1 GiB = 2^30 B)")
            elif t.unit.lower() in ("gig", "gigs", "meg", "megs"):
                s.note(f"“{t.text}” read as {t.value / 1e9:g} GB (10^9 B)")
            used.add(id(t))
        elif t.key in ("tokens", "tokens_bare"):
            s.token_counts.append(t)
            used.add(id(t))
        elif t.key == "params":
            v.setdefault("params", int(round(t.value)))
            used.add(id(t))
        elif t.key == "size_name":
            if ("model" in v or "params" in v) and t.value >= 1e12 and not _names_its_size(r, t, v):
                s.token_counts.append(t)  # "qwen2.5 72b, 18T, mi300x", "train 70b on 15T": trillions are its tokens
                used.add(id(t))
                continue
            if "model" in v:
                continue  # "on 910b" beside a named model: left unused, so it is said, not dropped
            used.add(id(t))
            spec = _model_of_size(t.value)
            if spec is not None:
                v["model"] = spec.id
                s.note(f"“{t.text}” read as {spec.name} (the registry's only {t.text.upper().replace(' ', '')} model)")
            else:
                v.setdefault("params", int(round(t.value)))
        elif t.key == "percent":
            label = _nearest_label(r, t, ("mfu", "efficiency"))
            v.setdefault(label.key if label else "percent", t.value)
            used.add(id(t))
        elif t.key == "flop_per_byte":
            v.setdefault("intensity", t.value)
            used.add(id(t))
        elif t.key == "days":
            v.setdefault("deadline_days", t.value)
            used.add(id(t))


_LINK_WORDS = {"ib", "infiniband", "roce", "ethernet", "eth", "nic", "nics", "link", "links", "hdr", "ndr", "xdr"}


def _a_link_speed(r: Reading, t: Tag) -> bool:
    """"HDR 200Gb IB", "400gb nics", "one 200 Gb link": gigabits beside a link's name are its speed, not a buffer."""
    if t.unit.lower() not in ("gb", "gbit", "gbits"):
        return False
    after = r.words[t.end] if t.end < len(r.words) else ""
    return after in _LINK_WORDS or any(k.end == t.start for k in r.of("LINK"))


def _nearest_label(r: Reading, t: Tag, keys: tuple[str, ...], limit: int = 3, exclude=()) -> Tag | None:
    labels = [c for c in r.tags if c.label == "CUE" and c.key in keys and id(c) not in exclude]
    # nearest by the words between; then by the nearer edge ("tensor model parallel size 4 pipeline …": the
    # label that ends right before the number, not the one that starts right after it); then the earlier label
    near = sorted(((_gap(r, t, c), min(abs(t.start - c.end), abs(c.start - t.end)), n) for n, c in enumerate(labels)))
    near = [(g, d, n) for g, d, n in near if g <= limit]
    return labels[near[0][2]] if near else None


def _asked(r: Reading, label: Tag) -> bool:
    """Is this label what the question asks for ("…, busbw?", "to algbw", "what's the algbw")?"""
    if label.end < len(r.words) and r.words[label.end] == "?":
        return True
    if label.end == len(r.words):
        return True
    before = [c for c in r.tags if c.label == "CUE" and c.end <= label.start and label.start - c.end <= 2]
    return any(c.key in _ASKING for c in before) or any(w in ("what", "whats", "what's")
                                                       for w in r.words[max(0, label.start - 3):label.start])


def _bandwidth(r: Reading, s: Slots, t: Tag) -> None:
    v = s.values
    labels = [c for c in r.tags if c.label == "CUE" and c.key in ("busbw", "algbw")]
    asked = {id(c) for c in labels if _asked(r, c)}
    # (not across a sentence's end: "algbw 1,200 Gbit/s. busbw?" asks the busbw of that algbw)
    adjacent = next((c for c in labels if c.start == t.end and not t.text.endswith((".", ";", "?", "!"))), None)
    before = next((c for c in labels if c.end == t.start), None)
    if adjacent is not None and before is not None and id(adjacent) in asked:
        own, asked = before, {id(adjacent)}  # "algbw 600 GB/s busbw?": the label before it, and the one asked after
    elif adjacent is not None and len(labels) > 1:  # "busbw for … 240GB/s algbw": the label after it is its own
        own, asked = adjacent, {id(c) for c in labels if c is not adjacent}
    else:
        own = _nearest_label(r, t, ("busbw", "algbw"), limit=3, exclude=asked)
    if own is None and labels and len(labels) == len(asked) == 1 and _gap(r, t, labels[0]) == 0:
        own, asked = labels[0], set()  # "100 GB/s busbw?" is the figure's own label
    if own is None and len(asked) == 1:  # "our busbw on 16 h200 (2 nodes of 8) tops out at ~95 GB/s. … algbw?": the
        said = [c for c in labels if id(c) not in asked and c.end <= t.start and "." not in r.words[c.end:t.start]]
        own = said[-1] if len(said) == 1 else None  # one label said before the figure in its sentence, the other asked
    value, note = t.value, t.note
    nic = {"nic", "nics", "ethernet", "infiniband", "ib", "roce"} & set(r.words[max(t.start - 1, 0):t.end + 2])
    if note and nic and own is None:  # "400gb/s nic per gpu": a NIC's speed is quoted in bits, whatever the case
        value, note = t.value / 8, f"“{t.text}” read as bits per second (a NIC's speed is quoted in bits)"
    s.note(note)
    if own is not None:
        v.setdefault(own.key, t.value)
        other = "algbw" if own.key == "busbw" else "busbw"
        s.asked = s.asked or other
        return
    if asked:
        s.asked = next(c.key for c in labels if id(c) in asked)
    side = _link_side(r, t) if r.of("COLLECTIVE") else None
    if side is not None:  # "nvlink ~360 GB/s and ndr ~45 GB/s per gpu": each figure is its own link's
        v.setdefault(side, value)
        return
    v.setdefault("bandwidth", value)


_SCALE_UP_WORDS = {"nvlink", "xgmi", "ici", "neuronlink", "nvswitch", "intra", "in-node", "scale-up"}
_NIC_WORDS = {"nic", "nics", "ib", "infiniband", "ndr", "hdr", "xdr", "roce", "ethernet", "efa", "inter", "network", "dcn"}
_CLAUSE = {",", ";", ".", "and", "but", "while", "(", ")"}


def _link_side(r: Reading, t: Tag) -> str | None:
    """Whose rate a bandwidth is in a collective across nodes, by the link words just before it in its clause:
    "nvlink realistically ~400 GB/s" the scale-up link's (intra_bandwidth), "the NICs give about 46 GB/s each" the
    network's (nic_bandwidth); None when no link word is said there, or both are."""
    start = t.start
    while start > max(t.start - 6, 0) and r.words[start - 1] not in _CLAUSE:
        start -= 1
    words = set(r.words[start:t.start])
    scopes = {links().entries[k.key].scope for k in r.of("LINK") if start <= k.start < t.start}
    scale_up = bool(words & _SCALE_UP_WORDS) or "intra-node" in scopes
    network = bool(words & _NIC_WORDS) or "inter-node" in scopes
    if scale_up == network:
        return None
    return "intra_bandwidth" if scale_up else "nic_bandwidth"


def _counts(r: Reading, s: Slots, used: set[int]) -> None:
    v = s.values
    for t in r.of("COUNT"):
        n = int(t.value)
        used.add(id(t))
        if t.key == "way":
            label = _nearest_label(r, t, ("tp", "pp", "dp"), limit=1)
            v.setdefault(label.key if label else "tp", n)
        elif t.key == "gpus" and n == 1 and r.of("COLLECTIVE") and any(c.value > 1 for c in r.of("COUNT", "gpus")):
            continue  # "one card sends the same 10 GB to … 16 cards": the root, not how many take part
        elif t.key == "gpus":
            nodes = _nodes_times(r, t, used)
            if nodes is not None:  # "4 x 8 gpus": 4 nodes of 8
                used.add(id(nodes))
                v.setdefault("nodes", int(nodes.value))
                v.setdefault("gpus_per_node", n)
            elif (t.end < len(r.words) and r.words[t.end] == "shard") or (
                    r.words[max(t.start - 2, 0):t.start] in (["groups", "of"], ["group", "of"]) and bool(r.of("STAGE", "fsdp_hybrid"))) \
                    or any(0 <= t.start - c.end <= 1 and set(r.words[c.end:t.start]) <= _STATED
                           for c in r.of("CUE", "shard_group")):  # ("shard group is 16 GPU")
                v.setdefault("shard_group", n)  # "32-gpu shard groups", "sharded within groups of 16": FSDP hybrid's
            elif _per_node(r, t):
                v.setdefault("gpus_per_node", n)
            else:
                v.setdefault("gpus", n)
        elif t.key == "ranks" and n == 1 and len(r.of("COUNT", "ranks")) > 1:
            continue  # "gather 256MB to a single rank, 16 ranks": the root, not how many take part
        elif t.key == "ranks":
            label = _nearest_label(r, t, ("dp",), limit=0)
            v.setdefault("dp" if label else "ranks", n)
        elif t.key == "nodes":
            v.setdefault("nodes", n)
        elif t.key == "batch" and r.words[t.end - 2:t.end - 1] and r.words[t.end - 2] in _NOT_SERVED:
            continue  # "~1,900 failed requests" in an incident's story: requests that were not served, no batch
        elif t.key == "batch":
            v.setdefault("batch", n)
    if "gpu_count" in v:
        count, at = v.pop("gpu_count"), v.pop("gpu_count_at")
        nodes = next((t for t in r.of("COUNT", "nodes") if 0 <= at - t.end <= 2
                      and set(r.words[t.end:at]) <= _PER_NODE_BEFORE), None)
        if nodes is not None or (v.pop("gpu_count_each", False) and "nodes" in v):
            v.setdefault("gpus_per_node", count)
        else:
            v.setdefault("gpus", count)


def _per_node(r: Reading, t: Tag) -> bool:
    """'4 nodes × 8 GPUs', 'two nodes, eight GPUs each', '8 GPUs per node': a count per node."""
    if t.end < len(r.words) and r.words[t.end] in ("each", "apiece"):
        return True
    if any(c.key == "each" and 0 <= c.start - t.end <= 1 for c in r.of("CUE")):
        return True
    nodes = [n for n in r.of("COUNT", "nodes") if n.end <= t.start and t.start - n.end <= 2]
    return any(set(r.words[n.end:t.start]) <= _PER_NODE_BEFORE and t.start > n.end for n in nodes)


_STATED = {"is", "=", ":", "of", "at", "~", "≈", "was"}


def _bare_numbers(r: Reading, s: Slots, used: set[int]) -> None:
    """A number without a unit takes the role of the label next to it; labels are used once."""
    v = s.values
    _sequences_times_tokens(r, s, used)
    # a label right after a figure with a unit already has its figure ("4k context 32 batch")
    taken = {id(c) for c in r.tags if c.label == "CUE" and c.key in LABEL_ROLES
             and any(f.end == c.start and _may_fill(f, c.key) for f in r.tags if f.label in ("QUANTITY", "COUNT"))}
    # "batch=8 ctx=32768", "nranks: 16": a label written against its number takes it, whatever is nearer (paired
    # first, so "sliding_window: 4096\nmax_model_len: 32768\nbatch: 10" leaves each label to its own number)
    against = {id(t): c for t in r.of("NUMBER") for c in r.tags if c.label == "CUE" and c.key in LABEL_ROLES
               and c.end == t.start - 1 and r.words[c.end] in ("=", ":")}
    claimed: set[int] = {id(c) for c in against.values()}  # labels a number took here
    for t in r.of("NUMBER"):
        if id(t) in used:
            continue
        rate = next((c for c in r.of("CUE") if c.key in ("busbw", "algbw") and (c.end == t.start or (
            c.end == t.start - 1 and r.words[c.end] in _STATED))), None)
        if rate is not None and rate.key not in v:  # "busbw 190", "algbw is 180": nccl-tests prints GB/s
            used.add(id(t))
            v[rate.key] = t.value * 1e9
            s.note(f"“{rate.text} {t.text}” read as {t.text} GB/s (the unit nccl-tests prints)")
            continue
        if t.end < len(r.words) and r.words[t.end] in (_ONE_OF if t.value == 1 else _MANY_OF):
            continue  # "tp across one tray", "tp over 2 trays", "each node one replica": which ones, not a degree
        label = against.get(id(t)) or _nearest_label(r, t, tuple(LABEL_ROLES), limit=1, exclude=taken | claimed)
        if label is None:
            s.loose.append(t)
            continue
        claimed.add(id(label))
        used.add(id(t))
        role = LABEL_ROLES[label.key]
        if role == "context":
            s.token_counts.append(Tag("QUANTITY", "tokens_labelled", t.start, t.end, t.text, t.value))
        elif role in ("mfu", "efficiency"):
            v.setdefault(role, t.value / 100 if t.value > 1 else t.value)
        elif role == "intensity":
            v.setdefault(role, t.value)
        else:
            v.setdefault(role, int(t.value))


def _may_fill(figure: Tag, label: str) -> bool:
    """Whether a figure written before a label can be that label's ("4k context"), or is another slot's: in
    "32k batch 64" the 32k is tokens, and batch takes the 64."""
    return not (label == "batch" and figure.key in ("tokens", "tokens_bare"))


def _sequences_times_tokens(r: Reading, s: Slots, used: set[int]) -> None:
    """'32 x 8192' with no GPU after it: 32 sequences of 8,192 tokens (the site writes batches this way)."""
    numbers = [t for t in r.of("NUMBER") if id(t) not in used]
    for a, b in zip(numbers, numbers[1:]):
        if (b.start == a.end + 1 and r.words[a.end] in ("x", "×", "*") and 1 <= a.value <= 4096
                and b.value >= 128 and "batch" not in s.values and not s.token_counts):
            used.update((id(a), id(b)))
            s.values["batch"] = int(a.value)
            s.token_counts.append(Tag("QUANTITY", "tokens_labelled", b.start, b.end, b.text, b.value))
            s.note(f"“{a.text} x {b.text}” read as {fmt_int(a.value)} sequences × {fmt_int(b.value)} tokens")
            return
    # "the 52 × 8k capacity case": the context written with its "k" is a token count already; the count before is the batch
    for a in numbers:
        after = next((t for t in r.of("QUANTITY") if t.key in ("tokens", "tokens_bare") and t.start == a.end + 1), None)
        if (after is not None and r.words[a.end] in ("x", "×", "*") and 1 <= a.value <= 4096 and a.value.is_integer()
                and "batch" not in s.values):
            used.add(id(a))
            s.values["batch"] = int(a.value)
            s.note(f"“{a.text} x {after.text}” read as {fmt_int(a.value)} sequences of {after.text} tokens")
            return


def _topology(s: Slots) -> None:
    """Nodes × GPUs per node = ranks, and the total GPU count a count of nodes implies."""
    v = s.values
    nodes, per_node = v.get("nodes"), v.get("gpus_per_node")
    if nodes and per_node:
        v.setdefault("ranks_total", nodes * per_node)


@lru_cache(maxsize=None)
def _sizes() -> dict[float, list]:
    out: dict[float, list] = {}
    for spec in models().entries.values():
        for m in re.finditer(r"(?<![x\d.])(\d+(?:\.\d+)?)b\b", spec.name.lower()):
            out.setdefault(float(m.group(1)) * 1e9, []).append(spec)
    return out


def _names_its_size(r: Reading, t: Tag, v: dict) -> bool:
    """'kimi k2 1T': a trillion written right after the name of a trillion-parameter model is its size."""
    return ("model" in v and any(m.end == t.start for m in r.of("MODEL"))
            and models().entries[v["model"]].params.total >= 5e11)


def _model_of_size(params: float):
    """The one registry model a bare size names ('405b' → Llama 3.1 405B); None when several share it."""
    found = _sizes().get(float(params), [])
    return found[0] if len(found) == 1 else None


__all__ = ["Slots", "bind"]
