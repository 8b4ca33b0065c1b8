"""Deterministic calculators for numeric questions (DESIGN §5–6).

`calculate(name, inputs)` validates `inputs` with `INPUT_MODELS[name]` and returns a `Calculation`
whose `model_dump()` is the `calculation` object of the API response.
"""

from __future__ import annotations

from typing import Callable

from pydantic import BaseModel

from .collective import alg_bandwidth, bus_bandwidth, bus_factor, collective
from .decode import decode
from .inputs import (
    CalcInputs,
    CollectiveInputs,
    DecodeInputs,
    KvCacheInputs,
    MemoryInputs,
    RooflineInputs,
    TrainingInputs,
)
from .kv_cache import kv_cache
from .memory import memory
from .result import Calculation, Quantity
from .roofline import roofline
from .training import training

CALCULATOR_NAMES = ("memory", "kv_cache", "decode", "collective", "training", "roofline")

INPUT_MODELS: dict[str, type[CalcInputs]] = {
    "memory": MemoryInputs,
    "kv_cache": KvCacheInputs,
    "decode": DecodeInputs,
    "collective": CollectiveInputs,
    "training": TrainingInputs,
    "roofline": RooflineInputs,
}

_FUNCTIONS: dict[str, Callable[..., Calculation]] = {
    "memory": memory,
    "kv_cache": kv_cache,
    "decode": decode,
    "collective": collective,
    "training": training,
    "roofline": roofline,
}


class CalculatorError(Exception):
    """The root of what the calculators raise themselves (bad inputs are pydantic ValidationErrors)."""


class UnknownCalculator(CalculatorError, KeyError):
    """No calculator has that name."""


def validate(name: str, inputs: dict | BaseModel) -> CalcInputs:
    """Inputs checked and defaults filled (raises pydantic.ValidationError naming the field)."""
    if name not in INPUT_MODELS:
        raise UnknownCalculator(f"unknown calculator {name!r}; known: {', '.join(CALCULATOR_NAMES)}")
    model = INPUT_MODELS[name]
    if type(inputs) is model:  # validated already (the router's request): defaults filled, assumptions said
        return inputs
    if isinstance(inputs, BaseModel):
        inputs = inputs.model_dump(exclude_unset=True)
    return model.model_validate(inputs)


def calculate(name: str, inputs: dict | BaseModel) -> Calculation:
    """Run calculator `name` on `inputs`."""
    return _FUNCTIONS[name](validate(name, inputs))


__all__ = [
    "CALCULATOR_NAMES", "INPUT_MODELS", "Calculation", "Quantity", "calculate", "validate",
    "CalculatorError", "UnknownCalculator", "bus_factor", "bus_bandwidth", "alg_bandwidth",
]
