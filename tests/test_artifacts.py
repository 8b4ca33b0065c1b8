"""What copying and pasting leaves around a question is no part of it: reply headers, phone signatures,
attachment placeholders, wrapped words, HTML entities, zero-width spaces, a question pasted twice."""
import pytest
from routing import assert_routed

from service.answer.route.artifacts import without_paste_artifacts
from service.answer.route.numeric import route_numeric
from service.answer.route.typography import as_plain_characters


@pytest.mark.parametrize(("pasted", "read"), [
    ("On Tue, 3 Jun 2025 at 10:42, Sam <sam@example.com> wrote:\n> llama 3.1 8b kv at 16k?", "\n> llama 3.1 8b kv at 16k?"),
    ("llama 3.1 8b on one L40S, tok/s?\n\nSent from my iPhone", "llama 3.1 8b on one L40S, tok/s?\n\n"),
    ("mistral 7b fits on an l4?\nGet Outlook for Android", "mistral 7b fits on an l4?\n"),
    ("(attachment 2 of 3)\nkv per token of llama 3 8b?", "\nkv per token of llama 3 8b?"),
    ("[image: screenshot.png] ridge point of an h100?", " ridge point of an h100?"),
    ("full recom-\nputation, tp 4, activations?", "full recomputation, tp 4, activations?"),
    ("dense bf16 peak of one TPU v5e chip?dense bf16 peak of one TPU v5e chip?", "dense bf16 peak of one TPU v5e chip?"),
    ("kv of qwen2.5 7b at 8k? kv of qwen2.5 7b at 8k?", "kv of qwen2.5 7b at 8k?"),
])
def test_what_the_paste_added_goes(pasted, read):
    assert without_paste_artifacts(pasted) == read


@pytest.mark.parametrize("typed", [
    "tp 4 -\nbatch 8, llama 8b memory?",  # a dash before a line break, after no letter, joins nothing
    "8 users at 8k. 8 users at 8k?",  # not the same twice: one has no question mark
    "On our cluster we wrote: 8 h100s, llama 70b fits?",  # no reply header: it has no line to itself
])
def test_what_the_paste_did_not_add_stays(typed):
    assert without_paste_artifacts(typed) == typed


def test_entities_and_zero_width_spaces_are_plain_characters():
    assert as_plain_characters("2&nbsp;GiB over 5&nbsp;&micro;s") == "2 GiB over 5 us"
    assert as_plain_characters("Mistral\u200b 7B &gt;&gt; fits?") == "Mistral 7B >> fits?"


@pytest.mark.parametrize(("question", "calculator", "expected"), [
    # the reply's date is no context, and the quoted question is the question
    ("On Wed, 2 Jul 2025, 16:08 Tomás <tomas@corp.io> wrote:\n\n&gt; Qwen2.5 72B, 4 concurrent sequences at 128k "
     "each, fp8 KV cache — total KV size?&nbsp;", "kv_cache", {"context": 131072, "batch": 4}),
    ("Mistral\u200b 7B in fp16 with 8 sequences of 4,096 tokens each and an fp16 KV cache — total memory (weights + KV)?",
     "memory", {"model": "mistral-7b", "batch": 8}),
    ("tree all-reduce of 128&nbsp;MB over 128 ranks, 50 GB/s per rank and 5&nbsp;&micro;s per step — time?",
     "collective", {"size": 128e6, "alpha_s": 5e-6}),
    ("Activation memory per GPU for Qwen2.5 72B training at seq len 4,096, micro-batch 2, full recom-\nputation, "
     "tensor parallel 4?\n\nGet Outlook for iOS", "memory", {"recompute": "full", "tp": 4}),
])
def test_a_pasted_question_gets_the_figures_it_states(question, calculator, expected):
    assert_routed(question, calculator, expected)


@pytest.mark.parametrize(("question", "alpha"), [
    ("all_gather of 5e8 bytes over 16 ranks on IB NDR, 1e-5 s per step — time?", 1e-5),  # "1e-5" is no "1e 5"
    ("we budgeted 2 s per step for data-parallel sync on 4 nodes x 8 h100 with 400 Gb/s per gpu: flat ring "
     "all-reduce of llama 3.1 8b's fp32 gradients across all 32 — how long?", None),  # a budget, not α
])
def test_a_time_per_step_of_a_collective_is_its_per_step_latency(question, alpha):
    assert route_numeric(question).inputs.get("alpha_s") == alpha


def test_a_posts_trailing_hashtags_and_karma_name_nothing():
    from routing import assert_routed
    assert_routed("gaudi 3 check 🔥 llama 3.1 8b bf16 on 2 gaudi 3s tp2, 8 users @ 2k ctx, bf16 kv → aggregate tok/s? "
                  "#intel #habana [+5]", "decode", {"gpu": "gaudi-3", "gpus": 2, "batch": 8})
    assert_routed("Q for the timeline: min number of H20s to hold deepseek r1 in fp8, weights only? #deepseek #h20",
                  "memory", {"gpu": "h20", "model": "deepseek-r1", "primary": "min_gpus"})
