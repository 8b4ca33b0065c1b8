"""Settings pasted as environment variables or config keys are read by their names; operations settings give
nothing."""
import pytest
from routing import assert_routed

from service.answer.route.env_settings import as_settings_said


def test_env_lines_are_said_by_name_and_operations_lines_go():
    said = as_settings_said("MODEL=Qwen/Qwen2.5-7B\nTRAIN_TOKENS=18000000000000\nSEED=1234\nMASTER_PORT=29500\n\n6ND?")
    assert said == "model Qwen/Qwen2.5-7B,\n18000000000000 tokens,\n\n6ND?"


def test_fewer_than_three_setting_lines_are_left_alone():
    text = "EDIT: 64 gpus, not 32\nllama 3.1 8b zero-3 model states per gpu?"
    assert as_settings_said(text) == text


@pytest.mark.parametrize(("question", "calculator", "expected"), [
    ("MODEL=Qwen/Qwen2.5-72B-Instruct\nMAX_MODEL_LEN=16384\nKV_CACHE_DTYPE=fp8_e5m2\nCONCURRENCY=4\nRATE_LIMIT_RPM=600\n\n"
     "total kv if all 4 requests grow to 16384 tokens?", "kv_cache",
     {"model": "qwen2.5-72b", "context": 16384, "batch": 4, "kv_precision": "fp8"}),
    ("engine:\n  model: openai/gpt-oss-20b\n  maxModelLen: 65536\n  maxNumSeqs: 8\n  kvCacheDtype: bfloat16\nautoscaling:\n"
     "  minReplicas: 1\n  maxReplicas: 6\n\nif all 8 seqs run out to 65536 tokens, how big is the kv cache?", "kv_cache",
     {"context": 65536, "batch": 8}),
    ("training:\n  model: mistralai/Mixtral-8x7B-v0.1\n  tokens: 1T\n  accelerator: mi300x\n  precision: bf16\n"
     "  targetMFU: 0.3\n\ngpu-hours for the run?", "training", {"mfu": 0.3, "gpu": "mi300x"}),
    ("export MODEL=mistralai/Mixtral-8x22B-Instruct-v0.1\nexport QUANTIZATION=fp8\nexport TENSOR_PARALLEL_SIZE=4\n"
     "export GPU_SKU=\"H100 NVL\"\nexport MAX_JOBS=64\n\ndecode step time at batch 1, kv reads ignored?", "decode",
     {"gpu": "h100-nvl", "gpus": 4, "precision": "fp8"}),
    ("MODEL_PATH=/models/llama-3.1-70b\nDTYPE=fp8\nGPU_TYPE=H200\nNUM_GPUS=2\nPORT=8000\n\nfree memory per gpu, weights "
     "only?", "memory", {"model": "llama-3.1-70b", "gpu": "h200", "gpus": 2}),  # a path that names the model stays
    ("env:\n  - name: NUM_GPUS\n    value: \"8\"\n  - name: BUFFER_BYTES\n    value: \"1073741824\"\n  - name: LOG_LEVEL\n"
     "    value: info\n\nring all-reduce of the buffer across 8 h100s on nvlink 4 — time?", "collective",
     {"size": 1073741824, "ranks": 8}),
])
def test_pasted_settings_set_the_calculation(question, calculator, expected):
    assert_routed(question, calculator, expected)


def test_a_memory_before_a_part_names_its_variant():
    assert_routed("llama 3.1 70b in bf16, weights only — minimum number of 40 GB A100s?", "memory",
                  {"gpu": "a100-40gb", "primary": "min_gpus"})


def test_capping_a_count_is_no_roofline():
    assert_routed("mixtral 8x7b at 8192 tokens, bf16 cache, we cap it at 24 concurrent slots — total kv when all are "
                  "full?", "kv_cache", {"batch": 24, "context": 8192})


def test_a_count_set_inline_among_settings_is_the_count():
    assert_routed("mfu = 0.35, gpu = h200, precision = bf16, model = llama 3.1 8b, tokens = 2T, chips = 1,024 → days?",
                  "training", {"gpus": 1024, "gpu": "h200"})
    # an equation of two counts is no setting
    assert_routed("128 gpus = 16 nodes, all-gather 8 GB, ndr", "collective", {"ranks": 128})


# settings pasted on one line before an arrow (batch 189, dev): each read as a setting line is
@pytest.mark.parametrize("question, calculator, expected", [
    ("gaudi 3 cluster config: cards: 512 / model: qwen2.5-7b / tokens: 1T / dtype: bf16 / mfu: 35% / global_batch: 2048 "
     "-> how mnay days?", "training", {"gpus": 512, "gpu": "gaudi-3", "mfu": 0.35}),
    ("tp=4 gpu=h100 model=llama-3.1-70b weights=fp8 kv=fp8 batch=64 ctx=2048 -> the compute-bound time for one decode "
     "step, in microseconds?", "decode", {"precision": "fp8", "gpus": 4, "batch": 64, "context": 2048}),
    # each label keeps the number written against it, though another label stands nearer ("…: 32768 / batch: 10")
    ("model: mistral-7b-v0.1 / sliding_window: 4096 / max_model_len: 32768 / batch: 10 / kv: bf16 / gpu: l40s -> kv "
     "cache for the whole batch at 32768 tokens each, window taken into account?", "kv_cache",
     {"batch": 10, "context": 32768}),
])
def test_settings_on_one_line_are_read_as_lines(question, calculator, expected):
    assert_routed(question, calculator, expected)


def test_a_sentence_with_an_arrow_is_no_settings_line():
    assert as_settings_said("llama 3.1 8b -> 70b, how much more kv at 8k?") == "llama 3.1 8b -> 70b, how much more kv at 8k?"
