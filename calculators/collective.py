"""Collective calculator: α–β time of NCCL collectives, and algbw ↔ busbw (nccl-tests conventions).

S = buffer size, n = ranks, B = per-rank bandwidth per direction, α = per-step latency.
Ring: time = factor × S / B + steps × α, with the nccl-tests bus factors (all-reduce 2(n−1)/n;
all-gather, reduce-scatter, all-to-all (n−1)/n; broadcast, reduce 1) and 2(n−1) steps for
all-reduce, n−1 for the others. Tree all-reduce (NCCL double binary tree): each rank sends and
receives about 2S (reduce up, broadcast down, over two trees of S/2), in 2⌈log2 n⌉ latency steps.
algbw = S / t and busbw = algbw × factor, whatever the algorithm.
"""

from __future__ import annotations

import math
from fractions import Fraction

from .inputs import CollectiveInputs
from .registry import find_link
from .result import Calculation, Worksheet
from .units import fmt_bandwidth, fmt_bytes, fmt_int, fmt_num, fmt_seconds


def bus_factor(op: str, n: int) -> Fraction:
    """nccl-tests busbw / algbw factor."""
    if op == "all_reduce":
        return Fraction(2 * (n - 1), n)
    if op in ("all_gather", "reduce_scatter", "all_to_all"):
        return Fraction(n - 1, n)
    return Fraction(1)


def bus_bandwidth(algbw: float, op: str, n: int) -> float:
    return algbw * bus_factor(op, n)


def alg_bandwidth(busbw: float, op: str, n: int) -> float:
    return busbw / bus_factor(op, n)


def _factor_text(op: str, n: int) -> str:
    if op == "all_reduce":
        return f"2({n}−1)/{n}"
    if op in ("all_gather", "reduce_scatter", "all_to_all"):
        return f"({n}−1)/{n}"
    return "1"


def latency_steps(op: str, algorithm: str, n: int) -> int:
    if algorithm == "tree":
        return 2 * math.ceil(math.log2(n))
    return 2 * (n - 1) if op == "all_reduce" else n - 1


def collective_time(op: str, algorithm: str, size: float, n: int, bandwidth: float, alpha: float) -> float:
    """Seconds for one collective under the α–β model above."""
    volume = 2 if algorithm == "tree" else bus_factor(op, n)
    return float(volume) * size / bandwidth + latency_steps(op, algorithm, n) * alpha


def collective(inputs: CollectiveInputs) -> Calculation:
    ws = Worksheet("collective", inputs.resolved())
    for words in inputs.assumed:
        ws.assume(words)
    op, algo, n, size = inputs.op, inputs.algorithm, inputs.ranks, inputs.size
    link = find_link(inputs.link) if inputs.link else None
    bandwidth = inputs.bandwidth or link.bandwidth
    alpha = inputs.alpha_s if inputs.alpha_s is not None else (link.alpha_s if link else 0.0)
    factor = bus_factor(op, n)
    name = op.replace("_", "-")
    source = link.name if link and not inputs.bandwidth else "given"
    ws.step(f"{name}, {algo}, n = {n} ranks, S = {fmt_int(size)} B ({fmt_bytes(size)}), "
            f"B = {fmt_bandwidth(bandwidth)} per direction ({source}), α = {fmt_seconds(alpha)} per step")
    if inputs.alpha_s is None and link:
        ws.assume(f"α = {fmt_seconds(alpha)} is the documented per-step default for {link.name}, not a measurement")
    if inputs.alpha_s is None and not link:
        ws.assume("no latency term: give alpha_s to add one")
    ws.assume("one link per rank at full per-direction bandwidth, no contention, no overlap with compute")
    ws.step(f"bus factor ({name}) = {_factor_text(op, n)} = {fmt_num(float(factor), 4)}")

    if inputs.busbw or inputs.algbw:
        return _convert(ws, inputs, factor, size)

    steps = latency_steps(op, algo, n)
    t = collective_time(op, algo, size, n, bandwidth, alpha)
    volume = "2" if algo == "tree" else _factor_text(op, n)
    ws.step(f"time = {volume} × {fmt_bytes(size)} / {fmt_bandwidth(bandwidth)} + {steps} steps × "
            f"{fmt_seconds(alpha)} = {fmt_seconds(t)}")
    ws.add("time_s", t, "s")
    algbw = size / t
    ws.add("algbw", algbw, "B/s")
    ws.add("busbw", algbw * float(factor), "B/s")
    ws.step(f"algbw = S / t = {fmt_bandwidth(algbw)}; busbw = algbw × {fmt_num(float(factor), 4)} = "
            f"{fmt_bandwidth(algbw * float(factor))}")
    return ws.result("time_s")


def _convert(ws: Worksheet, inputs: CollectiveInputs, factor: Fraction, size: int) -> Calculation:
    if inputs.algbw:
        algbw, busbw = inputs.algbw, bus_bandwidth(inputs.algbw, inputs.op, inputs.ranks)
        ws.step(f"busbw = algbw × factor = {fmt_bandwidth(algbw)} × {fmt_num(float(factor), 4)} = {fmt_bandwidth(busbw)}")
        primary = "busbw"
    else:
        busbw, algbw = inputs.busbw, alg_bandwidth(inputs.busbw, inputs.op, inputs.ranks)
        ws.step(f"algbw = busbw / factor = {fmt_bandwidth(busbw)} / {fmt_num(float(factor), 4)} = {fmt_bandwidth(algbw)}")
        primary = "algbw"
    t = size / algbw
    ws.add("algbw", algbw, "B/s")
    ws.add("busbw", busbw, "B/s")
    ws.add("time_s", t, "s")
    ws.step(f"time at that rate = S / algbw = {fmt_bytes(size)} / {fmt_bandwidth(algbw)} = {fmt_seconds(t)}")
    return ws.result(primary)
