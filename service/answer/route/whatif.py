"""A what-if in one message: a setup, then a change, and a question about the changed setup.

"we serve llama 3.1 70b in bf16 with tp8 on h100s. if we cut it down to tp4, how much memory is left?" asks
about tp4; "switching from mi300x to mi355x, what's the ridge point?" about the MI355X; "if we replaced
llama 3 8b with gpt-oss-120b, …" about gpt-oss. The question is read as the change first and then what of
the setup the change leaves standing: a name, precision, stage, link, count or labelled figure the change
gives replaces the setup's of the same kind. Without a conflict the question is read as written. A setup said as
now and later ("8k today, the next release lifts it to 128k", "on an a100 today and move to h20s next month",
"current config: … proposed: …") is read the same way when the ask is about the later one ("the new cap", "the new
one", "after the change", "afterwards").
"""
from __future__ import annotations

import dataclasses
import itertools
import re

from .slots import LABEL_ROLES, is_kv_precision
from .tagger import Reading, Tag, tag

# "switch from X to Y", "replace X with Y", "swap X out for Y": Y is the new one
# within one clause: "from scratch on mi300x …: how many? (… compete for the same pool)" changes nothing
_FROM_TO = re.compile(r"\bfrom\s+\S(?:(?![?!;:()\n]|\.\s).)*?\s(?:to|for)\s+(?=\S)", re.IGNORECASE)
_REPLACED = re.compile(r"\b(?:replac\w*|swap\w*|switch\w*|trad\w*)\s+\S.*?\s(?:with|for|out for|by)\s+(?=\S)",
                       re.IGNORECASE)
# "…. what if we had eight B200s instead?", "… — if we moved to tp2 on h200s, …"
_PIVOT = re.compile(r"\b(?:what if|what about|if (?:we|i|you|they|it)|suppose (?:we|i))\b", re.IGNORECASE)
_INSTEAD = re.compile(r"\binstead of\b", re.IGNORECASE)
# a setup now and what it becomes later, asked about later: "8k today, the next release lifts it to 128k … at the new
# cap", "on an a100 today and move to h20s next month … the new one", "current config: … proposed: … after the change"
_AFTER_THE_CHANGE = r"\bafter\s+the\s+(?:upgrade|change|migration|move|switch|refresh)\b"
_LATER = re.compile(r"\b(?:the\s+)?next\s+(?:month|quarter|year|week|release|version|gen(?:eration)?|sprint)\b|"
                    rf"{_AFTER_THE_CHANGE}|\bproposed\s*:|"
                    r"\b(?:move|moving|migrate|migrating|upgrade|upgrading)\s+to\b|\b(?:lifts?|raises?|bumps?)\s+it\s+to\b",
                    re.IGNORECASE)
_NOW = re.compile(r"\b(?:today|now|currently|current(?:\s+config)?|at\s+the\s+moment|right\s+now|this\s+(?:month|quarter))\b",
                  re.IGNORECASE)
_ASKS_LATER = re.compile(r"\bthe\s+new\s+(?:one|cap|limit|card|cards|gpu|gpus|chip|chips|part|setup|config|cluster|box|"
                         rf"boxes|layout|plan)\b|{_AFTER_THE_CHANGE}|"
                         r"\bafterwards\b|\bthe\s+proposed\s+(?:one|config|setup|plan|layout)\b", re.IGNORECASE)
_NAMES = {"MODEL": "model", "UNKNOWN_MODEL": "model", "GPU": "gpu", "UNKNOWN_GPU": "gpu", "PRECISION": "precision",
          "STAGE": "stage", "LINK": "link", "COLLECTIVE": "op"}
_BREAKS = {",", ";", ":", ".", "?", "!", "(", "—", "-", "and", "but"}
_FAILED = {"nt fit", "not fit"}  # the setup's "doesnt fit": why a change is asked


def read_what_if(question: str) -> Reading | None:
    """The question read change-first, or None when it is not a what-if (or the change replaces nothing)."""
    for setup_text, change_text, from_to in _splits(question):
        setup = tag(setup_text)
        if from_to and not _names_a_part_after_from(setup):
            continue  # "broadcast from rank 0 to 32 ranks": a path, not a change from one part to another
        return _change_first(question, setup, tag(change_text))
    return None


def _change_first(question: str, setup: Reading, change: Reading) -> Reading | None:
    changed = [t for t in _without_replaced(change) if not _restates_the_count(setup, t)]
    given = {_kind(change, t) for t in changed} - {None}
    if not given:
        return None
    kept = _standing(setup, given)
    if len(kept) == len(setup.tags) and len(changed) == len(change.tags):
        return None  # nothing replaced (neither in the setup nor by "instead of"): read as written
    # "405b doesnt fit on our 8 h100s. what if we used 8 mi325x": the setup's failure is why the change is
    # asked, not a question about fitting no calculator answers
    kept = [t for t in kept if not (t.label == "CUE" and t.key == "outside" and t.text.lower() in _FAILED)]
    shift = len(change.words) + 1
    tags = changed + [dataclasses.replace(t, start=t.start + shift, end=t.end + shift) for t in kept]
    return Reading(question, change.words + ["."] + setup.words, tags)


def _splits(question: str):
    """Where the question may divide into setup and change, in order of trust: (setup, change, via "from … to")."""
    m = _REPLACED.search(question)
    if m and m.end() < len(question):
        yield question[:m.end()], question[m.end():], False
        return
    m = _FROM_TO.search(question)
    if m and m.end() < len(question):
        yield question[:m.end()], question[m.end():], True
    later = _LATER.search(question)
    if later and _NOW.search(question, 0, later.start()) and _ASKS_LATER.search(question, later.end()):
        yield question[:later.start()], question[later.end():], False
        return
    m = _PIVOT.search(question)
    if m and question[:m.start()].strip(" ,.;:-—"):
        yield question[:m.start()], question[m.end():], False
    elif _INSTEAD.search(question):  # "what if we ran it on mi300x instead of h100": the change is all there is
        yield "", question, False


def _names_a_part_after_from(setup: Reading) -> bool:
    """'switching from mi300x to …' names what is replaced; 'broadcast from rank 0 to …' does not."""
    start = max((i for i, w in enumerate(setup.words) if w == "from"), default=-1)
    return any(t.label in _NAMES and t.start > start for t in setup.tags)


def _kind(r: Reading, t: Tag) -> str | None:
    """What a tag sets, for "the change replaces the setup's": names by label, figures by their kind."""
    if t.label == "PRECISION" and is_kv_precision(r, t):
        return "kv_precision"  # "with fp16 kv" changes the cache's precision, not the weights' Q8
    if t.label in _NAMES:
        return _NAMES[t.label]
    if t.label == "QUANTITY":
        return "model" if t.key in ("size_name", "params") else f"quantity:{t.key}"
    if t.label == "COUNT":
        return "gpu" if t.key in ("gpus", "nodes") else f"count:{t.key}"
    if t.label == "CUE" and t.key in LABEL_ROLES:
        return f"label:{t.key}"
    return None


def _restates_the_count(setup: Reading, t: Tag) -> bool:
    """"2 servers x 8 h200 … if i all-reduce 4 gb through all 16 gpus": the setup's GPUs, counted again, not new ones."""
    if not (t.label == "COUNT" and t.key == "gpus"):
        return False
    nodes = [n.value for n in setup.of("COUNT", "nodes")]
    each = [n.value for n in setup.of("NUMBER") + setup.of("COUNT", "gpus")]
    return any(a * b == t.value for a in nodes for b in each)


def _without_replaced(change: Reading) -> list[Tag]:
    """The change's tags less what it says it replaces: "on tpu v5p instead of h100s"."""
    words = change.words
    gone = set()
    for i, w in enumerate(words[:-1]):
        if w == "instead" and words[i + 1] == "of":  # the next few words, up to a break ("of h100, fp8 …")
            gone |= set(itertools.takewhile(lambda k: k < len(words) and words[k] not in _BREAKS, range(i + 2, i + 6)))
    return [t for t in change.tags if not (t.label in _NAMES and t.start in gone)]


def _standing(setup: Reading, given: set[str]) -> list[Tag]:
    """The setup's tags the change does not replace. A number that belonged to a replaced tag goes with it:
    the 8 of "8 h100s", the 8 of "tp8"."""
    replaced = [t for t in setup.tags if _kind(setup, t) in given]
    near = {id(n) for n in setup.of("NUMBER") for t in replaced
            if n.end == t.start or t.end == n.start or (n.end + 1 == t.start and setup.words[n.end] in ("x", "*"))}
    return [t for t in setup.tags if _kind(setup, t) not in given and id(t) not in near]
