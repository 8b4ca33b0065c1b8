"""A message with a calculation and a qualitative question: the calculation is computed (explain + compute), the
qualitative half is the article's; a message that only tells and asks why computes nothing."""
import pytest
from routing import assert_routed

from service.answer.route.numeric import route_numeric


@pytest.mark.parametrize(("question", "calculator", "expected"), [
    ("llama 3.1 70b in fp8 — how many GB are the weights alone? and honestly is fp8 good enough at that size?",
     "memory", {"model": "llama-3.1-70b", "precision": "fp8"}),
    ("why does zero-1 only shard the optimizer states and not the grads? and what's the per-gpu state for llama 3.1 8b "
     "under zero-1 on 16 gpus, bf16 mixed-precision adamw, activations excluded?", "memory",
     {"zero_stage": 1, "gpus": 16}),
    ("two-level all-reduce of 2 GB across 8 nodes × 8 h100, nvlink 4 in-node, one 400 Gb/s NDR nic per gpu — time? and "
     "does SHARP in-network reduction change the picture much?", "collective", {"nodes": 8, "size": 2 * 10**9}),
])
def test_the_calculation_half_is_computed_and_explained(question, calculator, expected):
    assert assert_routed(question, calculator, expected).explain


@pytest.mark.parametrize("question", [
    "torchrun --nproc_per_node 8 train.py --model llama-3.1-8b --zero 2 → OOMs only in the backward pass. why?",
    "is the mi300a any good for inference? what decode tok/s would llama 3.1 8b in bf16 get on it?",  # the part is
    # named only in the qualitative half: never the default H100
])
def test_no_calculation_half_or_a_name_left_behind_computes_nothing(question):
    from service.answer.route.numeric import NumericRequest
    assert not isinstance(route_numeric(question), NumericRequest)
