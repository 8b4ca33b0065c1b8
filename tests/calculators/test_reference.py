"""DESIGN §6 reference values, as exact tests."""

from fractions import Fraction

import pytest

from calculators import bus_factor, calculate
from calculators.registry import find_gpu, find_link, find_model


@pytest.mark.parametrize(
    ("model", "total"),
    [
        ("llama-3.1-8b", 8_030_261_248),
        ("llama-3.1-70b", 70_553_706_496),
        ("llama-3.1-405b", 405_853_388_800),
        ("llama-3-8b", 8_030_261_248),
        ("llama-3-70b", 70_553_706_496),
        ("mistral-7b", 7_241_732_096),
        ("qwen2.5-7b", 7_615_616_512),  # q/k/v biases counted
        ("gpt-oss-120b", 116_829_156_672),  # OpenAI model card: 116.83B
        ("gpt-oss-20b", 20_914_757_184),  # OpenAI model card: 20.91B
    ],
)
def test_parameter_counts_from_config(model, total):
    assert find_model(model).params.total == total


def test_qwen_biases_are_counted():
    params = find_model("qwen2.5-7b").params.total
    biases = 28 * (3584 + 2 * 512)  # q, k, v biases per layer; no o bias
    config = find_model("qwen2.5-7b").config.model_copy(update={"qkv_bias": False})
    from calculators.architecture import count_params

    assert params - count_params(config).total == biases


def test_moe_total_and_active():
    mixtral = find_model("mixtral-8x7b").params
    assert round(mixtral.total / 1e9, 1) == 46.7
    assert round(mixtral.active / 1e9, 1) == 12.9
    ds = find_model("deepseek-v3").params
    assert ds.total == 671_026_419_200  # MTP module excluded, as in the report's 671B
    assert round(ds.active / 1e9) == 38  # report: 37B activated (embeddings counted here)
    assert "MTP" in find_model("deepseek-v3").notes


def test_tied_embeddings_are_counted_once():
    from calculators.architecture import count_params

    config = find_model("llama-3.1-8b").config
    tied = config.model_copy(update={"tie_word_embeddings": True})
    assert count_params(config).total - count_params(tied).total == 128_256 * 4096


@pytest.mark.parametrize(
    ("model", "per_token", "display"),
    [
        ("llama-3.1-8b", 131_072, "131,072 B (128 KiB)"),
        ("llama-3.1-70b", 327_680, "327,680 B (320 KiB)"),
        ("deepseek-v3", 70_272, "70,272 B (68.6 KiB)"),  # MLA: (512 + 64) × 61 × 2, no factor 2
        ("qwen2.5-7b", 57_344, "57,344 B (56 KiB)"),
    ],
)
def test_kv_bytes_per_token(model, per_token, display):
    calc = calculate("kv_cache", {"model": model, "kv_precision": "bf16"})
    assert calc.primary.name == "kv_bytes_per_token"
    assert calc.primary.value == per_token
    assert calc.primary.display == display


def test_kv_precision_is_separate_from_weights():
    calc = calculate("memory", {"model": "llama-3.1-70b", "precision": "fp8", "context": 32768,
                                "batch": 16})
    assert calc.quantity("weights_bytes").value == 70_553_706_496
    assert calc.quantity("kv_bytes_per_token").value == 327_680  # KV stays bf16 by default
    assert calc.primary.name == "total_bytes"


@pytest.mark.parametrize(
    ("stage", "value", "display"),
    [(0, 120_000_000_000, "120 GB"), (1, 31_406_250_000, "31.4 GB"),
     (2, 16_640_625_000, "16.6 GB"), (3, 1_875_000_000, "1.9 GB")],
)
def test_zero_paper_figures(stage, value, display):
    calc = calculate("memory", {"params": 7_500_000_000, "mode": "training", "zero_stage": stage,
                                "gpus": 64})
    state = calc.quantity("training_state_bytes")
    assert state.value == value
    assert state.display == display


def test_fsdp_full_is_zero3_and_hybrid_shards_within_group():
    full = calculate("memory", {"params": "8B", "fsdp": "full", "gpus": 64})
    hybrid = calculate("memory", {"params": "8B", "fsdp": "hybrid", "gpus": 64, "shard_group": 8})
    assert full.quantity("training_state_bytes").value == 16 * 8_000_000_000 // 64
    assert hybrid.quantity("training_state_bytes").value == 16 * 8_000_000_000 // 8


def test_tensor_and_pipeline_split_before_zero():
    calc = calculate("memory", {"params": "64B", "mode": "training", "zero_stage": 3, "gpus": 64,
                                "tp": 4, "pp": 2})
    # 64B / (4 × 2) = 8B per model-parallel rank, sharded over 64 / 8 = 8 data-parallel ranks
    assert calc.quantity("training_state_bytes").value == 16 * 8_000_000_000 // 8


@pytest.mark.parametrize(
    ("op", "n", "factor"),
    [("all_reduce", 8, Fraction(14, 8)), ("all_gather", 8, Fraction(7, 8)),
     ("reduce_scatter", 16, Fraction(15, 16)), ("all_to_all", 4, Fraction(3, 4)),
     ("broadcast", 8, 1), ("reduce", 8, 1)],
)
def test_nccl_tests_bus_factors(op, n, factor):
    assert bus_factor(op, n) == factor


def test_ring_all_reduce_time():
    calc = calculate("collective", {"op": "all_reduce", "size": "1 GB", "ranks": 8, "link": "nvlink4"})
    assert calc.primary.value == pytest.approx(1.75 * 1e9 / 450e9 + 14 * 2e-6)
    assert calc.quantity("busbw").value == pytest.approx(calc.quantity("algbw").value * 1.75)


def test_tree_all_reduce_uses_log2_latency():
    calc = calculate("collective", {"op": "all_reduce", "algorithm": "tree", "size": "1 GB",
                                    "ranks": 64, "link": "ib-ndr", "alpha_s": 1e-5})
    assert calc.primary.value == pytest.approx(2 * 1e9 / 50e9 + 2 * 6 * 1e-5)


def test_decode_70b_bf16_on_h100():
    calc = calculate("decode", {"model": "llama-3.1-70b", "precision": "bf16", "gpu": "h100"})
    assert calc.primary.name == "tokens_per_s_per_sequence"
    # weights 141,107,412,992 B less the untied input embedding 128,256 × 8,192 × 2 B = 2,101,346,304 B,
    # plus the one gathered row 8,192 × 2 B = 16,384 B: 139,006,083,072 B per step / 3.35 TB/s = 41.49 ms
    step_bytes = 141_107_412_992 - 128_256 * 8192 * 2 + 8192 * 2
    assert step_bytes == 139_006_083_072
    assert calc.quantity("step_time_s").value == pytest.approx(step_bytes / 3.35e12)
    assert round(calc.quantity("step_time_s").value * 1e3, 1) == 41.5
    assert calc.primary.value == pytest.approx(3.35e12 / step_bytes)
    assert calc.primary.display == "24.1 tokens/s"
    assert "does not fit in one H100 SXM (80 GB): needs at least 2" in calc.warnings
    assert any("memory-bound" in step for step in calc.steps)
    assert any("gathered, not read" in step for step in calc.steps)
    # what must be resident is still the whole model
    assert calc.quantity("free_bytes").value == 80_000_000_000 - 141_107_412_992


def test_decode_tied_embedding_counts_once_as_lm_head():
    from calculators.architecture import ModelConfig

    config = find_model("llama-3.1-8b").config.model_copy(update={"tie_word_embeddings": True})
    calc = calculate("decode", {"model": config.model_dump(), "precision": "bf16", "gpu": "h100"})
    # tied: 8,030,261,248 − 525,336,576 = 7,504,924,672 params, all read (the tied matrix as the LM head)
    params = 8_030_261_248 - 128_256 * 4096
    assert calc.quantity("step_time_s").value == pytest.approx(2 * params / 3.35e12)
    assert any("tied" in step for step in calc.steps)
    assert isinstance(config, ModelConfig)


def test_decode_size_only_model_counts_every_parameter():
    calc = calculate("decode", {"params": "70B", "gpu": "h100"})
    assert calc.quantity("step_time_s").value == pytest.approx(140e9 / 3.35e12)
    assert any("cannot be separated" in a for a in calc.assumptions)


def test_decode_kv_reads_tp_and_efficiency():
    base = {"model": "llama-3.1-8b", "gpu": "h100", "batch": 32, "context": 4096}
    calc = calculate("decode", base)
    # weights 16,060,522,496 B − input embedding 128,256 × 4,096 × 2 B + 32 gathered rows × 4,096 × 2 B
    weights_read = 16_060_522_496 - 128_256 * 4096 * 2 + 32 * 4096 * 2
    step_bytes = weights_read + 32 * 4096 * 131_072
    assert calc.quantity("step_time_s").value == pytest.approx(step_bytes / 3.35e12)
    assert calc.quantity("aggregate_tokens_per_s").value == pytest.approx(32 * 3.35e12 / step_bytes)
    tp = calculate("decode", {**base, "gpus": 4, "efficiency": 0.5})
    assert tp.quantity("step_time_s").value == pytest.approx(step_bytes / (4 * 3.35e12 * 0.5))
    assert not any("KV-cache reads" in w for w in calc.warnings)


def test_decode_batch_without_context_warns_kv_left_out():
    calc = calculate("decode", {"model": "llama-3.1-8b", "batch": 8})
    assert any("no context given" in w and "left out" in w for w in calc.warnings)
    single = calculate("decode", {"model": "llama-3.1-8b"})
    assert not any("no context given" in w for w in single.warnings)


def test_decode_moe_reads_active_params_at_batch_1():
    calc = calculate("decode", {"model": "mixtral-8x7b", "precision": "bf16", "gpu": "h100"})
    active = find_model("mixtral-8x7b").params.active
    # active 12,879,925,248 less the input embedding 32,000 × 4,096, plus one gathered row
    read = 2 * (active - 32_000 * 4096) + 2 * 4096
    assert calc.quantity("step_time_s").value == pytest.approx(read / 3.35e12)


def test_decode_mxfp4_moe_gathers_bf16_rows():
    calc = calculate("decode", {"model": "gpt-oss-120b", "gpu": "h100"})
    p = find_model("gpt-oss-120b").params
    expert = 36 * 4 * 3 * 2880 * 2880  # the 4 routed experts' matrices of each of 36 layers, MXFP4
    other = p.active - expert - 201_088 * 2880  # the rest of the active params, bf16, input embedding out
    read = -(-(expert * 17) // 32) + 2 * other + 2 * 2880
    assert calc.quantity("step_time_s").value == pytest.approx(read / 3.35e12, rel=1e-9)


def test_decode_reports_compute_bound():
    calc = calculate("decode", {"model": "llama-3.1-8b", "gpu": "h100", "batch": 1024})
    assert calc.quantity("compute_time_s").value > calc.quantity("memory_time_s").value
    assert any("compute-bound" in w for w in calc.warnings)


@pytest.mark.parametrize(("gpu", "ridge"), [("h100-sxm", 295.2), ("h200", 206.0)])
def test_ridge_points(gpu, ridge):
    assert calculate("roofline", {"gpu": gpu}).primary.value == pytest.approx(ridge, abs=0.1)


def test_display_and_step_wording():
    calc = calculate("memory", {"model": "llama-3.1-70b", "precision": "bf16"})
    assert calc.primary.model_dump() == {"name": "weights_bytes", "value": 141_107_412_992,
                                         "unit": "B", "display": "141.1 GB"}
    assert "weights = 70,553,706,496 params × 2 B (bf16) = 141,107,412,992 B = 141.1 GB" in calc.steps
    assert "parameters = 70,553,706,496 (computed from Llama 3.1 70B's config)" in calc.steps


def test_mxfp4_covers_gpt_oss_experts_only():
    calc = calculate("memory", {"model": "gpt-oss-120b", "precision": "mxfp4"})
    expert = 36 * 128 * 3 * 2880 * 2880
    other = 116_829_156_672 - expert
    assert calc.primary.value == expert * 17 // 32 + other * 2
    assert any("expert weight matrices only" in a for a in calc.assumptions)


def test_gpt_oss_defaults_to_its_release_format():
    calc = calculate("memory", {"model": "gpt-oss-120b"})
    assert calc.inputs["precision"] == "mxfp4"
    assert any("release format" in a for a in calc.assumptions)


def test_size_only_model_cannot_size_kv():
    calc = calculate("memory", {"params": "70B", "context": 8192})
    assert calc.primary.value == 140_000_000_000
    assert any("without an architecture" in w for w in calc.warnings)


def test_training_compute_405b():
    calc = calculate("training", {"model": "llama-3.1-405b", "tokens": "15.6T"})
    assert calc.quantity("flops").value == pytest.approx(6 * 405_853_388_800 * 15.6e12)
    assert calc.quantity("flops").display == "3.80e25 FLOP"


def test_training_deadline():
    calc = calculate("training", {"params": "70B", "tokens": "15T", "gpu": "h100", "mfu": 0.4,
                                  "deadline_days": 30})
    assert calc.primary.name == "gpus_needed"
    assert calc.primary.value == 6144


@pytest.mark.parametrize(
    ("gpu", "memory", "bandwidth", "bf16"),
    [("h100-sxm", 80e9, 3.35e12, 989e12), ("h200", 141e9, 4.8e12, 989e12),
     ("a100-80gb", 80e9, 2.039e12, 312e12), ("b200", 180e9, 8e12, 2250e12),
     ("mi300x", 192e9, 5.3e12, 1307e12)],
)
def test_hardware_registry_matches_design(gpu, memory, bandwidth, bf16):
    spec = find_gpu(gpu)
    assert (spec.memory_bytes, spec.bandwidth, spec.peak("bf16")) == (memory, bandwidth, bf16)


@pytest.mark.parametrize(
    ("link", "bandwidth"),
    [("nvlink4", 450e9), ("nvlink5", 900e9), ("pcie5", 64e9), ("ib-hdr", 25e9), ("ib-ndr", 50e9),
     ("ib-xdr", 100e9)],
)
def test_link_registry_matches_design(link, bandwidth):
    assert find_link(link).bandwidth == bandwidth


def test_unknown_peak_is_said_not_invented():
    calc = calculate("roofline", {"gpu": "rtx-pro-6000"})
    assert calc.primary.value is None
    assert any("unknown" in w for w in calc.warnings)


@pytest.mark.parametrize(
    ("model", "per_token", "past_window"),
    [
        # gpt-oss-120b: 2 × 8 kv_heads × 64 head_dim × 2 B = 2,048 B per token-layer; 18 of 36 layers full
        ("gpt-oss-120b", 36 * 2048, 18 * 2048),
        # gpt-oss-20b: 12 of 24 layers full
        ("gpt-oss-20b", 24 * 2048, 12 * 2048),
        # Mistral 7B: every layer slides over 4,096 tokens, so past the window the cache stops growing
        ("mistral-7b", 131_072, 0),
    ],
)
def test_sliding_window_marginal_kv_per_token(model, per_token, past_window):
    for name, inputs in (("kv_cache", {"model": model, "kv_precision": "bf16"}),
                         ("memory", {"model": model, "context": "32k", "kv_precision": "bf16"})):
        calc = calculate(name, inputs)
        assert calc.quantity("kv_bytes_per_token").value == per_token
        assert calc.quantity("kv_bytes_per_token_past_window").value == past_window
        assert any("past the" in step and "window" in step for step in calc.steps)


def test_no_window_no_marginal_quantity():
    calc = calculate("kv_cache", {"model": "llama-3.1-8b"})
    with pytest.raises(KeyError):
        calc.quantity("kv_bytes_per_token_past_window")
