"""A long, rambling message is read from the sentence that asks, with the sentences just before it that set it up:
the dates, prices, team sizes and old runs around it give no figure."""
import pytest
from routing import assert_routed

from service.answer.route.long_message import is_long, read, sentences
from service.answer.route.numeric import UnknownModel, route_numeric

SAGA = ("Bit of a saga. Our lab got an allocation on a university cluster that only has AMD MI325X nodes (256 GB each), "
        "valid from January through June, 50,000 node-hours total, and the admins there are lovely but the queue is "
        "chaos on Mondays. The PI wants to poke at Llama 3.1 405B in full bf16, no quantization because of some eval "
        "reproducibility thing. So: what's the minimum number of MI325X GPUs just to hold the bf16 weights, split "
        "evenly, ignoring KV cache and activations? I need that to file the job request. Last semester we ran a 70B "
        "model on 2 of them and it was fine, but that's a different model. Anyway, also wondering whether ROCm 6.2 "
        "plays nicely with vLLM yet.")


def test_a_long_message_is_read_from_its_ask_back_to_its_setup():
    windows = []
    read(SAGA, lambda window: windows.append(window) or (window if "Llama" in window else None))
    assert windows[0].startswith("So: what's the minimum number")  # the ask alone first
    assert windows[1].startswith("The PI wants to poke at Llama 3.1 405B")  # then the sentence before it
    assert all("Last semester" not in w and "ROCm" not in w for w in windows)  # what follows the ask is never read


def test_a_short_question_is_read_whole():
    assert not is_long("llama 3.1 8b on one h100, batch 1 — tok/s?")
    assert is_long(SAGA)
    assert sentences("Llama 3.1 8B is here. Is it 3.1? Yes.") == ["Llama 3.1 8B is here.", "Is it 3.1?", "Yes."]


@pytest.mark.parametrize(("question", "calculator", "expected"), [
    (SAGA, "memory", {"model": "llama-3.1-405b", "gpu": "mi325x", "primary": "min_gpus"}),
    # the setup two sentences back is taken in; the node's 8 cards after the ask are not
    ("Hi, PhD student here, second year, advisor is on sabbatical until May so I'm on my own. I'm training Llama 3.1 8B "
     "from a checkpoint on one node and keep getting OOMs during the backward pass. Config: sequence length 4096, "
     "micro-batch of 2 sequences, full activation recomputation turned on, no tensor parallelism. Roughly how much "
     "memory do the activations take per GPU in that setup? The run log says step 1,340 when it died, and the loss "
     "was 2.31. Our node has 8 cards, but I'm just asking about the activation part on each.", "memory",
     {"context": 4096, "batch": 2, "recompute": "full", "primary": "activation_bytes"}),
    # a sentence that names the part is setup even when it tells history ("bought used in 2023")
    ("Side project, weekend vibes. I have 8 RTX 4090s in a mining-rig-turned-training-box (bought used in 2023, about "
     "$1,400 each, the PSU situation is a fire hazard). I want to pretrain a 1.3B-parameter model on 100B tokens in "
     "bf16, and I'm guessing 30% MFU because consumer cards and PCIe. How long would that take on all 8 cards? My "
     "partner wants to know if the house will be warm all winter. I tried a 125M model last year on 2 cards and it "
     "finished in 4 days. Anyway, also wondering if FSDP over PCIe is going to be the real bottleneck.", "training",
     {"gpu": "rtx-4090", "gpus": 8, "mfu": 0.3}),
    # the intensity said a sentence before "at that intensity"
    ("Our Shenzhen team is stuck with H20s (export rules, we've been over this in 6 meetings) and they have a "
     "prefill-heavy workload. One attention kernel they profiled runs at around 30 FLOP per byte in bf16 — thirty, "
     "give or take, use 30. On an H20 in bf16, what's the roofline-attainable throughput at that intensity? They keep "
     "saying the card is compute-starved. The card costs them something like ¥100k each, they bought 16 in 2024. "
     "Anyway, also wondering whether fp8 would help them.", "roofline", {"gpu": "h20", "intensity": 30.0}),
    # a past metric in brackets gives no efficiency; "how much memory does the KV cache need" asks the cache
    ("Background first: we serve a customer-support product in 5 languages, up since 2023, and we're moving from a "
     "dense model to Mixtral 8x7B because the quality jump was worth it in our October eval (win rate went from 41% "
     "to 58%). Now infra wants sizing. We'd run 24 concurrent sequences, each with 32,000 tokens of context, and the "
     "KV cache in fp8. What's the total KV cache across all 24? Weights I can figure out myself. The on-call team is "
     "3 people.", "kv_cache", {"batch": 24, "context": 32000}),
    ("Long time lurker. We still run Llama 3 70B (the original, not 3.1) because our fine-tune from last spring is "
     "built on it and retraining costs around $18k we don't have. We have 50 users in the office who all chat with it at once, and each conversation can hold up to "
     "8k tokens of context. We store the cache in fp16. How much memory does the KV cache need in total for all 50 "
     "users at full 8k? The rest of the day it's more like 10 users.", "kv_cache", {"batch": 50, "context": 8192}),
    # a run's schedule ("64 GPUs for 6 weeks") is no deadline when its state is asked
    ("We're a small team (4 of us) fine-tuning Qwen 2.5 72B for a medical domain, grant-funded until 2026. We've got "
     "64 GPUs for 6 weeks. Plan: PyTorch FSDP with full sharding across all 64 GPUs, bf16 mixed precision with AdamW. "
     "What's the model state per GPU — weights, gradients and optimizer — leaving activations aside? The dataset is "
     "800 million tokens, which I know is small.", "memory", {"gpus": 64, "primary": "training_state_bytes"}),
    ("Story time: we won an AMD hardware grant in September (one MI300X, on loan for 6 months). Our group is 5 "
     "people. I want to serve Qwen 2.5 72B in 4-bit AWQ on that one MI300X for a single user, KV cache reads ignored. "
     "How many milliseconds per generated token should I expect from the bandwidth bound? We measured something in "
     "the 40s of ms last week.", "decode", {"gpu": "mi300x", "primary": "step_time_s"}),
])
def test_a_long_message_gets_the_figures_of_its_question(question, calculator, expected):
    assert_routed(question, calculator, expected)


def test_an_unknown_model_in_a_long_message_is_said():
    routed = route_numeric(
        "Our data team (12 people, mostly analysts) wants a SQL assistant, and someone found Yi-34B benchmarks from "
        "2023 that look good. Before I entertain it: Yi-34B in bf16, how many GB are the weights alone? I need to "
        "know whether it fits on the 80 GB card we already have. Our warehouse has 2,400 tables. The team lead wants a "
        "demo by the 20th. Anyway, also wondering whether a newer model would just be better for SQL at this point.")
    assert isinstance(routed, UnknownModel)
