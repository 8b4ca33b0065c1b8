"""Monitoring output pasted from Prometheus, vLLM, SGLang, TGI, DCGM or NCCL → the words the tagger reads.

'vllm:num_requests_running{model_name="meta-llama/Llama-3.1-8B-Instruct"} 32', 'train_world_size{job="…"} 256',
'nccl_allreduce_bytes{nranks="32"} 2147483648', 'DCGM_FI_DEV_FB_USED{gpu="0",modelName="NVIDIA H200"} 121870'. Read
as typed, every value is a bare number and every label a string: the router found nothing it could bind, or bound
the card's used MiB as a count. Each line is said as what it is: a running-request count is a batch, a world size
GPUs, an MFU an MFU, a token target tokens, an NCCL buffer bytes, "nranks" ranks; a label names the model
(model_name, model_id) or the card (DCGM's modelName). What the run merely shows (memory used or total, cache usage,
utilisation, loss, temperatures, step times) is no input and goes.
"""
from __future__ import annotations

import re

_LINE = re.compile(r"^\s*(?P<name>[A-Za-z_:][\w:]*)\s*(?:\{(?P<labels>[^}]*)\})?\s+(?P<value>-?[\d.]+(?:e[+-]?\d+)?)\s*$",
                   re.M | re.I)
_LABEL = re.compile(r"(\w+)\s*=\s*\"([^\"]*)\"")
# a metric's name → how its value is said ({} is the value); a name not listed is no input
_VALUES = [(re.compile(pattern, re.I), words) for pattern, words in (
    (r"num_requests_running|num_running_reqs|batch_current_size", "batch {}"),
    (r"world_size", "{} GPUs"), (r"_mfu$", "mfu {}"), (r"tokens_target", "{} tokens"), (r"zero_stage", "zero stage {}"),
    (r"[nr]ccl_\w*busbw", "busbw {} B/s"), (r"[nr]ccl_\w*algbw", "algbw {} B/s"),
    (r"[nr]ccl_\w*_bytes$", "a {} bytes buffer"),
    (r"max_total_tokens|max_model_len", "{} context"), (r"kv_cache_tokens$", "{} tokens of context"),
)]
_OPERATION = re.compile(r"[nr]ccl_(all_?reduce|all_?gather|reduce_?scatter|broadcast|all_?to_?all)", re.I)
# a label → how it is said; a card's product label names the part ("card_model", "accelerator", DCGM's "modelName")
_LABELS = {"model_name": "{}", "model_id": "{}", "model": "{}", "modelname": "{}", "nranks": "{} ranks",
           "nnodes": "{} nodes", "cache_dtype": "{} kv cache", "sharding_strategy": "{}", "shard_group_size": "shard group {}",
           "card_model": "{}", "accelerator": "{}", "gpu_model": "{}", "device_name": "{}", "block_size": "{}-token blocks"}
_VENDOR = re.compile(r"^(?:NVIDIA|AMD Instinct|AMD|Intel)\s+", re.I)
# Prometheus' JSON result: {"metric":{"__name__":"…","model_name":"…"},"value":[1718031200.5,"0"]}
_JSON_RESULT = re.compile(r'\{\s*"metric"\s*:\s*\{(?P<labels>[^{}]*)\}\s*,\s*"value"\s*:\s*\[[^,\]]+,\s*"(?P<value>[^"]+)"\s*\]\s*\}')


def _as_line(m: re.Match) -> str:
    """A JSON result said as the text exposition's line: name{labels} value."""
    labels = dict(re.findall(r'"(\w+)"\s*:\s*"([^"]*)"', m.group("labels")))
    name = labels.pop("__name__", "metric")
    return name + "{" + ",".join(f'{k}="{v}"' for k, v in labels.items()) + "} " + m.group("value")


def as_metrics_said(question: str) -> str:
    """The question with its pasted metric lines said in words (a question with none is unchanged)."""
    if "{" not in question and not re.search(r"^\s*[a-z_:]+_\w+\s+[\d.]+\s*$", question, re.M | re.I):
        return question
    question = _JSON_RESULT.sub(_as_line, question)
    said: list[str] = []
    seen: set[object] = set()  # what is said once: a label's (key, value), an operation, a metric

    def line(m: re.Match) -> str:
        words = []
        for key, value in _LABEL.findall(m.group("labels") or ""):
            form = _LABELS.get(key.lower())
            if form and (key.lower(), value) not in seen and value.lower() != "auto":  # ("cache_dtype=auto": unsaid)
                seen.add((key.lower(), value))
                words.append(form.format(_VENDOR.sub("", value)))
        name, value = m.group("name"), m.group("value")
        op = _OPERATION.search(name)
        if op and op.group(1).lower() not in seen:
            seen.add(op.group(1).lower())
            words.append(op.group(1).replace("_", "-"))
        form = next((w for pattern, w in _VALUES if pattern.search(name)), None)
        if form and name not in seen and float(value) != 0:  # ("num_requests_running … 0": an idle pod, no batch)
            seen.add(name)
            words.append(form.format(value))
        said.extend(words)
        return ""

    rest = _LINE.sub(line, question)
    if not said:
        return question
    return ", ".join(said) + "\n" + rest.strip()
