"""Short names typed with one slip are read as the name; figures, settings and other parts never are."""
import pytest

from service.answer.route.numeric import route_numeric
from service.answer.route.slips import mended


@pytest.mark.parametrize(("typed", "meant"), [
    ("quantised to itn8", "quantised to int8"), ("llama 3.1 70b in fo8", "llama 3.1 70b in fp8"),
    ("qwn2.5 7b", "qwen2.5 7b"), ("qwenn 2.5 7b", "qwen 2.5 7b"), ("mistrall 7b", "mistral 7b"),
    ("a sinlge rtz 5090", "a single rtx 5090"), ("an h200d in bf16", "an h200 in bf16"), ("the hmb bandwith", "the hbm bandwith"),
    ("the h100 pcei", "the h100 pcie"), ("8 guadi3 cards", "8 gaudi3 cards"), ("8 acsend 910b", "8 ascend 910b"),
    ("a 34b modle in 4bti", "a 34b modle in 4bit"), ("al-to-all of 512 MB", "all-to-all of 512 MB"),
    ("how much is lfet on the cadr", "how much is left on the card"),
    ("the 80 gig hoppper sxm cards", "the 80 gig hopper sxm cards"), ("blackwel hgx card", "blackwell hgx card"),
    ("on teh amd box", "on the amd box"),
    ("fourty users", "forty users"), ("sixten gpus", "sixteen gpus"), ("a thousnad requests", "a thousand requests"),
])
def test_a_slipped_name_is_typed_right(typed, meant):
    assert mended(typed) == meant


@pytest.mark.parametrize("typed", [
    "gh200", "mi300a", "b100", "h100x2", "8 h100s", "bs16", "tp8", "ctx8k", "8bin bf16", "64gpu", "7.5B", "GEMM",
    "bf61",  # a figure is never mended
    "thirsty", "forth", "fifth", "singles",  # English words, never number words
])
def test_other_parts_settings_and_figures_are_left_as_typed(typed):
    assert mended(typed) == typed


def test_a_slipped_precision_is_computed_with_not_replaced_by_the_default():
    routed = route_numeric("qwn2.5 7b quantsied to itn8, szie of the weigths?")
    assert routed.calculator == "memory"
    assert routed.inputs["model"] == "qwen2.5-7b" and routed.inputs["precision"] == "int8"


def test_a_slipped_number_word_counts_what_it_counts():
    # "singel" had been no count, so the 8 nodes got the default 8 GPUs each: 64 ranks, not 8
    routed = route_numeric("8 nodes with a singel h100 each, NDR 400 IB, ring allreduce of 1 GB - how long?")
    assert routed.calculator == "collective"
    assert routed.inputs["nodes"] == 8 and routed.inputs["gpus_per_node"] == 1


# parts and models named by brand, architecture or nickname and typed fast (batch 192, dev)
@pytest.mark.parametrize(("question", "calculator", "expected"), [
    ("how many of teh 80 gig hoppper sxm cards do i need just to hold llama's 405 in fp8, weights only?", "memory",
     {"model": "llama-3.1-405b", "gpu": "h100-sxm", "primary": "min_gpus"}),
    ("blackwel hgx card (the 180gb b200), oss 120 in mxfp4 like it ships, 8 users at 128k with bf16 kv — free mem on "
     "the one card?", "memory", {"model": "gpt-oss-120b", "gpu": "b200", "batch": 8, "primary": "free_bytes"}),
    ("geforce 5090 w/ llama 3.1 8b at 4bit, weights only, how much vram used?", "memory", {"gpu": "rtx-5090"}),
    ("whats the dense bf16 peak of intels gaudi three", "roofline", {"gpu": "gaudi-3", "primary": "peak_flops"}),
    ("kv bytes/token for the small qwne 2.5 (7b) in fp16?", "kv_cache", {"model": "qwen2.5-7b"}),
    ("qwen2.5's 72b full finetune on 64 of amazon's trainium 2 chips, mixed-precision adam, zero stage 3 — model "
     "states per chip?", "memory", {"gpu": "trainium2", "gpus": 64}),
    ("llama 3.3 70b int4 split over two ada 4090s (24gb each), weights only — how much vram free per card?", "memory",
     {"gpu": "rtx-4090", "gpus": 2}),
    # batch 195 (dev): "l3.1 70" without its b, "ds-r1", "r1," opening the message, "h-100 nvl", "gaudi-three"
    ("l3.1 70, 16 users each at 32k, int8 kv — total cache size", "kv_cache", {"model": "llama-3.1-70b", "batch": 16}),
    ("ds-r1 fp8 on a trn2.48xlarge (16 trainium2 chips, tp16), bs 1, no kv — tok/s per seq", "decode",
     {"model": "deepseek-r1", "gpus": 16}),
    ("r1, one long reasoning trace at 128k, bf16 mla cache — how big", "kv_cache", {"model": "deepseek-r1"}),
    ("h-100 nvl (the 94 gig pcie one), l3.1 8b fp16, 32 chats at 16k with fp16 kv — free mem on the card?", "memory",
     {"gpu": "h100-nvl", "model": "llama-3.1-8b"}),
    ("the first mistral 7b (v0.1) full finetune, mixed-precision adamw, zero stage 1 over 16 gaudi-three cards — "
     "weights+grads+optimizer per card?", "memory", {"gpu": "gaudi-3", "gpus": 16}),
])
def test_a_part_or_model_by_nickname_is_read(question, calculator, expected):
    routed = route_numeric(question)
    assert routed.calculator == calculator
    assert {k: routed.inputs.get(k) for k in expected} == expected


@pytest.mark.parametrize("question", [
    "how many tok/s for llama 3.1 8b on one trainium two chip?",  # dictation: "trainium two chip" is one chip
    "llama 3.1 8b decode on 3 gaudi three cards, aggregate tok/s?",
])
def test_a_spelled_generation_keeps_its_count(question):
    routed = route_numeric(question)
    assert routed.inputs.get("gpu") in ("trainium2", "gaudi-3")
    assert routed.inputs.get("gpus", 1) == (1 if "one" in question else 3)


def test_a_dictated_generation_is_still_read_by_dictation():
    assert route_numeric("what's the h b m bandwidth of one trainium two chip").inputs == {"gpu": "trainium2",
                                                                                         "primary": "bandwidth"}


def test_a_llama_we_lack_by_its_shorthand_is_said_unknown():
    routed = route_numeric("l3.2 3b bf16 weights, how many GB?")  # had been a bare 3B model, "13.2" left unused
    assert routed.name == "llama 3.2 3b" and routed.message.startswith("I don't know that model")
