"""Short names (and number words) typed with one slip → the name, before anything reads them.

"itn8", "fo8", "qwn2.5 7b", "rtz 5090", "h200d", "hmb", "pcei", "guadi3", "acsend 910b", "mistrall", "qwenn": a
precision, a family, a part or a link with two letters swapped, one letter wrong, missing or doubled. Read as typed,
"itn8" was no precision (so bf16 was assumed), "qwn2.5 7b" a bare 7B model, "acsend 910b" an unknown model. The
tagger's own mending takes only whole words of five letters or more; these are shorter, or carry their digits.
A token is mended to the one domain name within one slip of its letters, with its digits exactly as typed (a
figure is never mended), when it is no English word and no name already; a plural "s" and a part's own letters
("mi300a", "h100x") are never slips.
"""
from __future__ import annotations

import re
from functools import lru_cache

from rapidfuzz.distance import OSA

from ..spelling import english_words

# names readers type, in the shapes the slips come in: letters, then digits, then letters
_NAMES = (
    "fp32", "bf16", "fp16", "fp8", "int8", "int4", "mxfp4", "nvfp4",
    "qwen", "llama", "mistral", "mixtral", "gemma", "deepseek",
    "rtx", "pcie", "hbm", "nvlink", "gaudi", "gaudi3", "ascend", "trillium", "hccs", "trainium", "trainium2",
    "infiniband", "h100", "h200", "b200", "b300", "a100", "mi300x", "mi325x", "mi355x", "mi250x",
    "hopper", "blackwell", "geforce", "instinct",  # architectures and brands, said for a part ("hoppper", "blackwel")
)
_WORDS_AFTER_A_FIGURE = ("bit",)  # "4bti": the figure typed right, its word slipped
# short question words, mended only when two of their letters are swapped ("lfet", "cadr", "fsat")
_SWAPPED_WORDS = ("the", "left", "card", "cards", "fits", "free", "room", "long", "fast", "size", "much", "many", "time",
                  "peak", "node", "nodes", "ring", "tree", "days", "hours", "users", "batch")
# number words of five letters or more, mended when one slip away ("singel", "fourty", "sixten", "thousnad")
_NUMBER_WORDS = ("single", "double", "three", "seven", "eight", "eleven", "twelve", "thirteen", "fourteen", "fifteen",
                 "sixteen", "seventeen", "eighteen", "nineteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy",
                 "eighty", "ninety", "hundred", "thousand", "million", "billion", "trillion")
_SHAPE = re.compile(r"^([a-z]*)(\d+(?:\.\d+)?)?([a-z]*)$")
_TOKEN = re.compile(r"(?<![\w.])[A-Za-z]+(?:\d+(?:\.\d+)?[A-Za-z]*)?(?![\w])|(?<![\w.])\d+[A-Za-z]{2,}(?![\w])")
_NEVER_SLIPS = set("sxaeib")  # a letter after a part's number is its own ("h100s", "mi300a", "h100x2")


def mended(text: str) -> str:
    """The text with each slipped name typed right."""
    return _TOKEN.sub(lambda m: _mend(m.group(0)), _ALL_TO_ALL.sub("all-to-all", text))


_ALL_TO_ALL = re.compile(r"\bal+[- ]?to[- ]?al+\b(?<!all-to-all)", re.I)


@lru_cache(maxsize=4096)
def _mend(token: str) -> str:
    word = token.lower()
    if word in _NAMES or len(word) < 3 or word in _known() or (word.isalpha() and word in english_words()):
        return token
    typed = _SHAPE.match(word)
    if typed is None or typed.group(1) in _known():
        return token  # "bs16", "tp8", "ctx8k": a setting's name and its figure
    if word.isalpha() and len(word) >= 5:
        numbers = [w for w in _NUMBER_WORDS if OSA.distance(w, word) == 1 and (w[0] == word[0] or sorted(w) == sorted(word))]
        if len(numbers) == 1:
            return numbers[0]
    if word.isalpha() and len(word) <= 5:
        swapped = [w for w in _SWAPPED_WORDS if sorted(w) == sorted(word) and OSA.distance(w, word) == 1]
        if len(swapped) == 1:
            return swapped[0]
    found = [name for name in _NAMES if _one_slip(typed, name) and _mine(typed, name)]
    if len(found) == 1:
        return found[0]
    if typed.group(1) and typed.group(2) and len(typed.group(1)) >= 3:  # "qwn2.5": the family, then its version
        found = [name for name in _NAMES if name.isalpha() and _one_slip(_SHAPE.match(typed.group(1)), name)
                 and _mine(_SHAPE.match(typed.group(1)), name)]
        if len(found) == 1:
            return found[0] + word[len(typed.group(1)):]
    if not typed.group(1) and typed.group(2) and len(typed.group(3)) >= 3:  # "4bti": a figure, then its word
        if typed.group(3) in _known() or typed.group(3) in english_words():
            return token  # "8bin" is "8b in", glued
        found = [name for name in _WORDS_AFTER_A_FIGURE if _one_slip(_SHAPE.match(typed.group(3)), name)]
        return typed.group(2) + found[0] if len(found) == 1 else token
    return token


# long names the tagger does not mend itself (its own mending says what it read: "“mixtrel 8x7b” read as Mixtral 8x7B")
_NOT_THE_TAGGERS = {"ascend", "trillium", "gaudi3", "nvlink", "infiniband", "hopper", "blackwell", "geforce", "instinct"}


def _mine(typed: re.Match, name: str) -> bool:
    """Slips this module mends: short names, a doubled letter ("mistrall"), or names the tagger's mending misses."""
    letters = typed.group(1) + typed.group(3)
    return len(letters) < 5 or bool(re.search(r"(\w)\1", letters)) and not re.search(r"(\w)\1", name) \
        or name in _NOT_THE_TAGGERS


def _one_slip(typed: re.Match, name: str) -> bool:
    """The typed token is the name with one slip in its letters, and its digits as the name has them."""
    parts = _SHAPE.match(name)
    if parts is None or (typed.group(2) or "") != (parts.group(2) or ""):
        return False
    letters, name_letters = typed.group(1) + "|" + typed.group(3), parts.group(1) + "|" + parts.group(3)
    if (not parts.group(2) and len(name_letters) < 3) or OSA.distance(letters, name_letters) != 1:
        return False
    part = len(parts.group(1)) < 3 and len(parts.group(2) or "") >= 3  # "h100", "mi300x": a part, not a precision
    if typed.group(2) and parts.group(2) and (typed.group(3) != parts.group(3) or part) \
            and (parts.group(3) or typed.group(1) != parts.group(1)):
        return False  # a part's letters name it: "mi300a" is no slipped "mi300x", "gh200" no "gb200", "b100" no "h100"
    if len(letters) > len(name_letters):  # an extra letter: doubled ("mistrall", "qwenn") or after the number ("h200d")
        after_number = typed.group(1) == parts.group(1) and not parts.group(3) and typed.group(3) not in _NEVER_SLIPS
        doubled = any(letters[k] == letters[k - 1] and letters[:k] + letters[k + 1:] == name_letters
                      for k in range(1, len(letters)))  # one letter typed twice ("mistrall", "hoppper")
        return after_number or doubled
    return typed.group(1)[:1] == parts.group(1)[:1] or sorted(letters) == sorted(name_letters)


@lru_cache(maxsize=1)
def _known() -> frozenset[str]:
    """Every word the router reads as itself: cue words, count nouns, units, names and their aliases' words."""
    from calculators.registry import gpus, links, models

    from . import tagger  # (read when first needed: the tagger mends with this module)

    phrases = [p for group in (tagger.CUES, tagger.COUNT_NOUNS, tagger.PRECISIONS, tagger.OPS) for ps in group.values()
               for p in ps]
    phrases += [*tagger.FAMILIES, *tagger._GPU_WORDS, *tagger._FIGURE_UNITS, *tagger._BYTE_UNITS, *tagger._FLOP_RATES]
    for registry in (models(), gpus(), links()):
        phrases += [a for e in registry.entries.values() for a in (e.id, e.name, *e.aliases)]
    words = {w for p in phrases for w in re.split(r"[\s/_()-]+", p.lower()) if w}
    return frozenset(words | {"gpu", "gpus", "gemm", "uuid", "nvidia", "amd", "intel", "google", "aws", "zero", "zero3",
                              "zero2", "zero1", "fsdp", "hsdp", "mfu", "hfu", "tok", "toks", "ctx", "seq", "seqs", "bs", "mbs", "gbs",
                              "tp", "pp", "dp", "ep", "sp", "cp", "ga", "kv", "x"})

