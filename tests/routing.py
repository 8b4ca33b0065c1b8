"""The one check the router's reading tests share: a question goes to a calculator with the inputs it means."""
from service.answer.route.numeric import NumericRequest, route_numeric


def assert_routed(question: str, calculator: str, expected: dict, **route_args) -> NumericRequest:
    """The question routes to `calculator` with the `expected` inputs (None: an input it must not have)."""
    routed = route_numeric(question, **route_args)
    assert isinstance(routed, NumericRequest) and routed.calculator == calculator
    assert {k: routed.inputs.get(k) for k in expected} == expected
    return routed
