"""SSE over real HTTP: one protocol (meta → delta… → calculation? → done) for every route."""
from __future__ import annotations

import pytest

from sse import parse_sse


def stream(http, payload: dict, header: bool = False) -> list[tuple[str, dict]]:
    headers = {"accept": "text/event-stream"} if header else {}
    body = payload if header else {**payload, "stream": True}
    with http.stream("POST", "/v1/ask", json=body, headers=headers) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        return list(parse_sse(response.iter_lines()))


@pytest.mark.parametrize("payload, route, header", [
    ({"question": "Why is decode limited by memory bandwidth?", "article": "kv-cache"}, "retrieval", False),
    ({"question": "How much memory does Llama 3.1 70B need in bf16?"}, "calculator", True),
    ({"question": "Who won the football world cup in 1998?"}, "no_answer", False),
])
def test_every_route_streams_the_same_protocol(http, payload, route, header):
    events = stream(http, payload, header)
    names = [name for name, _ in events]
    assert names[0] == "meta" and names[-1] == "done"
    assert "delta" in names and "error" not in names
    meta, done = events[0][1], events[-1][1]
    assert meta["route"] == done["route"] == route
    assert meta["answer_id"] == done["answer_id"]
    streamed = "".join(data["text"] for name, data in events if name == "delta")
    assert streamed.strip() == done["answer"].strip()
    assert set(done["timings_ms"]) >= {"route", "total"}
    if route == "calculator":
        calculation = next(data for name, data in events if name == "calculation")
        assert calculation["primary"]["value"] == 141_107_412_992 == done["calculation"]["primary"]["value"]
    if route == "retrieval":
        assert meta["citations"] and meta["citations"] == done["citations"]


def test_json_and_stream_give_the_same_answer(http):
    payload = {"question": "What goes into the formula for the cache size per token?", "article": "kv-cache"}
    as_json = http.post("/v1/ask", json=payload).json()
    done = stream(http, payload)[-1][1]
    assert as_json["answer"] == done["answer"] and as_json["citations"] == done["citations"]


def test_errors_before_the_stream_starts_are_plain_json(http):
    response = http.post("/v1/ask", json={"question": "", "stream": True})
    assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_request"
    response = http.post("/v1/ask", json={"question": "Why?", "article": "nope", "stream": True})
    assert response.status_code == 404
