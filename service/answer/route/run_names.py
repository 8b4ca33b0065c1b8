"""Settings encoded in a run, file or job name → the words the tagger reads.

Readers paste the name their tooling gave a run: "llama3.1-70b_fp8_tp8_8xb200_bs128_ctx8k_kvfp8 → aggregate tok/s?",
"runs/llama3.1-405b_tp8_pp8_mbs1_seq4096_selrecomp_20260312 — activation memory per gpu?", "ar_1GiB_4n8g_h200".
Read as one word, the name hides every figure in it ("bs128" is no batch, "kvfp8" no cache precision). A name
of several fields joined by "_" (or "-" between fields the conventions below know) is said field by field: "tp8" →
"TP 8", "mbs1" → "micro batch 1", "seq4096"/"ctx8k" → a context, "bs128"/"b64" → a batch, "8xb200" → "8x b200",
"4n8g" → 4 nodes × 8 GPUs, "kvfp8" → an fp8 KV cache, "mfu38" → 38% MFU, "selrecomp" → selective recompute.
A date (20260312), a run id (r42), a seed (s1234) and a global batch (gbs512) are no inputs and go.
"""
from __future__ import annotations

import re

# a field's pattern, how it is said, and whether it is a setting (a name of two or more settings is a run name; a
# precision, a size or a model alone is not: "…-Instruct-AWQ-INT4")
_FIELDS = [(re.compile(rf"^(?:{pattern})$", re.I), words, setting) for pattern, words, setting in (
    (r"tp(\d+)", r"TP \1", True), (r"pp(\d+)", r"PP \1", True), (r"dp(\d+)", r"DP \1", True), (r"ep(\d+)", r"EP \1", True),
    (r"mbs(\d+)", r"micro batch \1", True), (r"gbs\d+", "", True), (r"(?:seq|ctx)(\d+k?)", r"\1 context", True),
    (r"bs(\d+)|b(?!(?:100|200|300)$)(\d{1,4})", r"batch \1\2", True),
    (r"(\d+)x([a-z][a-z0-9-]*\d[a-z0-9]*)", r"\1x \2", True),
    (r"(\d+)n(\d+)g", r"\1 nodes x \2 GPUs", True), (r"kv(fp8|bf16|fp16|int8|int4|fp32)", r"\1 KV cache", True),
    (r"mfu(\d+)", r"\1% MFU", True), (r"eff(\d+)", r"\1% of peak bandwidth", True),
    (r"sel(?:ective)?-?recomp(?:ute)?", "selective recompute", True), (r"full-?recomp(?:ute)?", "full recompute", True),
    (r"no-?recomp(?:ute)?", "no recompute", True), (r"steps?(\d+)", r"\1 steps", True),
    (r"(?-i:(\d+(?:\.\d+)?[BT]))", r"\1 tokens", False),
    (r"fp8|bf16|fp16|fp32|int8|int4|awq|gptq|mxfp4|nvfp4|ring|tree", r"\g<0>", False),
    (r"ar", "all-reduce", True), (r"ag", "all-gather", True), (r"rs", "reduce-scatter", True),
    (r"a2a", "all-to-all", True), (r"(\d+(?:\.\d+)?[KMGT]i?B)", r"a \1 buffer", True),
    (r"(?:19|20)\d{6}|r\d{2,}|s\d{2,}|run\d*|sft|bench|kvprobe|vllm|sglang|megatron|ckpt|job|sweep", "", True),
    (r"llama3(\d)-(\d+b)", r"llama 3.\1 \2", False), (r"ds-(r1|v3)", r"deepseek \1", False),
)]
# a token of several "_"-joined fields, or of "-"-joined ones at least three of which are settings
_NAME = re.compile(r"(?:[\w./-]*/)?(?P<name>[A-Za-z][\w.-]*_[\w.-]+)")
_DASHED = re.compile(r"(?<![\w.])(?P<name>[A-Za-z][\w.]*(?:-[\w.]+){3,})(?![\w.])")


def as_fields_said(question: str) -> str:
    """The question with each run, file or job name said field by field (a question with none is unchanged)."""
    if "_" not in question and not _DASHED.search(question):
        return question
    question = _NAME.sub(lambda m: _said(m.group("name"), "_"), question)
    return _DASHED.sub(lambda m: _said(m.group("name"), "-"), question)


_GBS, _SEQ, _STEPS = (re.compile(rf"^{p}$", re.I) for p in (r"gbs(\d+)", r"(?:seq|ctx)(\d+k?)", r"steps?(\d+)"))


def _said(name: str, separator: str) -> str:
    stem = re.sub(r"\.(?:ya?ml|json|toml|pt|safetensors|log)$", "", name, flags=re.I)
    fields = stem.split(separator)
    run = [next((m for f in fields if (m := pattern.match(f))), None) for pattern in (_GBS, _SEQ, _STEPS)]
    settings = 0
    if all(run):  # "gbs1024_seq4096_steps250000": the run's tokens, as a run card says them (three settings)
        gbs, seq, steps = (m.group(1) for m in run)
        fields = [f for f in fields if not any(m.string == f for m in run)]
        fields.append(f"global batch {gbs} sequences of {seq} tokens for {steps} steps")
        settings = 3
    said, unknown = [], []  # fields no convention knows stay joined: "qwen2.5-72b", "gpt-oss-20b"
    for field in fields:
        known = next(((pattern.sub(words, field), setting) for pattern, words, setting in _FIELDS
                      if pattern.match(field)), None)
        if known is None:
            unknown.append(field)
            continue
        if unknown:
            said.append(_joined(unknown, separator))
            unknown = []
        words, setting = known
        settings += setting
        if words:
            said.append(words)
    if unknown:
        said.append(_joined(unknown, separator))
    # not a run name: "all_reduce", "max_model_len", "gpt-oss-20b", "Meta-Llama-3.1-405B-Instruct-AWQ-INT4"
    return ", ".join(said) if settings >= (3 if separator == "-" else 2) else name


def _joined(fields: list[str], separator: str) -> str:
    """Fields no convention knows, together again: "qwen2.5-72b" (a "-" inside a name), "l4 h200" (two words)."""
    return "-".join(fields) if separator == "-" else " ".join(fields)
