"""Names engineers give models and parts among themselves → the names the registries hold.

"the 405" is Llama 3.1 405B (no other model of the registries has that size), "l3.1 8b" Llama 3.1 8B, "r1 latent kv"
DeepSeek-R1's, "amd's 300x" and "the 300x (amd)"
are the MI300X, "oss 120" is gpt-oss-120b, "llama's 405" Llama 3.1 405B, "qwen 2.5 (7b)" Qwen2.5 7B, "intels gaudi
three" the Gaudi 3, and "2 sxm h100s" names the form factor before the part ("2 h100 sxms"). Each rewrite fires only
where the nickname can mean nothing else: "405 GB", "300x faster" and a 300x without AMD nearby stay as typed.
"""
from __future__ import annotations

import re

_REWRITES = [(re.compile(pattern, re.I), words) for pattern, words in (
    (r"\b(?:the|llama(?:'?s)?)\s+405(?:'s)?\b(?!\s*(?:[kmgt]i?b|gb/s|tokens?|users?|ms|s\b|%|x\b|b\b))", "llama 3.1 405b"),
    (r"\b(sxm|pcie)\s+(h100|h200|a100|h800)(s?)\b", r"\2 \1\3"),
    (r"(?<![\w-])oss[\s-]?(120|20)b?\b", r"gpt-oss-\1b"),  # "oss 120": OpenAI's open-weights model by its short name
    # "qwen 2.5 (7b)", "llama 3.1 (70B)": the size said in brackets after the family
    (r"\b((?:qwen|llama|mistral|mixtral|gemma|deepseek)[\s-]?v?\d(?:\.\d)?)\s*\((\d+(?:\.\d+)?b)\)", r"\1 \2"),
    # "l3.1 8b", "l3 70b": Llama by its initial, only with a Llama size after it
    (r"(?<![\w.])l\s?(3(?:\.[123])?)[\s-]?(\d{1,3})b\b", r"llama \1 \2b"),
    (r"(?<![\w.])l3([123])[\s_-]?(\d{1,3})b\b", r"llama 3.\1 \2b"),  # "run_name=l31-8b-v5p": Llama 3.1 8B in a run name
    # "l3.1 70", "l3.1 405": a Llama size said without its b
    (r"(?<![\w.])l\s?(3(?:\.[13])?)[\s-]?(8|70|405)\b(?![.,]?\d|\s*(?:[kmgt]i?b|gb/s|k\b|tokens?|users?|ms|s\b|%|x\b|"
     r"gpus?|chips?|cards?|nodes?|layers?))", r"llama \1 \2b"),
    # "ds-r1", "ds v3": DeepSeek by its initials
    (r"(?<![\w.-])ds[\s-]?(r1|v3)\b", r"deepseek \1"),
    # "h-100 nvl", "mi 300 x": a part's code typed apart
    (r"\b([hab])-(100|200)\b", r"\1\2"), (r"\bmi\s(\d{3})\s?x\b", r"mi\1x"),
)]
# "r1 latent kv": DeepSeek-R1 by its short name, only before what a model has and where DeepSeek is not named at all
_DEEPSEEK_SHORT = re.compile(r"(?<![\w.-])(r1)(?=\s+(?:latent|kv|mla|weights|"
                             r"in\s+fp8|fp8|bf16|671b)\b)|^\s*(r1)(?=\s*,)", re.I)  # (or opening the message: "r1, one …")
_DEEPSEEK_NAMED = re.compile(r"deep\s*s[ea]+k", re.I)
_AMD_300X = re.compile(r"\b(?:amd'?s\s+|the\s+)?300x\b", re.I)


def as_registered(text: str) -> str:
    """The question with the house names of models and parts said as the registries name them."""
    for pattern, words in _REWRITES:
        text = pattern.sub(words, text)
    if not _DEEPSEEK_NAMED.search(text):
        text = _DEEPSEEK_SHORT.sub(lambda m: f"deepseek {m[1] or m[2]}", text)
    if re.search(r"\bamd\b", text, re.I):
        text = _AMD_300X.sub("mi300x", text)
    return text


# "gaudi three", "trainium twos": a family's generation spelled out (read after dictation, which reads its own)
_GENERATION_SPELLED = re.compile(r"\b(gaudi|trainium)[\s-]+(?:(two)|(three))(s?)\b(?!\s+of\b)", re.I)


def with_generations_as_digits(text: str) -> str:
    return _GENERATION_SPELLED.sub(lambda m: f"{m[1]}{2 if m[2] else 3}{m[4]}", text)
