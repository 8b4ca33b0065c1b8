"""Training state per GPU under mixed-precision AdamW with ZeRO / FSDP sharding.

16 B per parameter (DESIGN §6): 2 bf16 weights + 2 bf16 grads + K = 12 of optimizer state
(4 fp32 master weights + 4 + 4 Adam moments). ZeRO over N data-parallel ranks (Rajbhandari et
al. 2020): stage 0 = 16Ψ; stage 1 = 4Ψ + 12Ψ/N; stage 2 = 2Ψ + 14Ψ/N; stage 3 = 16Ψ/N.
FSDP full sharding is stage 3 over all data-parallel ranks; hybrid sharding is stage 3 inside a
shard group, replicated across groups. A full training checkpoint (the whole model, however it is
sharded) is 14 B per parameter: the state above without the gradients.
"""

from __future__ import annotations

from fractions import Fraction

from .units import fmt_int

BYTES_PER_PARAM = 16
# A full training checkpoint: bf16 weights 2 + fp32 master weights 4 + Adam moments 4 + 4 (no gradients).
CHECKPOINT_BYTES_PER_PARAM = 14
# (replicated bytes per param, sharded bytes per param) for each ZeRO stage
STAGES = {0: (16, 0), 1: (4, 12), 2: (2, 14), 3: (0, 16)}


def state_bytes(psi: int, stage: int, n: int) -> Fraction:
    """Exact bytes of weights + grads + optimizer state on one data-parallel rank."""
    replicated, sharded = STAGES[stage]
    return Fraction(replicated * psi) + Fraction(sharded * psi, n)


def state_formula(psi: int, stage: int, n: int) -> str:
    """The formula with numbers in, e.g. '4 × 7,500,000,000 + 12 × 7,500,000,000 / 64'."""
    replicated, sharded = STAGES[stage]
    terms = []
    if replicated:
        terms.append(f"{replicated} × {fmt_int(psi)}")
    if sharded:
        terms.append(f"{sharded} × {fmt_int(psi)} / {n}")
    return " + ".join(terms)


def describe(stage: int, fsdp: str | None) -> str:
    if fsdp == "full":
        return "FSDP full sharding (= ZeRO-3)"
    if fsdp == "hybrid":
        return "FSDP hybrid sharding (ZeRO-3 inside each shard group)"
    return "no ZeRO (plain data parallel)" if stage == 0 else f"ZeRO-{stage}"
