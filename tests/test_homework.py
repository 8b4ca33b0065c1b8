"""Homework and exam layout: a question's number, marks and rounding are no figures, and of lettered parts only
the one the reader says to answer is asked."""
import pytest
from routing import assert_routed

from service.answer.route.homework import as_one_part
from service.answer.route.numeric import route_numeric


@pytest.mark.parametrize(("typed", "read"), [
    ("Q4 (3 marks): Llama 3.1 8B serves 24 users. Compute the total memory.",
     "Llama 3.1 8B serves 24 users. Compute the total memory."),
    ("Q6 (3 marks) A ring all-reduce of a 2 GB buffer. Show your working. (round to 1 d.p.)",
     "A ring all-reduce of a 2 GB buffer."),
    ("Exercise 2.b: llama 8b kv at 4k?", "llama 8b kv at 4k?"),
    ("Question 3 [4 pts] - mixtral fits?", "mixtral fits?"),
])
def test_a_questions_number_marks_and_rounding_go(typed, read):
    assert as_one_part(typed)[0] == read


@pytest.mark.parametrize("typed", [
    "Q4 llama 8b memory?",  # a bare "Q4" may be a 4-bit quant
    "q2.5-7b kv int8 @128k x1 → GB",  # Qwen2.5 7B
    "llama 3.1 70b (a) on h100",  # one letter in brackets is no list of parts
])
def test_what_is_no_exam_layout_is_left_alone(typed):
    assert as_one_part(typed) == (typed, [])


def test_of_lettered_parts_the_one_asked_is_read_with_the_parts_that_set_it_up():
    text, said = as_one_part("Exercise 6\n(a) KV bytes per token for Llama 3 70B with an FP8 cache.\n(b) Total KV "
                             "cache for 48 sequences of 8k tokens each, same FP8 cache, in GB.\nAnswer part (b) only.")
    assert text.endswith("Total KV cache for 48 sequences of 8k tokens each, same FP8 cache, in GB.")
    assert text.startswith("KV bytes per token for Llama 3 70B")  # it names the model: the setup stays
    assert said == ["answering part (b)"]


def test_a_part_that_only_asks_goes():
    text, _ = as_one_part("Exercise 7\n(a) flat ring time\n(b) hierarchical time\nfor an all-reduce of 1 GiB on 16 "
                          "nodes of 4 x A100 80GB SXM (NVLink 3 in-node), HDR InfiniBand between nodes, one NIC per "
                          "GPU.\nAnswer 7(b) only.")
    assert "flat ring" not in text and text.startswith("hierarchical time")


@pytest.mark.parametrize(("question", "calculator", "expected"), [
    # "Q4"/"Q8" are the questions' numbers, not 4- or 8-bit quants; "Q6" is no unknown precision
    ("Q4 (3 marks): Llama 3.1 8B serves 24 concurrent sequences of 8,000 tokens each. Weights are in BF16 and the KV "
     "cache is in FP8. Compute the total memory for weights plus KV cache, in GB.", "memory",
     {"precision": "bf16", "kv_precision": "fp8", "batch": 24}),
    ("Q8 (2 marks) Llama 3.1 8B in INT4 on one GeForce RTX 4090 at batch 8; ignore the KV cache and assume peak "
     "memory bandwidth. Compute the time per decode step in ms. Hint: INT4 = 0.5 byte per weight.", "decode",
     {"precision": "int4", "batch": 8, "primary": "step_time_s"}),
    ("Q6 (3 marks) A ring all-reduce of a 2 GB buffer runs across 8 GPUs on NVLink 5, using the link's default "
     "per-step latency. Compute the time in ms.", "collective", {"op": "all_reduce", "size": 2e9, "ranks": 8}),
    ("Exercise 9\n(a) Llama 3.1 405B in FP8 on 8 x H200, tensor parallel; batch 32; 8,192 tokens of context per "
     "sequence in an FP8 KV cache.\n(b) Find only the memory-bound part of the step time.\nAnswer (b).", "decode",
     {"model": "llama-3.1-405b", "batch": 32, "primary": "memory_time_s"}),
    ("Exercise 7\n(a) flat ring time\n(b) hierarchical time\nfor an all-reduce of 1 GiB on 16 nodes of 4 x A100 80GB "
     "SXM (NVLink 3 in-node), HDR InfiniBand between nodes, one NIC per GPU.\nAnswer 7(b) only.", "collective",
     {"nodes": 16, "primary": "hierarchical_time_s"}),
    # a peak FLOP/s assumed is no training budget: the decode step time is asked
    ("Given: DeepSeek-V3 (FP8 weights) on 8 x B300 with TP 8; batch 128; 4k tokens of context per sequence; FP8 KV "
     "cache; full peak bandwidth and FLOP/s.\nFind: the decode step time in ms. Show your working.", "decode",
     {"batch": 128, "context": 4096, "primary": "step_time_s"}),
])
def test_an_exam_question_gets_the_calculation_it_asks(question, calculator, expected):
    assert_routed(question, calculator, expected)


def test_the_part_answered_is_said():
    routed = route_numeric("Exercise 6\n(a) KV bytes per token for Llama 3 70B with an FP8 cache.\n(b) Total KV cache "
                           "for 48 sequences of 8k tokens each, same FP8 cache, in GB.\nAnswer part (b) only.")
    assert routed.calculator == "kv_cache" and routed.inputs["batch"] == 48
    assert "answering part (b)" in routed.assumed
