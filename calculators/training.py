"""Training-compute calculator: 6·N·D FLOPs, wall-clock time, GPU-hours, GPUs for a deadline.

N = active parameters (MoE: per token), D = training tokens. 6 = 2 (forward) + 4 (backward)
FLOPs per parameter per token; attention-score FLOPs and recomputation are not in 6·N·D.
Time = FLOPs / (GPUs × peak × MFU).
"""

from __future__ import annotations

import math

from . import precision as prec
from .inputs import TrainingInputs, resolve_model
from .registry import find_gpu
from .result import Calculation, Worksheet
from .units import fmt_flop, fmt_flops, fmt_int, fmt_num, fmt_seconds

DAY = 86_400


def training(inputs: TrainingInputs) -> Calculation:
    ws = Worksheet("training", inputs.resolved())
    for words in inputs.assumed:
        ws.assume(words)
    model = resolve_model(inputs)
    n, d = model.params.active, inputs.tokens
    which = "active parameters" if model.params.active != model.params.total else "parameters"
    ws.step(f"N = {fmt_int(n)} {which} ({model.label}); D = {fmt_int(d)} tokens")
    flops = 6 * n * d
    ws.add("flops", float(flops), "FLOP")
    ws.step(f"training compute = 6 × N × D = 6 × {fmt_int(n)} × {fmt_int(d)} = {fmt_flop(flops)}")
    ws.assume("6·N·D counts the weight matmuls (2 forward + 4 backward FLOPs per parameter per token); "
              "attention-score FLOPs and activation recomputation are extra")

    gpu = find_gpu(inputs.gpu)
    precision = prec.COMPUTE_PRECISION[inputs.precision]
    peak = gpu.peak(precision)
    if peak is None:
        ws.warn(f"{precision} peak FLOP/s of {gpu.name} is unknown: time and GPU counts cannot be computed")
        return ws.result("flops")
    rate = peak * inputs.mfu
    ws.step(f"effective per GPU = {fmt_flops(peak)} ({gpu.name}, {precision} dense) × {fmt_num(inputs.mfu)} "
            f"MFU = {fmt_flops(rate)}")
    gpu_seconds = flops / rate
    ws.add("gpu_hours", gpu_seconds / 3600, "GPU-h", f"{fmt_int(gpu_seconds / 3600)} GPU-h")
    ws.step(f"GPU-hours = {fmt_flop(flops)} / {fmt_flops(rate)} / 3,600 = {fmt_int(gpu_seconds / 3600)} GPU-h")
    primary = "flops"
    if inputs.gpus:
        t = gpu_seconds / inputs.gpus
        ws.add("time_s", t, "s")
        ws.step(f"time = {fmt_int(gpu_seconds / 3600)} GPU-h / {fmt_int(inputs.gpus)} GPUs = {fmt_seconds(t)}")
        primary = "time_s"
    if inputs.deadline_days:
        needed = math.ceil(gpu_seconds / (inputs.deadline_days * DAY))
        ws.add("gpus_needed", needed, "GPUs", f"{fmt_int(needed)} × {gpu.name}")
        ws.step(f"GPUs for {fmt_num(inputs.deadline_days)} days = ⌈{fmt_int(gpu_seconds / 3600)} GPU-h / "
                f"{fmt_num(inputs.deadline_days * 24)} h⌉ = {fmt_int(needed)}")
        primary = "gpus_needed"
    return ws.result(primary)
