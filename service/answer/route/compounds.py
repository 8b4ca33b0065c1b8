"""Figures written inside compound modifiers → the count and noun the binder reads.

Engineers write "a 70-billion-parameter llama 3.1", "two 8-GPU b200 nodes", "a 4-node, 32-GPU job", "a 4-seq,
16k-ctx batch", "an 8×H200 node". The binder reads a count next to its noun and a model by its family and size,
so each rewrite says the same in that order: "llama 3.1 70b", "two nodes x 8 b200 GPUs", "4 nodes x 8 GPUs",
"4 seqs", "8x H200"; "16users", "batch8", "8*H100" and "ctx (tokens): 8192" are read the same way. A question in plain
words is left as it is.
"""
from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=1)
def _rewrites() -> list[tuple[re.Pattern, str]]:
    from .tagger import FAMILIES  # (the tagger imports this module: its names are read once it is loaded)

    family = "|".join(sorted(FAMILIES, key=len, reverse=True))
    return [(re.compile(pattern, re.I), words) for pattern, words in (
        # "8×H200", "8xH200", "8*H200", "8*etched sohu": eight of the part
        (r"(?<![\w.])(\d+)\s*[x×](?=[a-z]{1,4}\d)", r"\1x "),
        (r"(?<![\w.*])(\d+)\s*\*\s*(?=[a-z])", r"\1x "),
        # a count or a label glued to its word: "16users", "batch8", "32kctx"
        (r"\b(\d+)(users|gpus|seqs|nodes|ranks|chats|requests)\b", r"\1 \2"),
        (r"\b(batch|mbs)(\d+)\b", r"\1 \2"),
        (r"\b(\d+k)(ctx|context)\b", r"\1 \2"),
        # a label with its unit in brackets: "ctx (tokens): 8192", "busbw [GB/s]: 350" → "ctx: 8192 tokens"
        (r"\b(ctx|context|seq(?:len)?|busbw|algbw|bandwidth|bw|mem|memory|buffer|size)\s*[(\[]\s*"
         r"(tokens|tok|GB/s|GiB/s|GiB|GB|MB|MiB)\s*[)\]]\s*[:=]\s*(\d[\d.,]*)", r"\1: \3 \2"),
        # "8 gb200 nvl72 racks (72 gpus each)": racks that say how many GPUs each holds are nodes of that many
        # (a bare "on 3 racks" says nothing of its GPUs, and stays)
        (r"\bracks?(?=\s*\(?\s*(?:of\s+|with\s+)?\d+\s*(?:gpus?|cards?|chips?)\s+(?:each|per rack|apiece)\b)",
         "nodes"),
        # "on 4 nodes … trn2 nodes (16 Trainium2 chips each)": the GPUs each node holds
        (r"\b(nodes|boxes|servers|machines|hosts)\s*\(\s*(?:of\s+|with\s+)?(\d+)\s+((?:[\w-]+\s+)?)(?:gpus?|cards?|chips?)"
         r"\s+(?:each|apiece)\s*\)", r"\1 of \3(\2 GPUs per node)"),
        # "64 × 4096-token sequences": 64 sequences of 4096 tokens
        (r"\b(\d+)\s*[x×*]\s*(\d[\d,]*[kK]?)[- ]tokens?\s+(sequences|seqs|requests|prompts|chats|conversations|streams)\b",
         r"\1 \3 of \2 tokens"),
        # "input 1,500 tokens, output 500": a request's output length is tokens too
        (r"\b(output|completion|generated|generation)\s+(\d[\d,.]*k?)\b(?!\s*(?:tokens?|toks?|k\b|%))", r"\1 \2 tokens"),
        # "a 70-billion-parameter llama 3.1", "the 20-billion gpt-oss model": the family, then its size
        (rf"\b(\d+(?:\.\d+)?)[- ]?(?:billion|bn?)(?:[- ]param(?:eter)?s?)?\s+"
         rf"((?:{family})(?:[ -]?oss)?(?:[ -]?\d+(?:\.\d+)?)?)\b", r"\2 \1b"),
        # "a 4-seq batch", "a 16-user deployment", "a 64-rank all-reduce": the count before its noun
        (r"\b(\d+)-(seq|sequence|user|request|chat|stream|rank|node|gpu|card)s?\b", r"\1 \2s"),
    )]
# "two 8-GPU b200 nodes": so many nodes of so many GPUs
_NODES_OF = re.compile(r"\b(\w+)\s+(\d+)-gpus?\s+(?:([a-z]+\d+[a-z]*)\s+)?(nodes?|servers?|boxes|machines|hosts)\b", re.I)
# "a 4-node, 32-GPU job": the GPUs are all of the job's, spread over its nodes
_NODES_AND_TOTAL = re.compile(r"\b(\d+)-nodes?,?\s+(\d+)-gpus?\b", re.I)


def with_compounds_unpacked(text: str) -> str:
    """The question with its compound modifiers said as count and noun."""
    text = _NODES_AND_TOTAL.sub(_per_node, text)
    text = _NODES_OF.sub(lambda m: f"{m.group(1)} {m.group(4)} x {m.group(2)} {m.group(3) or ''} GPUs", text)
    for pattern, words in _rewrites():
        text = pattern.sub(words, text)
    return text


def _per_node(m: re.Match) -> str:
    nodes, gpus = int(m.group(1)), int(m.group(2))
    return f"{nodes} nodes x {gpus // nodes} GPUs" if nodes and gpus % nodes == 0 else m.group(0)
