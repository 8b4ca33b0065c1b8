"""The reader's background is no part of the calculation: what they tell before (or after) they ask.

"Our last 7B run took 9 days on 128 A100s back in 2023. New plan: Llama 3.1 8B on 15T tokens with 1,024 H200s
at 42% MFU. How many days?", "kv per token for mistral 7b? context: the dashboard (v1.4) shows a 17% cache hit
rate", "… all-reduce time? (our cluster is 3 years old and has 47 nodes)". The old run's days and GPUs, the
dashboard's percentage, the cluster's node count are no inputs: a sentence (or an aside in brackets) that asks
nothing and tells history, money or paperwork ("used to", "last year", "since 2023", "$", "budget", "ticket",
"slide 14") is left out of the reading, as is what follows a "background:" or "context:" label. Software
versions ("vLLM 0.6.3", "CUDA 12.4") are never figures. A sentence that asks keeps all it says.
"""
from __future__ import annotations

import re

from .logs import without_versions
from .tagger import tag

# An aside in brackets, or a sentence: ".", "!", "?" or ";" before a space, or a line break, ends one
_ASIDE = re.compile(r"(\([^()]*\))")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+|,?\s+(?=but now\b)|\s[—–]\s(?=(?:so\s+|and\s+)?(?:how|what)\b)"
                           # "… the median is 1,400 tokens, but I'm sizing for the worst case: …": what is asked now
                           r"|,\s+(?=but\s+(?:i'?m|we'?re|i am|we are|this time|for this|this is|today'?s|"
                           r"we'?ll|we will|my question|the question)\b)", re.I)
_ASKS = re.compile(r"\?|\b(?:how|what(?:'s)?|which|whats|estimate|compute|calculate|give me|tell me|is it|"
                   r"can (?:it|a|one|we|i)|will it|would it|does it|do i|do we)\b", re.I)
# History tells what was, never what is asked; paperwork and money tell why, unless the sentence also sets a
# time window ("a $4M budget and a 45-day window") or takes something back ("EDIT: 4 gpus, budget got cut")
_HISTORY = re.compile(
    r"\b(?:used to|last (?:year|month|week|quarter|run|time|eval|test|night|monday|tuesday|wednesday|thursday|friday|"
    r"weekend|sprint)|last year's|back in|previous(?:ly)?|our old|"
    r"(?:took|came to|peaked at|was on|were on|replaced|already done|\d+ years? old|"
    r"(?:went|rose|fell|dropped|jumped|improved|grew) from|(?<=\w )paper (?:quotes|reports|says|claims|cites)(?!:))\b|"
    r"since (?:\w+ )?(?:19|20)\d\d|in (?:19|20)\d\d|for most of)", re.I)
_PEOPLE = (r"people|persons|engineers|participants|attendees|headcount|team|teams|crew|rotation|of us|staff|"
           r"researchers|interns")
_PAPERWORK = re.compile(r"\b(?:budget|finance|pricing|invoice|contract|ticket|sprint|deck|slide|dashboard|uptime|"
                        r"meeting|roadmap|reserved|queue|donated|leadership|startup|company|team of|watchers|"
                        r"pages? so far|sheet|row \d+|room \w+|dollars?|pitch|" + _PEOPLE + r"|floor \d+|warranty|"
                        r"asset tags?|quote|reservation|offsite|hackathon|prizes?|launch date|kickoff|"
                        r"bid|procurement|purchase|on order|"
                        r"all-hands|on-call|ext\.)\b|\$\s?\d", re.I)
# a letter's greeting and its sign-off with the signature after it: "Hi team,\n\n…\n\nThanks,\nPriya\nML Platform, ext. 4471"
_GREETING = re.compile(r"^\s*(?:hi|hello|hey|dear|hiya|greetings|good (?:morning|afternoon|evening))\b[^\n]{0,60}\n", re.I)
_SIGN_OFF = re.compile(r"\n\s*(?:thanks(?: (?:a lot|so much|in advance))?|thank you|many thanks|thx|best(?: regards)?|"
                       r"kind regards|regards|cheers|sincerely|br|ta)\b[^\n]{0,20}(?:\n[\s\S]*)?$", re.I)


_HEADCOUNT = re.compile(rf"\b(?:{_PEOPLE})\b", re.I)  # how many people there are is never a figure asked about


# "<setup> — the other team's 4 H100s run the 8B at 32k and our SLO is 40 ms per token — how much HBM is left?": what
# stands between the setup and the ask, set off by dashes, is about something else when it names
# another model or part, or says whose it is ("the other team", "our budget", "the deadline", "prefill …")
_DASH = re.compile(r"\s[—–]\s")
_QUESTION = re.compile(r"\?|\b(?:how|what(?:'s)?|whats|which)\b", re.I)  # (an aside's "compute per step is 450 ms" asks nothing)
_ELSEWHERE = re.compile(r"\b(?:other|another|separate|side|canary|fallback|follow-up|ablation|eval|nightly|friend'?s|budget|"
                        r"deadline|slo|sla|target|targets|prefill|ttft|we also|also run|the board|board wants|"
                        r"backward pass|forward pass|compute per step|step budget|should stay|used \d|hit|managed)\b", re.I)


def _without_dashed_asides(text: str) -> str:
    pieces = _DASH.split(text)
    if len(pieces) < 3 or not _ASKS.search(pieces[-1]) or _QUESTION.search(" ".join(pieces[1:-1])):
        return text
    setup = {(t.label, t.key) for t in tag(pieces[0]).tags if t.label in ("MODEL", "GPU")}
    kept = [pieces[0]]
    for piece in pieces[1:-1]:
        names = {(t.label, t.key) for t in tag(piece).tags if t.label in ("MODEL", "GPU", "UNKNOWN_MODEL")}
        if not (_ELSEWHERE.search(piece) or (setup and names - setup)):
            kept.append(piece)
    return " — ".join(kept + [pieces[-1]]) if len(kept) < len(pieces) - 1 else text


def _without_letter_frame(question: str) -> str:
    """An email's or a ticket's greeting line and everything from its sign-off on go: the signature's extension,
    the sender's name and team are no part of what is asked."""
    if "\n" not in question:
        return question
    return _SIGN_OFF.sub("", _GREETING.sub("", question, count=1))


_ABOUT_ELSE = re.compile(r"\b(?:other|another|separate|fallback|we also|also run)\b", re.I)
_KEEPS = re.compile(r"\b(?:window|deadline|edit|not|instead|assume)\b|-day\b", re.I)


# set aside by the reader: "(decode will run at ~3/4 of peak bw, ignore that here)", "our MFU is ~38% fwiw", "fit
# check before my speed estimate (which I'll derate to 70%)": for later, or for what it is worth, not for this
_SET_ASIDE = re.compile(r"\b(?:ignore (?:that|this|it) (?:here|for now)|fwiw|for what it'?s worth|not needed here|"
                        r"irrelevant here|before (?:my|the|our) (?:speed|throughput|latency|decode)\b|"
                        r"i'?ll derate|we'?ll derate)", re.I)


def tells(piece: str) -> bool:
    return bool(_HISTORY.search(piece) or _SET_ASIDE.search(piece)
                or (_PAPERWORK.search(piece) and not _KEEPS.search(piece)))


# "to compare with that all-reduce: one 4M-token step of …, seconds?": why the reader asks, not a comparison asked
_PREAMBLE = re.compile(r"^\s*(?:just\s+)?(?:to|for)\s+compar(?:e|ison)\s+(?:with|to|against)\s+[^:—?]{1,50}[:—]\s*"
                       r"|^[^?]{1,160}?\bbut first\s*[:,—-]\s*", re.I)  # "sizing the s3 bucket (…), but first: …"
_LABEL = re.compile(r"\b(?:background|context|fyi|for context|some context)\s*:\s*(?![\d~≈])", re.I)


def _without_told_paragraphs(letter: str) -> str:
    """In a letter, a paragraph before the one that asks, asking nothing and telling paperwork, people or history
    ("Ticket INF-8850. We have 24 B300s on order and 10 engineers waiting."), goes whole, figures and all; it
    stays when it holds a model or a part the rest does not name ("We serve Llama 3.1 70B on 4 H100s, on a tight
    budget.\n\nHow much KV for 32 users at 8k?")."""
    paragraphs = [p for p in re.split(r"\n[ \t]*\n", letter) if p.strip()]
    asking = [k for k, p in enumerate(paragraphs) if _ASKS.search(p)]
    if len(paragraphs) < 2 or not asking:
        return letter
    told = [k for k, p in enumerate(paragraphs[:asking[-1]]) if not _ASKS.search(p) and tells(p)]
    kept = [p for k, p in enumerate(paragraphs) if k not in told]
    named = kinds("\n\n".join(kept), names_only=True)
    kept = [p for k, p in enumerate(paragraphs) if k not in told or not kinds(p, names_only=True) <= named]
    return "\n\n".join(kept)


# a prefill rate told beside a decode, memory or KV question: no calculator takes it ("we get about 14,000 tok/s of
# prefill on one H100", "prefill is around 25,000 tok/s"), and its "tok/s" would read as the decode rate asked
_PREFILL_RATE = re.compile(r"(?:about\s+|around\s+|roughly\s+|~\s*)?\d[\d,.]*\s*k?\s*tok(?:en)?s?(?:/s(?:ec)?|\s+per\s+second|"
                           r"\s+a\s+second)\s+(?:of|for)\s+prefill\b"
                           r"|\bprefill\s+(?:runs\s+|is\s+|peaks\s+|tops\s+out\s+|does\s+|goes\s+)?(?:at\s+)?(?:about\s+|around\s+|"
                           r"roughly\s+|~\s*)?\d[\d,.]*\s*k?\s*tok(?:en)?s?(?:/s(?:ec)?|\s+per\s+second|\s+a\s+second)", re.I)


def without_prefill_rate(question: str) -> str:
    """The question without a prefill rate it tells, when it asks something else (a question about prefill keeps it)."""
    if not _PREFILL_RATE.search(question) or re.search(r"\b(?:ttft|time to first token|first token)\b", question, re.I):
        return question
    without = _PREFILL_RATE.sub("", question)
    return question if re.search(r"\bprefill", without, re.I) else without  # (prefill said again: it may be asked)


# why the reader asks, told after the question: "kv bytes per token for llama 3.1 70b? trying to size the kv transfer
# between prefill and decode nodes", "how many bytes is deepseek v3 in fp8? that's what the loader will be broadcasting"
_PURPOSE = re.compile(r"(?<=\?)\s+(?:(?:i'?m|we'?re|just|mostly|really)\s+)*"
                      r"(?:(?:trying|want|wanting|need|needing|planning|looking|hoping|going)\s+to|that'?s\s+what|"
                      r"so\s+(?:i|we)\s+can|(?:it'?s|this\s+is)\s+for)\b[^?]*$", re.I)


# a later estimate the reader will make, told beside the question: its efficiency or its rate is no input here
# ("free vram …? (the speed estimate afterwards assumes 75% bw efficiency)", "before I estimate speed at 3/4 of peak
# bandwidth: does … fit", "part 1 of 2 (part 2 is tok/s at 80% of peak bandwidth): …", "… weights only — the
# 80%-efficiency speed maths comes after", "…? feeding it into a decode estimate that runs at 0.8 of peak")
_LATER = r"(?:speed|decode|throughput|tok/s)\s+(?:estimate|maths?|model|calc\w*)"
_LATER_ESTIMATE = re.compile(
    rf"\s*\((?=[^()]*\b(?:speed|decode|throughput|tok/s|part\s*2)\b)(?=[^()]*\b(?:estimate|maths?|model|afterwards|"
    rf"after|later|comes)\b)[^()]*\)"
    rf"|(?<=[?.;])\s+[^?.;]*\b{_LATER}\b[^?]*$"
    rf"|\s+[—–]\s+[^?—–]*\b{_LATER}\b[^?]*$"
    r"|^\s*before\s+(?:i|we)\s+(?:estimate|work\s+out|compute|calculate|do)\b[^:?]{0,80}:\s*"
    r"|^\s*part\s+1\s+of\s+2\b[^:]{0,100}:\s*"
    # "? the speed side (we get ~75% of hbm bw) is a separate question", "? the 0.8 bandwidth derate comes in a later
    # step": a sentence after the question that sets an efficiency aside for later
    rf"|(?<=[?.;])\s+(?=[^?.;]*\b(?:derat\w*|efficien\w*|speed|decode|bw|bandwidth|mfu)\b)[^?.;]*\b(?:separate\s+question|"
    r"later\s+step|later|afterwards|next\s+step|another\s+question|another\s+time)\b[^?]*$"
    # "total kv? decode reads it at maybe 75% of peak hbm, but just the size please"
    r"|(?<=[?.;])\s+(?:the\s+)?(?:decode|speed|throughput)\b[^?.;]{0,80}?,?\s*but\s+(?=just\s+(?:the\s+)?(?:size|bytes|memory|"
    r"kv|number|total))", re.I)
# how the reader wants a shortfall shown: "(negative means it doesn't fit)", "(negative if it doesn't fit)"
_SIGN_CONVENTION = re.compile(r"\s*\(\s*(?:a\s+)?negative\s+(?:number\s+)?(?:means|if|=|for|when)\b[^()]*\)", re.I)
_STILL_ASKS = re.compile(r"\?|\b(?:how|what|whats|min(?:imum)?|number of|free|left)\b", re.I)


def without_later_estimate(question: str) -> str:
    """The question without an estimate the reader will make after it, or how a shortfall is to be shown (unless
    nothing is left that asks)."""
    rest = _SIGN_CONVENTION.sub("", _LATER_ESTIMATE.sub("", question)).strip()
    return rest if rest != question.strip() and _STILL_ASKS.search(rest) else question


def without_purpose(question: str) -> str:
    """The question without the purpose told after it, when what it asks names its model (the purpose's parts, "to
    see if 2 h100s are enough", and its words, "broadcasting", "decode nodes", are no part of the calculation)."""
    purpose = _PURPOSE.search(question)
    if purpose is None or not any(t.label == "MODEL" for t in tag(question[:purpose.start()]).tags):
        return question
    return question[:purpose.start()]


def without_background(question: str) -> str:
    """The question without the sentences and asides that tell the reader's background (unchanged when nothing
    is left that asks). A told sentence stays when it holds the only name or the only figure of its kind ("Our
    university runs V100 cards bought in 2018. How many tok/s would Llama 3.1 8B decode on one of them?")."""
    text = without_later_estimate(without_purpose(_without_letter_frame(question)))
    if text != question:  # a letter: its paragraphs first
        text = _without_told_paragraphs(text)
    text = _without_dashed_asides(_PREAMBLE.sub("", without_versions(text)))
    label = _LABEL.search(text)
    if label and _ASKS.search(text[:label.start()]):  # "kv per token for mistral 7b? context: …": the rest is told,
        told_after = text[label.end():]  # unless it sets up what the ask lacks ("for context: a100 40gb, bf16, …")
        sets_up = not tells(told_after) and not _setup_kinds(told_after) <= _setup_kinds(text[:label.start()])
        text = text[:label.start()] + (" " + told_after if sets_up else "")
    pieces = [p for part in _ASIDE.split(text) for p in ([part] if _ASIDE.fullmatch(part) else _SENTENCE_END.split(part))]
    told = [p for p in pieces if p.strip() and ((not _ASKS.search(p) and tells(p))
                                                or ("?" not in p and _SET_ASIDE.search(p)))]
    if not told:
        return question if text == question else text
    kept = [p for p in pieces if p not in told]
    said = kinds(" ".join(kept))
    # (history keeps only a name back: "took 9 days on 128 A100s" is a past run's figures, never this one's; so
    # does what is about something else: "the fallback is 4 L40S running the 7B at 4k")
    kept = [p for p in pieces if p not in told
            or not kinds(p, names_only=bool(_HISTORY.search(p) or _HEADCOUNT.search(p) or _ABOUT_ELSE.search(p)
                                             or _SET_ASIDE.search(p))) <= said]
    rest = " ".join(p.strip() for p in kept if p.strip())
    # "xprof put the last run at 52% mfu — how long will this one take?": a past run's MFU is the estimate for this
    # one, unless this one says its own
    if not re.search(r"\bmfu\b", rest, re.I):
        carried = next((m.group(0) for p in told if _HISTORY.search(p) for m in [_MFU_FIGURE.search(p)] if m), None)
        rest += f" ({carried}{_AS_LAST_RUN})" if carried else ""
    return rest if _ASKS.search(rest) or not _ASKS.search(question) else question


_AS_LAST_RUN = ", as the last run"


def carried_from_last_run(question: str) -> list[str]:
    """The note for a past run's MFU carried into this one's estimate by `without_background`."""
    carried = re.search(rf"\(([^()]*){_AS_LAST_RUN}\)", question)
    return [f"“{carried.group(1)}” from the last run taken as this run's MFU"] if carried else []


_MFU_FIGURE = re.compile(r"\b\d+(?:\.\d+)?\s*%\s*mfu\b|\bmfu\s+(?:of\s+|was\s+|at\s+|=\s*|:\s*|is\s+)?~?\d+(?:\.\d+)?\s*%", re.I)


def _setup_kinds(text: str) -> set[tuple[str, str]]:
    """The kinds a calculation's setup can take from a "context:" tail (how long an endpoint has been up, "412 days",
    or a hit rate sets up nothing)."""
    return kinds(text) - {("QUANTITY", "days"), ("QUANTITY", "seconds"), ("QUANTITY", "percent")}


def kinds(text: str, names_only: bool = False) -> set[tuple[str, str]]:
    """The kinds of names and figures a text holds: a model, a GPU, a count of GPUs, a number of tokens…"""
    labels = ("MODEL", "GPU", "UNKNOWN_MODEL", "UNKNOWN_GPU") + (() if names_only else ("QUANTITY", "COUNT"))
    return {(t.label.removeprefix("UNKNOWN_"), t.key if t.label in ("QUANTITY", "COUNT") else "")
            for t in tag(text).tags if t.label in labels}
