"""Figures the reader already knows are not inputs: what they state before asking for something else.

"Qwen2.5-7B's weights are about 15.2 GB in bf16. How many bytes of KV does each token add?", "L40S ridge point is
~419 FLOP/B, so … tok/s?", "b200 fp8 ridge = 562.5, ok. at an intensity of 1000 flop/byte what do I get?",
"an all-gather of 4 GB … comes out at ~3.9 ms. What algbw would nccl-tests report?". Read with them, "15.2 GB"
would be a card to fit into, "419 FLOP/B" an intensity, "3.9 ms" a latency. So a figure stated as a result (after
"is", "are", "=", "take", "comes out at" …, in a clause before the one that asks) is taken out of the reading when
it is a result of another kind than the question asks for; so is the quantity word it was stated with. The
names, precisions and counts around it stay: they still describe the setup.
"""
from __future__ import annotations

from .tagger import Reading, Tag

_BOUNDARIES = {".", ";", "--", "so", "but", "though", "ok", "okay", "fine", "!", "anyway", "now"}
_STATING = {"is", "are", "=", "take", "takes", "~", "≈", "about", "around", "roughly", "approx", "be", "was", "weigh",
            "weighs", "need", "needs"}
_RESULT_VERBS = {"comes", "came", "works", "worked", "took"}  # "comes out at ~3.9 ms": a result of any kind
# a result's figure and the quantity words it is stated with; what the question then asks must be another one
_RESULTS = {
    "bytes": ("weights", "kv", "training_state", "state", "checkpoint", "memory", "activations"),
    "flop_per_byte": ("ridge",),
    "number": ("ridge",),
    "seconds": ("how_long", "latency", "time_to_train", "compute_time", "memory_time"),
}
_ASKED = {"weights", "kv", "training_state", "checkpoint", "activations", "ridge", "attainable", "tokens_per_s",
          "algbw", "busbw", "per_token", "how_long", "gpu_count", "how_many", "time_to_train", "latency",
          "gpu_hours", "left", "fit", "throughput", "aggregate", "intensity"}


def without_known_results(r: Reading) -> Reading:
    """The reading without the results the reader states before asking for a different quantity."""
    clauses = _clauses(r)
    if len(clauses) < 2:
        return r
    gone: set[int] = set()
    for start, end in clauses[:-1]:
        asked = {t.key for t in r.of("CUE") if t.start >= end and t.key in _ASKED}  # what the clauses after ask
        if not asked:
            continue
        for t in r.tags:
            if not (start <= t.start < end) or t.label not in ("QUANTITY", "NUMBER") or not _stated(r, t, start):
                continue
            # the quantity words beside the figure ("weights take 93.4 GB", "~812 GB of weights"), not the clause's others
            said_with = [c for c in r.of("CUE") if max(start, t.start - 6) <= c.start < min(end, t.end + 3)
                         and c.key in _RESULTS.get(t.key, ())]
            # (a kernel's intensity that "works out to 350 ops per byte" is what a roofline reads, unless it is the
            # ridge; an algbw that "came out 142.6 GB/s" is what busbw is converted from)
            # (nor a link's rate, "ndr works out to ~45 GB/s per gpu": what a collective runs at)
            verb = (bool(set(r.words[max(start, t.start - 4):t.start]) & _RESULT_VERBS)
                    and t.key != "flop_per_byte" and not (t.key == "bandwidth" and asked & {"algbw", "busbw"})
                    and not (t.key == "bandwidth" and any(start <= k.start < t.start for k in r.of("LINK"))))
            if (said_with or verb) and not asked & {c.key for c in said_with}:
                gone |= {id(t)} | {id(c) for c in said_with if c.key != "kv"}  # "KV" still names the cache's precision
    if not gone:
        return r
    return Reading(r.question, r.words, [t for t in r.tags if id(t) not in gone])


def _clauses(r: Reading, cut_before_asking: bool = False) -> list[tuple[int, int]]:
    """Word spans between sentence ends and the words that open a new thought ("so", "but", "ok"); with
    `cut_before_asking`, a comma before "what"/"how" ends a clause too ("h100 ridge is ~295, what's the v5p one")."""
    cuts = [i for i, w in enumerate(r.words) if w in _BOUNDARIES or (
        cut_before_asking and w in (",", "-", "—") and r.words[i + 1:i + 2] in (["what"], ["whats"], ["how"]))]
    spans, start = [], 0
    for cut in cuts:
        if cut > start:
            spans.append((start, cut))
        start = cut + 1
    if start < len(r.words):
        spans.append((start, len(r.words)))
    return spans


def _stated(r: Reading, t: Tag, clause_start: int) -> bool:
    """Does a stating word ("is", "=", "take", "about") stand just before the figure?"""
    return bool(set(r.words[max(clause_start, t.start - 3):t.start]) & (_STATING | _RESULT_VERBS))


# --- a part the reader compares against ---------------------------------------------------------------------

_ASKING = ("compute", "how_much", "how_many", "how_long", "how_big", "what_is", "question_mark")
_PARTS = ("GPU", "UNKNOWN_GPU")
_ITS_FIGURES = {("COUNT", "gpus"), ("COUNT", "nodes"), ("QUANTITY", "bytes"), ("QUANTITY", "bandwidth"),
                ("QUANTITY", "flop_per_byte"), ("QUANTITY", "days"), ("QUANTITY", "seconds"), ("NUMBER", "number")}


def without_reference_parts(r: Reading) -> Reading:
    """The reading without a part the reader only measures against: "on h100 i know qwen 72b needs two cards.
    gaudi3 has 128gb - one card, … fits?", "our h100 box has 640gb but the question is about the 8x mi325x one",
    "h100 ridge is ~295 flop/B in bf16, what's the tpu v5p one?". A part named in a clause that asks nothing,
    when the clause that asks names another part, goes, and so do that clause's counts and figures (its own
    spec and result); the model and precision it was said with stay."""
    clauses = _clauses(r, cut_before_asking=True)
    asking = [c for c in clauses if any(c[0] <= t.start < c[1] for t in r.of("CUE") if t.key in _ASKING)]
    if not asking:
        return r
    ask_start, ask_end = asking[-1]
    asked_parts = {t.key for t in r.tags if t.label in _PARTS and ask_start <= t.start < ask_end}
    if not asked_parts:
        return r
    gone: set[int] = set()
    for start, end in clauses:
        if start >= ask_start or (start, end) in asking:
            continue
        inside = [t for t in r.tags if start <= t.start < end]
        reference = [t for t in inside if t.label in _PARTS and t.key not in asked_parts]
        if reference:
            gone |= {id(t) for t in inside if t in reference or (t.label, t.key) in _ITS_FIGURES}
    if not gone:
        return r
    return Reading(r.question, r.words, [t for t in r.tags if id(t) not in gone])
