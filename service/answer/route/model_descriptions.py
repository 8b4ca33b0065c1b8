"""A model described instead of named → its name, for the descriptions that fit one model the registry holds.

"llama 3.1's biggest", "the small llama 3.1", "meta's 8b from the 3.1 release", "alibaba's 72b from the qwen 2.5
series", "openai's small open model", "openai's open-weight 120b", "the reasoning one from deepseek", "mistral's
first 7b", "the bigger mixtral", "the 8x22 mixtral". Read as typed, the name was missing (so no calculation) or
half there ("the 8x22 mixtral" had become Mixtral 8x7B, the family's default). Each rewrite names the model, and
the Assumed line says how the description was read.
"""
from __future__ import annotations

import re

_SIZES = {"small": "8b", "smallest": "8b", "little": "8b", "mid-size": "70b", "midsize": "70b", "middle": "70b",
          "medium": "70b", "big": "405b", "biggest": "405b", "largest": "405b", "flagship": "405b"}
_DESCRIPTIONS = [(re.compile(pattern, re.I), name) for pattern, name in (
    # the Llama 3.1 herd by its size words
    (r"\bllama\s*3\.1'?s\s+(biggest|largest|smallest|flagship)\b", lambda m: f"llama 3.1 {_SIZES[m.group(1).lower()]}"),
    (r"\bthe\s+(small|smallest|little|mid-size|midsize|middle|medium|big|biggest|largest)\s+llama\s*3\.1\b",
     lambda m: f"the llama 3.1 {_SIZES[m.group(1).lower()]}"),
    # "meta's 70b from the 3.1 release", "the 8b from meta's original llama 3 release"
    (r"\bmeta'?s\s+(\d+)b\s+(?:from|of)\s+the\s+(?:original\s+)?(?:llama\s*)?(3\.1|3)\s+release\b",
     lambda m: f"llama {m.group(2)} {m.group(1)}b"),
    (r"\bthe\s+(\d+)b\s+from\s+meta'?s\s+(?:original\s+)?llama\s*(3\.1|3)\s+release\b",
     lambda m: f"llama {m.group(2)} {m.group(1)}b"),
    # "alibaba's 72b from the qwen 2.5 series", "alibaba's 7b (qwen 2.5 generation)"
    (r"\balibaba'?s\s+(\d+)b(?:\s+from\s+the\s+qwen\s*2\.5\s+(?:series|line|generation|family)|\s*\(qwen\s*2\.5\s+"
     r"(?:gen|generation|series|line|family)\))?", lambda m: f"qwen2.5 {m.group(1)}b"),
    # a family, then its size said apart: "llama 3.1\nthe 8b one", "qwen 2.5 (the 72b one)", "llama 3.1, the 70b"
    (r"\b(llama\s*3(?:\.1)?|qwen\s*2\.5|gpt-oss)[\s,:(—-]+the\s+(\d+)b(?:\s+(?:one|model|version))?\)?",
     lambda m: f"{m.group(1)} {m.group(2)}b"),
    # OpenAI's open-weight pair
    (r"\bopenai'?s\s+(?:small|smaller|little)\s+open(?:-weights?)?\s+model\b", "gpt-oss-20b"),
    (r"\bopenai'?s\s+(?:big|bigger|large|larger)\s+open(?:-weights?)?\s+model\b", "gpt-oss-120b"),
    (r"\bopenai'?s\s+open[- ]weights?\s+(20|120)b\b", lambda m: f"gpt-oss-{m.group(1)}b"),
    # DeepSeek's two
    (r"\bthe\s+reasoning\s+(?:one|model)\s+from\s+deepseek\b|\bdeepseek'?s\s+reasoning\s+(?:one|model)\b", "deepseek-r1"),
    (r"\bdeepseek'?s\s+big\s+moe(?:\s+with\s+mla)?\b", "deepseek v3"),
    # Mistral's first model, and the two Mixtrals by size
    (r"\bmistral'?s\s+(?:first|original|v0\.1)\s+7b\b", "mistral 7b"),
    (r"\bthe\s+(?:bigger|larger)\s+mixtral\b|\bthe\s+8x22b?\s+mixtral\b", "mixtral 8x22b"),
    (r"\bthe\s+(?:smaller|small)\s+mixtral\b|\bthe\s+8x7b?\s+mixtral\b", "mixtral 8x7b"),
)]


def as_model_names(question: str) -> tuple[str, list[str]]:
    """The question with each model it describes named, and a note of each reading."""
    notes: list[str] = []
    for pattern, name in _DESCRIPTIONS:
        def named(m: re.Match, name=name) -> str:
            said = name(m) if callable(name) else name
            notes.append(f"“{m.group(0).strip()}” read as {said.removeprefix('the ')}")
            return said
        question = pattern.sub(named, question)
    return question, notes
