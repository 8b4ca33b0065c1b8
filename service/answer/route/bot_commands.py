"""A command typed to the Slack bot → the words the tagger reads.

Readers talk to a bot the way they talk to bots: "/calc kv model=llama-3.1-8b ctx=8k batch=16 kv=fp8", "!kv
qwen2.5-72b 32k x4", "/roofline --gpu gaudi-3 --prec bf16 --ai 120", "/train llama-3.1-405b tokens: 15.6T, gpus:
16,384, mfu: 38%", "@assistant calc memory mixtral-8x22b int4 gpus=4 gpu=l40s". The command's name says which
calculation ("/ridge", "/act", "/decode"), and each argument is a key and a value the tagger would otherwise read
as two unrelated words ("ai=120" is no count of anything; "prec: bf16" is the precision bf16). Each argument is
said in words ("intensity 120", "bf16", "8192 context"); a question that opens with no command is left as it is.
"""
from __future__ import annotations

import re

from .tagger import code_numbers

_OPENS = re.compile(r"^\s*(?:@\w+\s+)?(?:[/!](?P<command>[a-z][\w-]*)\b|(?P<calc>calc|compute)\s*:?\s)", re.I)
# what a command's name asks, in the words the tagger reads
_COMMANDS = {"kv": "kv cache", "kvcache": "kv cache", "decode": "decode tok/s", "tps": "decode tok/s",
             "toks": "decode tok/s", "ridge": "ridge point", "peak": "peak flops", "roofline": "roofline",
             "act": "activation memory", "activations": "activation memory", "mem": "memory", "memory": "memory",
             "fit": "fit memory", "train": "training", "coll": "", "nccl": "", "calc": "", "ask": "", "compute": ""}
# an argument's key → how its value is said ({} is the value)
_KEYS = {
    "model": "{}", "m": "{}", "gpu": "{}", "hw": "{}", "accel": "{}", "prec": "{}", "precision": "{}", "dtype": "{}",
    "weights": "{}", "w": "{}", "kv": "{} kv cache", "kv_dtype": "{} kv cache", "kvprec": "{} kv cache",
    "kv-dtype": "{} kv cache", "ai": "intensity {}", "intensity": "intensity {}", "ctx": "{} context",
    "context": "{} context", "seq": "{} context", "seqlen": "{} context", "seq_len": "{} context", "len": "{} context",
    "bs": "batch {}", "batch": "batch {}", "mbs": "micro batch {}", "users": "{} users", "seqs": "{} sequences",
    "tp": "TP {}", "pp": "PP {}", "gpus": "{} GPUs", "n": "{} GPUs", "chips": "{} chips", "nodes": "{} nodes",
    "gpn": "{} GPUs per node", "gpus/node": "{} GPUs per node", "gpus_per_node": "{} GPUs per node",
    "ranks": "{} ranks", "size": "a {} buffer", "msg": "a {} buffer", "op": "{}", "algo": "{}", "link": "{}",
    "intra": "{}", "inter": "{} between nodes", "mfu": "mfu {}", "eff": "at {} of peak bandwidth",
    "efficiency": "at {} of peak bandwidth", "tokens": "{} tokens", "toks": "{} tokens", "deadline": "deadline {}",
    "zero": "zero stage {}", "recompute": "{} recompute", "busbw": "busbw {}", "algbw": "algbw {}",
    # a function's keyword arguments ("estimate_kv(model='…', ctx=65_536, dtype='fp8')")
    "quant": "{}", "accelerator": "{}", "count": "{} GPUs", "n_gpus": "{} GPUs", "num_gpus": "{} GPUs",
    "world_size": "{} GPUs", "nbytes": "a {} bytes buffer", "deadline_days": "deadline {} days", "params": "{} params",
    "tensor_model_parallel_size": "TP {}", "pipeline_model_parallel_size": "PP {}", "seq_length": "{} context",
    "micro_batch_size": "micro batch {}", "recompute_granularity": "{} recompute", "batch_size": "batch {}",
    "max_model_len": "{} context", "max_num_seqs": "{} sequences", "kv_cache_dtype": "{} kv cache",
}
# a function the reader calls, by what its name asks ("estimate_kv", "weights_gb", "decode_tps", "nccl_allreduce")
_FUNCTIONS = [(re.compile(pattern, re.I), words) for pattern, words in (
    (r"kv", "kv cache"), (r"weight|param_bytes", "weights"), (r"fit|can_serve", "fit memory"),
    (r"ridge", "ridge point"), (r"roofline|attainable", "roofline attainable"), (r"decode|tps|step", "decode"),
    (r"all_?reduce", "all-reduce"), (r"all_?gather", "all-gather"), (r"reduce_?scatter", "reduce-scatter"),
    (r"all_?to_?all", "all-to-all"), (r"broadcast", "broadcast"), (r"send_?recv", "send/recv"),
    (r"gpus_needed", "how many GPUs to train"), (r"train", "training"),
)]
_CALL = re.compile(r"\b(?P<name>[A-Za-z_][\w.]*)\((?P<args>[^()]*=[^()]*|\s*['\"][^()]*)\)")
# "model=llama-3.1-8b", "tokens: 15.6T", "gpus: 16,384" and "--prec bf16"
_ARGUMENT = re.compile(r"(?<![\w/.-])(?P<key>[a-z][\w/-]*)\s*[=:]\s*(?P<value>[^\s,;]+(?:,\d{3})*)"
                       r"|--(?P<flag>[a-z][\w/-]*)\s+(?P<flag_value>[^\s,;-][^\s,;]*)", re.I)


def as_said(question: str) -> str:
    """The question with a bot command's or a function call's name and arguments said in words (a question in words
    is unchanged)."""
    if _CALL.search(question):
        question = _CALL.sub(_call, code_numbers(question))  # Python's 65_536, 1<<30, 2**31 first
    opened = _OPENS.match(question)
    if opened is None:
        return question
    name = (opened.group("command") or opened.group("calc")).lower()
    rest = question[opened.end():]
    rest = _ARGUMENT.sub(_argument, rest)
    # "x4 seqs"; "!kv qwen 32k x4": four sequences of the cache; "/decode … h100-nvl x1": one card
    rest = re.sub(r"\bx(\d+)\s+(seqs?|sequences|users|chats|requests|streams)\b", r"\1 \2", rest, flags=re.I)
    rest = re.sub(r"\bx(\d+)\b", r"batch \1" if name in ("kv", "kvcache") else r"x \1", rest)
    rest = re.sub(r"\b(\d+(?:\.\d+)?)d\b", r"\1 days", rest)  # "deadline 60d"
    return f"{_COMMANDS.get(name, name)} {rest}".strip()


def _argument(m: re.Match) -> str:
    key, value = (m.group("key") or m.group("flag")).lower(), m.group("value") or m.group("flag_value")
    said = _KEYS.get(key)
    if said is None:
        return m.group(0)
    if key == "mfu" and re.fullmatch(r"\.\d+", value):
        value = "0" + value
    if key in ("size", "msg") and re.fullmatch(r"[\d.]+(?:e\d+)?", value):  # "size=1073741824": bytes
        value += " bytes"
    if key in ("eff", "efficiency") and re.fullmatch(r"0?\.\d+", value):  # "eff=0.7": 70% of the peak bandwidth
        value = f"{float(value) * 100:g}%"
    return said.format(value)


def _call(m: re.Match) -> str:
    """"estimate_kv(model='llama-3.1-405b', ctx=65536, dtype='fp8')" → "kv cache llama-3.1-405b, 65536 context, fp8"."""
    name = m.group("name").split(".")[-1]
    words = next((w for pattern, w in _FUNCTIONS if pattern.search(name)), "")
    args = re.sub(r"['\"]", "", m.group("args"))
    return f"{words} {_ARGUMENT.sub(_argument, args)}".strip()
