"""Issue #17: hardware readers ask about, their own links, new collectives, topology, model-sized
buffers, checkpoints. Reference values are computed by hand in each test (arithmetic in comments)."""

import pytest
from pydantic import ValidationError

from calculators import bus_factor, calculate
from calculators.registry import closest_gpus, find_gpu, find_link, gpus

# --- registry ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "gpu", "memory", "bandwidth", "bf16"),
    [("H20", "h20", 96e9, 4.0e12, 148e12),
     ("h100 nvl", "h100-nvl", 94e9, 3.9e12, 835.5e12),  # datasheet 1,671 with sparsity, halved
     ("H200 NVL", "h200-nvl", 141e9, 4.8e12, 835.5e12),
     ("A100 PCIe", "a100-80gb-pcie", 80e9, 1.935e12, 312e12),
     ("gb300", "gb300", 288e9, 8e12, 2500e12),  # 360 PFLOP/s sparse per rack / 72 / 2
     ("4090", "rtx-4090", 24e9, 1.008e12, 165.2e12),
     ("rtx4090", "rtx-4090", 24e9, 1.008e12, 165.2e12),
     ("RTX 5090", "rtx-5090", 32e9, 1.792e12, None),  # dense tensor figures not published plainly
     ("L4", "l4", 24e9, 0.3e12, 121e12),
     ("mi250x", "mi250x", 128e9, 3.2768e12, 383e12),  # per OAM package
     ("MI250X GCD", "mi250x-gcd", 64e9, 1.6384e12, 191.5e12),  # one of its two dies
     ("trillium", "tpu-v6e", 32e9, 1.638e12, 918e12),
     ("v6e", "tpu-v6e", 32e9, 1.638e12, 918e12)],
)
def test_new_accelerators(name, gpu, memory, bandwidth, bf16):
    spec = find_gpu(name)
    assert spec.id == gpu
    assert (spec.memory_bytes, spec.bandwidth, spec.peak("bf16")) == (memory, bandwidth, bf16)


def test_b300_has_dense_bf16():
    assert find_gpu("b300").peak("bf16") == 2250e12  # HGX B300: 36 PFLOP/s sparse / 8 GPUs / 2


def test_gb200_superchip_is_not_a_per_gpu_alias():
    assert find_gpu("gb200 superchip") is None  # two GPUs + Grace: 2 × 186 GB, not 186 GB
    assert find_gpu("gb200").memory_bytes == 186e9


@pytest.mark.parametrize(
    ("gpu", "link", "per_direction"),
    [("mi300x", "infinity-fabric-mi300x", 448e9),  # 7 links × 128 GB/s bidirectional / 2
     ("mi325x", "infinity-fabric-mi300x", 448e9),
     ("mi355x", "infinity-fabric-mi355x", 537.6e9),  # 7 × 153.6 / 2
     ("mi250x", "infinity-fabric-mi250x", 350e9),  # 7 links × 50 GB/s per direction per GCD
     ("tpu-v5e", "ici-v5e", 200e9),  # 400 GB/s bidirectional per chip / 2
     ("tpu-v5p", "ici-v5p", 600e9),  # 1,200 / 2
     ("tpu-v6e", "ici-v6e", 400e9),  # 800 / 2
     ("trainium2", "neuronlink-v3", 640e9),  # 1.28 TB/s per chip / 2
     ("gaudi-3", "gaudi3-roce", 525e9),  # 21 × 200 GbE = 21 × 25 GB/s
     ("h100-nvl", "nvlink-bridge-h100-nvl", 300e9),
     ("h200-nvl", "nvlink-bridge-h200-nvl", 450e9),
     ("l4", "pcie4", 32e9), ("rtx-4090", "pcie4", 32e9), ("rtx-5090", "pcie5", 64e9),
     ("h100-pcie", "pcie5", 64e9), ("a100-80gb-pcie", "pcie4", 32e9), ("h20", "nvlink4", 450e9)],
)
def test_each_gpu_names_its_own_link(gpu, link, per_direction):
    spec = find_gpu(gpu)
    assert spec.link == link
    assert find_link(link).bandwidth == per_direction
    calc = calculate("collective", {"gpu": gpu, "ranks": 8, "size": "1 GB"})
    assert calc.inputs["link"] == link


def test_non_nvidia_parts_never_use_nvlink():
    for spec in gpus().entries.values():
        if spec.id.startswith(("mi", "tpu", "trainium", "gaudi")):
            assert spec.link and "nvlink" not in spec.link, spec.id


@pytest.mark.parametrize(
    ("name", "first", "also"),
    [("H800", "h100-sxm", None), ("MI400", "mi355x", "mi325x"), ("A6000", "rtx-pro-6000", None),
     ("Gaudi 4", "gaudi-3", None), ("B100", "b200", None), ("RTX 3090", "rtx-4090", None),
     ("mi250", "mi250x", None), ("tpu v7", "tpu-v6e", None)],
)
def test_closest_gpus_for_unknown_names(name, first, also):
    assert find_gpu(name) is None
    suggestions = closest_gpus(name)
    assert suggestions[0] == first
    assert len(suggestions) == 3
    if also:
        assert also in suggestions


# --- collectives -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("op", "n", "factor"), [("send_recv", 2, 1), ("gather", 8, 7 / 8), ("scatter", 16, 15 / 16)])
def test_new_collective_bus_factors(op, n, factor):
    assert float(bus_factor(op, n)) == factor


def test_send_recv_is_one_message():
    calc = calculate("collective", {"op": "send/recv", "size": "1 GB", "ranks": 2, "link": "nvlink4"})
    # 1 × 1 GB / 450 GB/s + 1 step × 2 µs
    assert calc.primary.value == pytest.approx(1e9 / 450e9 + 2e-6)
    assert calc.quantity("busbw").value == pytest.approx(calc.quantity("algbw").value)


@pytest.mark.parametrize("op", ["gather", "scatter"])
def test_gather_scatter_time(op):
    calc = calculate("collective", {"op": op, "size": "1 GB", "ranks": 8, "link": "nvlink4"})
    # (8−1)/8 × 1 GB / 450 GB/s + 7 steps × 2 µs
    assert calc.primary.value == pytest.approx(7 / 8 * 1e9 / 450e9 + 7 * 2e-6)
    assert calc.quantity("busbw").value == pytest.approx(calc.quantity("algbw").value * 7 / 8)


def test_busbw_to_algbw_for_all_gather_on_16_ranks():
    calc = calculate("collective", {"op": "all_gather", "busbw": "300 GB/s", "ranks": 16})
    assert calc.primary.name == "algbw"
    assert calc.primary.value == pytest.approx(300e9 * 16 / 15)  # algbw = busbw / ((16−1)/16) = 320 GB/s


def test_four_nodes_of_eight_is_32_ranks_two_level_by_default():
    calc = calculate("collective", {"op": "all_reduce", "size": "1 GB", "nodes": 4, "gpus_per_node": 8,
                                    "link": "nvlink4", "inter_link": "ib-ndr"})
    assert calc.inputs["ranks"] == 32 and calc.inputs["algorithm"] == "hierarchical"
    # in node: 2 × [(8−1)/8 × 1 GB / 450 GB/s + 7 × 2 µs]; across nodes: 2(4−1)/4 × (1 GB / 8) / 50 GB/s + 6 × 10 µs
    intra = 2 * (7 / 8 * 1e9 / 450e9 + 7 * 2e-6)
    inter = 1.5 * 125e6 / 50e9 + 6 * 10e-6
    assert calc.quantity("hierarchical_time_s").value == pytest.approx(intra + inter)
    assert calc.primary.value == pytest.approx(intra + inter)
    # flat ring: the slowest hop is the 50 GB/s NIC: 2(32−1)/32 × 1 GB / 50 GB/s + 62 × 10 µs
    assert calc.quantity("flat_ring_time_s").value == pytest.approx(62 / 32 * 1e9 / 50e9 + 62 * 10e-6)
    assert calc.quantity("busbw").value == pytest.approx(1e9 / (intra + inter) * 62 / 32)
    assert any("bounds the two-level time" in s for s in calc.steps)


def test_flat_ring_across_nodes_is_bounded_by_the_nic():
    calc = calculate("collective", {"op": "all_reduce", "size": "1 GB", "nodes": 2, "gpus_per_node": 8,
                                    "gpu": "h100", "algorithm": "ring"})
    # defaults: NVLink 4 in node, one NDR NIC (50 GB/s) per GPU; 2(16−1)/16 × 1 GB / 50 GB/s + 30 × 10 µs
    assert calc.inputs["inter_link"] == "ib-ndr"
    assert calc.primary.value == pytest.approx(30 / 16 * 1e9 / 50e9 + 30 * 10e-6)
    assert any("slowest hop" in s and "InfiniBand NDR" in s for s in calc.steps)


def test_nic_bandwidth_per_gpu_and_all_gather_across_nodes():
    calc = calculate("collective", {"op": "all_gather", "size": "2 GB", "nodes": 4, "ranks": 32,
                                    "nic_bandwidth": "400 Gb/s"})
    # 32 ranks / 4 nodes = 8 per node; flat ring at 50 GB/s: (32−1)/32 × 2 GB / 50 GB/s + 31 × 10 µs
    assert calc.inputs["gpus_per_node"] == 8
    assert calc.primary.value == pytest.approx(31 / 32 * 2e9 / 50e9 + 31 * 10e-6)


def test_topology_inputs_are_checked():
    with pytest.raises(ValidationError):
        calculate("collective", {"nodes": 4, "gpus_per_node": 8, "ranks": 16})
    with pytest.raises(ValidationError):
        calculate("collective", {"op": "all_gather", "algorithm": "hierarchical", "nodes": 2})
    with pytest.raises(ValidationError):
        calculate("collective", {"algorithm": "hierarchical", "ranks": 8})


def test_buffer_from_a_model_and_precision():
    calc = calculate("collective", {"op": "all_reduce", "model": "llama-3.1-8b", "precision": "fp32",
                                    "ranks": 8, "link": "nvlink4"})
    size = 8_030_261_248 * 4  # every parameter's fp32 gradient: 32,121,044,992 B
    assert calc.primary.value == pytest.approx(1.75 * size / 450e9 + 14 * 2e-6)
    assert any("32,121,044,992 B" in s for s in calc.steps)
    default = calculate("collective", {"params": "70B", "ranks": 8})
    assert any("bf16" in a for a in default.assumptions)  # 70e9 × 2 B by default
    assert default.primary.value == pytest.approx(1.75 * 140e9 / 450e9 + 14 * 2e-6)
    with pytest.raises(ValidationError):
        calculate("collective", {"model": "llama-3.1-8b", "size": "1 GB"})


def test_mi300x_all_reduce_uses_infinity_fabric():
    calc = calculate("collective", {"gpu": "mi300x", "size": "1 GB", "ranks": 8})
    assert calc.primary.value == pytest.approx(1.75 * 1e9 / 448e9 + 14 * 2e-6)


# --- training state and checkpoints ------------------------------------------------------------------


def test_full_training_checkpoint_is_14_bytes_per_param():
    calc = calculate("memory", {"model": "llama-3.1-8b", "mode": "training", "primary": "checkpoint_bytes"})
    # 2 (bf16 weights) + 4 (fp32 master) + 4 + 4 (Adam moments) = 14 B × 8,030,261,248
    assert calc.primary.name == "checkpoint_bytes"
    assert calc.primary.value == 14 * 8_030_261_248 == 112_423_657_472
    sharded = calculate("memory", {"model": "llama-3.1-8b", "zero_stage": 3, "gpus": 64})
    assert sharded.quantity("checkpoint_bytes").value == 112_423_657_472  # the whole model, however sharded


def test_mixed_precision_adam_is_16_bytes_per_param():
    calc = calculate("memory", {"model": "llama-3.1-8b", "mode": "training"})
    assert calc.quantity("training_state_bytes").value == 16 * 8_030_261_248


def test_training_at_context_0_counts_no_activations():
    # a context of 0 tokens with no micro-batch given had raised a TypeError (a 500 through /v1/calculate)
    calc = calculate("memory", {"model": "qwen2.5-7b", "mode": "training", "gpus": 16, "context": 0})
    assert calc.quantity("total_bytes").value == calc.quantity("training_state_bytes").value
    assert "context 0: no activations counted" in calc.assumptions


def test_zero_stage_and_data_parallel_ranks_are_inputs():
    calc = calculate("memory", {"model": "llama-3.1-8b", "zero_stage": 2, "dp": 32})
    # ZeRO-2: 2Ψ + 14Ψ / 32 with Ψ = 8,030,261,248
    psi = 8_030_261_248
    assert calc.inputs["gpus"] == 32
    assert calc.quantity("training_state_bytes").value == 2 * psi + 14 * psi // 32
    tp = calculate("memory", {"params": "64B", "zero_stage": 3, "dp": 8, "tp": 4, "pp": 2})
    assert tp.inputs["gpus"] == 64
    assert tp.quantity("training_state_bytes").value == 16 * 8_000_000_000 // 8
    with pytest.raises(ValidationError):
        calculate("memory", {"params": "8B", "zero_stage": 1, "dp": 8, "gpus": 16})


# --- names readers mistype ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "model"),
    [("lamma 3 70b", "llama-3-70b"), ("mixtrel 8x7b", "mixtral-8x7b"), ("mixtarl 8x22b", "mixtral-8x22b"),
     ("deepsek v3", "deepseek-v3"), ("gpt-os 120b", "gpt-oss-120b"), ("quen 2.5 7b", "qwen2.5-7b")],
)
def test_typos_resolve_to_one_model(name, model):
    from calculators.registry import find_model, find_model_fuzzy

    assert find_model(name) is None
    assert find_model_fuzzy(name).id == model


@pytest.mark.parametrize("name", ["llama 2 70b", "gemma 2 9b", "qwen3 8b", "mistral 7b v0.3", "falcon 180b", "phi 4"])
def test_a_different_number_is_never_a_typo(name):
    from calculators.registry import find_model_fuzzy

    assert find_model_fuzzy(name) is None


def test_family_aliases_and_ambiguous_names():
    from calculators.registry import ambiguous_model, find_gpu_fuzzy, find_model

    assert find_model("qwen 72b").id == "qwen2.5-72b"  # Qwen2 72B has the same config
    assert find_model("llama 3.3 70b").id == "llama-3.1-70b"
    spec, words = ambiguous_model("Mixtral")
    assert spec.id == "mixtral-8x7b" and "8x22B" in words
    assert find_model("mixtral") is None  # never resolved silently
    assert find_gpu_fuzzy("mi300").id == "mi300x"
    assert find_gpu_fuzzy("h800") is None


def test_decode_reports_past_window_kv_for_sliding_models():
    calc = calculate("decode", {"model": "gpt-oss-120b", "context": 65536, "gpu": "h100"})
    assert calc.quantity("kv_bytes_per_token_past_window").value == 18 * 2048
