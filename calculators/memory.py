"""Memory calculator: weights, KV cache, training state and activations, and whether it fits.

Inference: weights + KV cache (context × concurrent sequences), split evenly over `gpus`.
Training: ZeRO/FSDP-sharded state (zero.py) over the data-parallel ranks (`dp`, or gpus / (tp × pp))
after a tensor/pipeline split, plus a labelled activation estimate (activations.py), and the size of a
full training checkpoint of the whole model (`checkpoint_bytes`: 14 B/param, no gradients).
Sliding-window models also report the KV bytes a token adds past the window.
"""

from __future__ import annotations

import math

from .activations import activation_bytes
from .fit import check_fit, min_gpus_even_split
from .inputs import MemoryInputs, resolve_model
from .kv import record_kv_per_token, record_kv_total
from .registry import find_gpu
from .result import Calculation, Worksheet
from .units import fmt_bytes, fmt_int
from .weights import weights_for
from . import zero

_NO_ARCH = "cannot size the KV cache or activations without an architecture: give a model name or config fields"


def memory(inputs: MemoryInputs) -> Calculation:
    ws = Worksheet("memory", inputs.resolved())
    for words in inputs.assumed:
        ws.assume(words)
    model = resolve_model(inputs)
    ws.step(f"parameters = {fmt_int(model.params.total)} ({_origin(model)})")
    if model.notes:
        ws.assume(model.notes)
    if inputs.mode == "training":
        return _training(inputs, ws, model)
    return _inference(inputs, ws, model)


def _origin(model) -> str:
    return f"computed from {model.label}'s config" if model.from_config else "as given"


def _inference(inputs: MemoryInputs, ws: Worksheet, model) -> Calculation:
    w = weights_for(model, inputs.precision)
    ws.add("weights_bytes", w.bytes, "B")
    ws.step(w.step)
    for note in w.notes:
        ws.assume(note)
    total = w.bytes
    if inputs.context:
        if model.config is None:
            ws.warn(_NO_ARCH)
        else:
            per_token = record_kv_per_token(ws, model.config, inputs.kv_precision)
            total += record_kv_total(ws, model.config, per_token, inputs.context, inputs.batch).bytes
            ws.step(f"total = weights + KV cache = {fmt_int(total)} B = {fmt_bytes(total)}")
    ws.add("total_bytes", total, "B")
    ws.assume("inference memory = weights + KV cache; activations of a forward pass and runtime "
              "buffers are not counted")
    gpu = find_gpu(inputs.gpu)
    gpus = inputs.gpus or inputs.tp * inputs.pp
    per_gpu = math.ceil(total / gpus)
    if gpus > 1:
        ws.step(f"per GPU = {fmt_int(total)} B / {gpus} GPUs = {fmt_int(per_gpu)} B = {fmt_bytes(per_gpu)}")
        ws.assume(f"weights and KV cache split evenly over {gpus} GPUs (tensor/pipeline parallel)")
    minimum = min_gpus_even_split(total, gpu)
    check_fit(ws, gpu, per_gpu, gpus, minimum)
    primary = "total_bytes" if inputs.context else "weights_bytes"
    return ws.result(primary)


def _training(inputs: MemoryInputs, ws: Worksheet, model) -> Calculation:
    psi_all = model.params.total
    split = inputs.tp * inputs.pp
    psi = math.ceil(psi_all / split)
    if split > 1:
        ws.step(f"parameters per model-parallel rank = {fmt_int(psi_all)} / ({inputs.tp} TP × "
                f"{inputs.pp} PP) = {fmt_int(psi)}")
    weights = 2 * psi
    ws.add("weights_bytes", weights, "B")
    ws.step(f"weights (bf16) = {fmt_int(psi)} params × 2 B = {fmt_int(weights)} B = {fmt_bytes(weights)}")
    ws.assume("mixed-precision AdamW: 16 B per parameter = 2 bf16 weights + 2 bf16 grads + "
              "4 fp32 master weights + 4 + 4 fp32 Adam moments (K = 12)")
    if inputs.precision not in (None, "bf16", "fp16"):
        ws.assume(f"training state assumes bf16 mixed precision; the {inputs.precision} setting is "
                  "not used for it")
    stage = 3 if inputs.fsdp else inputs.zero_stage
    dp_total = (inputs.gpus or split) // split

    def shard_ranks(dp: int) -> int:
        return min(dp, inputs.shard_group) if inputs.fsdp == "hybrid" else dp

    def per_gpu_state(dp: int) -> int:
        return math.ceil(zero.state_bytes(psi, stage, shard_ranks(dp)))

    n = shard_ranks(dp_total)
    if dp_total > 1 or inputs.dp:
        ws.step(f"data-parallel ranks = {fmt_int(inputs.gpus or split)} GPUs / ({inputs.tp} TP × {inputs.pp} PP) "
                f"= {dp_total}")
    state = per_gpu_state(dp_total)
    ws.add("training_state_bytes", state, "B")
    ws.step(f"training state ({zero.describe(stage, inputs.fsdp)}, N = {n}) = "
            f"{zero.state_formula(psi, stage, n)} = {fmt_int(state)} B = {fmt_bytes(state)} per GPU")
    checkpoint = zero.CHECKPOINT_BYTES_PER_PARAM * psi_all
    ws.add("checkpoint_bytes", checkpoint, "B")
    ws.step(f"full training checkpoint = {fmt_int(psi_all)} params × {zero.CHECKPOINT_BYTES_PER_PARAM} B "
            f"(2 bf16 weights + 4 fp32 master weights + 4 + 4 fp32 Adam moments) = {fmt_int(checkpoint)} B "
            f"= {fmt_bytes(checkpoint)} for the whole model")
    ws.assume("the checkpoint holds bf16 weights, fp32 master weights and both Adam moments; gradients "
              "are not checkpointed; RNG, data-loader and scheduler state are negligible")
    total = state
    if model.config is None:
        ws.warn(_NO_ARCH)
    elif not inputs.context:  # (a sequence of no tokens keeps no activations)
        ws.assume("context 0: no activations counted")
    else:
        act = activation_bytes(model.config, inputs.context, inputs.batch, inputs.recompute, inputs.tp)
        ws.add("activation_bytes", act.bytes, "B", f"{fmt_bytes(act.bytes)} (estimate)")
        ws.step(act.step)
        ws.assume("activation memory is an estimate (Korthikanti et al. 2022), not a measurement")
        total += act.bytes
        ws.step(f"total per GPU = state + activations = {fmt_int(total)} B = {fmt_bytes(total)}")
    ws.add("total_bytes", total, "B")
    gpu = find_gpu(inputs.gpu)
    activations = total - state
    minimum = _min_gpus(per_gpu_state, activations, gpu.memory_bytes)
    check_fit(ws, gpu, total, inputs.gpus or split, minimum * split if minimum else None)
    if minimum is None:
        ws.warn(f"no number of data-parallel ranks makes {zero.describe(stage, inputs.fsdp)} fit on "
                f"{gpu.name}: use ZeRO-3/FSDP or more tensor/pipeline parallelism")
    return ws.result("total_bytes")


def _min_gpus(per_gpu_state, activations: int, capacity: int, limit: int = 1 << 20) -> int | None:
    """Fewest data-parallel ranks whose per-GPU state + activations fit (state falls as ranks grow)."""
    if per_gpu_state(limit) + activations > capacity:
        return None
    lo, hi = 1, limit
    while lo < hi:
        mid = (lo + hi) // 2
        if per_gpu_state(mid) + activations <= capacity:
            hi = mid
        else:
            lo = mid + 1
    return lo
