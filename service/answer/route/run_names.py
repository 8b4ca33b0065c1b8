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

_FIELD_WORDS = [(re.compile(rf"^(?:{pattern})$", re.I), words) for pattern, words in (
    (r"tp(\d+)", r"TP \1"), (r"pp(\d+)", r"PP \1"), (r"dp(\d+)", r"DP \1"), (r"ep(\d+)", r"EP \1"),
    (r"mbs(\d+)", r"micro batch \1"), (r"gbs\d+", ""), (r"(?:seq|ctx)(\d+k?)", r"\1 context"),
    (r"bs(\d+)|b(?!(?:100|200|300)$)(\d{1,4})", r"batch \1\2"), (r"(\d+)x([a-z][a-z0-9-]*\d[a-z0-9]*)", r"\1x \2"),
    (r"(\d+)n(\d+)g", r"\1 nodes x \2 GPUs"), (r"kv(fp8|bf16|fp16|int8|int4|fp32)", r"\1 KV cache"),
    (r"mfu(\d+)", r"\1% MFU"), (r"eff(\d+)", r"\1% of peak bandwidth"),
    (r"sel(?:ective)?-?recomp(?:ute)?", "selective recompute"), (r"full-?recomp(?:ute)?", "full recompute"),
    (r"no-?recomp(?:ute)?", "no recompute"), (r"steps?(\d+)", r"\1 steps"), (r"(?-i:(\d+(?:\.\d+)?[BT]))", r"\1 tokens"),
    # (these name a setting in a name that has others; alone they make no run name: "…-Instruct-AWQ-INT4")
    (r"fp8|bf16|fp16|fp32|int8|int4|awq|gptq|mxfp4|nvfp4|ring|tree", r"\g<0>"),
    (r"ar", "all-reduce"), (r"ag", "all-gather"), (r"rs", "reduce-scatter"), (r"a2a", "all-to-all"),
    (r"(\d+(?:\.\d+)?[KMGT]i?B)", r"a \1 buffer"),
    (r"(?:19|20)\d{6}|r\d{2,}|s\d{2,}|run\d*|sft|bench|kvprobe|vllm|sglang|megatron|ckpt|job|sweep", ""),
    (r"llama3(\d)-(\d+b)", r"llama 3.\1 \2"), (r"ds-(r1|v3)", r"deepseek \1"),
)]
_SEPARATORS = re.compile(r"[_]")
# a token of several "_"-joined fields, or of "-"-joined ones two of which are known fields
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
    if all(run):  # "gbs1024_seq4096_steps250000": the run's tokens, as a run card says them
        gbs, seq, steps = (m.group(1) for m in run)
        fields = [f for f in fields if not any(m.string == f for m in run)]
        fields.append(f"global batch {gbs} sequences of {seq} tokens for {steps} steps")
    said, known, unknown = [], 0, []  # fields no convention knows stay joined: "qwen2.5-72b", "gpt-oss-20b"
    for field in fields:
        words = next((pattern.sub(w, field) for pattern, w in _FIELD_WORDS if pattern.match(field)), None)
        if words is None:
            unknown.append(field)
            continue
        if unknown:
            said.append(_joined(unknown, separator))
            unknown = []
        known += _is_setting(field)
        if words:
            said.append(words)
    if unknown:
        said.append(_joined(unknown, separator))
    known += 3 if all(run) else 0
    if known < 2:  # not a run name: "all_reduce", "max_model_len", "gpt-oss-20b"
        return name
    if separator == "-" and known < 3:
        return name
    return ", ".join(said)


_NOT_SETTINGS = re.compile(r"^(?:fp8|bf16|fp16|fp32|int8|int4|awq|gptq|mxfp4|nvfp4|ring|tree|\d+(?:\.\d+)?[BT]|"
                           r"llama3\d-\d+b|ds-(?:r1|v3))$", re.I)


def _is_setting(field: str) -> int:
    """Does this field make the word a run name (a setting), or only name something in one (a precision, a size)?"""
    return 0 if _NOT_SETTINGS.match(field) else 1


def _joined(fields: list[str], separator: str) -> str:
    """Fields no convention knows, together again: "qwen2.5-72b" (a "-" inside a name), "l4 h200" (two words)."""
    return "-".join(fields) if separator == "-" else " ".join(fields)
