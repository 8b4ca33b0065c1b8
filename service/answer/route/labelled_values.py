"""A setting's name and its value → the words the tagger reads: "n_gpus 4" → "4 gpus", "maxModelLen 8192" →
"max model len 8192", "deadline_days 60" → "deadline 60 days".

Pasted code, configs and environment files name their figures with identifiers (snake_case, camelCase,
UPPER_SNAKE); the tagger reads labels in words, and reads a count or a unit after its number. Shared by the
readings of pasted Python sessions and of environment and config files.
"""
from __future__ import annotations

import math
import re

# a label whose last word is a count's noun or a unit is said after its value ("n_gpus 4" → "4 gpus")
_NOUNS_AFTER = {"gpus", "chips", "cards", "devices", "accelerators", "nodes", "users", "seqs", "sequences",
                "requests", "ranks", "days", "hours", "weeks", "tokens", "params", "parameters", "bytes", "replicas"}
_LABELS = {"conc": "concurrency", "world": "world size", "n params": "parameters", "num params": "parameters",
           "numel": "parameters", "nbytes": "buffer bytes", "size bytes": "buffer bytes", "dev": "device",
           "tokens per s": "tokens per second", "np": "ranks", "count": "gpu count", "hw chips": "chips"}
_COUNTING = {"n", "num", "number", "total", "target", "train", "training"}  # "n_gpus 4" → "4 gpus"
# the value is a name and says itself: "get_device_name 'NVIDIA H20'", "GPU_SKU=H100 NVL"
_NO_LABEL = re.compile(r"(?:^| )(?:name|kind|get device name|device name|sku|accelerator|gpu type|instance type)$")


def label_words(name: str) -> str:
    """"gpus_per_node" → "gpus per node", "DecodeEstimate" → "decode estimate", "maxModelLen" → "max model len",
    "MAX_MODEL_LEN" → "max model len", "targetMFU" → "target mfu"."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", name)
    return re.sub(r"[_\s]+", " ", spaced).strip().lower()


def said_pair(label: str, value) -> str:
    """"<label> <value>", or "<value> <noun>" for a count or a unit; nothing for a value that holds none."""
    said = said_value(value)
    if not said:
        return ""
    label = _LABELS.get(label, label)
    if _NO_LABEL.search(label):
        return said
    *first, last = label.split() or [""]
    if last + "s" in _NOUNS_AFTER and first and first[-1] in _COUNTING:  # "n_seq 6" → "6 seqs"
        last += "s"
    if last in _NOUNS_AFTER and re.fullmatch(r"\d[\d,.e+]*[kKMBT]?", said):  # "deadline_days" → "deadline 60 days"
        first = [w for w in first if w not in _COUNTING]
        return " ".join(first + [said, last])
    return f"{label} {said}".strip()


def said_value(value) -> str:
    if value is None or isinstance(value, bool) or isinstance(value, float) and math.isnan(value):
        return ""
    if isinstance(value, str):
        return "" if value.strip().lower() in ("nan", "none", "") else value
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
