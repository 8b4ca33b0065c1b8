"""A model's architecture pasted into the question, as config.json or in words, read as an explicit config.

`{"hidden_size": 5120, "num_hidden_layers": 48, …}` and "hidden 4096, 32 layers, 32 heads, 8 kv heads,
intermediate 14336, vocab 128256" both name a model the registry need not hold; the calculators take such a
config in place of a registry name (DESIGN §6). Only a complete one counts: the five fields every
calculator needs must all be there, or the question is read as if none had been pasted.
"""
from __future__ import annotations

import re

REQUIRED = ("vocab_size", "hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads")
_JSON_FIELDS = REQUIRED + ("num_key_value_heads", "head_dim", "num_experts", "num_experts_per_tok")
_JSON = re.compile(r'"?\b(' + "|".join(_JSON_FIELDS) + r')\b"?\s*[:=]\s*(\d+)')
# the same fields in words: the number before or after its name
_WORDS = {
    "num_key_value_heads": r"(\d+)\s*(?:kv|key[- ]value)[- ]heads?|(?:kv|key[- ]value)[- ]heads\s*[:=]?\s*(\d+)|"
                           r"\bgqa[- ]?(\d+)\b|sharing\s+(\d+|one)\s+kv\s+head",
    "num_attention_heads": r"(\d+)\s*(?:attention\s+|query\s+|q\s+)?heads|(?<!kv )(?<!value )heads\s*[:=]?\s*(\d+)",
    "num_hidden_layers": r"(\d+)[\s-]*layers?\b|layers\s*[:=]?\s*(\d+)",
    "hidden_size": r"hidden(?:[ _]size|[ _]dim)?\s*[:=]?\s*(\d+)|(\d+)\s*hidden",
    "intermediate_size": r"(?:intermediate|ffn|mlp)(?:[ _]size|[ _]dim)?\s*[:=]?\s*(\d+)",
    "vocab_size": r"vocab(?:ulary)?(?:[ _]size)?\s*[:=]?\s*(\d+)",
    "head_dim": r"head[ _]dim\s*[:=]?\s*(\d+)|heads\s+of\s+(?:dim(?:ension)?\s*)?(\d+)",
    # mixture of experts: "64 experts (top-6 routing)", "6 active per token", "top-6"
    "num_experts": r"(\d+)\s*(?:routed\s+)?experts",
    "num_experts_per_tok": r"top[- ]?(\d+)|(\d+)\s*(?:active|experts)\s*(?:experts\s*)?per\s+token|(\d+)\s+active\b",
}
_ONE = {"one": "1"}


def _said_value(m: re.Match) -> int:
    """The figure a field's pattern caught ("sharing one kv head": 1)."""
    said = next(g for g in m.groups() if g)
    return int(_ONE.get(said, said))


def pasted_config(question: str) -> dict[str, int] | None:
    """The architecture fields the question spells out, when they make a whole config; else None."""
    found = {key: int(value) for key, value in _JSON.findall(question)}
    text = question.lower()
    for key, pattern in _WORDS.items():
        if key not in found and (m := re.search(pattern, text)):
            found[key] = _said_value(m)
    if "num_experts" in found and "num_experts_per_tok" not in found:
        return None  # an expert count with no routing said is no model the calculators can size
    return found if all(k in found for k in REQUIRED) else None


# "llama 3.1 405b (126 layers, 8 kv heads, head_dim 128)": a named model's own architecture, said again
_ASIDE = re.compile(r"\(([^()]*)\)|[—–]([^—–]*)[—–]")
_ARCHITECTURE_WORDS = {"layers", "layer", "kv", "heads", "head", "head_dim", "dim", "hidden", "gqa", "mqa", "mha",
                       "vocab", "ffn", "intermediate", "experts", "expert", "active", "routed", "top", "query", "key",
                       "value", "size", "of", "and", "with", "per", "token", "x", "×", "each", "dimension", "mla",
                       "shared", "moe", "params", "parameters", "b", "total", "layer-deep", "deep"}


def without_restated_architecture(question: str, names_a_model) -> tuple[str, list[str]]:
    """The question without an aside that only restates a named model's architecture (the registry holds it; read,
    its "hidden 8192" became a context of 8,192 tokens). `names_a_model(text)`: the registry model whose name
    ends the text, or None. A config with no name before it is the model, and stays."""
    if not re.search(r"layers|heads|hidden|gqa|head_dim", question, re.I):
        return question, []
    for m in _ASIDE.finditer(question):
        inside = m.group(1) if m.group(1) is not None else m.group(2)
        words = re.findall(r"[a-z_×]+(?:-[a-z]+)?", inside.lower().replace("gqa-", "gqa "))
        if not (words and set(words) <= _ARCHITECTURE_WORDS and {"layers", "heads", "hidden", "gqa", "head_dim"} & set(words)):
            continue
        model = names_a_model(question[:m.start()])
        if model is None:
            continue
        kept = question[:m.start()] + " " + question[m.end():]
        differs = _differences(inside, model)
        said = m.group(0).strip(" —–")
        if differs:
            return kept, [f"“{said}” differs from the registry's {model.name} ({differs}): the registry's used"]
        return kept, [f"“{said}” is {model.name}'s own architecture, as the registry holds it"]
    return question, []


def _differences(said: str, model) -> str:
    """The restated fields that are not the registry's, as "num_hidden_layers 40, not 32"."""
    config = model.config.model_dump()
    out = []
    for key, pattern in _WORDS.items():
        m = re.search(pattern, said.lower())
        if m and key in config and config[key] is not None:
            value = _said_value(m)
            if value != config[key]:
                out.append(f"{key} {value}, not {config[key]}")
    return "; ".join(out)

