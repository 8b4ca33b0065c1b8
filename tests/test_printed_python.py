"""A pasted Python session: names are paired with the values printed under them, a dict's keys, a call's keywords
and a DataFrame's columns label their figures, and progress bars, tracebacks and prompts give nothing."""
import pytest
from routing import assert_routed

from service.answer.route.printed_python import as_values_named


@pytest.mark.parametrize(("typed", "read"), [
    # a tuple printed under the tuple of names that made it
    (">>> cfg.model, cfg.world_size\n('llama-3.1-8b', 64)\n>>> # memory?", "model llama-3.1-8b, world size 64\nmemory?"),
    # a dict printed; its count said after its value
    ("In [2]: plan\nOut[2]: {'model': 'mistral-7b', 'chips': 256}", "model mistral-7b, 256 chips"),
    # a call's keywords, and a collective's bare number is its buffer
    ('>>> allreduce_time(2 * 1024**3, algo="ring")   # seconds?', "allreduce time, 2147483648 bytes, algo ring. seconds?"),
    # Chinchilla's letters
    ('>>> N, D = 7e9, 2e12\n>>> six_nd(N, D)', "7000000000 parameters, 2000000000000 tokens\nsix nd"),
])
def test_printed_values_are_said_with_their_names(typed, read):
    assert as_values_named(typed) == read


def test_a_question_with_no_python_prompt_is_unchanged():
    typed = "llama 3.1 70b, tp=8, ctx=32768: kv cache? (see >>> in the article)"
    assert as_values_named(typed) == typed


def test_a_tuple_printed_under_its_names_binds_each_figure_to_its_label():
    # read as typed, (2, 32, 'Qwen2.5-7B') is two loose numbers: the ZeRO stage and the rank count were lost
    assert_routed("In [5]: ds['zero_optimization']['stage'], world_size, model_name\nOut[5]: (3, 16, 'Qwen2.5-7B')\n\n"
                  "bf16 mixed precision adam, per-gpu model states without activations?",
                  "memory", {"zero_stage": 3, "gpus": 16, "model": "qwen2.5-7b", "primary": "training_state_bytes"})


def test_a_dataframe_row_is_read_by_its_column_names():
    assert_routed(">>> df\n          model w_dtype kv_dtype   ctx  conc\nx  llama-3.1-8b    bf16     fp8  8192    48\n"
                  "y  llama-3.1-8b    fp8      fp8  8192    48\n>>> # total memory (weights + kv) for row 'y'?",
                  "memory", {"model": "llama-3.1-8b", "precision": "fp8", "kv_precision": "fp8", "context": 8192,
                             "batch": 48})


def test_a_printed_dict_names_its_gpu_count_and_a_progress_bar_gives_nothing():
    routed = assert_routed("Step 3:  12%|█▏        | 120/1000 [01:10<08:30,  1.72it/s]\n>>> print(plan)\n"
                           "{'model': 'llama-3.1-8b', 'tokens': '1T', 'accelerator': 'H100 SXM', 'chips': 256, "
                           "'dtype': 'bf16', 'mfu': 0.4}\n>>> # how long will the run take?",
                           "training", {"gpus": 256, "tokens": 10**12, "mfu": 0.4, "gpu": "h100-sxm"})
    assert routed.inputs["primary"] == "time_s"


def test_a_repr_and_a_worked_out_buffer_set_a_collective():
    assert_routed(">>> cluster\nCluster(nodes=2, gpus_per_node=8, gpu='H100 SXM', nic='NDR 400Gb/s, one per GPU')\n"
                  ">>> t = allreduce(4 * 10**9, cluster, algo='ring')   # a flat ring over both nodes\n>>> t  # seconds?",
                  "collective", {"size": 4 * 10**9, "nodes": 2, "gpus_per_node": 8, "op": "all_reduce"})


def test_an_assert_gives_its_calls_arguments_but_not_the_hoped_for_bound():
    routed = assert_routed('>>> assert kv_gb(model="llama-3.1-8b", ctx=16384, batch=12, dtype="fp16") < 30\n'
                           'Traceback (most recent call last):\n  File "<stdin>", line 1, in <module>\nAssertionError\n\n'
                           "so what is the kv total?", "kv_cache", {"context": 16384, "batch": 12})
    assert "30" not in str(routed.inputs.values())


def test_six_n_d_with_printed_letters_is_the_training_compute():
    assert_routed("In [3]: n_params, n_tokens\nOut[3]: (2.7e9, 5e11)\n\nIn [4]: # 6*N*D -> ?",
                  "training", {"params": 2.7e9, "tokens": 5 * 10**11})


def test_an_unnamed_series_printed_after_its_out_prompt_is_read_by_its_index():
    # "Out[4]:" alone on its line, then the Series, ending "dtype: object" (no Name line)
    assert_routed("In [4]: pd.Series(job)\nOut[4]:\nmodel    llama-3.1-70b\ntokens          2e12\ngpus               1024\n"
                  "gpu            H200\nmfu                0.4\ndtype: object\n\nIn [5]: # days to train?", "training",
                  {"model": "llama-3.1-70b", "gpus": 1024, "gpu": "h200", "mfu": 0.4})
    # a count's singular label: "n_seq 3" is 3 sequences
    assert_routed(">>> row\nmodel    llama-3.1-8b\nctx            32768\nn_seq               3\nName: a, dtype: object\n"
                  ">>> # total kv bytes?", "kv_cache", {"batch": 3, "context": 32768})


def test_a_call_printing_nan_or_a_formatted_string_still_gives_its_arguments():
    assert_routed('In [3]: kv_cache_bytes("Qwen/Qwen2.5-7B-Instruct", ctx=16384, batch=8, dtype="fp8")\nOut[3]: nan\n\n'
                  "In [4]: # what should that be?", "kv_cache", {"model": "qwen2.5-7b", "context": 16384, "batch": 8})
    assert_routed(">>> f\"{n_params:.3e}\", f\"{n_tokens:.3e}\"\n('7.000e+09', '2.000e+12')\n>>> # 6ND for that?",
                  "training", {"params": 7e9, "tokens": 2e12})
    # "compute-bound seconds per step" is the decode step's compute time
    assert_routed(">>> flops_side(model=\"llama-3.1-8b\", gpu=\"H100 SXM\", batch=256)\n>>> # compute-bound seconds "
                  "per step?", "decode", {"primary": "compute_time_s", "batch": 256})


def test_printed_items_overrides_and_config_yaml_name_their_figures():
    # sorted(d.items()) prints (key, value) pairs
    assert_routed(">>> sorted(asdict(run).items())\n[('batch', 32), ('ctx', 4096), ('gpu', 'H200'), ('kv', 'bf16'), "
                  "('model', 'llama-3.1-8b')]\n>>> # aggregate tok/s ceiling?", "decode",
                  {"batch": 32, "context": 4096, "gpu": "h200"})
    # Hydra's overrides: a dotted key's last part names the figure
    assert_routed(">>> HydraConfig.get().overrides.task\n['model=llama-3.1-8b', 'data.tokens=1T', 'hw=H100 SXM', "
                  "'hw.chips=128', 'precision=bf16', 'mfu=0.4']\n>>> # 6ND, how many days on those chips?", "training",
                  {"tokens": 1e12, "gpus": 128, "mfu": 0.4})
    # "max_seqs: 12" in a printed config is the batch
    assert_routed(">>> print(OmegaConf.to_yaml(cfg))\nmodel: llama-3.1-70b\nweights: fp8\naccelerator: H200\n"
                  "tensor_parallel: 2\nmax_seqs: 12\nmax_len: 32768\nkv_cache: fp8\n\n>>> # headroom per device?",
                  "memory", {"batch": 12, "context": 32768, "tp": 2})


@pytest.mark.parametrize(("question", "calculator", "expected"), [
    # a printed config's max_len is the context, its hbm_eff the bandwidth efficiency (batch 164)
    (">>> print(spec)\nmodel='llama-3.1-8b' weights='bf16' kv_dtype='fp8' max_len=16384 concurrency=12\n>>> # weights + "
     "the fp8 kv of all 12 seqs at max_len. total?", "memory", {"context": 16384, "batch": 12}),
    (">>> print(summary_line)\nllama-3.1-8b bf16 | 1x H100 SXM | bs=1 | kv=not counted | hbm_eff=0.75\n>>> # "
     "bandwidth-bound decode tok/s at that hbm efficiency?", "decode", {"efficiency": 0.75}),
])
def test_printed_config_keys_name_their_figures(question, calculator, expected):
    assert_routed(question, calculator, expected)
