"""The calculation object of DESIGN §5, and a small builder the calculators fill in.

`Calculation.model_dump()` is exactly the JSON the API returns under `calculation`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from .units import display


class Quantity(BaseModel):
    name: str
    value: float | int | None
    unit: str
    display: str


class Calculation(BaseModel):
    calculator: str
    inputs: dict[str, Any]
    primary: Quantity
    quantities: list[Quantity]
    steps: list[str]
    assumptions: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)

    def quantity(self, name: str) -> Quantity:
        for q in self.quantities:
            if q.name == name:
                return q
        raise KeyError(name)


class Worksheet:
    """Collects quantities, steps, assumptions and warnings in the order a reader derives them."""

    def __init__(self, calculator: str, inputs: dict[str, Any]):
        self.calculator = calculator
        self.inputs = inputs
        self.quantities: dict[str, Quantity] = {}
        self.steps: list[str] = []
        self.assumptions: list[str] = []
        self.warnings: list[str] = []

    def add(self, name: str, value: float | int | None, unit: str, shown: str | None = None) -> float:
        """Record a quantity (later values of the same name replace earlier ones)."""
        if isinstance(value, float) and value.is_integer() and unit in ("B", "FLOP", "GPUs") and abs(value) < 2**63:
            value = int(value)
        text = shown if shown is not None else ("unknown" if value is None else display(value, unit))
        self.quantities[name] = Quantity(name=name, value=value, unit=unit, display=text)
        return value

    def step(self, text: str) -> None:
        self.steps.append(text)

    def assume(self, text: str) -> None:
        if text not in self.assumptions:
            self.assumptions.append(text)

    def warn(self, text: str) -> None:
        if text not in self.warnings:
            self.warnings.append(text)

    def result(self, primary: str) -> Calculation:
        """The calculation; the caller's `primary` input wins when that quantity was computed."""
        asked = self.inputs.get("primary")
        if asked in self.quantities:
            primary = asked
        return Calculation(
            calculator=self.calculator,
            inputs=self.inputs,
            primary=self.quantities[primary],
            quantities=list(self.quantities.values()),
            steps=self.steps,
            assumptions=self.assumptions,
            warnings=self.warnings,
        )
