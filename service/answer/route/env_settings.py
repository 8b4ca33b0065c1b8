"""Settings pasted as environment variables or config keys → their names and values in words.

Readers paste a `.env` file, `export` lines, a docker-compose `environment:` block, Kubernetes `env:` entries
("- name: NUM_GPUS\\n  value: \\"8\\""), or Helm values with camelCase keys, then ask one line: "MODEL=Qwen/Qwen2.5-72B
\\nMAX_MODEL_LEN=100000\\nKV_CACHE_DTYPE=fp8\\nCONCURRENCY=2\\nRATE_LIMIT_RPM=600\\n\\ntotal kv?". The names hold the
meaning ("maxNumSeqs: 12" is the batch, "TRAIN_TOKENS=18000000000000" the tokens, "NP=16" the ranks), and most
lines are about something else: ports, timeouts, workers, log levels, seeds, rate limits, an autoscaler's
bounds, a CPU pod's memory limit ("REPLICAS=4" stays: a fleet's KV is every replica's). Each setting line is said as "<name in words> <value>" (a count or a unit after
its value), and a line whose name is about operations, not the calculation, goes. A question with fewer than three
setting lines is unchanged.
"""
from __future__ import annotations

import re

from .labelled_values import label_words, said_pair
from .background import kinds

# "MAX_MODEL_LEN=32768", "export TP=4", "  maxModelLen: 131072", "  targetMFU: 0.35", "    GPU_SKU: \"H100 NVL\""
_SETTING = re.compile(r"^(?P<indent>[ \t]*)(?:export\s+|-\s+)?(?P<key>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{2,}[0-9]*|"
                      r"[a-z]+(?:[A-Z][a-zA-Z0-9]*)+)[ \t]*[=:][ \t]*(?P<value>[^#\n]*?)[ \t]*(?:#[ \t]*(?P<comment>.*))?$", re.M)
# Kubernetes' env list: "- name: NUM_GPUS" then "  value: \"8\""
_ENV_ENTRY = re.compile(r"^\s*-\s*name:\s*[\"']?(?P<key>[A-Z][A-Z0-9_]*)[\"']?\s*\n\s*value:\s*(?P<value>[^\n]*)$", re.M)
# names about operating the service, not about the calculation
_OPERATIONS = re.compile(r"\b(?:port|host|url|path|dir|timeout|timeouts|workers?|jobs|log|level|seed|rate|rpm|tpm|"
                         r"limit rpm|retries|retry|interval|shutdown|graceful|secret|token|api|key|region|zone|version|"
                         r"utilization|utilisation|cpu|shm|min replicas|max replicas|autoscaling|prefill|"
                         r"min bytes|lazy|ofi|debug|verbose|cache dir|hf home|revision|trust|swap|queue|priority|batched|chunk|chunked)\b")


_ANY_SETTING = re.compile(r"^\s*(?:export\s+|-\s+)?[\w.-]+\s*[=:]\s*\S", re.M)  # "gpu: h100-pcie" too


# a count set inline among other settings: "…, tokens = 15T, chips = 6,144 → days?" ("6,144 chips")
_INLINE_COUNT = re.compile(r"(?:^|(?<=,)\s*)(?P<noun>gpus|chips|cards|accelerators|devices|nodes)\s+=\s+(?P<n>\d[\d,]*)"
                           r"(?=\s*(?:,|→|->|\?|$))", re.I | re.M)


# settings pasted on one line before an arrow: "model: mistral-7b-v0.1 / batch: 10 / kv: bf16 -> kv cache …?",
# "tp=4 gpu=h100 model=llama-3.1-70b weights=fp8 -> …"
_ARROW = re.compile(r"\s*(?:->|=>|→)\s*")
_PAIR = re.compile(r"(?P<key>[a-z][\w.-]*)\s*[=:]\s*(?P<value>[^\s/|;,]+(?:\s+(?![a-z][\w.-]*\s*[=:])[^\s/|;,=:]+)*)", re.I)
_PAIR_SEPARATOR = re.compile(r"^\s*(?:[/|;,]\s*)?$")


def _settings_on_lines(text: str) -> str:
    """One line of three or more settings before an arrow, a setting a line (so each is read as a line is)."""
    if "\n" in text or not _ARROW.search(text):
        return text
    head, ask = _ARROW.split(text, maxsplit=1)
    intro = re.match(r"^[^:=]*?:\s+(?=[a-z][\w.-]*\s*[=:])", head, re.I)  # ("gaudi 3 cluster config: cards: 512 / …")
    start = intro.end() if intro else 0
    pairs = list(_PAIR.finditer(head, start))
    between = [head[a.end():b.start()] for a, b in zip(pairs, pairs[1:])]
    if len(pairs) < 3 or pairs[0].start() != start or head[pairs[-1].end():].strip() \
            or not all(_PAIR_SEPARATOR.match(gap) for gap in between):
        return text
    lines = [f"{m.group('key')}: {m.group('value')}" for m in pairs]
    return "\n".join(([head[:start].strip()] if start else []) + lines + [ask])


def as_settings_said(text: str) -> str:
    """The question with its pasted settings said in words (a question with fewer than three setting lines, or
    none named as code names them, is unchanged)."""
    text = _settings_on_lines(text)
    text = _INLINE_COUNT.sub(lambda m: f"{m.group('n')} {m.group('noun')}", text)
    text = _ENV_ENTRY.sub(lambda m: f"{m.group('key')}={m.group('value')}", text)
    if len(_ANY_SETTING.findall(text)) < 3 or not _SETTING.search(text):
        return text
    return re.sub(r"\n{3,}", "\n\n", _SETTING.sub(_said, text))  # (the lines that went leave no gap)


def _said(m: re.Match) -> str:
    label = label_words(m.group("key"))
    value = m.group("value").strip().strip("\"'")
    if not value or _OPERATIONS.search(label) and not kinds(value, names_only=True):  # "MODEL_PATH=/models/llama-3.1-70b" stays
        return ""
    said = said_pair(label, value)
    comment = m.group("comment") or ""
    return m.group("indent") + said + (f" {comment}" if comment else "") + ","

