"""KV-cache blocks (PagedAttention's pages) → the tokens they hold, as the tagger reads a KV cache.

"how big is one block for mistral 7b? 16 tokens, bf16", "qwen2.5 72b with 16-token blocks — bytes per block?",
"128 blocks of 16 tokens on llama 3.1 70b, how many bytes?". Read as typed, "block" was a word of the paging scheme
(a question about PagedAttention, not a figure) and the question went to retrieval. A block of the KV cache holds
its tokens' keys and values and nothing else, so its size is the KV cache of that many tokens: the block words
become "the KV cache of N tokens", and the Assumed line says how many blocks of how many tokens were read.
"""
from __future__ import annotations

import re

_BLOCKS_OF = re.compile(r"\b(\d+)\s+(?:kv\s+)?(?:blocks?|pages?)\s+of\s+(\d+)\s+tokens?\b", re.I)
_SIZED_BLOCK = re.compile(r"\b(?:with\s+)?(?:one\s+|a\s+|each\s+|per\s+|the\s+)?(\d+)[- ]token\s+(?:kv\s+)?(?:blocks?|pages?)\b",
                          re.I)
_BLOCK_SIZE = re.compile(r"\b(?:kv\s+)?(?:block|page)[- ]size\s*(?:of\s*|=\s*|:\s*)?(\d+)(?:\s+tokens?)?\b", re.I)
_ONE_BLOCK = re.compile(r"\b(?:one|a|each|per|the|that|this)\s+(?:kv\s+)?(?:block|page)\b", re.I)
_TOKENS = re.compile(r"\b(\d+)\s+tokens?\b", re.I)


def as_block_tokens(question: str) -> tuple[str, list[str]]:
    """The question with KV blocks said as the tokens they hold, and a note of the reading."""
    if not re.search(r"\b(?:blocks?|pages?)\b", question, re.I):
        return question, []
    m = _BLOCKS_OF.search(question)
    if m:
        blocks, tokens = int(m.group(1)), int(m.group(2))
        said = f"the kv cache of {blocks * tokens} tokens"
        return (question[:m.start()] + said + question[m.end():],
                [f"“{m.group(0)}” read as {blocks * tokens:,} tokens ({blocks} × {tokens})"])
    sized = _SIZED_BLOCK.search(question) or _BLOCK_SIZE.search(question)
    if sized and question[:sized.start()].endswith("--") and not _ONE_BLOCK.search(question):
        return question, []  # ("vllm serve … --block-size 128 … 16 seqs at the full 8192": the paging's setting)
    if sized:
        tokens = int(sized.group(1))
        question = question[:sized.start()] + question[sized.end():]
    else:
        given = _TOKENS.search(question)
        if given is None or not _ONE_BLOCK.search(question):
            return question, []
        tokens = int(given.group(1))
        question = question[:given.start()] + question[given.end():]
    one = _ONE_BLOCK.search(question)
    said = ("in " if one and one.group(0).lower().startswith("per") else "") + f"the kv cache of {tokens} tokens"
    question = (question[:one.start()] + said + question[one.end():]) if one else f"{question.rstrip(' ?')}, {said}?"
    return question, [f"one block read as {tokens} tokens of KV cache"]
