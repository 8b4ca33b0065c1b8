"""What a phone keyboard did to a question, undone: "Can 2 H 100’s run…", "Qwen 2.5 7B,bf16 weights,32k context",
"Queen 2.5 72b in cp8, 16 users at 32k contact, ks cache?".

Readers ask from the article widget on their phones. Autocorrect splits a part's name at its number ("H 100",
"B 200", "Mi 300X", "L 40S"), and thumbs skip the space after a comma, gluing two settings into one word
("cache,64 users", "bf16,16k"). Autocorrect also swaps the words it does not know for dictionary words — "Queen
2.5", "lava 3.1", "mistrial", "jemma", "contact" for context, "bath size", "tokes", "ks cache", "cp8", "H2OO",
"aH100", "all reduced" — which the tagger's typo mending never touches (they are English words). Each of those is
put back only where its context says so ("queen" before a version, "contact" after a size); each rewrite puts back
what a desk keyboard would have typed; a digit group ("4,096") and an article before a size ("a 100 GB buffer")
are left as they are.
"""
from __future__ import annotations

import re

_UNIT_OR_NOUN = r"\s*(?:[kKmMgGtTpP]i?[bB]|[kKmMgGtT]\b|tokens?|users?|seq|ranks?|nodes?|ms|s\b|%|x\b)"
# dictionary words autocorrect puts for names and terms it does not know, each where its context says so
_AUTOCORRECTED = [(re.compile(pattern, re.I), words) for pattern, words in (
    (r"\bqueen\s*(?=\d)", "qwen "), (r"\b(?:lava|lama)\s*(?=\d)", "llama "), (r"\bmistrial\b", "mistral"),
    (r"\bjemma\b", "gemma"), (r"\bmix\s+tral\b", "mixtral"), (r"\bdeep\s+seek\b", "deepseek"),
    (r"\bgot[\s-]+oss\b", "gpt-oss"), (r"\bgaudy\s*(?=\d)", "gaudi "),
    (r"\b(?:cp|fop|fp\s)(?=8\b|16\b)", "fp"), (r"\bbf\s(?=16\b)", "bf"), (r"\bint\s(?=[48]\b)", "int"),
    (r"(?<=\d)(\s?[kK]?\s?)contacts?\b|\bcontact(?=\s+(?:length|window|len\b|of\s+\d))", r"\1context"),
    (r"\bbath(?=\s+(?:size|of)\b)", "batch"), (r"\btokes\b", "tokens"), (r"\btera\s+flops\b", "teraflops"),
    (r"(?<=\d[bB])\s+perimeters?\b|(?<=\d)\s+perimeters?\b", " parameters"),
    (r"(?:^|(?<=[.!?]\s))were(?=\s+\w+ing\b)", "we're"),  # "Were doing a fine-tune …": no past, no subject lost
    (r"\ball[\s-]+reduced\b", "all-reduce"), (r"\ball[\s-]+gathered\b", "all-gather"),
    (r"\breduce[\s-]+scattered\b", "reduce-scatter"), (r"\bbroad\s+cast\b", "broadcast"),
    # a part's zeros typed as the letter O ("H2OO", "V 1OO", "RTX 4O9O"), "H2O" for the H20, "aH100" for H100
    (r"\b(?<![\w-])a(?=[HB]\d{3}\b)", ""),
)]
_LOOKS_KV = re.compile(r"\bk[sbcg]\s+cache\b", re.I)
_LETTER_NEXT_TO_DIGIT = re.compile(r"\d[oO]|[oO]\d|H2O")
# the words those rewrites look for, as plain text: one quick scan for the usual question, which has none
_ANY_AUTOCORRECTED = re.compile(r"\b(?:queen|lava|lama|mistrial|jemma|mix\s+tral|deep\s+seek|got[\s-]+oss|gaudy|cp\d|"
                                r"fop|fp\s\d|bf\s16|int\s[48]|contacts?|bath|tokes|tera\s+flops|perimeters?|were|"
                                r"reduced|gathered|scattered|broad\s+cast|a[HB]\d)", re.I)
_KV_CACHE = re.compile(r"(?P<before>(?:^|\S+)\s*)\bk[sbcg]\s+cache\b", re.I)  # "ks cache", "fp8 kb cache"


def _kv_cache(m: re.Match) -> str:  # never "512 kb cache", a size
    return m.group(0) if re.fullmatch(r"[\d.,]+\s*", m.group("before")) else m.group("before") + "kv cache"


_LETTER_O = re.compile(r"\b(H|B|A|V|L|MI|RTX\s?)(\s?)([1-9O][0-9O]{1,3})(?=[xXsS]?\b)", re.I)
_WATER = re.compile(r"\bH2O(?=s?\b)")


def _zeros(m: re.Match) -> str:
    digits = m.group(3)
    return m.group(0) if "O" not in digits.upper() or not re.search(r"\d", digits) else \
        m.group(1) + m.group(2) + re.sub("[oO]", "0", digits)


_REWRITES = [(re.compile(pattern), words) for pattern, words in (
    # a space after a comma that follows a word, or that a word follows: "7B,bf16" → "7B, bf16" ("4,096" stays)
    (r"(?<=[A-Za-z]),(?=\S)|(?<=\d),(?=[A-Za-z])", ", "),
    (r"\b([A-Za-z][\w.-]*\d),(?=\d)", r"\1, "),  # "bf16,16k" ("1,5 TB/s" is a decimal comma: languages.py)
    # a part's name split at its number: "H 100", "h 200", "B 200", "GB 200", "Mi 300X", "L 40S", "A 100" (never
    # "a 100 GB" or "A 100 tokens")
    (r"\b([HhBbVv]|GB|gb|MI|Mi|mi)\s(\d{2,3}[A-Za-z]{0,3})\b", r"\1\2"),
    (r"\b(L)\s(40S?|4)\b", r"\1\2"),
    (rf"\b(A)\s(100|10|30|40)\b(?!{_UNIT_OR_NOUN})", r"\1\2"),
    # "an a 100", "a 100 80 gig sxm": the lower-case part ("a 100 GB buffer" stays)
    (r"(?<=\ban\s)a\s(100|10|30|40)\b|\ba\s(100)(?=\s+(?:\d+\s*(?:gb|gig)|sxm|pcie|gpus?|cards?)\b)", r"A\1\2"),
    (r"\b(MI\d{3})\s([xXaA])\b(?!\s*\d)", r"\1\2"),  # "MI 300 x" → "MI300X" ("MI300 x 8" stays)
)]


def as_keyed(text: str) -> str:
    """The question as it would have been typed on a desk keyboard."""
    if _ANY_AUTOCORRECTED.search(text):  # (one scan for the usual question, which has none)
        for pattern, words in _AUTOCORRECTED:
            text = pattern.sub(words, text)
    if _LOOKS_KV.search(text):
        text = _KV_CACHE.sub(_kv_cache, text)
    if _LETTER_NEXT_TO_DIGIT.search(text):
        text = _WATER.sub("H20", _LETTER_O.sub(_zeros, text))
    for pattern, words in _REWRITES:
        text = pattern.sub(words, text)
    return text
