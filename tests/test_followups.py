"""Follow-up questions keep the conversation's subject, with and without an LLM."""
from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from fake_llm import FakeLLM
from conftest import LiveServer
from service.app import create_app

MEMORY_70B = "How much memory does Llama 3.1 70B need in bf16?"


def turns(*questions: str) -> list[dict]:
    history = []
    for q in questions:
        history += [{"role": "user", "content": q}, {"role": "assistant", "content": "(answer)"}]
    return history


def test_and_in_fp8_reruns_the_calculator_with_the_precision_changed(http):
    body = http.post("/v1/ask", json={"question": "and in fp8?", "history": turns(MEMORY_70B)}).json()
    assert body["route"] == "calculator"
    assert body["calculation"]["inputs"]["precision"] == "fp8"
    assert body["calculation"]["primary"]["value"] == 70_553_706_496


def test_what_about_decode_keeps_the_model(http):
    body = http.post("/v1/ask", json={"question": "what about decode on an H100?", "history": turns(MEMORY_70B)}).json()
    assert body["route"] == "calculator" and body["calculation"]["calculator"] == "decode"
    assert body["calculation"]["inputs"]["model"] == "llama-3.1-70b"


def test_follow_ups_chain_across_turns(http):
    history = turns(MEMORY_70B, "and in fp8?")
    body = http.post("/v1/ask", json={"question": "with 16 users at 8k context?", "history": history}).json()
    inputs = body["calculation"]["inputs"]
    assert inputs["precision"] == "fp8" and inputs["batch"] == 16 and inputs["context"] == 8192


def test_a_retrieval_follow_up_carries_the_previous_subject(http):
    body = http.post("/v1/ask", json={"question": "who built it?", "article": "mooncake",
                                      "history": turns("What is Mooncake?")}).json()
    assert body["route"] == "retrieval"
    assert any(c["anchor"] == "what-mooncake-is" for c in body["citations"])


def test_without_history_the_same_words_are_not_a_calculation(http):
    body = http.post("/v1/ask", json={"question": "and in fp8?"}).json()
    assert body["route"] != "calculator"


def test_history_is_bounded(http):
    too_long = turns(*[f"question {i}" for i in range(4)])  # 8 turns > 6
    response = http.post("/v1/ask", json={"question": "and then?", "history": too_long})
    assert response.status_code == 422 and "history" in response.json()["error"]["message"]


def test_with_an_llm_the_model_writes_the_standalone_question(built):
    fake = FakeLLM()
    fake.condensed = "Who built the Mooncake serving platform?"
    with LiveServer(fake.app) as server:
        settings = built.model_copy(update={"llm_base_url": f"{server.url}/v1", "llm_model": "fake-model"})
        with TestClient(create_app(settings)) as client:
            body = client.post("/v1/ask", json={"question": "who built it?", "article": "mooncake",
                                                "history": turns("What is Mooncake?")}).json()
    condense, answer = fake.requests[0], fake.requests[1]
    assert condense["stream"] is False and "who built it?" in condense["messages"][1]["content"]
    assert "Who built the Mooncake serving platform?" in answer["messages"][1]["content"]
    assert body["route"] == "retrieval"
