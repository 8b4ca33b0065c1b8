"""Properties that must hold for any input (hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from calculators import alg_bandwidth, bus_bandwidth, calculate
from calculators.collective import collective_time
from calculators.inputs import COLLECTIVE_OPS
from calculators.precision import BITS
from calculators.registry import models

MODEL_IDS = sorted(models().entries)
PRECISIONS = sorted(BITS, key=lambda p: BITS[p])


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(MODEL_IDS), st.sampled_from(PRECISIONS), st.sampled_from(PRECISIONS))
def test_more_bytes_per_parameter_never_less_memory(model, a, b):
    low, high = sorted((a, b), key=lambda p: BITS[p])
    small = calculate("memory", {"model": model, "precision": low}).quantity("weights_bytes").value
    large = calculate("memory", {"model": model, "precision": high}).quantity("weights_bytes").value
    assert small <= large


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 4096), st.floats(1, 1e12), st.floats(1e6, 1e13), st.floats(0, 1e-3),
       st.sampled_from(["ring", "tree"]))
def test_all_reduce_never_beats_the_bandwidth_bound(n, size, bandwidth, alpha, algorithm):
    bound = 2 * (n - 1) / n * size / bandwidth
    assert collective_time("all_reduce", algorithm, size, n, bandwidth, alpha) >= bound * (1 - 1e-12)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(COLLECTIVE_OPS), st.integers(2, 4096), st.floats(1e3, 1e13))
def test_busbw_algbw_round_trip(op, n, busbw):
    assert abs(bus_bandwidth(alg_bandwidth(busbw, op, n), op, n) - busbw) <= 1e-9 * busbw


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(MODEL_IDS), st.integers(1, 200_000), st.integers(1, 200_000), st.integers(1, 64))
def test_kv_cache_never_shrinks_with_context(model, c1, c2, batch):
    lo, hi = sorted((c1, c2))
    kv = [calculate("kv_cache", {"model": model, "context": c, "batch": batch}).primary.value
          for c in (lo, hi)]
    assert kv[0] <= kv[1]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(MODEL_IDS), st.integers(1, 512))
def test_decode_aggregate_never_falls_with_batch_at_zero_context(model, batch):
    # dense: weights read once per step; MoE: distinct experts grow slower than the batch
    one = calculate("decode", {"model": model, "batch": batch}).quantity("aggregate_tokens_per_s").value
    more = calculate("decode", {"model": model, "batch": batch + 1}).quantity("aggregate_tokens_per_s").value
    assert more >= one * (1 - 1e-9)
