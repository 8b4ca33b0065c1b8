"""Dictated questions → the written form the tagger reads.

Speech-to-text writes what it hears: "llama three point one seventy b in bee float sixteen on eight h one
hundreds", "f p eight", "mist roll seven b", "four oh five b", "forty ninety", and a speaker's corrections
("int four no wait int eight"). A question with no digit at all is read as dictated: spelt letters are joined
("f p" → "fp", "m i" → "mi"), number words become digits the way names are spoken (word2number for "five
hundred twelve", digit by digit for "four oh five", in pairs for "forty ninety", one decimal after "point"),
sound-alikes become the names they stand for, and a corrected figure replaces the one before it. A typed
question (it has a digit) is left exactly as it is.
"""
from __future__ import annotations

import re

from word2number import w2n

_SOUND_ALIKES = [(re.compile(rf"\b{a}\b", re.IGNORECASE), b) for a, b in (
    (r"quen|quinn|kwen", "qwen"), (r"mist roll|mistrol", "mistral"),
    (r"mixed roll|mix roll|mixtrol|mixed trawl|mix trawl|mixed trial|mixed rail", "mixtral"), (r"deep sea", "deep seek"),
    (r"p cs", "pcs"), (r"p c(?! i e)", "pc"),
    (r"gowdy|gaudy", "gaudi"), (r"rocky", "roce"), (r"infini band", "infiniband"),
    (r"neuron link", "neuronlink"), (r"n v link|en vee link|envy link", "nvlink"), (r"deep seek", "deepseek"),
    (r"(?:bee|b|brain) float", "bf"), (r"gee pee tee", "gpt"), (r"oh ess ess", "oss"),
    (r"(?<=\w) by (?=(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|sixteen|twenty|thirty)\b)", " x "),
)]
_LETTER_WORDS = {"bee": "b", "gee": "g", "pee": "p", "tee": "t", "vee": "v", "dee": "d", "ex": "x", "em": "m",
                 "en": "n", "kay": "k", "el": "l", "aitch": "h"}
_CORRECTIONS = {("no", "wait"), ("no", "sorry"), ("i", "mean"), ("sorry",)}
# (not "zero": "ZeRO stage three" is the optimizer; a dictated 0 inside a name is "oh")
_UNITS = {w: i for i, w in enumerate("oh one two three four five six seven eight nine".split())}
_TEENS = {w: i + 10 for i, w in enumerate("ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen "
                                            "nineteen".split())}
_TENS = {w: (i + 2) * 10 for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split())}
_SCALES = {"hundred", "thousand", "million", "billion", "trillion"}
_PLURAL_SCALES = {"hundreds": "hundred", "thousands": "thousand"}  # "eight h one hundreds"
_NUMBER_WORDS = set(_UNITS) | set(_TEENS) | set(_TENS) | _SCALES | set(_PLURAL_SCALES)
# what spelt letters join into ("t p u v five p" is "tpu v5p", not "tpuv 5 p")
_SPELT = {"fp", "bf", "tpu", "mi", "mfu", "hfu", "ndr", "hdr", "xdr", "dgx", "gpt", "nvfp", "mxfp", "kv", "tp", "pp",
          "dp", "ep", "nv", "ib", "hbm", "gb", "tb", "mb", "gpu", "gpus", "ici", "rtx", "gh", "sxm", "nvl", "pcie"}
_MULTIPLIER_LETTERS = {"b", "k", "m", "t"}  # "seven b": the number's multiplier, not a spelt name
_READ = _NUMBER_WORDS | set(_LETTER_WORDS) | {"point", "and", "a", "no", "wait", "sorry", "i", "mean", "each", "which",
                                             "that", "this", "the", "every", "single"}


def is_dictated(question: str) -> bool:
    """No digit anywhere and some number said as words: how speech-to-text writes a question."""
    return not any(ch.isdigit() for ch in question) and bool(_NUMBER_WORDS & set(question.lower().split()))


def written(question: str) -> str:
    """The dictated question as it would be typed (a typed one unchanged)."""
    if not is_dictated(question):
        return question
    text = question
    for pattern, replacement in _SOUND_ALIKES:
        text = pattern.sub(replacement, text)
    # only the words this reads are lower-cased: "Gb/s" and "GB/s" keep their case (bits and bytes)
    words = [_LETTER_WORDS.get(w.lower(), w.lower() if w.lower() in _READ or len(w) == 1 else w) for w in text.split()]
    text = " ".join(_parts_glued(_letters_joined(_numbers(_corrected(words)))))
    return _MEMORY_VARIANT.sub(r"\1gb", text)  # "an a100 sxm the 40 gig version": the 40 GB part


_MEMORY_VARIANT = re.compile(r"\bthe (\d+) (?:gig|gigs|gigabyte|gb) (?:version|variant|model|one|card)\b", re.I)


def _corrected(words: list[str]) -> list[str]:
    """'int four no wait int eight' → 'int eight'; 'on four no sorry eight b two hundreds' → 'on eight …'."""
    out: list[str] = []
    i = 0
    while i < len(words):
        said = next((len(c) for c in sorted(_CORRECTIONS, key=len, reverse=True)
                     if tuple(words[i:i + len(c)]) == c), 0)
        if said and out and out[-1] in _NUMBER_WORDS and i + said < len(words):
            while out and out[-1] in _NUMBER_WORDS:  # the figure being corrected
                out.pop()
            if out and out[-1] == words[i + said]:  # "int four no wait int eight": its label is said again
                out.pop()
            i += said
            continue
        out.append(words[i])
        i += 1
    return out


def _numbers(words: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(words):
        if words[i] == "a" and i + 1 < len(words) and words[i + 1] in _SCALES:
            words[i] = "one"  # "a hundred twenty eight k"
        j = i
        while j < len(words) and (words[j] in _NUMBER_WORDS or (words[j] == "and" and j > i and j + 1 < len(words)
                                                               and words[j + 1] in _NUMBER_WORDS)):
            j += 1
        run = [w for w in words[i:j] if w != "and"]
        if "trillion" in run:  # (word2number stops at billions) the tagger reads "two trillion tokens" itself
            out += words[i:j]
            i = j
        elif run == ["one"] and out and out[-1] in ("each", "which", "that", "this", "the", "every", "single"):
            out.append("one")  # "how much is left on each one": a pronoun, not a figure
            i = j
        elif run[:2] in (["one", "hundred"], ["two", "hundred"], ["three", "hundred"]) and len(run) > 2 \
                and out and out[-1] in _PART_NUMBERS:
            out.append(_spoken_number(run[:2]))  # "an a one hundred forty gig": the A100, then its 40 GB
            i += 2
        elif (pair := _card_pair(run)) is not None and len(run) > 2:
            # "an r t x fifty ninety sixteen users", "one fifty ninety each": the card's number is a pair of tens
            i += pair
            if pair:
                out.append(_spoken_number(words[i - pair:i]))
            out.append(_spoken_number(words[i:i + 2]))
            i += 2
        elif run and not set(run) <= _SCALES:
            out.append(_spoken_number(run))
            i = j
        elif words[i] == "point" and out and out[-1].isdigit() and i + 1 < len(words) and words[i + 1] in _UNITS:
            out[-1] += f".{_UNITS[words[i + 1]]}"  # "three point one": one decimal (then "seventy b")
            i += 2
        else:
            out.append(words[i])  # a scale word alone stays a word: "fourteen point eight trillion"
            i += 1
    return out


def _card_pair(run: list[str]) -> int | None:
    """Where two tens words in a row ("fifty ninety", a card's number) start in a run of number words, if any."""
    return next((k for k in range(len(run) - 1) if run[k] in _TENS and run[k + 1] in _TENS), None)


def _spoken_number(run: list[str]) -> str:
    """A run of number words as digits: 'five hundred twelve' 512, 'four oh five' 405, 'forty ninety' 4090,
    'one twenty' 120, 'one thousand twenty four' 1024, 'one hundreds' 100s."""
    plural = run[-1] in _PLURAL_SCALES
    run = [_PLURAL_SCALES.get(w, w) for w in run]
    if _SCALES & set(run):
        try:
            return f"{w2n.word_to_num(' '.join(run))}" + ("s" if plural else "")
        except (ValueError, IndexError):  # (word2number fails with IndexError on a run that starts with a scale)
            return " ".join(run)
    groups: list[int] = []
    k = 0
    while k < len(run):  # a tens word takes the unit after it ("thirty two"); any other word is a group
        if run[k] in _TENS and k + 1 < len(run) and run[k + 1] in _UNITS and run[k + 1] not in ("oh", "zero"):
            groups.append(_TENS[run[k]] + _UNITS[run[k + 1]])
            k += 2
        else:
            groups.append(_UNITS.get(run[k], _TEENS.get(run[k], _TENS.get(run[k], 0))))
            k += 1
    return "".join(map(str, groups))  # said one after another, as names are: "four oh five", "forty ninety"


def _letters_joined(words: list[str]) -> list[str]:
    """Spelt letters as the word they spell: 'f p 8' → 'fp 8', 't p u v 5 p' → 'tpu v 5 p'."""
    out: list[str] = []
    spelling = False  # the last word out is letters still being joined
    for i, w in enumerate(words):
        letter = len(w) == 1 and w.isalpha() and w != "a"
        if letter and spelling and any(s.startswith(out[-1] + w) for s in _SPELT):
            out[-1] += w
            continue
        # "256 m i 300 x" spells on; "seven b f p sixteen" is 7b and fp16
        spells_on = w != "b" and i + 1 < len(words) and any(s.startswith(w + words[i + 1]) for s in _SPELT)
        after_figure = w in _MULTIPLIER_LETTERS and bool(out) and out[-1].replace(".", "").isdigit() and not spells_on
        out.append(w)
        spelling = letter and not after_figure
    return out


# A part's letter said apart from its number: "h one hundred" → "h100", "b two hundreds" → "b200s", "a one hundred"
# → "a100", "l four" → "l4" (only with the numbers those parts have, so "seventy b" stays a size)
_PART_NUMBERS = {"h": {"100", "200", "20", "800"}, "b": {"100", "200", "300"}, "a": {"100", "10", "800"},
                 "l": {"4", "40"}, "gb": {"200", "300"}, "gh": {"200"}}
_MI = re.compile(r"^\d{3}$")  # "m i 450 x": AMD's parts are MI and three digits, a letter after (glued on)


def _parts_glued(words: list[str]) -> list[str]:
    out: list[str] = []
    for w in words:
        number = w[:-1] if w.endswith("s") and w[:-1].isdigit() else w
        if out and out[-1] in _PART_NUMBERS and number in _PART_NUMBERS[out[-1]]:
            out[-1] += w
        elif out and out[-1] == "mi" and _MI.match(number):
            out[-1] += w
        elif out and re.fullmatch(r"mi\d{3}", out[-1]) and w in ("x", "a", "xs"):
            out[-1] += w
        else:
            out.append(w)
    return out
