"""An amount given relative to another in the same message: "batch 16 … at twice that batch", "4x the nodes".

"llama 3.1 70b kv cache for 8 users at 32k — what is it at double the context?" asks about 65,536 tokens;
read as typed, the router found 32k and nothing else, and computed the base setup with confidence. Each
relative amount here ("double the users", "half the gpus", "4x the buffer", "a quarter of the intensity",
"10% more tokens", "1.5x that") is worked out from the last figure of its kind before it, and that figure is
rewritten as the new one, so the rest of the router reads a plain setup. A relative amount with no figure of
its kind before it ("half its max context") is left as it is.
"""
from __future__ import annotations

import re

from .rewrite import each_match_rewritten
from .tagger import Tag, in_thousands, tag, thousand

_FACTOR_WORDS = {"double": 2.0, "doubled": 2.0, "twice": 2.0, "triple": 3.0, "tripled": 3.0, "thrice": 3.0,
                 "quadruple": 4.0, "half": 0.5, "halve": 0.5, "halved": 0.5}
_FRACTION_WORDS = {"half": 0.5, "third": 1 / 3, "quarter": 0.25, "fifth": 0.2, "eighth": 0.125, "tenth": 0.1}
# a share said in words ("half", "a quarter", "one third", "three quarters", "two thirds"); `share_of` is its value
SHARE_WORDS = r"(?:(?:a|an|one|two|three)\s+)?(?:half|thirds?|quarters?|fifths?|eighths?|tenths?)"


def share_of(words: str) -> float:
    *count, part = words.lower().split()
    return {"two": 2, "three": 3}.get(count[0] if count else "", 1) * _FRACTION_WORDS[part.rstrip("s")]

# the noun a relative amount is of → the kind of figure it scales
_KINDS = {
    "batch": ("users", "user", "seqs", "sequences", "chats", "requests", "streams", "sessions", "batch", "batch size",
              "concurrency"),
    "tokens": ("context", "ctx", "context length", "tokens", "tokens per seq", "tokens per sequence", "seq len",
               "sequence length", "prompt", "prompts", "data"),
    "gpus": ("gpus", "gpu", "cards", "devices", "chips", "accelerators"),
    "nodes": ("nodes", "servers", "boxes", "machines", "hosts"),
    "ranks": ("ranks",),
    "bytes": ("buffer", "buffer size", "message", "message size", "payload"),
    "flop_per_byte": ("intensity", "arithmetic intensity", "ai"),
}
_NOUN = "|".join(sorted((re.escape(n) for nouns in _KINDS.values() for n in nouns), key=len, reverse=True))
_OWNER = r"(?:(?:the|that|this|our|its|their|my|these|those)\s+)?"
_RELATIVE = re.compile(
    rf"\b(?:(?P<word>double|doubled|twice|triple|tripled|thrice|quadruple|half|halve|halved)\s+(?:of\s+)?{_OWNER}"
    rf"(?P<noun1>{_NOUN}|that)\b"
    rf"|(?P<times>\d+(?:\.\d+)?)\s*(?:x|×|times)\s+{_OWNER}(?P<noun2>{_NOUN}|that)\b"
    rf"|(?:an?|one)\s+(?P<part>half|third|quarter|fifth|eighth|tenth)\s+of\s+{_OWNER}(?P<noun3>{_NOUN}|that)\b"
    rf"|(?P<percent>\d+(?:\.\d+)?)\s*%\s*(?P<more>more|fewer|less|extra)\s+(?P<noun4>{_NOUN})\b)", re.I)


# "at half of a 32k window", "a quarter of the 128k context": a share of a figure said right after it
_SHARE_OF_A_FIGURE = re.compile(rf"\b(?P<share>{SHARE_WORDS})\s+of\s+(?:an?|the|its|their|our)\s+"
                                r"(?P<number>\d+(?:\.\d+)?)(?P<k>[kK]?)\s+(?=(?:token\s+)?(?:window|context|ctx|tokens)\b)")


def has_relative_amount(text: str) -> bool:
    """"double the GPU count", "4x the nodes": an amount that needs a figure said before it."""
    return bool(_RELATIVE.search(text))


def with_relative_amounts(question: str) -> tuple[str, list[str]]:
    """The question with each relative amount worked out into the figure it scales, and a note of each."""
    question, notes = each_match_rewritten(_SHARE_OF_A_FIGURE, question, _share_of_a_figure)
    question, more = each_match_rewritten(_RELATIVE, question, _apply)
    return question, notes + more


def _share_of_a_figure(match: re.Match, text: str) -> tuple[str, str] | None:
    number = float(match.group("number"))
    new = (in_thousands(number * thousand(number) * share_of(match.group("share")), " ") if match.group("k")
           else _fmt(number * share_of(match.group("share"))))
    return text[:match.start()] + new + " " + text[match.end():], f"“{match.group(0).strip()}” read as {new}"


def _apply(match: re.Match, text: str) -> tuple[str, str] | None:
    noun = next(match.group(g) for g in ("noun1", "noun2", "noun3", "noun4") if match.group(g)).lower()
    head = text[:match.start()]
    base = _last_of_kind(head, noun)
    if base is None:
        return None
    at, figure = base
    number = re.search(r"\d[\d,]*(?:\.\d+)?", figure)
    if number is None:
        return None
    value = float(number.group(0).replace(",", ""))
    rest = figure[number.end():]
    if re.match(r"k\b", rest, re.I):  # "100k tokens" 10% more is 110,000 tokens, not a new "110k" read anew
        scaled = in_thousands(value * thousand(value) * _factor(match), rest[1:])
    else:
        scaled = _fmt(value * _factor(match)) + rest
    new = figure[:number.start()] + scaled
    # the figure becomes the new one, and the relative words go: the rest reads as a plain setup
    return (head[:at] + new + head[at + len(figure):] + " " + text[match.end():],
            f"“{match.group(0)}” of “{figure}” read as {new}")


def _factor(match: re.Match) -> float:
    if match.group("word"):
        return _FACTOR_WORDS[match.group("word").lower()]
    if match.group("times"):
        return float(match.group("times"))
    if match.group("part"):
        return _FRACTION_WORDS[match.group("part").lower()]
    share = float(match.group("percent")) / 100
    return 1 - share if match.group("more").lower() in ("fewer", "less") else 1 + share


def _last_of_kind(head: str, noun: str) -> tuple[int, str] | None:
    """Where the last figure before the relative amount that it scales stands, and its text ("that" is the last
    figure of any kind)."""
    kind = next((k for k, nouns in _KINDS.items() if noun in nouns), None)
    figures = [t for t in tag(head).tags if t.label in ("QUANTITY", "COUNT", "NUMBER")]
    if kind in ("batch", "gpus"):  # "batch 16", "on 4 h200s": a bare number after its label, before its part
        pattern = r"\bbatch(?: size)?\s*[=:]?\s*(\d+)\b" if kind == "batch" else r"\b(\d+)\s*(?:x\s*)?(?=[a-z]+\d)"
        bare = list(re.finditer(pattern, head, re.I))
        counted = _at(head, [t for t in figures if t.label == "COUNT" and t.key == kind])
        if bare and (counted is None or bare[-1].start(1) > counted[0]):
            return bare[-1].start(1), bare[-1].group(1)
        return counted
    if kind in ("nodes", "ranks"):
        return _at(head, [t for t in figures if t.label == "COUNT" and t.key == kind])
    if kind is None:  # "1.5x that": the last amount said with its unit or noun, else the last number
        return _at(head, [t for t in figures if t.label != "NUMBER"]) or _at(head, figures)
    return _at(head, [t for t in figures if t.label == "QUANTITY"
                      and (t.key.startswith("tokens") if kind == "tokens" else t.key == kind)])


def _at(head: str, tags: list[Tag]) -> tuple[int, str] | None:
    """The last of the tags, by where its text stands in `head`."""
    placed = [(head.rfind(t.text), t.text) for t in tags if head.rfind(t.text) >= 0]
    return max(placed) if placed else None


def _fmt(value: float) -> str:
    return f"{value:.0f}" if abs(value - round(value)) < 1e-9 else f"{value:.4g}"
