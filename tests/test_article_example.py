"""The article's own example, set against the reader's setup, gives no figure; a question whose setup is the
example keeps it."""
import pytest
from routing import assert_routed

from service.answer.route.article_example import without_the_articles_example
from service.answer.route.numeric import UnknownModel, route_numeric


@pytest.mark.parametrize(("question", "calculator", "expected"), [
    ("the article uses 8 users at 4k, but we have 24 users at 16k each on Llama 3.1 70B with a bf16 cache — what's our "
     "total KV?", "kv_cache", {"batch": 24, "context": 16384}),
    ("the article sizes weights at 2 bytes per param (bf16), but we serve Qwen2.5 72B quantized to int4 — what do the "
     "weights come to?", "memory", {"precision": "int4", "primary": "weights_bytes"}),
    ("instead of the article's 4 users at 128k, we run gpt-oss-20b with 32 users at 8k each and a bf16 KV cache. how "
     "much cache is that in total?", "kv_cache", {"batch": 32, "context": 8192}),
    ("the article works 6ND for a 70B on 15T tokens; for our 3B-parameter model on 600B tokens, what's the training "
     "FLOP count?", "training", {"params": 3e9, "tokens": 600e9}),
    ("article: 2 nodes of 8 H100 on NDR. ours: 8 nodes × 8 H200, one 400 Gb/s NDR NIC per GPU, NVLink 4 inside each "
     "node. hierarchical all-reduce of 2 GB — time?", "collective", {"nodes": 8, "gpu": "h200"}),
    ("the article's reduce-scatter runs on an NVLink box; ours is a reduce-scatter of 512 MiB across 4 RTX 4090s over "
     "PCIe 4.0 — how long?", "collective", {"ranks": 4, "link": "pcie4"}),
    # the model is the example's when the reader names none of their own
    ("the article runs DeepSeek V3 on 8 H200s; we have 8 MI300X with tensor parallel 8, fp8 weights, one user, KV "
     "ignored. tok/s for that stream?", "decode", {"model": "deepseek-v3", "gpu": "mi300x", "gpus": 8}),
    ("the checkpoint figure in the article is for a 70B dense model. what does one full training checkpoint of Mixtrel "
     "8x22B come to — bf16 weights, fp32 master weights and both Adam moments, no gradients?", "memory",
     {"model": "mixtral-8x22b", "primary": "checkpoint_bytes"}),
])
def test_the_readers_setup_not_the_articles_is_computed(question, calculator, expected):
    routed = assert_routed(question, calculator, expected)
    assert any("the article's example" in a for a in routed.assumed)


def test_an_unknown_model_of_the_readers_is_said():
    routed = route_numeric("your example is Llama 3.1 70B; we run Llama 4 Maverick with fp8 weights — how big are "
                           "the weights?")
    assert isinstance(routed, UnknownModel)


@pytest.mark.parametrize("question", [
    "the page says Llama 3.1 70B in fp8 decodes at ~69 tok/s on one H200 at batch 1. does the same hold on one MI300X?",
    "the article says a full training checkpoint is 14 bytes per parameter. for qwen2.5 72b that gives me roughly 1 TB — "
    "check?",
    "the article's example: llama 3.1 70b, 8 users at 8k. what about 32 users?",  # nothing named after the turn
    "llama 3.1 70b kv for 8 users at 8k, as in the article?",  # no opening clause about the article
])
def test_a_question_that_leans_on_the_article_keeps_it(question):
    assert without_the_articles_example(question) == (question, [])


def test_the_example_is_left_out_where_a_letter_brings_it_up():
    routed = route_numeric("Hi,\n\nTicket INF-8850. We have 24 B300s on order and 10 engineers waiting.\n\nthe article "
                           "uses 8 users at 4k, but we have 24 users at 16k each on Llama 3.1 70B with a bf16 cache — "
                           "what is our total KV?\n\nThanks,\nKwame")
    assert routed.calculator == "kv_cache" and routed.inputs["batch"] == 24 and routed.inputs["context"] == 16384
