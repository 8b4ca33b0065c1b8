"""Free-text routing: every phrasing in evals/datasets/numeric.yaml, follow-ups, speed."""

from pathlib import Path

import pytest
import yaml

from calculators import calculate
from service.answer.route.numeric import NumericRequest, UnknownModel, route_numeric

DATASET = Path(__file__).resolve().parents[1] / "evals" / "datasets" / "numeric.yaml"
ITEMS = yaml.safe_load(DATASET.read_text(encoding="utf-8"))


def test_dataset_size_and_mix():
    assert len(ITEMS) >= 80
    assert len({item["id"] for item in ITEMS}) == len(ITEMS)
    assert sum(item["route"] == "retrieval" for item in ITEMS) >= 15
    assert sum(item.get("expected", {}).get("unknown_model", False) for item in ITEMS) >= 3


@pytest.mark.parametrize("item", ITEMS, ids=[item["id"] for item in ITEMS])
def test_phrasing(item):
    routed = route_numeric(item["question"])
    if item["route"] == "retrieval":
        assert routed is None
        return
    expected = item["expected"]
    if expected.get("unknown_model"):
        assert isinstance(routed, UnknownModel)
        assert routed.closest and routed.message.startswith("I don't know that model; closest: ")
        return
    assert isinstance(routed, NumericRequest)
    assert routed.calculator == expected["calculator"]
    assert routed.explain == item.get("explain", False)
    quantity = calculate(routed.calculator, routed.inputs).quantity(expected["quantity"])
    assert quantity.unit == expected["unit"]
    assert quantity.value == pytest.approx(expected["value"], rel=expected["tolerance"])


def _route(question, previous=None):
    routed = route_numeric(question, previous)
    assert isinstance(routed, NumericRequest), question
    return routed


def test_follow_ups():
    first = _route("how much memory does Llama 3.1 70B need in bf16?")
    fp8 = _route("and in fp8?", first)
    assert fp8.calculator == "memory" and fp8.inputs["precision"] == "fp8"
    assert fp8.inputs["model"] == "llama-3.1-70b"
    decode = _route("what about decode?", first)
    assert decode.calculator == "decode" and decode.inputs["model"] == "llama-3.1-70b"
    more = _route("with 64 GPUs?", first)
    assert more.inputs["gpus"] == 64
    h200 = _route("and on an H200?", decode)
    assert h200.inputs["gpu"] == "h200" and h200.calculator == "decode"
    collective = _route("How long does an all-reduce of 1 GB take across 8 GPUs over NVLink?")
    assert _route("with 64 GPUs?", collective).inputs["ranks"] == 64
    assert route_numeric("What is the KV cache?", first) is None


def test_defaults_are_stated():
    routed = _route("How much memory to serve Llama 3.1 70B to 16 concurrent users?")
    assert "context 8,192 tokens (default)" in routed.assumed
    assert "precision bf16 (default)" in routed.assumed


def test_interpretations_are_stated():
    routed = _route("KV cache for Llama 3.1 8B at 32k context?")
    assert routed.inputs["context"] == 32768
    assert any("32k" in a and "32,768" in a for a in routed.assumed)


@pytest.mark.parametrize(
    ("question", "slot", "value"),
    [("Memory for Llama-3.1-70B-Instruct in bf16", "model", "llama-3.1-70b"),
     ("memory for llama 3 70b in bf16", "model", "llama-3-70b"),
     ("memory for a 70B model in bf16", "params", 70_000_000_000),
     ("Llama 3.1 8B memory in 8-bit", "precision", "int8"),
     ("Llama 3.1 8B memory in 4-bit", "precision", "int4"),
     ("Does Llama 3.1 70B fit on two H200s?", "gpus", 2),
     ("Does Llama 3.1 70B fit on an MI300X?", "gpu", "mi300x"),
     ("Does Llama 3.1 70B fit on 8x H100 SXM?", "gpus", 8),
     ("How long is a 500MB all-gather across 64 ranks?", "size", 500_000_000),
     ("How long is a 4 GiB all-gather across 64 ranks?", "size", 4 * 2**30),
     ("How long is a 1 GB all-reduce over 8 ranks at 400 Gb/s?", "bandwidth", 50e9),
     ("How long is a 1 GB all-reduce over 8 ranks at 50 GB/s?", "bandwidth", 50e9),
     ("How long is a 1 GB all-reduce over 8 ranks on NDR?", "link", "ib-ndr"),
     ("KV cache of Llama 3.1 8B at 128K tokens", "context", 131072),
     ("KV cache of Llama 3.1 8B with 8,192 tokens", "context", 8192),
     ("KV cache of Llama 3.1 8B at batch 32 and 4k context", "batch", 32),
     ("Memory per GPU for a 7.5B model with ZeRO-2 on 64 GPUs", "zero_stage", 2),
     ("How long to train Llama 3.1 8B on 15.6T tokens on 1024 H100s?", "tokens", 15_600_000_000_000)],
)
def test_slots(question, slot, value):
    assert _route(question).inputs[slot] == value


def test_a_complete_new_question_is_not_a_follow_up():
    first = _route("How many tokens/s does Llama 3.1 70B decode on an H100?")
    fresh = _route("In bf16, how much memory does Llama 3.1 8B need on its own?", first)
    assert fresh.calculator == "memory" and fresh.inputs == {"model": "llama-3.1-8b", "precision": "bf16"}
    other = _route("what about Llama 3.1 8B?", first)
    assert other.calculator == "decode" and other.inputs["model"] == "llama-3.1-8b"


def test_explain_and_compute():
    routed = _route("Explain the KV cache and compute its size for Llama 3.1 8B at 8k context.")
    assert routed.explain and routed.calculator == "kv_cache"
    assert not _route("How big is the KV cache per token for Llama 3.1 8B?").explain


def test_unknown_gpu_is_said_not_guessed():
    routed = _route("How long to train Llama 3.1 8B on 15T tokens on 512 H800s?")
    assert routed.inputs["gpus"] == 512 and "gpu" not in routed.inputs
    assert any("H800" in a and "not in the registry" in a for a in routed.assumed)
