"""A GPU described by its traits (memory, bandwidth, power, generation, form factor) is the one part they fit."""
import pytest

from routing import assert_routed
from service.answer.route.described import as_named
from service.answer.route.numeric import UnknownGpu, route_numeric


@pytest.mark.parametrize("question, calculator, expected", [
    # the memory after the family, in "gigs", inside brackets
    ("llama 3.1 70b bf16 weights on two of nvidia's HBM3e hopper refresh in SXM form (141 gigs each): free per gpu?",
     "memory", {"gpu": "h200"}),
    # the bandwidth picks the form factor; the count before the description is the GPUs'
    ("all-gather 512 MB over 4 of the 2 TB/s pcie hoppers on pcie gen5, time?", "collective",
     {"gpu": "h100-pcie", "ranks": 4}),
    # power and generation: one part is both
    ("how many days for llama 3.1 8b on 2T tokens with 256 of amd's 1400W CDNA 4 instincts at 40% mfu in bf16?",
     "training", {"gpu": "mi355x", "gpus": 256}),
    # a generation said as an ordinal
    ("6ND flops for mistral 7b on 3T tokens, trained on aws's second-gen trainium chips", "training",
     {"gpu": "trainium2"}),
    # a bracketed description after a year
    ("mixtral 8x7b in fp8 on intel's 2024 gaudi (the 128GB one): spare memory, weights only?", "memory",
     {"gpu": "gaudi-3"}),
    # half a package, said so
    ("qwen2.5 7b bf16 on one 64GB GCD of amd's dual-die CDNA 2 accelerator: how much is left?", "memory",
     {"gpu": "mi250x-gcd"}),
    # a figure after the description belongs to the question, not the card
    ("nccl all_reduce on 8 of the 24GB ada gaming cards shows algbw 10 GB/s: busbw?", "collective",
     {"gpu": "rtx-4090", "ranks": 8}),
    # google's cost-optimised fifth generation, by its memory
    ("roofline attainable TFLOP/s at 40 FLOP/byte in bf16 on google's cost-optimized v5 tpu (16GB HBM per chip)?",
     "roofline", {"gpu": "tpu-v5e"}),
    # a verb inside the description, a generation said by its number, the vendor said after, a hyphenated family
    ("the cut-down hopper nvidia sells in china (96 gigs of HBM3): llama 3.1 8b fp8, batch 1, no kv - tok/s?", "decode",
     {"gpu": "h20"}),
    ("qwen 2.5 7b bf16, batch 8 at 4k each, bf16 kv, on gaudi generation three from intel: aggregate tok/s?", "decode",
     {"gpu": "gaudi-3", "batch": 8}),
    ("mistral 7b over 1T tokens on 256 of amazon's gen-2 trainium chips, bf16, 40% MFU: days?", "training",
     {"gpu": "trainium2", "gpus": 256}),
    ("dense bf16 peak of one GPU in nvidia's first-gen grace-blackwell NVL72 rack (186GB)", "roofline",
     {"gpu": "gb200"}),
])
def test_a_described_gpu_is_the_part_its_traits_fit(question, calculator, expected):
    routed = assert_routed(question, calculator, expected)
    assert any("read as" in line for line in routed.assumed)  # the reading is said


@pytest.mark.parametrize("question", [
    "llama 3.1 70b bf16 on google's fourth-gen tpus (32GB each): how many for the weights?",  # a generation we lack
    "mistral 7b in bf16 on amd's 64GB CDNA 2 PCIe card, fits?",  # an MI210, not half an MI250X
])
def test_a_description_no_part_fits_is_an_unknown_gpu(question):
    assert isinstance(route_numeric(question), UnknownGpu)


@pytest.mark.parametrize("question", [
    "nvidia-smi shows NVIDIA H800 80GB HBM3 on all 8, all-reduce 1 GiB ring time?",  # a card named, not described
    "amd's 128GB APU running llama 3.1 8b, tok/s?",  # a product line the registry holds no part of
    "why is hopper faster than ampere for llama decode?",  # a family alone describes no one part
    "on amd's top-clocked CDNA 4 instinct, ridge point in fp8?",  # CDNA 4 alone could be an MI350X
])
def test_a_name_or_a_bare_family_is_not_read_as_a_described_part(question):
    assert as_named(question)[1] == []


@pytest.mark.parametrize("question", [
    "all-reduce 4 GB over 4 nodes, each with 8 H200s, ring: time?",
    "all-reduce 4 GB over 4 nodes, each node has 8 H200s, ring: time?",
])
def test_what_each_node_holds_said_after_the_node_count(question):
    assert_routed(question, "collective", {"nodes": 4, "gpus_per_node": 8})


@pytest.mark.parametrize("question", [
    "mixtral 8x7b fp16 on one GCD of an MI250X: how far short am I?",
    "rocm-smi shows 2 devices per MI250X at 64 GB each; qwen2.5 7b bf16 on a single one of those GCDs, batch 1, no kv: "
    "tok/s?",
])
def test_one_die_of_an_mi250x_is_the_gcd(question):
    routed = route_numeric(question)
    assert routed.inputs["gpu"] == "mi250x-gcd" and any("GCD" in line for line in routed.assumed)
