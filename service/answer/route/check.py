"""The reader's own results are not inputs: a figure they claim, or one their run showed them.

- Checking their arithmetic: "I got 28 GiB — did I double count?", "… ≈ 209 tok/s?", "I say 3 H200s minimum —
  is that right?". Read with it, "209 tok/s" would be a rate given (so not a calculation), "3 H200s" three
  GPUs to fit on, "= 16 GB" a card to fit into. So when the question asks for a check, the figures it claims
  (right after "I got", "I say", "I estimate", "my number is", "=", "≈", "so") are taken out of the reading.
- Troubleshooting a run: "generation crawls at ~9 tok/s … what's the most it can get?", "takes ~25 ms in my
  trace. what should it take?", "the ETA says 34 days but it has to finish in 21". When the question asks what
  the run should do, the rates and times the run showed (after "does", "shows", "takes", "stuck at", "ETA
  says" …) are taken out; a bare figure left after "finish in" takes the unit of the time taken out.
What is left asks for the same quantity.
"""
from __future__ import annotations

import re

from .tagger import Reading, Tag

_CHECKING = re.compile(r"\b(?:sanity[- ]check|verify|double[- ]check|checking my|check my|is (?:that|this|it) right|"
                       r"am i right|right\s*\?|correct\s*\?|close\s*\?|did i|does that look|"
                       r"seems? (?:too|off|high|low)|my (?:math|maths|number|arithmetic|estimate)|"
                       r"really (?:only|just)|is (?:it|that|this) really|true or false|\bcheck\s*[?!]|am i off|"
                       r"what do you get|is (?:that|this) how you'?d|confirm\s*[?!.]?$|right\s*[.?]\s*$)", re.IGNORECASE)
_CLAIMS = {"got", "get", "estimate", "say", "=", "≈", "~", "so", "reckon", "think", "be", "calculated", "computed",
           "says", "figured", "out"}  # ("my math says 56 tok/s", "i worked out ~90 tok/s")
_THRESHOLD = {"than", "under", "below", "above", "exceeds", "least", "most"}  # "true or false: faster than 50 tok/s"
_FIGURES = ("QUANTITY", "COUNT", "NUMBER")
_EXPECTING = re.compile(r"\b(?:should|expect|expected|ought to|supposed to|the most|upper bound|by the numbers|"
                        r"on paper|in theory|theoretical|bandwidth[- ]bound|memory[- ]bound|has to finish|"
                        r"(?:aggregate|throughput|decode|speed) bound)\b",
                        re.IGNORECASE)
_OBSERVING = {"does", "doing", "get", "gets", "getting", "got", "crawls", "crawling", "stuck", "takes", "took", "taking",
              "shows", "showed", "reports", "reported", "says", "said", "seeing", "see", "measured", "measures",
              "observed", "clocks", "logs", "logged", "eta", "currently", "only"}
_SEEN_IN = {"trace", "nsys", "profiler", "profile", "logs", "log", "nsight"}  # "~4 ms in nsys"


def without_claimed_results(question: str, r: Reading) -> Reading:
    """The reading without the results the reader claims, when the question asks to check them; and without the
    bar a yes/no question sets ("will 16 users at 32k stay under 100 GB of kv?": the KV cache decides it)."""
    if not _CHECKING.search(question):
        against_a_bar = ((_AGAINST_A_BAR.search(question) or _BARE_BAR.search(question))
                         and not _ASKS_A_FIGURE.search(question))
        return _without_the_bar(r) if against_a_bar else r
    claimed = [t for t in r.tags if t.label in _FIGURES and _claimed(r, t)]
    gone = {id(t) for t in claimed}
    # the threshold a claim is checked against ("faster than 50 tok/s") says nothing about what to compute
    kept = [t for t in r.tags if id(t) not in gone and not (t.key == "outside" and "than" in t.text.lower())]
    # what was claimed is what is asked: "Phi-3 medium in int4 is ~7 GB, confirm?" asks a size, "I get ~25 ms per
    # decode step. right?" a step's time
    asked = [Tag("CUE", _CLAIMS_ASK[t.key], t.start, t.start, "") for t in claimed if t.key in _CLAIMS_ASK]
    return Reading(r.question, r.words, kept + asked + [_checking(r)])


_CLAIMS_ASK = {"bytes": "how_big", "seconds": "latency"}
_SETTINGS = {"tp", "pp", "dp", "ep", "batch", "bs", "ctx", "context", "seq", "seqlen", "mbs", "gbs", "n", "ranks", "gpus",
             "nodes", "mfu", "efficiency", "eta", "η", "b", "s", "t"}


def _checking(r: Reading) -> Tag:
    """The cue that the question checks a figure (history words such as "did I" are then not history)."""
    return Tag("CUE", "check", len(r.words), len(r.words), "")


# a yes/no question whose answer is a figure measured against a bar: "can one h100 do 50 tok/s per user …?", "does
# it finish within 90 days …?", "is the busbw over 300 GB/s …?", "is a 64 flop/byte kernel still memory bound …?"
_AGAINST_A_BAR = re.compile(r"(?:^|[,:;—.?]\s*|\s-\s)(?:will|can|could|does|do|did|is|are|would|should)\b(?:(?!\bhow\b|\bwhat)[^?])*?"
                            r"\b(?:under|below|above|over|within|past|beyond|exceed\w*|clear|hit|reach|stay|"
                            r"do|get|fast enough|less than|more than|at least|at most|memory[- ]bound|"
                            r"compute[- ]bound)\b", re.I)
# a bar of one unit, with no figure: "— less than a second?", "under a minute?"
_A_UNIT = r"(?:second|minute|hour|day|week|month|millisecond|ms|gigabyte|terabyte)\s*"
# the bar as its own clause, with no verb: "… 128k with a bf16 cache — more than 250 GB of cache?", "tpu v5p int8
# ridge — more than 300 ops per byte?"; and a figure set against the quantity: "is 200 flop/b above the ridge …?"
_BARE_BAR = re.compile(r"(?:[,:;—?]\s*|\s-\s)(?:more than|less than|fewer than|at least|at most)"
                       r"\s+(?:a\s+|an\s+)?(?:\d[^,;:—?]*|" + _A_UNIT + r")\?|"
                       r"(?:^|\bis\s+)\d[\d.,]*\s*[\w/%]*\s+(?:above|below|over|under)\s+the\b", re.I)
_UNIT_BAR = re.compile(r"\b(?:than|under)\s+an?\s+" + _A_UNIT + r"\?", re.I)  # "— less than a second?"
_ASKS_A_FIGURE = re.compile(r"\bhow (?:many|long|much|fast|big)\b|\bwhat(?:'s|s)?\b", re.I)  # "how many … within 21 days"
_BAR_WORDS = {"under", "below", "above", "over", "within", "past", "beyond", "exceed", "exceeds", "clear", "hit",
              "reach", "do", "get", "than", "least", "most", "the", "enough"}  # ("fast enough for 30 tokens/sec")


def _without_the_bar(r: Reading) -> Reading:
    """The figures a yes/no question measures against (right after "under", "over", "within", "clear" …) are taken
    out, and the question asks for the figure that decides it; a question with no such figure is left as it is."""
    if _UNIT_BAR.search(r.question):
        # "broadcast 8 GB among 4 l40s … — less than a second?": the time decides it; no figure is the bar
        return Reading(r.question, r.words, [t for t in r.tags if not (t.key == "outside" and "than" in t.text.lower())]
                       + [_checking(r)])
    bars = [t for t in r.tags if t.label in _FIGURES and t.key not in ("batch", "gpus", "nodes", "ranks")
            and (_BAR_WORDS & set(r.words[max(t.start - 2, 0):t.start])
                 or r.words[t.start - 1:t.start] == ["is"] and r.words[t.end:t.end + 1] in (["above"], ["below"])
                 and r.words[t.end + 1:t.end + 2] == ["the"])]  # "is 200 flop/b above the ridge"
    if not bars:  # "is a 64 flop/byte kernel still memory bound on a b200?": the roofline decides it
        return Reading(r.question, r.words, r.tags + [_checking(r)]) if r.has("memory_bound", "compute_bound") else r
    gone = {id(t) for t in bars}  # ("more than 250 GB": the comparison is the bar's, not one of two setups)
    kept = [t for t in r.tags if id(t) not in gone and not (t.key == "outside" and "than" in t.text.lower())]
    return Reading(r.question, r.words, kept + [_checking(r)])


def without_observed_results(r: Reading) -> Reading:
    """The reading without the rates and times the reader's run showed, when the question asks what it should do."""
    if not _EXPECTING.search(r.question):
        return r
    observed = [t for t in r.tags if t.label in _FIGURES and _observed(r, t)]
    if not observed:
        return r
    gone = {id(t) for t in observed}
    tags = [t for t in r.tags if id(t) not in gone]
    if any(t.key == "days" for t in observed):  # "ETA says 34 days but it has to finish in 21": 21 days
        tags = [_in_days(r, t) for t in tags]
    return Reading(r.question, r.words, tags)


def _observed(r: Reading, t: Tag) -> bool:
    """A rate ("9 tok/s") or a time ("25 ms", "34 days") that the run showed: after a word of seeing, or "in nsys"."""
    after = r.words[t.end:t.end + 3]
    rate = any(c.start == t.end for c in r.of("CUE", "tokens_per_s"))
    time = t.label == "QUANTITY" and t.key in ("seconds", "days")
    if not (rate or time) or any(c.key == "alpha" and t.end <= c.start <= t.end + 2 for c in r.of("CUE")):
        return False  # (a hop's latency is an input: "5 us per hop")
    seen_by = set(r.words[max(t.start - 4, 0):t.start]) & _OBSERVING
    return bool(seen_by) or (len(after) > 1 and after[0] == "in" and bool(set(after[1:]) & _SEEN_IN))


def _in_days(r: Reading, t: Tag) -> Tag:
    before = r.words[max(t.start - 3, 0):t.start]
    if t.label == "NUMBER" and before and before[-1] in ("in", "within") and "finish" in before:
        return Tag("QUANTITY", "days", t.start, t.end, f"{t.text} days", t.value, "days")
    return t


def _claimed(r: Reading, t: Tag) -> bool:
    """A figure right after a claim ("I got 28 GiB", "= 34 GB", "≈ 209 tok/s") or right before the "?"."""
    before = set(r.words[max(t.start - 3, 0):t.start])
    if t.key == "percent" and any(c.start == t.end for c in r.of("CUE") if c.key in ("efficiency", "mfu")):
        return False  # "if I only get 80% of its bandwidth": a condition set, not a result claimed
    if "true or false" in r.question.lower():  # the statement's figures are its setup; only the threshold is claimed
        return bool(_THRESHOLD & before)
    if r.words[t.start - 2:t.start] and r.words[t.start - 1] == "=" and r.words[t.start - 2] in _SETTINGS:
        return False  # "TP=4 on H100 SXM — I get ~25 ms": a setting, not a result
    my_number = "is" in before and "number" in r.words[max(t.start - 4, 0):t.start]  # not "the batch is 8"
    comes_out = r.words[max(t.start - 3, 0):t.start] in (["comes", "out", "at"], ["come", "out", "at"])
    return bool(_CLAIMS & before) or my_number or comes_out or r.words[t.end:t.end + 1] in (["?"], [".", "check"])
