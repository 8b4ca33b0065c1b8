"""A value the reader rules out is never an input: "not in fp8, plain bf16", "forget the h100 from the article"."""
import pytest
from routing import assert_routed

from service.answer.route.negations import without_negated


@pytest.mark.parametrize(("question", "calculator", "expected"), [
    ("mistral 7b weights — not in fp8, plain bf16 — how many GB?", "memory",
     {"model": "mistral-7b", "precision": "bf16"}),
    ("6ND flops for llama 3.1 8b — not on 15T tokens, on 1T", "training", {"tokens": 10**12}),
    ("llama 3.1 8b bf16 on a single tpu v5e chip (the v5e, not v5p), weights only — how much is free?", "memory",
     {"gpu": "tpu-v5e"}),
    ("forget the h100 from the article, we're on one h200. llama 3.1 8b in bf16, weights only — headroom?", "memory",
     {"gpu": "h200", "primary": "free_bytes"}),
    ("never mind the 2 nodes, single node: all-gather 1 GB over 8 h100s on nvlink — time?", "collective",
     {"ranks": 8, "nodes": None}),
    ("llama 3.1 8b bf16 on one h100, batch 1, no kv. forget the 85% efficiency factor, ideal bandwidth bound: step "
     "time?", "decode", {"efficiency": None}),
])
def test_a_ruled_out_value_is_never_the_input(question, calculator, expected):
    routed = assert_routed(question, calculator, expected)
    assert any("ruled out by the reader" in note for note in routed.assumed)


def test_a_ruled_out_model_leaves_the_one_meant():
    from service.answer.route.numeric import UnknownModel, route_numeric
    routed = route_numeric("not llama 3.1 70b — Llama 4 Maverick, weights in fp8, how many GB?")
    assert isinstance(routed, UnknownModel)


@pytest.mark.parametrize("text", [
    "llama 3.1 8b in fp8, not counting the kv cache — weights?",  # an exclusion, handled where weights-only is read
    "why is the 70b not fp8 by default?",  # nothing else of its kind: nothing says what is meant instead
    "ignore the kv cache: llama 3.1 8b weights in bf16?",  # names no value: an instruction
    "does llama 3.1 70b not fit on one h100 in fp8?",
])
def test_what_rules_nothing_out_is_left_alone(text):
    assert without_negated(text) == (text, [])
