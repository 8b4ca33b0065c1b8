"""`POST /v1/calculate/{calculator}`: one calculator on typed inputs (422 naming the field), the DESIGN §5
calculation object back. One route per calculator, so each has its own documented request body."""
from __future__ import annotations

from fastapi import APIRouter
from pydantic import ValidationError

from calculators import INPUT_MODELS, Calculation, calculate

from ..errors import ApiError
from ..http.errors import describe_validation, documented

router = APIRouter(tags=["calculators"])


def _route(name: str, inputs_model) -> None:
    async def run(inputs) -> Calculation:
        try:
            return calculate(name, inputs)
        except ValueError as exc:  # inputs that pass the schema but not the calculator (found by schemathesis): 422
            detail = describe_validation(exc.errors()) if isinstance(exc, ValidationError) else str(exc)
            raise ApiError(422, "invalid_request", detail) from exc

    run.__annotations__["inputs"] = inputs_model  # a real class, not a postponed string, so FastAPI reads the body
    router.post(f"/v1/calculate/{name}", response_model=Calculation, responses=documented(400, 422),
                name=f"calculate_{name}", summary=f"Run the {name} calculator")(run)


for _name, _inputs in INPUT_MODELS.items():
    _route(_name, _inputs)
