"""Does it fit? Per-GPU memory against one accelerator's capacity, and the fewest GPUs that would do.

Capacity is the datasheet figure: framework overhead (CUDA context, allocator fragmentation,
temporary buffers) is not subtracted, so the answer says to keep headroom.
"""

from __future__ import annotations

import math

from .registry import GpuSpec
from .result import Worksheet
from .units import fmt_bytes, fmt_int

HEADROOM_NOTE = ("capacity is the datasheet figure; CUDA context, allocator fragmentation and "
                 "temporary buffers are not subtracted, so keep ~10% headroom")


def fits_label(gpu: GpuSpec, gpus: int) -> str:
    unit = f"{gpu.name} ({fmt_bytes(gpu.memory_bytes)})"
    return f"one {unit}" if gpus == 1 else f"{gpus} × {unit}"


def check_fit(ws: Worksheet, gpu: GpuSpec, per_gpu: int, gpus: int, min_gpus: int | None) -> bool:
    """Record free_bytes and min_gpus, add the fit step, warn when it does not fit."""
    free = gpu.memory_bytes - per_gpu
    ws.add("free_bytes", free, "B")
    fits = free >= 0
    verdict = "fits" if fits else "does not fit"
    ws.step(f"fit: {fmt_int(per_gpu)} B per GPU vs {fmt_bytes(gpu.memory_bytes)} on {gpu.name} → "
            f"{verdict}, {fmt_bytes(abs(free))} {'free' if fits else 'short'}")
    if min_gpus is not None:
        ws.add("min_gpus", min_gpus, "GPUs", f"{min_gpus} × {gpu.name}")
    ws.assume(HEADROOM_NOTE)
    if not fits:
        need = f": needs at least {min_gpus}" if min_gpus else ""
        ws.warn(f"does not fit in {fits_label(gpu, gpus)}{need}")
    return fits


def min_gpus_even_split(total: int, gpu: GpuSpec) -> int:
    """Fewest GPUs holding `total` bytes when the model splits evenly (tensor/pipeline parallel)."""
    return max(1, math.ceil(total / gpu.memory_bytes))
