"""Number formats: bits per stored value, the names people use for them, and which peak applies.

DESIGN §6: fp32 4 B, bf16/fp16 2 B, fp8/int8 1 B, int4 0.5 B, MXFP4 4.25 bits (4-bit e2m1 values
plus one 8-bit e8m0 scale per block of 32). NVFP4 is 4.5 bits (one fp8 scale per 16 values).
"""

from __future__ import annotations

from fractions import Fraction

BITS: dict[str, Fraction] = {
    "fp32": Fraction(32),
    "bf16": Fraction(16),
    "fp16": Fraction(16),
    "fp8": Fraction(8),
    "int8": Fraction(8),
    "int4": Fraction(4),
    "mxfp4": Fraction(4) + Fraction(8, 32),
    "nvfp4": Fraction(4) + Fraction(8, 16),
}

ALIASES: dict[str, str] = {
    "float32": "fp32", "f32": "fp32", "full precision": "fp32", "32-bit": "fp32", "32 bit": "fp32",
    "bfloat16": "bf16", "float16": "fp16", "f16": "fp16", "half": "fp16", "half precision": "fp16",
    "16-bit": "bf16", "16 bit": "bf16",
    "float8": "fp8", "e4m3": "fp8", "fp8 e4m3": "fp8", "e5m2": "fp8",
    "8-bit": "int8", "8 bit": "int8", "8bit": "int8",
    "4-bit": "int4", "4 bit": "int4", "4bit": "int4", "awq": "int4", "gptq": "int4", "w4a16": "int4",
    "mx fp4": "mxfp4", "mx-fp4": "mxfp4", "nv fp4": "nvfp4", "nv-fp4": "nvfp4",
}

# Formats whose matmuls run on the GPU's own low-precision units; the others (weight-only
# quantisation) are dequantised and multiplied in bf16.
COMPUTE_PRECISION: dict[str, str] = {
    "fp32": "fp32", "bf16": "bf16", "fp16": "bf16", "fp8": "fp8", "int8": "int8",
    "int4": "bf16", "mxfp4": "bf16", "nvfp4": "bf16",
}

NOTES: dict[str, str] = {
    "int4": "int4 counted as 0.5 B per value; group-wise scales and zero points are not counted",
    "mxfp4": "MXFP4 = 4-bit e2m1 values + one 8-bit e8m0 scale per 32 values = 4.25 bits per value",
    "nvfp4": "NVFP4 = 4-bit e2m1 values + one fp8 scale per 16 values = 4.5 bits per value",
    "int8": "int8 counted as 1 B per value; per-channel scales are not counted",
}


def normalize(name: str) -> str | None:
    """Canonical precision name for what a user typed, or None when unknown."""
    key = name.strip().lower()
    if key in BITS:
        return key
    return ALIASES.get(key)


def bytes_per_value(precision: str) -> Fraction:
    """Exact bytes per stored value, as a Fraction (MXFP4 = 17/32 B)."""
    return BITS[precision] / 8


def label(precision: str) -> str:
    """'2 B (bf16)', '4.25 bits (mxfp4)': how a step names the per-value cost."""
    b = bytes_per_value(precision)
    if b.denominator == 1:
        return f"{b} B ({precision})"
    if (b * 2).denominator == 1:
        return f"{float(b):g} B ({precision})"
    return f"{float(BITS[precision]):g} bits ({precision})"
