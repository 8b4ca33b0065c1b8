"""People, quotas and prices are not the workload: the sequences in flight are the batch, the GPUs the job gets its
count, and "per 1M tokens" a price.

A product or ops message carries counts that size the business, not the calculation: "an internal helpdesk with 350
employees, but realistically 8 chats in flight at once", "out of 2,000 daily users, 50 reasoning traces run at the
same time", "legal team (14 ppl) … 10 contracts of 32,000 tokens processed concurrently", "450 beta users … at batch
128"; "we have 128 h100s of quota … but this job only gets 32 of them", "64 chips of trn2 quota but only 48 are free",
"64 chips of trillium quota but i only care about one chip here", "3 cards on loan … on one card". Read as typed, the
first count of people was the batch and the quota the GPU count: a confident answer for the wrong workload. When the
message also says what runs at once (or gives the batch), the people are no batch; when it says what the job gets, the
quota is no count. A price per tokens ("we resell at $0.15 per 1M tokens", "0.6 credits per 1k tokens") had been a
context of a million tokens; it is no figure of the calculation. The Assumed line says what was set aside. A count of
people alone is left as it was read.
"""
from __future__ import annotations

import re

_PEOPLE = (r"(?:(?:daily|monthly|weekly|active|beta|paying|registered|internal|total|named)\s+)*"
           r"(?:users?|employees|people|ppl|persons|staff|customers|seats|members|students|subscribers|mau|dau|"
           r"engineers|analysts|lawyers|testers)")
_PEOPLE_COUNT = re.compile(rf"\b(?P<n>\d[\d,]*)\s+{_PEOPLE}\b", re.I)
_AT_ONCE = (r"at\s+once|at\s+the\s+same\s+time|at\s+a\s+time|concurr?ent(?:ly)?|simultaneous(?:ly)?|in[- ]flight|"
            r"in\s+parallel|at\s+peak")
# "8 chats in flight at once", "50 reasoning traces run at the same time", "10 contracts of 32,000 tokens processed
# concurrently": a count, a noun, and what says they run together within the clause
_IN_FLIGHT = re.compile(rf"\b(?P<n>\d[\d,]*)\s+(?P<what>(?:[a-z][\w-]*\s+){{0,2}}?[a-z][\w-]*)"
                        r"(?=\s+(?:run|runs|running|are|is|were|processed|being|sit|sits|sitting|open|live|active|going|"
                        r"of|in|at|with|on|each|that|which)\b|\s*[,;(])"
                        rf"(?=(?:[^.;?!,(]|(?<=\d),(?=\d)){{0,45}}?\b(?:{_AT_ONCE})\b)", re.I)
_BATCH_SAID = re.compile(r"\b(?:batch(?:\s+size)?|bs|max[_ ]num[_ ]seqs)\s*(?:of|=|:|is)?\s*\d|\b\d+\s+concurrent\b", re.I)
_NOT_SEQUENCES = re.compile(r"^(?:k|m|b|gb|mb|tb|tokens?|ms|s|seconds?|minutes?|hours?|days?|%|percent|gpus?|cards?|chips?|"
                            r"nodes?|h\d+s?|[a-z]+\d+\w*)\b", re.I)

_GPUS = r"(?:gpus|cards|chips|accelerators|devices|[a-z]+\d+[a-z]*s|(?:tpu\s+)?v\d[a-z]+\s+chips)"
# "128 h100s of quota", "64 chips of trn2 quota", "3 cards on loan"; "quota came thru (…, got 64 chips …)"
_QUOTA = re.compile(rf"\b(?P<n>\d[\d,]*)\s+(?P<what>(?:[\w.-]+\s+){{0,2}}?{_GPUS}|{_GPUS}(?:\s+of)?(?:\s+[\w.-]+)?)\s+"
                    rf"(?=(?:of\s+)?(?:[\w.-]+\s+)?quota\b|on\s+loan\b|reserved\b|allocated\b)"
                    rf"|\bquota\b[^.;?!]{{0,40}}?\b(?:got|get|gave\s+us|granted)\s+(?P<n2>\d[\d,]*)\s+(?P<what2>{_GPUS})\b", re.I)
# what the job gets: "this job only gets 32 of them", "only 48 are free", "on those 48", "i only care about one chip"
_JOB_GETS = re.compile(rf"\bonly\s+(?:gets?\s+|has\s+|have\s+|uses?\s+)?(?P<n>\d+)(?:\s+of\s+them)?(?:\s+(?:are|is)\s+"
                       rf"(?:free|available|usable|left|ours))?\b(?!\s*{_GPUS})"
                       rf"|\bthose\s+(?P<those>\d+)\b(?!\s*{_GPUS})", re.I)
_ONE_PART = re.compile(rf"\b(?:one|a\s+single|1|single)\s+(?:[\w.-]+\s+){{0,2}}?(?:chip|card|gpu|accelerator|device)\b", re.I)


_PRICE = re.compile(r"(?:[$€£]\s?\d[\d.,]*\s?[km]?|\b\d[\d.,]*\s*(?:credits?|cents?|usd|dollars?|euros?|eur)\b)\s*"
                    r"(?:/|per|a|for\s+every|every)\s*(?:1\s*|one\s+|a\s+)?(?:k|m|thousand|million|mil)?\s*"
                    r"(?:input\s+|output\s+|cached\s+|generated\s+)?tok(?:en)?s?\b", re.I)


def as_workload(question: str) -> tuple[str, list[str]]:
    """The question with counts of people that are no batch, quotas that are no GPU count, and prices per tokens
    set aside."""
    question, people = _without_people(question)
    question, quota = _without_quota(question)
    prices = [f"“{m.group(0)}” is a price, no figure of the calculation" for m in _PRICE.finditer(question)]
    return _PRICE.sub("a price", question), people + quota + prices


def _without_people(question: str) -> tuple[str, list[str]]:
    people = list(_PEOPLE_COUNT.finditer(question))
    if not people:
        return question, []
    in_flight = next((m for m in _IN_FLIGHT.finditer(question) if not _NOT_SEQUENCES.match(m.group("what"))), None)
    if in_flight is None and not _BATCH_SAID.search(question):
        return question, []
    edits, notes = [], []  # (start, end, new) on the question as typed
    for m in people:
        if in_flight is not None and m.start() == in_flight.start():
            continue  # ("8 users at once": those people are the batch)
        if in_flight is None and re.fullmatch(r"[\d,]+\s+users?", m.group(0), re.I):
            continue  # ("serve 8 users …; the canary … at batch 32": users served are a workload, not a population)
        edits.append((m.start("n"), m.end("n") + 1, ""))
        running = f"{in_flight.group('n')} {in_flight.group('what')} at once" if in_flight else "the batch given"
        notes.append(f"“{m.group(0)}” is no batch: {running}")
    if in_flight is not None and not re.search(_PEOPLE, in_flight.group("what"), re.I):
        # "10 contracts …", "50 reasoning traces …": as many sequences
        edits.append((in_flight.start(), in_flight.end(), f"{in_flight.group('n')} sequences"))
    for start, end, new in sorted(edits, reverse=True):
        question = question[:start] + new + question[end:]
    return question, notes


def _without_quota(question: str) -> tuple[str, list[str]]:
    quota = _QUOTA.search(question)
    if quota is None:
        return question, []
    after = question[quota.end():]
    gets = _JOB_GETS.search(after)
    if gets is None and not _ONE_PART.search(after):
        return question, []
    n, what = (quota.group("n"), quota.group("what")) if quota.group("n") else (quota.group("n2"), quota.group("what2"))
    used = "one"
    if gets is not None:  # "only 48 are free" → "only 48 gpus are free"
        used = f"{gets.group('n') or gets.group('those')} {_plural_noun(what)}"
        after = after[:gets.start()] + gets.group(0).replace(used.split()[0], used, 1) + after[gets.end():]
        # ("… on those 48": the same GPUs said again, counted as such, so no figure is said unused)
        after = re.sub(rf"\bthose\s+{used.split()[0]}\b(?!\s*{_GPUS})", f"those {used}", after, flags=re.I)
    start = quota.start("n") if quota.group("n") else quota.start("n2")
    out = question[:start] + question[start + len(n):quota.end()].strip() + " " + after.lstrip()
    return out, [f"“{n} {what.strip()}” is a quota, not the job's count: it runs on {used}"]


def _plural_noun(what: str) -> str:
    """The noun a quota counts its parts with ("h100s", "chips of trn2" → "chips")."""
    noun = re.search(_GPUS, what, re.I)
    return noun.group(0) if noun else "gpus"
