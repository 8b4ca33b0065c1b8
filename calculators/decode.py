"""Decode calculator: the time of one decode step and the tokens/s that follows.

Bandwidth bound (DESIGN §6): each step reads the weights once (MoE: only the experts the batch
routes to) plus every sequence's KV cache, over the memory bandwidth (× TP degree, × efficiency).
The input-embedding table is gathered, not read: an untied model's embedding matrix is left out of
the bytes per step and only the batch's looked-up rows (batch × hidden × bytes) are added; the LM
head is read in full, and a tied matrix counts once, as the LM head. A model given only by its
parameter count cannot separate its embedding, so all its parameters are counted (an assumption).
Compute bound: 2 × active params × batch FLOPs over peak FLOP/s. The slower bound applies.
For MoE beyond batch 1 the expected number of distinct experts a layer reads is
E·(1 − (1 − k/E)^batch), i.e. routing assumed uniform and independent across sequences.
"""

from __future__ import annotations

import math

from . import precision as prec
from .fit import check_fit, min_gpus_even_split
from .inputs import DecodeInputs, resolve_model
from .kv import kv_per_token, kv_total, record_kv_per_token
from .registry import find_gpu
from .result import Calculation, Worksheet
from .units import fmt_bandwidth, fmt_bytes, fmt_flop, fmt_flops, fmt_int, fmt_num, fmt_seconds
from .weights import BLOCK_FORMATS, expert_matrix_share, weights_for


def decode(inputs: DecodeInputs) -> Calculation:
    ws = Worksheet("decode", inputs.resolved())
    for words in inputs.assumed:
        ws.assume(words)
    model = resolve_model(inputs)
    gpu = find_gpu(inputs.gpu)
    tp, batch = inputs.gpus, inputs.batch
    if model.notes:
        ws.assume(model.notes)

    read = _weights_read(ws, model, inputs.precision, batch)
    kv_bytes = _kv_read(ws, model, inputs)
    step_bytes = read + kv_bytes
    ws.step(f"bytes read per step = {fmt_int(read)} (weights read) + {fmt_int(kv_bytes)} (KV) = "
            f"{fmt_int(step_bytes)} B = {fmt_bytes(step_bytes)}")

    efficiency = inputs.efficiency or 1.0
    bandwidth = gpu.bandwidth * tp * efficiency
    scaled = (f" × {tp} GPUs" if tp > 1 else "") + (
        f" × {fmt_num(efficiency)} efficiency" if inputs.efficiency else "")
    ws.step(f"bandwidth = {fmt_bandwidth(gpu.bandwidth)} ({gpu.name})"
            + (f"{scaled} = {fmt_bandwidth(bandwidth)}" if scaled else ""))
    if tp > 1:
        ws.assume(f"tensor parallel over {tp} GPUs: weights and KV split {tp} ways, aggregate "
                  f"bandwidth {tp} × {fmt_bandwidth(gpu.bandwidth)}; the per-layer all-reduces are not counted")
    if not inputs.efficiency:
        ws.assume("no efficiency factor: this is the bandwidth bound, real kernels reach 60–85% of it")
    memory_time = step_bytes / bandwidth
    ws.add("memory_time_s", memory_time, "s")
    ws.step(f"memory-bound step = {fmt_int(step_bytes)} B / {fmt_bandwidth(bandwidth)} = {fmt_seconds(memory_time)}")

    compute_time, peak = _compute_time(ws, model, inputs, gpu, efficiency)
    step_time = max(memory_time, compute_time or 0.0)
    ws.add("step_time_s", step_time, "s")
    if compute_time is not None:
        bound = "memory" if memory_time >= compute_time else "compute"
        ws.step(f"step time = max(memory {fmt_seconds(memory_time)}, compute {fmt_seconds(compute_time)}) "
                f"= {fmt_seconds(step_time)}: {bound}-bound")
        if bound == "compute":
            ws.warn(f"compute-bound at batch {batch}: the bandwidth-bound figure would overstate throughput")
        ridge = peak / gpu.bandwidth
        ws.add("ridge_point", ridge, "FLOP/B")
        intensity = 2 * model.params.active * batch / step_bytes
        ws.step(f"ridge point = {fmt_flops(peak)} / {fmt_bandwidth(gpu.bandwidth)} = {fmt_num(ridge, 1)} FLOP/B; "
                f"this step does {fmt_num(intensity, 1)} FLOP/B")
    per_seq = 1 / step_time
    ws.add("tokens_per_s_per_sequence", per_seq, "tokens/s")
    ws.add("aggregate_tokens_per_s", batch / step_time, "tokens/s")
    ws.step(f"tokens/s per sequence = 1 / {fmt_seconds(step_time)} = {fmt_num(per_seq, 1)}; "
            f"aggregate = {batch} × {fmt_num(per_seq, 1)} = {fmt_num(batch * per_seq, 1)} tokens/s")

    resident = _resident_bytes(model, inputs)
    check_fit(ws, gpu, math.ceil(resident / tp), tp, min_gpus_even_split(resident, gpu))
    return ws.result("tokens_per_s_per_sequence" if batch == 1 else "aggregate_tokens_per_s")


def _distinct_experts(experts: int, top_k: int, batch: int) -> float:
    return experts * (1 - (1 - top_k / experts) ** batch)


def _weights_read(ws: Worksheet, model, precision: str, batch: int) -> int:
    c = model.config
    embedding_in = _input_embedding_params(model)
    _embedding_step(ws, model, embedding_in)
    if not (c and c.is_moe):
        params = model.params.total - embedding_in
        w = weights_for(model, precision, params=params, what="weights read")
    else:
        experts = _distinct_experts(c.num_experts, c.num_experts_per_tok, batch)
        params = round(model.params.non_expert - embedding_in
                       + model.params.moe_layers * experts * model.params.routed_expert)
        if batch == 1:
            ws.step(f"MoE at batch 1 reads the active parameters less the input embedding: "
                    f"{fmt_int(params)} of {fmt_int(model.params.total)}")
        else:
            ws.step(f"MoE at batch {batch}: each layer reads {c.num_experts} × (1 − (1 − {c.num_experts_per_tok}/"
                    f"{c.num_experts})^{batch}) = {fmt_num(experts, 2)} distinct experts on average → "
                    f"{fmt_int(params)} params read (non-expert part without the input embedding)")
            ws.assume("MoE routing assumed uniform and independent across sequences")
        w = weights_for(model, precision, params=params, expert_matrices=expert_matrix_share(model, experts),
                        what="weights read")
    ws.step(w.step)
    for note in w.notes:
        ws.assume(note)
    rows = _gathered_rows_bytes(model, precision, batch)
    if not rows:
        return w.bytes
    ws.step(f"embedding rows gathered = {batch} × {fmt_int(c.hidden_size)} hidden × "
            f"{prec.label(_embedding_precision(model, precision))} = {fmt_int(rows)} B")
    return w.bytes + rows


def _input_embedding_params(model) -> int:
    """Parameters of the input-embedding table that a decode step does not read (0 when tied or unknown)."""
    c = model.config
    if c is None or c.tie_word_embeddings:
        return 0
    return c.vocab_size * c.hidden_size


def _embedding_step(ws: Worksheet, model, embedding_in: int) -> None:
    c = model.config
    if c is None:
        ws.assume("a model given only by its parameter count: the input-embedding table cannot be "
                  "separated, so every parameter is counted as read each step (a slight overestimate)")
    elif c.tie_word_embeddings:
        ws.step(f"embeddings tied: the {fmt_int(c.vocab_size)} × {fmt_int(c.hidden_size)} matrix is read "
                "once per step, as the LM head")
    else:
        ws.step(f"input embedding ({fmt_int(c.vocab_size)} vocab × {fmt_int(c.hidden_size)} hidden = "
                f"{fmt_int(embedding_in)} params) is gathered, not read: only the batch's rows count; "
                "the LM head is read in full")


def _embedding_precision(model, precision: str) -> str:
    """Block formats of MoE releases keep embeddings in bf16 (weights.py)."""
    if precision in BLOCK_FORMATS and model.params.expert_matrices:
        return "bf16"
    return precision


def _gathered_rows_bytes(model, precision: str, batch: int) -> int:
    if not _input_embedding_params(model):
        return 0
    per_value = prec.bytes_per_value(_embedding_precision(model, precision))
    return math.ceil(batch * model.config.hidden_size * per_value)


def _kv_read(ws: Worksheet, model, inputs: DecodeInputs) -> int:
    if not inputs.context:
        if inputs.batch > 1:
            ws.warn(f"batch {inputs.batch} with no context given: the KV-cache reads of the {inputs.batch} "
                    "sequences are left out, so this understates the step time (give a context)")
        return 0
    if model.config is None:
        ws.warn("cannot size the KV cache without an architecture: KV reads not counted")
        return 0
    per_token = record_kv_per_token(ws, model.config, inputs.kv_precision)
    kv = kv_total(model.config, per_token, inputs.context, inputs.batch)
    ws.add("kv_cache_bytes", kv.bytes, "B")
    ws.step(kv.step.replace("KV cache =", "KV read per step ="))
    for warning in kv.warnings:
        ws.warn(warning)
    return kv.bytes


def _compute_time(ws: Worksheet, model, inputs: DecodeInputs, gpu, efficiency: float):
    precision = prec.COMPUTE_PRECISION[inputs.precision]
    peak = gpu.peak(precision)
    if peak is None and precision != "bf16":
        ws.assume(f"{gpu.name} has no {precision} peak in the registry; compute bound uses its bf16 peak")
        precision, peak = "bf16", gpu.peak("bf16")
    if peak is None:
        ws.warn(f"peak FLOP/s of {gpu.name} is unknown: cannot tell whether the step is compute-bound")
        return None, None
    if precision != inputs.precision and inputs.precision not in ("fp16",):
        ws.assume(f"{inputs.precision} weights are dequantised and multiplied in {precision}")
    flops = 2 * model.params.active * inputs.batch
    total_peak = peak * inputs.gpus * efficiency
    compute_time = flops / total_peak
    ws.add("compute_time_s", compute_time, "s")
    ws.step(f"compute per step = 2 × {fmt_int(model.params.active)} active params × {inputs.batch} = "
            f"{fmt_flop(flops)}; / {fmt_flops(total_peak)} ({precision}) = {fmt_seconds(compute_time)}")
    ws.assume("compute counts the matmuls with the weights (2 FLOP per active parameter per token); "
              "attention over the context is not counted")
    return compute_time, peak


def _resident_bytes(model, inputs: DecodeInputs) -> int:
    """Weights plus the KV cache held for the batch: what must sit in GPU memory."""
    total = weights_for(model, inputs.precision).bytes
    if inputs.context and model.config is not None:
        per_token = kv_per_token(model.config, inputs.kv_precision)
        total += kv_total(model.config, per_token, inputs.context, inputs.batch).bytes
    return total
