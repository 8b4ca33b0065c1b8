"""What a phone keyboard did to a question, undone: "Can 2 H 100’s run…", "Qwen 2.5 7B,bf16 weights,32k context".

Readers ask from the article widget on their phones. Autocorrect splits a part's name at its number ("H 100",
"B 200", "Mi 300X", "L 40S"), and thumbs skip the space after a comma, gluing two settings into one word
("cache,64 users", "bf16,16k"). Each rewrite puts back what a desk keyboard would have typed; a digit group ("4,096") and
an article before a size ("a 100 GB buffer") are left as they are.
"""
from __future__ import annotations

import re

_UNIT_OR_NOUN = r"\s*(?:[kKmMgGtTpP]i?[bB]|[kKmMgGtT]\b|tokens?|users?|seq|ranks?|nodes?|ms|s\b|%|x\b)"
_REWRITES = [(re.compile(pattern), words) for pattern, words in (
    # a space after a comma that follows a word, or that a word follows: "7B,bf16" → "7B, bf16" ("4,096" stays)
    (r"(?<=[A-Za-z]),(?=\S)|(?<=\d),(?=[A-Za-z])", ", "),
    (r"\b([A-Za-z][\w.-]*\d),(?=\d)", r"\1, "),  # "bf16,16k" ("1,5 TB/s" is a decimal comma: languages.py)
    # a part's name split at its number: "H 100", "h 200", "B 200", "GB 200", "Mi 300X", "L 40S", "A 100" (never
    # "a 100 GB" or "A 100 tokens")
    (r"\b([HhBb]|GB|gb|MI|Mi|mi)\s(\d{2,3}[A-Za-z]{0,3})\b", r"\1\2"),
    (r"\b(L)\s(40S?|4)\b", r"\1\2"),
    (rf"\b(A)\s(100|10|30|40)\b(?!{_UNIT_OR_NOUN})", r"\1\2"),
)]


def as_keyed(text: str) -> str:
    """The question as it would have been typed on a desk keyboard."""
    for pattern, words in _REWRITES:
        text = pattern.sub(words, text)
    return text
