"""Terse shorthand → the words the tagger reads.

Engineers type calculator questions the way they type in a terminal or a chat: "l3-70b int4 wts -> GiB?",
"ar 2GiB 8r nvl5 t=?", "2-lvl ar, 16n x 8 h200", "mfu .3 → gpu-h", "deadline 45d → #gpus", "gaudi3 @ AI 500".
Each rewrite below spells out one such abbreviation; it only fires where the abbreviation cannot be read
any other way (a rank count is a number glued to "r", a collective's two letters stand before a buffer or
after an algorithm), so a question in words is left as it is.
"""
from __future__ import annotations

import re

_SIZE = r"\d[\d.,]*\s*(?:[kKMGT]i?B|[kmgt]i?b|bytes?)\b"
_REWRITES = [(re.compile(pattern, flags), words) for pattern, words, flags in (
    (r"\b(?:2|two)[- ]?lvl\b", "two-level", re.I), (r"\blvl\b", "level", re.I),
    (r"\bkv\$", "kv cache", re.I),  # "kv$": the KV cache, as practitioners abbreviate it
    # "derate the memory bandwidth to 0.65 of spec": an efficiency
    (r"\bderat(?:e|ed|ing)\s+(?:the\s+)?(?:memory\s+|hbm\s+)?bandwidth\s+to\s+(\d*\.?\d+(?:\s*%)?)(?:\s+of\s+(?:spec|peak|nominal))?",
     r"at \1 bandwidth efficiency", re.I),
    # "two-level (reduce-scatter in node, all-reduce across nodes, all-gather back)": the algorithm's phases, not ops asked
    (r"\b(two[- ]level|hierarchical)\s*\((?=[^()]*(?:reduce[- ]scatter|all[- ]gather))[^()]*\)", r"\1", re.I),
    # "full act ckpt", "selective activation checkpointing": recomputation, not a checkpoint on disk
    (r"\b(full|selective)\s+act(?:ivation)?s?\s+(?:ckpt|checkpointing)\b", r"\1 recompute", re.I),
    (r"\bact(?:ivation)?s?\s+ckpt\b", "full recompute", re.I),
    # "past the 128-token window": the model's own window, whose size the registry holds
    (r"\b(past|beyond|outside)\s+(the|its)\s+(?:little\s+|small\s+)?\d+[- ]?k?[- ]token\s+((?:sliding[- ])?window)\b",
     r"\1 \2 \3", re.I),
    # model families: "l3-70b", "l3.1-8b", "q2.5-72b", "q3-14b" (Llama 3, Llama 3.1, Qwen 2.5, Qwen 3)
    (r"\bl(3(?:\.[123])?)[-_ ]?(?=\d+(?:\.\d+)?b\b)", r"llama \1 ", re.I),
    (r"\bq(2(?:\.5)?|3)[-_ ]?(?=\d+(?:\.\d+)?b\b)", r"qwen\1 ", re.I),
    # a release's version after a model's name ("Mixtral-8x7B-Instruct-v0.1", "Mistral-7B-v0.3") is no figure
    (r"(?<=[A-Za-z0-9])-v\d+\.\d+\b", "", 0),
    # … and a release's date ("DeepSeek-R1-0528", "Mistral-Nemo-Instruct-2407")
    (r"\b(deepseek[- ]?(?:r1|v3)|instruct|nemo|small|large)-\d{4}\b", r"\1", re.I),
    # counts glued to their noun's initial: "8r", "128r" ranks; "16n" nodes
    (r"(?<![\w.])(\d+)r\b", r"\1 ranks", re.I), (r"(?<![\w.])(\d+)n\b(?=\s*(?:x|×|\*|of)\s*\d)", r"\1 nodes", re.I),
    (r"\bnvl([345])\b", r"nvlink \1", re.I),
    # a setting pasted as key: value ("zero_stage: 3", "stage=2")
    (r"\b(zero[_ ]?stage|stage)\s*[:=]\s*(?=\d)", r"\1 ", re.I),
    # what is asked, in three letters
    (r"\bwts\b", "weights", re.I), (r"\btot\b", "total", re.I), (r"\bw/o\b", "without", re.I),
    (r"\bw/\s*(?=\w)", "with ", re.I),
    (r"/tok\b", " per token", re.I), (r"\bms/step\b", "ms per step", re.I), (r"/rank\b", " per rank", re.I),
    (r"\bgpu[- ]?h\b", "gpu hours", re.I), (r"#\s?(gpus|gpu|nodes|cards|chips)\b", r"number of \1", re.I),
    (r"\bmin(?:imum)?\.?\s*#\s*of\b", "minimum number of", re.I),  # "min # of mi300x"
    (r"(?<![\w.])t\s*=\s*\?", "time?", re.I), (r"(->|→)\s*t\b", r"\1 time", re.I),
    (r"(->|→)\s*ms\b(?!\s*(?:/|per\b))", r"\1 time in ms", re.I),
    (r"\bbw\s*=\s*(?=\d)", "bandwidth ", re.I),
    # a deadline in days: "deadline 45d", "45d deadline"
    (r"(?<=deadline )(\d+)\s?d\b|\b(\d+)\s?d(?= deadline)", r"\1\2 days", re.I),
    # "kernels at 0.75 of the 4.8TB/s": a fraction of the bandwidth is an efficiency
    (r"\b(0?\.\d+)\s+of\s+(?:(?:the|its|their)\s+)?(?:peak\s+)?\d[\d.]*\s*[TG]B/s\b", r"\1 of the bandwidth", re.I),
    (r"\b(?:a quarter|one quarter)\s+of\s+(?:(?:the|its|their)\s+)?(?:peak\s+)?\d[\d.]*\s*[TG]B/s\b", "0.25 of the bandwidth",
     re.I),
    (r"\bhalf\s+of\s+(?:(?:the|its|their)\s+)?(?:peak\s+)?\d[\d.]*\s*[TG]B/s\b", "0.5 of the bandwidth", re.I),
    # "mfu .3": a decimal without its leading zero
    (r"(?<=[\s=(])\.(\d+)\b", r"0.\1", 0),
    # "AI 500": arithmetic intensity (upper case only: "ai" in words is the field)
    (r"\bAI\s*[=:]?\s*(?=\d)", "intensity ", 0),
    (r"@", " at ", 0),
    # a bound that pins the figure: "no more than 4 requests", "none longer than 8,000 tokens", "no higher than 400"
    (r"\b(?:no|not|none)\s+(?:more|higher|longer|bigger|larger|greater)\s+than\s+(?=\d)", "at most ", re.I),
    (r"\b(?:no|not)\s+(?:fewer|less|lower|shorter)\s+than\s+(?=\d)", "at least ", re.I),
    # "seq 4k. whats …": a sentence's stop after a figure's k or M is not an abbreviation's ("k.")
    (r"(?<=\d)([kKmM])\.(?=\s|$)", r"\1 .", 0),
    # "8x rented a100": the count of the parts, whatever word stands before their name
    (r"\b(\d+)\s*x\s+(?:rented|used|spare|idle|cloud|extra|reserved|spot|old|new)\s+", r"\1x ", re.I),
    # local runners: a GGUF quant's name ("Q4_K_M", "Q8_0") is its bits; llama-server's "-np 4" is 4 parallel slots
    # ("Q3" alone would be a quarter: a 2- or 3-bit quant is said in bits)
    # a token count with a binary prefix: "32Ki ctx", "8 Ki tokens" (IEC: 32 × 1,024; "KiB" is bytes)
    (r"(?<![\w.])(\d+)\s?Ki\b", lambda m: str(int(m.group(1)) * 1024), 0),
    (r"\bQ([4-8])_(?:K_[SML]|K|0|1)\b", r"Q\1", re.I), (r"\bQ([23])_(?:K_[SML]|K|0|1)\b", r"\1-bit", re.I), (r"(?<!\S)-np\s+(\d+)\b", r"\1 sequences", 0),
)]


# collectives by their initials, before a buffer or a bandwidth ("ar 2GiB", "ag algbw 90GB/s"), or after an
# algorithm ("tree ar", "two-level ar")
_INITIALS = {"ar": "all-reduce", "ag": "all-gather", "rs": "reduce-scatter"}
_COLLECTIVE = re.compile(rf"\b(ar|ag|rs)\b(?=\s*,?\s*(?:{_SIZE}|algbw|busbw))|"
                         r"\b(ring|tree|flat|level|hierarchical) (ar|ag|rs)\b", re.I)


def _collective(m: re.Match) -> str:
    if m.group(1):
        return _INITIALS[m.group(1).lower()]
    return f"{m.group(2)} {_INITIALS[m.group(3).lower()]}"


def spelled_out(text: str) -> str:
    """The question with its shorthand written as words."""
    for pattern, words in _REWRITES:
        text = pattern.sub(words, text)
    return _COLLECTIVE.sub(_collective, text)
