"""An efficiency said as a loss, a share of a spec, or a utilisation → the figure the calculation takes.

"derate the memory bandwidth by 30%" (0.7, not 0.3), "minus 20% for overhead on the HBM bandwidth" (0.8), "derate
the bandwidth by a third" (2/3), "losing a quarter to overhead" (0.75), "roughly 4/5 of the datasheet figure" (0.8),
"we hit 60% of the bandwidth roofline" (0.6), "HBM utilisation about 55%" (0.55), "MFU is half of peak" (0.5). Read
as typed, a loss was taken for what is left ("by 30%" became an efficiency of 0.3), and a share of "the datasheet
figure" or a "bandwidth utilisation" was no efficiency at all (or an MFU). Each is said as the efficiency kept:
the decode calculator's bandwidth efficiency ("at 0.7 of peak bandwidth"), a training run's MFU when the reader
says it is one ("treat that as the MFU"), and for a collective, whose calculator takes no efficiency, the
bandwidth figure it derates ("200 Gb/s per rank derated by 25%" is 150 Gb/s per rank). The Assumed line says how
each was read.
"""
from __future__ import annotations

import re

from calculators.registry import find_link, gpus, links

from .rewrite import each_match_rewritten
from .tagger import tag

_WORD_SHARES = {"a third": 1 / 3, "one third": 1 / 3, "a quarter": 0.25, "one quarter": 0.25, "a fifth": 0.2,
                "one fifth": 0.2, "half": 0.5, "a half": 0.5, "one half": 0.5, "two thirds": 2 / 3,
                "three quarters": 0.75, "a tenth": 0.1, "two fifths": 0.4, "three fifths": 0.6, "four fifths": 0.8,
                **{f"{word} tenths": n / 10 for n, word in enumerate(
                    ("", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")) if n > 1}}
_WORDS = "|".join(w.replace(" ", "[ -]") for w in sorted(_WORD_SHARES, key=len, reverse=True))
_SHARE = (r"(?:(?P<pct>\d+(?:\.\d+)?)\s*(?:%|percent\b|per\s+cent\b|pct\b)|(?P<dec>0?\.\d+)|"
          rf"(?P<num>\d+)\s*/\s*(?P<den>\d+)|(?P<word>{_WORDS}))")
_ROUGHLY = r"(?:(?:about|abt|around|roughly|approx(?:imately)?\.?|~|≈)\s*)?"
_WHAT = r"(?:(?:the|its|our|their)\s+)?(?:[\w/.-]+\s+){0,3}?"  # "the memory bandwidth", "the HBM", "it", "the 525 GB/s"

# what is lost: the efficiency is what is left
_LOSS = [re.compile(pattern, re.I) for pattern in (
    rf"\bderat(?:e|ed|ing)\s+{_WHAT}by\s+{_ROUGHLY}{_SHARE}",
    rf"\bminus\s+{_ROUGHLY}{_SHARE}(?:\s+for\s+(?:[\w-]+\s+){{0,2}}?overhead(?:\s+on\s+{_WHAT}(?:hbm\s+bandwidth|memory\s+bandwidth|bandwidth|bw|hbm))?)?",
    rf"\b(?:knock(?:ing)?|take|taking|shave|shaving)\s+{_ROUGHLY}{_SHARE}\s+off(?:\s+{_WHAT}(?:bandwidth|bw|peak))?",
    # "take the bandwidth down 20% for real kernels", "knock the hbm figure down by a fifth"
    rf"\b(?:take|taking|bring|bringing|knock|knocking|turn|turning)\s+(?:the\s+|its\s+)?(?:[\w-]+\s+){{0,2}}?"
    rf"(?:bandwidth|bw|hbm|peak|figure|number)\s+down\s+(?:by\s+)?{_ROUGHLY}{_SHARE}",
    rf"\blos(?:e|ing)\s+{_ROUGHLY}{_SHARE}(?:\s+of\s+(?:the\s+)?(?:peak|bandwidth|bw))?\s+to\s+(?:[\w-]+\s+){{0,2}}?"
    r"(?:overhead|comms|communication|stalls|contention|inefficiency|everything|various|misc)\b",
    # "if a fifth of the memory bandwidth goes to overhead"
    rf"(?<![\w.]){_SHARE}\s+of\s+(?:the\s+)?(?:[\w-]+\s+)?(?:bandwidth|bw|peak|hbm)\s+(?:goes|is\s+lost|gets\s+lost|"
    r"is\s+eaten|disappears)(?:\s+to\s+(?:[\w-]+\s+){0,2}?(?:overhead|comms|stalls|contention))?",
    # "overheads eat a quarter of the memory bandwidth", "stalls cost us 30% of peak"
    rf"\b(?:overheads?|stalls?|comms|communication|contention|the\s+runtime)\s+(?:eat|eats|take|takes|cost|costs|consume|"
    rf"consumes|burn|burns|swallow|swallows)\s+(?:up\s+|us\s+)?{_ROUGHLY}{_SHARE}(?:\s+of\s+{_WHAT}(?:bandwidth|bw|hbm|peak|flops|compute))?",
    rf"(?<![\w.]){_SHARE}\s+of\s+(?:the\s+)?(?:[\w-]+\s+)?(?:bandwidth|bw|peak|hbm|flops|compute)\s+(?:is\s+)?lost\b"
    r"(?:\s+to\s+(?:[\w-]+\s+){0,2}?(?:overhead|comms|communication|stalls|contention|bubbles))?",
    # "we usually leave about 30% of the memory bandwidth on the table"
    rf"\bleav(?:e|es|ing)\s+{_ROUGHLY}{_SHARE}\s+(?:of\s+{_WHAT}(?:bandwidth|bw|hbm|peak)\s+)?on\s+the\s+table",
)]
# what is kept: the efficiency itself
_KEPT = [re.compile(pattern, re.I) for pattern in (
    rf"\bderat(?:e|ed|ing)\s+{_WHAT}to\s+{_ROUGHLY}{_SHARE}(?:\s+of\s+(?:the\s+)?(?:spec|peak|rated|datasheet))?",
    # "4/5 of the datasheet figure", "60% of the rated ICI bandwidth", "30% of spec flops", "60% of roofline" ("70% of
    # its bandwidth" and "of peak bandwidth" are read where efficiencies are)
    rf"(?<![\w.]){_SHARE}\s+of\s+(?:the\s+|its\s+)?(?:(?:rated|datasheet|spec(?:ified|'?d)?|nominal|theoretical|nameplate)\b"
    r"(?:\s+(?:[\w-]+\s+)?(?:bandwidth|bw|figure|number|value|flops|flop/s|compute|peak))?"
    r"|(?:[\w-]+\s+)?(?:bandwidth\s+)?roofline"
    # "seventy per cent of the HBM figure", "36% of the bf16 peak is actually realised"
    r"|(?:[\w-]+\s+)?(?:figure|number)\b|(?:\d+(?:\.\d+)?\s+)?(?:bf16|fp8|fp16|dense|compute|flops?)\s+peak\b)"
    r"(?:\s+is\s+(?:actually\s+)?(?:realised|realized|achieved|reached|hit))?",
    rf"\b(?:bandwidth|bw|hbm|memory[\s-]bandwidth|link)\s+utili[sz]ation\s+(?:of\s+|is\s+|at\s+|=\s*|:\s*)?{_ROUGHLY}{_SHARE}",
    r"\bmfu\s+(?:is|of|at)\s+(?:one\s+|a\s+)?(?P<half>half)(?:\s+(?:of\s+)?(?:the\s+)?peak)?",
    # "our MBU (model bandwidth utilization) tops out around 65%", "achieved/peak bandwidth ≈ 0.6"
    rf"\b(?:mbu|model\s+bandwidth\s+utili[sz]ation)\b(?:\s*\([^()]{{0,40}}\))?(?:\s+[\w-]+){{0,3}}?\s+{_ROUGHLY}{_SHARE}",
    rf"\bachieved\s*/\s*peak(?:\s+(?:bandwidth|bw))?\s*(?:≈|~|=|:|is|of)?\s*{_ROUGHLY}{_SHARE}",
    # "25 GB/s per rank but assume only 88% of that is usable"
    rf"(?<![\w.]){_SHARE}\s+of\s+(?:that|it|this|those)\s+is\s+(?:usable|achievable|realistic|available|achieved)",
    # "call the hbm 85 per cent efficient", "the HBM only runs at 0.6x nameplate"
    rf"(?<![\w.]){_SHARE}\s+efficient\b",
    rf"(?<![\w.]){_SHARE}\s*[x×]\s+(?:of\s+)?(?:the\s+|its\s+)?(?:nameplate|spec|peak|rated|datasheet|theoretical|nominal)\b",
    # "bandwidth derating factor of 0.7", "effective throughput = peak × 0.41"
    rf"\bderating\s+factor\s+(?:of\s+|=\s*|:\s*|is\s+)?{_ROUGHLY}{_SHARE}",
    # "with a 0.8 derating on memory bandwidth"
    rf"(?<![\w.]){_SHARE}\s+derat(?:ing|e)\s+(?:on|of|for)\s+{_WHAT}(?:bandwidth|bw|hbm)\b",
    rf"\bpeak\s*[x×*]\s*{_SHARE}",
    # "rccl realistically gets ~70% of the 448 GB/s per direction", "call it 75% of the 640 GB/s": a share of the
    # bandwidth figure that follows (a collective's figure is derated; elsewhere the share is the efficiency)
    # ("0.75 of the 4.8TB/s" is read where efficiencies are: a decimal share is left to it)
    rf"(?<![\w.]){_ROUGHLY}(?!0?\.\d){_SHARE}\s+of\s+(?:the\s+|its\s+|their\s+)?(?=\d+(?:\.\d+)?\s*(?:[GT]B/s|[GT]b/s|[GT]bps)\b)",
    # "50 GB/s per rank per direction of which 3/4 is usable"
    rf"\bof\s+which\s+{_ROUGHLY}{_SHARE}\s+(?:is|are)\s+(?:usable|achievable|realistic|available|achieved|effective)",
)]
_AS_MFU = re.compile(r"\b(?:treat|use|take|count)\s+(?:that|it|this)\s+as\s+(?:the\s+|our\s+)?mfu\b", re.I)
_COLLECTIVE = re.compile(r"\b(?:all[\s_-]?reduc|all[\s_-]?gather|reduce[\s_-]?scatter|broadcast|all[\s_-]?to[\s_-]?all|"
                         r"send[\s/]*recv|p2p|point[\s-]to[\s-]point|gather|scatter|nccl)\w*\b", re.I)  # ("all-reducing")
# a bandwidth figure a collective's derating applies to: "200 Gb/s per rank", "(200 GB/s each way)"
_BANDWIDTH = re.compile(r"(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>[GT]b/s|[GT]B/s|[GT]bps|[GT]Bps)\b")


# a measured bandwidth beside the peak it is a share of: "2.68 TB/s out of the h100's 3.35 TB/s", "peak HBM is 4.0
# TB/s and our kernels hit 19.2 Tbit/s of it"
_RATE = r"\d+(?:\.\d+)?\s*(?:[GT]i?B/s|[GT]b/s|[GT]bit/s|[GT]bps)"
_FLOPS = r"\d+(?:\.\d+)?\s*[TPE]FLOP(?:/s|S)\b"
_MEASURED = [re.compile(pattern, re.I) for pattern in (
    rf"(?P<got>{_RATE})\s+(?:out\s+)?of\s+(?P<whose>(?:the\s+|its\s+)?(?:[\w'-]+\s+){{0,4}}?)(?P<peak>{_RATE})",
    rf"(?P<peak>{_RATE})(?P<between>[^.?!;]{{0,60}}?)\b(?:hit|hits|get|gets|see|sees|reach|reaches|achieve|achieves|"
    rf"measure|measures|sustain|sustains)\s+(?P<got>{_RATE})\s+of\s+it\b",
    # "the copy benchmark tops out at 6.4 TB/s against the 8 TB/s spec"
    rf"(?P<got>{_RATE})\s+(?:against|versus|vs\.?|compared\s+(?:to|with))\s+(?P<whose>(?:the\s+|its\s+)?(?:[\w'-]+\s+){{0,3}}?)"
    rf"(?P<peak>{_RATE})(?:\s+(?:spec|peak|rated|nameplate|datasheet)(?:\s+figure)?)?",
    # "sustains 240 of its 300 GB/s", "we realise 4.1 of the 4.8 TB/s": the unit said once
    rf"(?<![\w.])(?P<got>\d+(?:\.\d+)?)\s+(?:out\s+)?of\s+(?P<whose>(?:the|its)\s+(?:[\w'-]+\s+){{0,2}}?)(?P<peak>{_RATE})",
    # "each gpu realises 900 TFLOP/s of its 2.25 PFLOP/s dense peak": an MFU
    rf"(?P<got>{_FLOPS})\s+(?:out\s+)?of\s+(?P<whose>(?:the\s+|its\s+)?(?:[\w'-]+\s+){{0,3}}?)(?P<peak>{_FLOPS})"
    r"(?:\s+(?:dense\s+|bf16\s+|fp8\s+)?peak)?",
    # "the 400G nics move about 40 GB/s each in practice": what a link really gives, beside its rated speed
    rf"(?P<peak>{_RATE}|\d+\s?G(?=\s))(?P<between>[^.?!;]{{0,40}}?)\s*\b(?:move|moves|do|does|give|gives|get|gets|"
    rf"deliver|delivers|push|pushes|manage|manages|sit\s+at|sits\s+at|run\s+at|runs\s+at)\s+{_ROUGHLY}(?P<got>{_RATE})"
    r"(?:\s+each)?\s+(?:in\s+practice|realistically|for\s+real)",
    # "the card does ~900 GB/s, not the 1008 nvidia lists", "~380 TFLOP/s per h100 in bf16 (vs 989 peak)"
    rf"(?P<got>{_RATE}|{_FLOPS})(?P<between>(?:\s+per\s+[\w-]+)?(?:\s+in\s+\w+)?),?\s+\(?(?:and\s+)?(?:not|vs\.?|versus|against)\s+"
    rf"(?P<whose>(?:the\s+|its\s+)?)(?P<peak>{_RATE}|{_FLOPS})(?:\s+(?:dense\s+|bf16\s+|fp8\s+)?peak)?\)?",
    # "(intel quotes 3.7 TB/s, we mesure closer to 3.0)": what is measured, said after the rated figure
    rf"(?P<peak>{_RATE})(?P<between>[^.?!;]{{0,40}}?)\s*\b(?:we\s+|i\s+)?(?:measure|mesure|measured|see|get|hit)\s+"
    rf"(?:closer\s+to|more\s+like|about|around|roughly|~)\s*(?P<got>{_RATE}|\d+(?:\.\d+)?(?![\d.]|\s*[%A-Za-z]))",
    # "hdr 200 Gb/s per gpu but only 160 Gb/s effective"
    rf"(?P<peak>{_RATE})(?P<between>[^.?!;]{{0,40}}?)\s*\bbut\s+only\s+(?P<got>{_RATE})"
    r"(?:\s+(?:effective|usable|in\s+practice|achieved|real|achievable))?",
)]


def _rate(rate: str) -> float | None:
    """The rate as the tagger reads it, in bytes or FLOP per second ("200 Gb/s" and "19.2 Tbit/s" are bits; lower-case
    "gb/s" is bytes, as everywhere else in the question; "900 TFLOP/s" is 9e14)."""
    return next((t.value for t in tag(rate).tags if t.label == "QUANTITY" and t.value), None)


def _measured_share(m: re.Match, text: str) -> tuple[str, str] | None:
    """"2.68 TB/s out of the h100's 3.35 TB/s" → "at 0.8 of peak bandwidth" (not for a collective: its bandwidth
    is the one it runs at)."""
    between, whose = m.groupdict().get("between") or "", m.groupdict().get("whose") or ""
    if _COLLECTIVE.search(text):  # ("200 Gb/s per gpu but only 160 Gb/s effective": the collective runs at 160;
        # "about 500 GB/s per direction in practice, not the 640 in the docs": at 500)
        said_not = m.group(0).startswith(m.group("got")) and re.search(r"\bnot\b", m.group(0), re.I)
        if not (m.group(0).startswith(m.group("peak")) or said_not) or not re.search(r"[a-z]", m.group("got"), re.I):
            return None
        return (text[:m.start()] + m.group("got") + between + text[m.end():],
                f"“{m.group(0)}”: the collective runs at {m.group('got')}")
    if re.fullmatch(_FLOPS, m.group("peak"), re.I):
        got, peak = _rate(m.group("got")), _rate(m.group("peak"))
        if not (got and peak and 0 < got <= peak):
            return None
        return (text[:m.start()] + f"mfu {got / peak:.4g}" + between + text[m.end():],
                f"“{m.group('got')}” of “{m.group('peak')}” read as an MFU of {got / peak:.1%}".replace(".0%", "%"))
    unitless = not re.search(r"[a-z]", m.group("got"), re.I)
    if unitless and float(m.group("got")) <= 1:
        return None  # ("kernels at 0.75 of the 4.8TB/s": the share itself, read where efficiencies are)
    got_said = m.group("got") + (" " + _unit(m.group("peak")) if unitless else "")
    got, peak = _rate(got_said), _rate(m.group("peak"))
    kept = got / peak if got and peak else 0
    if not 0 < kept <= 1:
        return None
    whose = re.sub(r"(?:'s|’s|\bits|\bthe)\s*$|^\s*(?:its|the)\s+", "", whose.strip()).strip()  # "the h100 sxm's"
    said = f"{between} at {kept:.4g} of peak bandwidth" + (f" on the {whose}" if whose else "")
    return (re.sub(r"\bat\s+at\b", "at", text[:m.start()] + said + text[m.end():]),  # ("tops out at 6.4 TB/s against …")
            f"“{m.group('got')}” of “{m.group('peak')}” read as {kept:.1%} of the peak bandwidth".replace(".0%", "%"))


def _unit(rate: str) -> str:
    return re.sub(r"^[\d.\s]+", "", rate)


# "seven tenths of peak", "three quarters of the nameplate": the share as the figure the tagger reads
_WORD_OF = re.compile(rf"(?<![\w-])(?P<word>{_WORDS})\s+(?=of\s+(?:the\s+|its\s+)?"
                      r"(?:peak|spec|nameplate|rated|datasheet|theoretical)\b)", re.I)


def _word_share(m: re.Match) -> str:
    if re.search(r"\bmfu\s+(?:is|of|at)\s+(?:one\s+|a\s+)?$", m.string[:m.start()], re.I):
        return m.group(0)  # ("MFU is half of peak": the MFU's own reading below)
    return f"{_WORD_SHARES[m.group('word').lower().replace('-', ' ')]:.4g} "


# "1344 GB/s out of the 1792 on that card", "~600 TFLOP/s per gpu out of the 1307 peak": the unit said once, with the
# figure measured; the peak gets it too
_UNIT_ONCE = re.compile(r"(?P<got>\d+(?:\.\d+)?)\s*(?P<unit>[GT]i?B/s|[GT]b/s|[TPE]FLOP(?:/s|S))(?P<per>\s+per\s+(?:gpu|card|chip|device))?"
                        r"\s+(?:out\s+of\s+(?P<the>(?:the|its)\s+)?|of\s+(?P<the2>(?:the|its)\s+))(?P<peak>\d+(?:\.\d+)?)(?![\d.,]|\s*(?:%|[A-Za-z]+/s|[GT]B\b))", re.I)


# "~900 GB/s, not the 1008 nvidia lists", "380 TFLOP/s per h100 in bf16 (vs 989 peak)": the peak takes the figure's unit
_UNIT_AFTER_NOT = re.compile(r"(?P<got>\d+(?:\.\d+)?\s*(?P<unit>[GT]i?B/s|[TPE]FLOP(?:/s|S)))(?P<mid>(?:\s+per\s+[\w-]+)?"
                             r"(?:\s+in\s+\w+)?,?\s+\(?(?:and\s+)?(?:not|vs\.?|versus|against)\s+(?:the\s+|its\s+)?)"
                             r"(?P<peak>\d+(?:\.\d+)?)(?![\d.,]|\s*(?:%|[A-Za-z]+/s|[GT]B\b|[TPE]FLOP))", re.I)


def as_efficiency(question: str) -> tuple[str, list[str]]:
    """The question with each efficiency said as a loss, a share or a utilisation said as the efficiency kept."""
    if not re.search(r"derat|minus|knock|\boff\b|los[ei]|\bof\b|utili[sz]ation|mfu|mbu|achieved|efficient|table|against|"
                     r"\d\s*[x×]\s|per\s+cent|peak\s*[x×*]|\beats?\b|\bcosts?\b|\bbut\s+only\b|\bdown\b|\bnot\b|\bvs\b|"
                     r"\bversus\b|closer|more\s+like", question, re.I):
        return question, []
    question = re.sub(r"(\d)\s*per\s+cent\b", r"\1%", question, flags=re.I)  # "30 per cent mfu"
    question = _UNIT_ONCE.sub(lambda m: f"{m.group('got')} {m.group('unit')} out of {m.group('the') or m.group('the2') or ''}"
                                        f"{m.group('peak')} {m.group('unit')}{m.group('per') or ''}", question)
    question = _UNIT_AFTER_NOT.sub(lambda m: f"{m['got']}{m['mid']}{m['peak']} {m['unit']}", question)
    question = _WORD_OF.sub(_word_share, question)
    notes: list[str] = []
    for pattern in _MEASURED:
        question, said = each_match_rewritten(pattern, question, _measured_share)
        notes += said
    for pattern in _LOSS:
        question, said = each_match_rewritten(pattern, question, lambda m, text: _said(m, text, 1 - _share(m)))
        notes += said
    for pattern in _KEPT:
        question, said = each_match_rewritten(pattern, question, lambda m, text: _said(m, text, _share(m)))
        notes += said
    return question, notes


def _share(m: re.Match) -> float:
    if "half" in m.groupdict() and m.group("half"):
        return 0.5
    if m.group("pct"):
        return float(m.group("pct")) / 100
    if m.group("dec"):
        return float(m.group("dec"))
    if m.group("num"):
        return float(m.group("num")) / float(m.group("den"))
    return _WORD_SHARES[m.group("word").lower().replace("-", " ")]


def _said(m: re.Match, text: str, kept: float) -> tuple[str, str] | None:
    if not 0 < kept <= 1:
        return None
    typed, before, after = m.group(0).strip(), text[:m.start()], text[m.end():]
    if re.search(r"\bof(?:\s+(?:the|its|their))?$", typed):  # ("70% of the 448 GB/s": the figure it is a share of)
        typed += " " + (_BANDWIDTH.match(after) or m).group(0)
    if re.search(r"\bof (?:the )?peak (?:bandwidth|bw)$", typed, re.I) and not typed.lower().startswith("derat"):
        return None  # "70% of peak bandwidth", "0.7 of peak bandwidth": already said as the calculator takes it
    as_mfu = _AS_MFU.search(after[:60])
    if as_mfu or _of_compute(typed, text):  # "we hit 60% of roofline on the matmuls, treat that as the MFU"
        if as_mfu:
            after = after[:as_mfu.start()] + after[as_mfu.end():]
        return before + f"mfu {kept:.4g}" + after, f"“{typed}” read as an MFU of {kept:.0%}"
    if _COLLECTIVE.search(text):
        figure = _nearest_bandwidth(text, m)
        if figure is None:
            return _link_derated(text, m, typed, kept)
        scaled = f"{float(figure.group('n')) * kept:.6g} {figure.group('unit')}"
        if figure.start() < m.start():  # ("…200 GB/s each way), at 60% of the rated bandwidth": the "at" goes too)
            new = text[:figure.start()] + scaled + re.sub(r"\s*\bat\s*$", "", text[figure.end():m.start()]) + after
        else:
            new = before + text[m.end():figure.start()] + scaled + text[figure.end():]
        return new, f"“{typed}” applied to the bandwidth: {figure.group(0)} read as {scaled}"
    share = f"{kept:.1%}".replace(".0%", "%")
    at = "" if re.search(r"\b(?:at|to|with)\s*$|@\s*$", before, re.I) else "at "
    return before + f"{at}{kept:.4g} of peak bandwidth" + after, f"“{typed}” read as {share} of the peak bandwidth"


_COMPUTE = re.compile(r"\b(?:mfu|flops?|flop/s|tflops|compute|matmuls?)\b", re.I)
_MEMORY = re.compile(r"\b(?:bandwidth|bw|hbm|memory|ici|nvlink|link)\b", re.I)
_TRAINING = re.compile(r"\b(?:train(?:ing)?|pre-?train(?:ing)?|fine-?tun(?:e|ing)|gpu[\s-]hours?|mfu)\b"
                       r"|\d+(?:\.\d+)?\s*[TB]\s+tokens\b", re.I)


def _of_compute(typed: str, text: str) -> bool:
    """The share is of the compute peak (an MFU): it says so ("30% of spec flops", "derating the fp8 peak by 65%" in
    a training run), not of a bandwidth."""
    return bool(_COMPUTE.search(typed) or (_TRAINING.search(text) and not _MEMORY.search(typed)))


def _nearest_bandwidth(text: str, m: re.Match) -> re.Match | None:
    """The bandwidth figure closest to the derating, in the same sentence."""
    figures = [f for f in _BANDWIDTH.finditer(text) if abs(f.start() - m.start()) < 120]
    return min(figures, key=lambda f: abs(f.start() - m.start()), default=None)


_ACROSS_NODES = re.compile(r"\b(?:nodes|servers|hosts|boxes|racks|inter-?node|nics?|infiniband|ib)\b", re.I)
_ONE_NODE = re.compile(r"\b(?:in\s+)?(?:one|a\s+single|1|the\s+same)\s+(?:box|node|server|host)\b", re.I)


_SCALE_UP = ("intra-node", "intra-pod")  # (a TPU slice's ICI joins its chips as NVLink joins a node's GPUs)


def _link_derated(text: str, m: re.Match, typed: str, kept: float) -> tuple[str, str] | None:
    """"links are derated by a fifth on our mi300x nodes", "the scale-up roce only sustains about 70% of its rated
    bandwidth": no figure said, so the scale-up link's own (the one named, or the named part's) is derated, inside
    one node only (across nodes, which link is meant is not said)."""
    tags = tag(text).tags
    if _ACROSS_NODES.search(text) and not _ONE_NODE.search(text):
        return None
    # (inside one node the collective runs on the scale-up link: "roce" beside a Gaudi 3 is its on-chip one)
    link = next((links().entries[t.key] for t in tags if t.label == "LINK"
                 and links().entries[t.key].scope in _SCALE_UP), None)
    if link is None:
        part = next((gpus().entries[t.key] for t in tags if t.label == "GPU"), None)
        link = find_link(part.link) if part is not None and part.link else None
    if link is None or link.scope not in _SCALE_UP:
        return None
    scaled = f"{link.bandwidth * kept / 1e9:.6g} GB/s"
    before, after = text[:m.start()], text[m.end():]
    return (before + f"{scaled} per rank" + after,
            f"“{typed}” applied to the {link.name}'s {link.bandwidth / 1e9:g} GB/s per direction: {scaled} per rank")
