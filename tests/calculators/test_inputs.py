"""The calculate() contract the service relies on: field-named validation errors, the §5 shape."""

import pytest
from pydantic import ValidationError

from calculators import CALCULATOR_NAMES, INPUT_MODELS, calculate


def _field_error(name, inputs):
    with pytest.raises(ValidationError) as info:
        calculate(name, inputs)
    return info.value.errors()[0]


@pytest.mark.parametrize(
    ("name", "inputs", "field"),
    [("collective", {"size": -1}, "size"),
     ("collective", {"ranks": 0}, "ranks"),
     ("memory", {"model": "llama-3.1-8b", "gpus": 0}, "gpus"),
     ("memory", {"model": "llama-3.1-8b", "precision": "fp7"}, "precision"),
     ("memory", {"model": "llama-3.1-8b", "gpu": "h900"}, "gpu"),
     ("decode", {"model": "llama-9"}, "model"),
     ("collective", {"link": "nvlink 9"}, "link"),
     ("memory", {"model": "llama-3.1-8b", "surprise": 1}, "surprise")],
)
def test_validation_errors_name_the_field(name, inputs, field):
    assert _field_error(name, inputs)["loc"][0] == field


def test_unknown_model_error_lists_closest():
    err = _field_error("memory", {"model": "Llama 3.1 7B"})
    assert "closest: " in err["msg"] and "llama-3.1-8b" in err["msg"]


def test_names_and_models_agree():
    assert set(CALCULATOR_NAMES) == set(INPUT_MODELS)


@pytest.mark.parametrize("name", CALCULATOR_NAMES)
def test_shape_is_design_section_5(name):
    inputs = {"model": "llama-3.1-8b", "tokens": "1T"} if name == "training" else (
        {"model": "llama-3.1-8b"} if name in ("memory", "kv_cache", "decode") else {})
    dumped = calculate(name, inputs).model_dump()
    assert list(dumped) == ["calculator", "inputs", "primary", "quantities", "steps", "assumptions",
                            "warnings"]
    assert dumped["calculator"] == name
    assert set(dumped["primary"]) == {"name", "value", "unit", "display"}
    assert dumped["primary"] in dumped["quantities"]
    assert dumped["steps"]


def test_inputs_are_resolved_with_defaults():
    calc = calculate("decode", {"model": "Llama-3.1-70B-Instruct"})
    assert calc.inputs["model"] == "llama-3.1-70b"
    assert calc.inputs["gpu"] == "h100-sxm" and calc.inputs["batch"] == 1
    assert "GPU H100 SXM (default)" in calc.assumptions


def test_strings_with_units_are_accepted():
    calc = calculate("collective", {"size": "4 GiB", "bandwidth": "400 Gb/s", "ranks": 2})
    assert calc.inputs["size"] == 4 * 2**30
    assert calc.inputs["bandwidth"] == 50e9


def test_primary_can_be_asked_for():
    calc = calculate("memory", {"model": "llama-3.1-405b", "primary": "min_gpus"})
    assert calc.primary.name == "min_gpus" and calc.primary.value == 11
