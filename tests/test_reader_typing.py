"""How readers type around their figures: pictures and doubled spaces between a count and its noun, brackets run
together with a colon, idioms that look like cue words, and an operation or a peak named only to be left out."""
import pytest

from routing import assert_routed
from service.answer.route.typography import as_plain_characters

TYPED = [
    # an emoji (with its zero-width joiner) between a count and its noun: the count is still the noun's
    ("mixtral 8x7b ➡️ 16 🧑‍💻 users ➡️ 32,000 tokens each ➡️ fp8 kv ➡️ cache size?", "kv_cache",
     {"batch": 16, "context": 32000}),
    ("🔹 qwen2.5 7b bf16\n🔹 one a100 40gb\n🔹 64 👥 seqs @ 2k ctx, bf16 kv\n➡️ aggregate tok/s?", "decode",
     {"batch": 64, "gpu": "a100-40gb"}),
    # keycap bullets number a list; "🔟 users" is ten of them
    ("1️⃣ 13B dense model\n2️⃣ 1.5T tokens\n3️⃣ 256 🖥️ tpu v5p chips, bf16\n4️⃣ 45% mfu\n➡️ wall-clock days?",
     "training", {"gpus": 256, "tokens": 1_500_000_000_000}),
    ("rtx pro 6000 🖥️ qwen 7b fp16 🖥️ 🔟 users × 32k ctx 🖥️ fp16 kv 👉 room left on the card?", "memory",
     {"batch": 10, "primary": "free_bytes"}),
    # two spaces typed between a count and its noun
    ("mixtral 8x7b,  16  users at 32,000 tokens each, fp8 kv cache size?", "kv_cache", {"batch": 16}),
    # "(not 3.1):" sets the version aside up to its bracket; the KV cache is still what is asked
    ("Llama 3 70B (not 3.1): KV cache for 64 sequences of 8k tokens each in fp16, how many gigs?", "kv_cache",
     {"model": "llama-3-70b", "batch": 64}),
    # a free lunch is no free memory
    ("deepseek r1 at 250,000 tokens per sequence, 3 sequences, fp8 kv — total cache size? and is mla basically a "
     "free lunch or are there catches", "kv_cache", {"batch": 3, "context": 250000}),
    # "— total kv?" ends the message: the cache, even when the weights' precision is named
    ("https://huggingface.co/meta-llama/Llama-3.1-405B-FP8 serving 8 users at 64k each with an fp8 kv cache — total kv?",
     "kv_cache", {"batch": 8, "kv_precision": "fp8"}),
    # a bar set on the cache asks for the cache
    ("llama 3.1 405b serving 4 users at 128k with a bf16 kv cache — more than 250 GB of cache?", "kv_cache",
     {"batch": 4, "context": 131072}),
    # the collective left out of a decode estimate is no collective asked
    ("deepseek v3 fp8 tensor-parallel over 8 mi300x, batch 1, no kv. treat the 8 cards' bandwidth as one pool and "
     "ignore the all-reduces — tok/s?", "decode", {"gpus": 8, "op": None}),
    # the compute side of a decode step divides by the peak; the peak is not the figure asked
    ("just the FLOP side, and use the fp8 dense peak: compute time of one decode step for qwen2.5 72b fp8 on 2 H100 "
     "NVL (tp 2), batch 256, kv ignored?", "decode", {"primary": "compute_time_s", "batch": 256}),
    ("llama 3.1 8b at bf16 on one h20, batch 128 at 2k ctx each with a bf16 kv cache — just the compute-bound part of "
     "the step", "decode", {"primary": "compute_time_s", "batch": 128}),
]


@pytest.mark.parametrize("question, calculator, expected", TYPED)
def test_the_figures_are_read_through_how_they_were_typed(question, calculator, expected):
    assert_routed(question, calculator, expected)


def test_keycaps_are_bullets_on_a_list_and_a_count_alone():
    assert as_plain_characters("1️⃣ llama 3.1 70b\n2️⃣ 4 h100s") == " llama 3.1 70b\n 4 h100s"
    assert as_plain_characters("🔟 users").strip() == "10 users"
    assert as_plain_characters("2️⃣ mi300x").strip() == "2 mi300x"
