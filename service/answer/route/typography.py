"""Typography pasted from documents, slides and phones → the plain characters the tagger reads.

Readers paste questions with the characters their tools put in: full-width letters and digits from an East
Asian keyboard ("８×Ｈ１００", "７０Ｂ"), superscript powers ("10⁹ params", "2²⁰ tokens"), vulgar fractions ("½ the
context", "12½ FLOP/B", "1½ T tokens"), digit groups joined by a no-break, thin or narrow space or a prime
("8 192", "2′048 H100s"), non-breaking hyphens inside names ("gpt‑oss‑120b", "ZeRO‑2"), a division slash
("TB∕s"), HTML entities ("2&nbsp;GiB"), zero-width spaces, the middle dot as a count's times ("8 · MI355X"),
Greek mu for micro ("μs") and trademark signs ("NVIDIA®"). Read as pasted, "2²⁰" is the number 220, "8 192" two numbers and "Qwen2.5‑7B" no model. Unicode's
own compatibility folding (NFKC) maps most of them to their plain form; the few it would misread (a superscript
after a digit is a power, not more digits; a fraction after a digit is its decimal part) are said first.
"""
from __future__ import annotations

import html
import re
import unicodedata

_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
_POWER = re.compile(r"(?<=\d)\s?([⁰¹²³⁴⁵⁶⁷⁸⁹]+)")  # "10⁹", "2²⁰": a power
_FRACTIONS = {"½": (".5", "half"), "¼": (".25", "a quarter"), "¾": (".75", "three quarters")}
_FRACTION = re.compile(r"(?:(\d)\s?)?([½¼¾])")
_GROUP_SPACE = re.compile(r"(?<=\d)[\u00a0\u202f\u2009\u2007′'](?=\d{3}(?!\d))")  # "8 192", "2′048"
_TIMES_DOT = re.compile(r"(?<=\d)\s*[·⋅]\s*(?=[A-Za-z])")  # "8 · MI355X": eight of them
_MARKS = re.compile(r"[®™©]")
_ANY = re.compile(r"[^\x00-\x7f]")
_ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\u2060\ufeff]")
_KEYCAP = re.compile("([0-9])\ufe0f?\u20e3|\U0001F51F")  # "2️⃣", "🔟"
# a keycap opening a line numbers a list ("1️⃣ 13B dense model\n2️⃣ 1.5T tokens", "1️⃣ model: …"); one keycap
# opening the message before a name is its count ("2️⃣ mi300x 🤝 llama 3.1 405b")
_LINE_KEYCAP = re.compile("(?m)^([ \t]*)(?:[0-9]\ufe0f?\u20e3|\U0001F51F)")
_BULLET_KEYCAP = re.compile("(?m)^([ \t]*)(?:[0-9]\ufe0f?\u20e3|\U0001F51F)(?=[ \t]*(?:[0-9.]|[^\\W\\d][\\w ./-]{0,30}:))")
# pictographs, dingbats and their modifiers (skin tones, the emoji presentation selector) but not the
# multiplication dingbats "✕ ✖", which stand for "x"
_PICTOGRAPH = re.compile("[\U0001F000-\U0001FAFF\u2600-\u2714\u2717-\u27BF\u2B00-\u2BFF\ufe0f]+")


def as_plain_characters(text: str) -> str:
    """The text with pasted typography in plain characters (ASCII text comes back as it is)."""
    if "&" in text:  # a web page's entities: "2&nbsp;GiB", "5&nbsp;&micro;s"
        text = html.unescape(text)
    if not _ANY.search(text):
        return text
    text = _ZERO_WIDTH.sub("", text)  # "Mistral\u200b 7B": invisible, and no part of any word
    text = (_LINE_KEYCAP if len(_LINE_KEYCAP.findall(text)) > 1 else _BULLET_KEYCAP).sub(r"\1", text)
    text = _KEYCAP.sub(lambda m: m.group(1) or "10", text)  # "🔟 users": ten of them
    text = _PICTOGRAPH.sub(" ", text)  # "16 🧑‍💻 users", "256 🖥️ tpu v5p chips": a picture between a count and its noun
    text = _POWER.sub(lambda m: "^" + m.group(1).translate(_SUPERSCRIPTS), text)
    text = _FRACTION.sub(_fraction, text)
    text = _GROUP_SPACE.sub("", text)
    text = _TIMES_DOT.sub("x ", text)
    text = unicodedata.normalize("NFKC", _MARKS.sub("", text))
    # after NFKC: the micro sign is Greek mu; a non-breaking hyphen and the division slash are their ASCII forms
    return text.replace("μs", "us").replace("\u2011", "-").replace("\u2010", "-").replace("∕", "/")


def _fraction(m: re.Match) -> str:
    decimal, words = _FRACTIONS[m.group(2)]
    return f"{m.group(1)}{decimal}" if m.group(1) else words
