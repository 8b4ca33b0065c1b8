"""Bytes of weights at a precision, including formats that cover only some tensors.

MXFP4/NVFP4 releases of MoE models (gpt-oss) quantise the routed experts' weight matrices only and
keep attention, router, embeddings, norms and biases in bf16; the same split is applied to any MoE
model given one of these formats. A dense model given MXFP4 is counted at 4.25 bits throughout.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from . import precision as prec
from .architecture import expert_matrix_params
from .inputs import ResolvedModel
from .units import fmt_bytes, fmt_int

BLOCK_FORMATS = ("mxfp4", "nvfp4")


@dataclass(frozen=True)
class Weights:
    bytes: int
    step: str
    notes: list[str] = field(default_factory=list)


def _nbytes(count: int, precision: str) -> Fraction:
    return count * prec.bytes_per_value(precision)


def weights_for(model: ResolvedModel, precision: str, params: int | None = None,
                expert_matrices: int | None = None, what: str = "weights") -> Weights:
    """Bytes of `params` parameters (default: all) of which `expert_matrices` are expert matrices."""
    params = model.params.total if params is None else params
    expert_matrices = model.params.expert_matrices if expert_matrices is None else expert_matrices
    notes = [prec.NOTES[precision]] if precision in prec.NOTES else []
    if precision in BLOCK_FORMATS and expert_matrices:
        other = params - expert_matrices
        exact = _nbytes(expert_matrices, precision) + _nbytes(other, "bf16")
        total = math.ceil(exact)
        step = (f"{what} = {fmt_int(expert_matrices)} expert-matrix params × {prec.label(precision)}"
                f" + {fmt_int(other)} other params × {prec.label('bf16')} = {fmt_int(total)} B"
                f" = {fmt_bytes(total)}")
        notes.append(f"{precision} covers the MoE expert weight matrices only; attention, router, "
                     "embeddings, norms and biases stay bf16")
        return Weights(total, step, notes)
    total = math.ceil(_nbytes(params, precision))
    if precision in BLOCK_FORMATS:
        notes.append(f"{precision} applied to every parameter (releases usually keep embeddings and "
                     "norms in bf16, which would add a little)")
    step = (f"{what} = {fmt_int(params)} params × {prec.label(precision)} = {fmt_int(total)} B"
            f" = {fmt_bytes(total)}")
    return Weights(total, step, notes)


def expert_matrix_share(model: ResolvedModel, experts_per_layer: float) -> int:
    """Expert-matrix params in `experts_per_layer` routed experts of every MoE layer."""
    if not model.config or not model.config.is_moe:
        return 0
    return round(model.params.moe_layers * experts_per_layer * expert_matrix_params(model.config))
