"""A model's architecture pasted into the question, as config.json or in words, read as an explicit config.

`{"hidden_size": 5120, "num_hidden_layers": 48, …}` and "hidden 4096, 32 layers, 32 heads, 8 kv heads,
intermediate 14336, vocab 128256" both name a model the registry need not hold; the calculators take such a
config in place of a registry name (DESIGN §6). Only a complete one counts: the five fields every
calculator needs must all be there, or the question is read as if none had been pasted.
"""
from __future__ import annotations

import re

REQUIRED = ("vocab_size", "hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads")
_JSON_FIELDS = REQUIRED + ("num_key_value_heads", "head_dim")
_JSON = re.compile(r'"?\b(' + "|".join(_JSON_FIELDS) + r')\b"?\s*[:=]\s*(\d+)')
# the same fields in words: the number before or after its name
_WORDS = {
    "num_key_value_heads": r"(\d+)\s*(?:kv|key[- ]value)[- ]heads|(?:kv|key[- ]value)[- ]heads\s*[:=]?\s*(\d+)",
    "num_attention_heads": r"(\d+)\s*(?:attention\s+|query\s+|q\s+)?heads|(?<!kv )(?<!value )heads\s*[:=]?\s*(\d+)",
    "num_hidden_layers": r"(\d+)\s*layers|layers\s*[:=]?\s*(\d+)",
    "hidden_size": r"hidden(?:[ _]size|[ _]dim)?\s*[:=]?\s*(\d+)|(\d+)\s*hidden",
    "intermediate_size": r"(?:intermediate|ffn|mlp)(?:[ _]size|[ _]dim)?\s*[:=]?\s*(\d+)",
    "vocab_size": r"vocab(?:ulary)?(?:[ _]size)?\s*[:=]?\s*(\d+)",
    "head_dim": r"head[ _]dim\s*[:=]?\s*(\d+)",
}


def pasted_config(question: str) -> dict[str, int] | None:
    """The architecture fields the question spells out, when they make a whole config; else None."""
    found = {key: int(value) for key, value in _JSON.findall(question)}
    text = question.lower()
    for key, pattern in _WORDS.items():
        if key not in found and (m := re.search(pattern, text)):
            found[key] = int(next(g for g in m.groups() if g))
    return found if all(k in found for k in REQUIRED) else None
