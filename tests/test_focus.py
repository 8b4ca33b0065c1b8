"""A busy message names several models or parts and asks about one: what it says of the others is no input."""
import pytest

from routing import assert_routed
from service.answer.route.focus import as_one_subject
from service.answer.route.numeric import UnknownModel, route_numeric


@pytest.mark.parametrize("question, calculator, expected", [
    # the other model's batch and context are not this one's
    ("Llama 3.1 70B at 16k for 24 users with an fp8 cache; the 8B drafter runs 4k contexts at batch 128. "
     "KV cache for the 70B?", "kv_cache",
     {"model": "llama-3.1-70b", "batch": 24, "context": 16384, "kv_precision": "fp8"}),
    # named by its family word: "the Qwen job"
    ("Qwen2.5 72B in fp8 on 4 H200s at batch 8, while the Mixtral 8x7B box serves 40 users at 8k on 2 L40S; "
     "weights of the Qwen job in GB?", "memory", {"model": "qwen2.5-72b", "precision": "fp8"}),
    # a part asked about among parts: the other part's bandwidth is its own
    ("HBM bandwidth of one MI300X? The H100s beside them have 3.35 TB/s and we run 8 per node.", "roofline",
     {"gpu": "mi300x", "primary": "bandwidth"}),
    # the ask names nothing: its sentence names the subject before it
    ("Mixtral 8x7B on the 2 L40S box, fp8 KV cache, 32 conversations of 16,000 tokens each: how large is the cache in "
     "total, knowing that the 8x22B on 4 H100s is capped at 64k?", "kv_cache",
     {"model": "mixtral-8x7b", "batch": 32, "context": 16000}),
    # the ask's sentence names nothing: the nearest sentence before it that names the setup is the subject
    ("The 8B drafter runs on its own L40S until the lease ends in 14 months. Main model: Llama 3.1 70B in fp8 on 4 "
     "H200 (tp 4), batch 256, KV reads ignored. Compute-bound time of one decode step?", "decode",
     {"model": "llama-3.1-70b", "gpu": "h200", "batch": 256, "primary": "compute_time_s"}),
    ("Our A100 fleet (512 GPUs) keeps serving Mistral 7B for now. Separately: Qwen2.5 72B in fp8 on 2 H200s, 16 users "
     "at 8k with an fp8 cache. Per-user tokens/s?", "decode", {"model": "qwen2.5-72b", "gpu": "h200", "batch": 16}),
    # a clause that names another part but also the model (which the ask leaves open) is kept
    ("llama 3.1 8b decodes 50 tok/s on an a100. how many tok/s on an h100?", "decode",
     {"model": "llama-3.1-8b", "gpu": "h100-sxm"}),
])
def test_the_figures_of_the_model_asked_about_are_read(question, calculator, expected):
    routed = assert_routed(question, calculator, expected)
    assert "others is left out" in " ".join(routed.assumed) or "a100" in question


def test_an_unknown_model_asked_about_among_known_ones_is_said_unknown():
    routed = route_numeric("Falcon 40B in bf16 on two A100 80GBs; the Llama 3.1 8B canary runs at batch 64. "
                           "decode tok/s for the Falcon?")
    assert isinstance(routed, UnknownModel) and "falcon" in routed.name.lower()


@pytest.mark.parametrize("question", [
    "kv for llama 3.1 8b at 8k is about 1 GB; what about llama 3.1 70b?",  # the ask borrows the setup
    "h100 ridge is ~295 flop/B in bf16, what's the mi300x one?",
    "all-reduce of 1 GB across 4 L40S over pcie 4?\nand across 4 A100s?",
    "how does llama 3.1 70b compare with qwen2.5 72b on 8 h100s?",  # two subjects asked: nothing to pick
])
def test_an_ask_that_leans_on_the_rest_or_names_two_keeps_the_message_whole(question):
    assert as_one_subject(question) == (question, [])
