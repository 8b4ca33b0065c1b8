"""Collective calculator: α–β time of NCCL collectives, and algbw ↔ busbw (nccl-tests conventions).

S = buffer size, n = ranks, B = per-rank bandwidth per direction, α = per-step latency.

One level (every rank on the same kind of link): time = volume × S / B + steps × α, where the
volume is the nccl-tests bus factor: all-reduce 2(n−1)/n (ring: reduce-scatter then all-gather,
2(n−1) steps); all-gather, reduce-scatter, all-to-all (n−1)/n in n−1 steps; gather and scatter
(n−1)/n (the root's link carries every other rank's share, one message per peer: n−1 steps);
broadcast and reduce 1 (pipelined ring, n−1 steps); send/recv (point-to-point, each rank sends S
to its peer) 1, in one step. Tree all-reduce (NCCL double binary tree): each rank sends and
receives about 2S (reduce up, broadcast down, over two trees of S/2), in 2⌈log2 n⌉ steps.
algbw = S / t and busbw = algbw × factor, whatever the algorithm.

Across nodes (`nodes` × `gpus_per_node` = n ranks; intra-node link B_in, α_in; inter-node link
B_out, α_out per GPU, i.e. one NIC per GPU as in rail-optimised clusters):
- flat ring: one ring through all n ranks. A ring moves at the pace of its slowest hop, and some
  hops cross nodes, so B = min(B_in, B_out) and every step pays max(α_in, α_out); with one GPU per
  node every hop is inter-node. This is the model for every op other than all-reduce.
- two-level (hierarchical) all-reduce, the default across nodes: (1) reduce-scatter inside each
  node, (g−1)/g × S / B_in + (g−1) α_in; (2) all-reduce across the m nodes of each GPU's 1/g shard,
  the g rails in parallel, 2(m−1)/m × (S/g) / B_out + 2(m−1) α_out; (3) all-gather inside the node,
  as (1). The step that dominates names the link that bounds the time.
Both times are reported (`flat_ring_time_s`, `hierarchical_time_s`); `time_s` is the chosen
algorithm's. No contention, no overlap with compute, no SHARP/NVLS in-network reduction.

The buffer may be given as a model's parameters × bytes per value ("all-reduce the fp32 gradients
of Llama 3.1 8B": S = 8,030,261,248 × 4 B).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from .inputs import CollectiveInputs, resolve_model
from .registry import find_link
from .result import Calculation, Worksheet
from .units import fmt_bandwidth, fmt_bytes, fmt_int, fmt_num, fmt_seconds
from .weights import weights_for

INTER_NODE_ALPHA_S = 10e-6  # per-step default when only a NIC bandwidth is given (as links.yaml's InfiniBand)
_FACTOR_N_MINUS_1 = ("all_gather", "reduce_scatter", "all_to_all", "gather", "scatter")


def bus_factor(op: str, n: int) -> Fraction:
    """nccl-tests busbw / algbw factor."""
    if op == "all_reduce":
        return Fraction(2 * (n - 1), n)
    if op in _FACTOR_N_MINUS_1:
        return Fraction(n - 1, n)
    return Fraction(1)  # broadcast, reduce, send_recv


def bus_bandwidth(algbw: float, op: str, n: int) -> float:
    return algbw * bus_factor(op, n)


def alg_bandwidth(busbw: float, op: str, n: int) -> float:
    return busbw / bus_factor(op, n)


def _factor_text(op: str, n: int) -> str:
    if op == "all_reduce":
        return f"2({n}−1)/{n}"
    if op in _FACTOR_N_MINUS_1:
        return f"({n}−1)/{n}"
    return "1"


def latency_steps(op: str, algorithm: str, n: int) -> int:
    if algorithm == "tree":
        return 2 * math.ceil(math.log2(n))
    if op == "send_recv":
        return 1
    return 2 * (n - 1) if op == "all_reduce" else n - 1


def collective_time(op: str, algorithm: str, size: float, n: int, bandwidth: float, alpha: float) -> float:
    """Seconds for one collective on one kind of link, under the α–β model above."""
    volume = 2 if algorithm == "tree" else bus_factor(op, n)
    return float(volume) * size / bandwidth + latency_steps(op, algorithm, n) * alpha


@dataclass(frozen=True)
class TwoLevel:
    total: float
    intra: float  # reduce-scatter + all-gather inside the node
    inter: float  # all-reduce of one shard across nodes
    intra_bandwidth_term: float
    inter_bandwidth_term: float


def hierarchical_all_reduce(size: float, nodes: int, per_node: int, b_in: float, a_in: float,
                            b_out: float, a_out: float) -> TwoLevel:
    """Two-level all-reduce: reduce-scatter in node, all-reduce of S/g across nodes, all-gather in node."""
    g, m = per_node, nodes
    phase_in_bw = (g - 1) / g * size / b_in
    phase_in = phase_in_bw + (g - 1) * a_in
    inter_bw = 2 * (m - 1) / m * (size / g) / b_out
    inter = inter_bw + 2 * (m - 1) * a_out
    return TwoLevel(2 * phase_in + inter, 2 * phase_in, inter, 2 * phase_in_bw, inter_bw)


def collective(inputs: CollectiveInputs) -> Calculation:
    ws = Worksheet("collective", inputs.resolved())
    for words in inputs.assumed:
        ws.assume(words)
    op, algo, n = inputs.op, inputs.algorithm, inputs.ranks
    size = _buffer(ws, inputs)
    link = find_link(inputs.link) if inputs.link else None
    bandwidth = inputs.bandwidth or link.bandwidth
    alpha = inputs.alpha_s if inputs.alpha_s is not None else (link.alpha_s if link else 0.0)
    factor = bus_factor(op, n)
    name = op.replace("_", "-")
    source = link.name if link and not inputs.bandwidth else "given"
    nodes = inputs.nodes or 1
    where = f", {_nodes_text(nodes, inputs.gpus_per_node)}" if nodes > 1 else ""
    shown = algo if op not in ("send_recv", "gather", "scatter") else "direct"
    b_label = "intra-node B" if nodes > 1 else "B"
    ws.step(f"{name}, {shown}, n = {n} ranks{where}, S = {fmt_int(size)} B ({fmt_bytes(size)}), "
            f"{b_label} = {fmt_bandwidth(bandwidth)} per direction ({source}), α = {fmt_seconds(alpha)} per step")
    if inputs.alpha_s is None and link:
        ws.assume(f"α = {fmt_seconds(alpha)} is the documented per-step default for {link.name}, not a measurement")
    if inputs.alpha_s is None and not link:
        ws.assume("no latency term: give alpha_s to add one")
    ws.assume("one link per rank at full per-direction bandwidth, no contention, no overlap with compute")
    ws.step(f"bus factor ({name}) = {_factor_text(op, n)} = {fmt_num(float(factor), 4)}")

    if inputs.busbw or inputs.algbw:
        return _convert(ws, inputs, factor, size)
    if nodes > 1:
        t = _multi_node(ws, inputs, size, bandwidth, alpha, link)
    else:
        t = _one_level(ws, op, algo, size, n, bandwidth, alpha)
    ws.add("time_s", t, "s")
    algbw = size / t
    ws.add("algbw", algbw, "B/s")
    ws.add("busbw", algbw * float(factor), "B/s")
    ws.step(f"algbw = S / t = {fmt_bandwidth(algbw)}; busbw = algbw × {fmt_num(float(factor), 4)} = "
            f"{fmt_bandwidth(algbw * float(factor))}")
    return ws.result("time_s")


def _nodes_text(nodes: int, per_node: int) -> str:
    return f"{nodes} nodes × {per_node} GPU{'s' if per_node != 1 else ''}"


def _buffer(ws: Worksheet, inputs: CollectiveInputs) -> int:
    if inputs.model is None and inputs.params is None:
        return inputs.size
    model = resolve_model(inputs)
    w = weights_for(model, inputs.precision, what="S")
    ws.step(f"buffer = {model.label}'s parameters: {w.step}")
    for note in w.notes:
        ws.assume(note)
    ws.assume("the buffer is every parameter once (e.g. the full gradient); bucketing and overlap "
              "with the backward pass are not modelled")
    return w.bytes


def _one_level(ws: Worksheet, op: str, algo: str, size: int, n: int, bandwidth: float, alpha: float) -> float:
    steps = latency_steps(op, algo, n)
    t = collective_time(op, algo, size, n, bandwidth, alpha)
    volume = "2" if algo == "tree" else _factor_text(op, n)
    ws.step(f"time = {volume} × {fmt_bytes(size)} / {fmt_bandwidth(bandwidth)} + {steps} "
            f"step{'s' if steps != 1 else ''} × {fmt_seconds(alpha)} = {fmt_seconds(t)}")
    if op in ("gather", "scatter"):
        ws.assume(f"{op}: the root's link carries the other ranks' (n−1)/n of S, one message per peer")
    if op == "send_recv":
        ws.assume("send/recv: each rank sends S to one peer (nccl-tests sendrecv); busbw = algbw")
    return t


def _multi_node(ws: Worksheet, inputs: CollectiveInputs, size: int, b_in: float, a_in: float, link) -> float:
    op, algo, n = inputs.op, inputs.algorithm, inputs.ranks
    m, g = inputs.nodes, inputs.gpus_per_node
    inter = find_link(inputs.inter_link) if inputs.inter_link else None
    b_out = inputs.nic_bandwidth or inter.bandwidth
    if inputs.alpha_s is not None:
        a_out = inputs.alpha_s
    elif inter:
        a_out = inter.alpha_s
    else:
        a_out = INTER_NODE_ALPHA_S
        ws.assume(f"inter-node α = {fmt_seconds(a_out)} per step (default, as InfiniBand), not a measurement")
    out_name = inter.name if inter and not inputs.nic_bandwidth else "given"
    in_name = link.name if link and not inputs.bandwidth else "given"
    ws.step(f"topology: {_nodes_text(m, g)} = {n} ranks; intra-node B = {fmt_bandwidth(b_in)} ({in_name}), "
            f"inter-node B = {fmt_bandwidth(b_out)} per GPU ({out_name}), α = {fmt_seconds(a_out)}")
    ws.assume("inter-node: one NIC per GPU (rail-optimised), so each GPU has the inter-node bandwidth "
              "to itself; fewer NICs per node would divide it")
    if inputs.alpha_s is None and inter:
        ws.assume(f"α = {fmt_seconds(a_out)} is the documented per-step default for {inter.name}, not a measurement")

    # flat ring: the slowest hop sets B for every step
    if g == 1:
        b_flat, a_flat, bound = b_out, a_out, f"every hop crosses nodes: {out_name}"
    else:
        b_flat, a_flat = min(b_in, b_out), max(a_in, a_out)
        slow = out_name if b_out <= b_in else in_name
        bound = f"slowest hop = {slow} ({fmt_bandwidth(b_flat)})"
    flat_algo = "tree" if algo == "tree" else "ring"
    flat = collective_time(op, flat_algo, size, n, b_flat, a_flat)
    steps = latency_steps(op, flat_algo, n)
    volume = "2" if flat_algo == "tree" else _factor_text(op, n)
    label = "flat tree" if flat_algo == "tree" else "flat ring"
    ws.add("flat_ring_time_s", flat, "s")
    ws.step(f"{label} across nodes ({bound}): {volume} × {fmt_bytes(size)} / {fmt_bandwidth(b_flat)} + "
            f"{steps} steps × {fmt_seconds(a_flat)} = {fmt_seconds(flat)}")

    if op != "all_reduce" or g == 1:
        if op != "all_reduce" and g > 1:
            ws.assume(f"{op.replace('_', '-')} across nodes is modelled as one flat ring; a two-level "
                      "scheme (only 1/g of the data crossing nodes per GPU) is not modelled for it")
        ws.step(f"time = flat ring = {fmt_seconds(flat)}; bounded by the inter-node link")
        return flat

    two = hierarchical_all_reduce(size, m, g, b_in, a_in, b_out, a_out)
    ws.add("hierarchical_time_s", two.total, "s")
    shard = size / g
    ws.step(f"two-level: reduce-scatter in node ({g}−1)/{g} × {fmt_bytes(size)} / {fmt_bandwidth(b_in)} + "
            f"{g - 1} × {fmt_seconds(a_in)}, then all-reduce across {m} nodes of S/{g} = {fmt_bytes(shard)}: "
            f"2({m}−1)/{m} × {fmt_bytes(shard)} / {fmt_bandwidth(b_out)} + {2 * (m - 1)} × {fmt_seconds(a_out)} "
            f"= {fmt_seconds(two.inter)}, then all-gather in node; in-node phases {fmt_seconds(two.intra)} "
            f"→ total {fmt_seconds(two.total)}")
    bounding = out_name if two.inter_bandwidth_term >= two.intra_bandwidth_term else in_name
    ws.step(f"the {'inter' if bounding == out_name else 'intra'}-node link bounds the two-level time "
            f"({bounding}: {fmt_seconds(max(two.inter_bandwidth_term, two.intra_bandwidth_term))} of "
            "bandwidth time)")
    chosen = two.total if algo == "hierarchical" else flat
    which = "two-level" if algo == "hierarchical" else label
    ws.step(f"time = {which} = {fmt_seconds(chosen)} (the other: "
            f"{fmt_seconds(flat if algo == 'hierarchical' else two.total)})")
    ws.assume("no in-network reduction (SHARP/NVLS), which would shorten the inter-node phase")
    return chosen


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
