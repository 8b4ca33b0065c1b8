"""Roofline calculator: ridge point = peak FLOP/s ÷ bandwidth, and the bound for an intensity."""

from __future__ import annotations

from .inputs import RooflineInputs
from . import precision as prec
from .registry import find_gpu
from .result import Calculation, Worksheet
from .units import fmt_bandwidth, fmt_flops, fmt_num


def roofline(inputs: RooflineInputs) -> Calculation:
    ws = Worksheet("roofline", inputs.resolved())
    for words in inputs.assumed:
        ws.assume(words)
    gpu = find_gpu(inputs.gpu)
    precision = prec.COMPUTE_PRECISION[inputs.precision]
    peak = gpu.peak(precision)
    ws.add("bandwidth", gpu.bandwidth, "B/s")
    ws.add("peak_flops", peak, "FLOP/s")
    if peak is None:
        ws.add("ridge_point", None, "FLOP/B")
        ws.warn(f"{precision} peak FLOP/s of {gpu.name} is unknown: no ridge point")
        return ws.result("ridge_point")
    ridge = peak / gpu.bandwidth
    ws.add("ridge_point", ridge, "FLOP/B")
    ws.step(f"ridge point = {fmt_flops(peak)} ({precision} dense) / {fmt_bandwidth(gpu.bandwidth)} = "
            f"{fmt_num(ridge, 1)} FLOP/B")
    ws.assume("dense peak (no structured sparsity) from the vendor datasheet")
    if inputs.intensity is None:
        return ws.result("ridge_point")
    attainable = min(peak, inputs.intensity * gpu.bandwidth)
    bound = "memory" if inputs.intensity < ridge else "compute"
    ws.add("attainable_flops", attainable, "FLOP/s")
    ws.step(f"attainable = min({fmt_flops(peak)}, {fmt_num(inputs.intensity, 1)} FLOP/B × "
            f"{fmt_bandwidth(gpu.bandwidth)}) = {fmt_flops(attainable)}: {bound}-bound")
    return ws.result("attainable_flops")
