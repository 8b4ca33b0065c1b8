"""Registries: required entries, source and date on each, spelling-insensitive lookup."""

import pytest

from calculators.registry import (
    closest_models,
    find_gpu,
    find_link,
    find_model,
    gpus,
    links,
    models,
)

MODELS = ["llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b", "llama-3-8b", "llama-3-70b",
          "mistral-7b", "mixtral-8x7b", "mixtral-8x22b", "deepseek-v3", "deepseek-r1",
          "qwen2.5-7b", "qwen2.5-72b", "gpt-oss-20b", "gpt-oss-120b"]
GPUS = ["h100-sxm", "h100-pcie", "h200", "a100-80gb", "a100-40gb", "b200", "b300", "gb200", "mi300x",
        "mi325x", "mi355x", "l40s", "rtx-pro-6000", "tpu-v5e", "tpu-v5p", "trainium2", "gaudi-3",
        "h20", "h100-nvl", "h200-nvl", "a100-80gb-pcie", "gb300", "rtx-4090", "rtx-5090", "l4",
        "mi250x", "mi250x-gcd", "tpu-v6e"]
LINKS = ["nvlink3", "nvlink4", "nvlink5", "pcie4", "pcie5", "pcie6", "ib-hdr", "ib-ndr", "ib-xdr",
         "roce-400", "roce-800", "nvlink-bridge-h100-nvl", "nvlink-bridge-h200-nvl",
         "infinity-fabric-mi300x", "infinity-fabric-mi355x", "infinity-fabric-mi250x", "ici-v5e",
         "ici-v5p", "ici-v6e", "neuronlink-v3", "gaudi3-roce"]


@pytest.mark.parametrize(("registry", "ids"), [(models, MODELS), (gpus, GPUS), (links, LINKS)])
def test_required_entries_have_source_and_date(registry, ids):
    entries = registry().entries
    assert set(ids) <= set(entries)
    for entry in entries.values():
        assert entry.source and entry.date, entry.id


@pytest.mark.parametrize(
    ("name", "model"),
    [("Llama-3.1-70B-Instruct", "llama-3.1-70b"), ("meta-llama/Meta-Llama-3-70B", "llama-3-70b"),
     ("llama 3 70b", "llama-3-70b"), ("Mixtral-8x7B-v0.1", "mixtral-8x7b"),
     ("DeepSeek-V3", "deepseek-v3"), ("Qwen/Qwen2.5-72B-Instruct", "qwen2.5-72b"),
     ("openai/gpt-oss-120b", "gpt-oss-120b")],
)
def test_find_model_any_spelling(name, model):
    assert find_model(name).id == model


def test_unknown_model_and_closest():
    assert find_model("llama-4-maverick") is None
    assert closest_models("Llama 2 70B")[0] in ("llama-3.1-70b", "llama-3-70b")


@pytest.mark.parametrize(("name", "gpu"), [("H100 SXM5", "h100-sxm"), ("H100", "h100-sxm"),
                                           ("h100 pcie", "h100-pcie"), ("MI300X", "mi300x"),
                                           ("A100 40GB", "a100-40gb"), ("TPU v5e", "tpu-v5e")])
def test_find_gpu(name, gpu):
    assert find_gpu(name).id == gpu


@pytest.mark.parametrize(("name", "link"), [("NDR", "ib-ndr"), ("NVLink", "nvlink4"),
                                            ("PCIe Gen5", "pcie5"), ("RoCE 800", "roce-800")])
def test_find_link(name, link):
    assert find_link(name).id == link


def test_explicit_config_fields():
    from calculators import calculate

    config = {"vocab_size": 32000, "hidden_size": 4096, "intermediate_size": 11008,
              "num_hidden_layers": 32, "num_attention_heads": 32}  # Llama 2 7B, MHA
    calc = calculate("memory", {"model": config, "precision": "bf16"})
    assert calc.quantity("weights_bytes").value == 2 * 6_738_415_616
    kv = calculate("kv_cache", {"model": config})
    assert kv.primary.value == 2 * 32 * 32 * 128 * 2


def test_every_model_and_part_a_text_names_is_listed():
    from calculators.registry import gpus, models
    text = "llama 3.1 70b on 4 h100s, while the llama 3.1 8b drafter runs on an l40s"
    assert models().named_in(text) == {"llama-3.1-70b", "llama-3.1-8b"}
    assert gpus().named_in(text) == {"h100-sxm", "l40s"}
    assert models().named_in("what is the kv cache?") == set()
