"""The HTTP API as a client sees it, over a real socket (uvicorn) and in-process (TestClient)."""
from __future__ import annotations

import pytest


def test_a_question_about_a_section_is_answered_with_a_citation_to_that_section(http):
    response = http.post("/v1/ask", json={"question": "what does the per-token cache size multiply together?",
                                          "article": "kv-cache"})
    assert response.status_code == 200
    body = response.json()
    assert body["route"] == "retrieval" and body["scope"] == "article" and body["generator"] == "extractive"
    assert "2 for keys and values" in body["answer"] and "[1]" in body["answer"]
    first = body["citations"][0]
    assert first["n"] == 1
    assert first["url"] == "https://learn.ai-infra.example/articles/kv-cache#sizing-the-cache"
    assert first["section"] == "Sizing the cache"
    assert set(body["timings_ms"]) >= {"route", "retrieve", "compose", "total"}


def test_every_marker_resolves_and_every_snippet_contains_its_sentence(http):
    body = http.post("/v1/ask", json={"question": "Why is decode limited by memory bandwidth on an H100?",
                                      "article": "kv-cache"}).json()
    numbers = {c["n"] for c in body["citations"]}
    import re
    for sentence, n in re.findall(r"(.+?) \[(\d+)\]\s*", body["answer"]):
        assert int(n) in numbers
        snippet = next(c["snippet"] for c in body["citations"] if c["n"] == int(n))
        assert sentence.strip() in snippet


def test_off_topic_question_gets_no_answer_with_closest_sections(http):
    body = http.post("/v1/ask", json={"question": "Who won the football world cup in 1998?"}).json()
    assert body["route"] == "no_answer" and body["scope"] is None and body["citations"] == []
    assert "won't guess" in body["answer"]
    assert body["suggestions"] and body["suggestions"][0]["url"].startswith("https://learn.ai-infra.example/")


def test_the_pastry_called_mooncake_is_not_the_serving_system(http):
    body = http.post("/v1/ask", json={"question": "How do I bake a lotus seed mooncake with salted egg yolks?",
                                      "article": "mooncake"}).json()
    assert body["route"] == "no_answer"


def test_todays_prices_are_not_covered_but_what_the_article_says_about_cost_is(http):
    """The site is dated and tracks no market: a price *now* is refused; what the cache saves is answered."""
    body = http.post("/v1/ask", json={"question": "kv cache cost per token this week", "article": "kv-cache"}).json()
    assert body["route"] == "no_answer"
    body = http.post("/v1/ask", json={"question": "what does it cost to produce a token without the cache",
                                      "article": "kv-cache"}).json()
    assert body["route"] == "retrieval"


def test_a_question_the_article_misses_is_answered_from_a_linked_concept(http):
    body = http.post("/v1/ask", json={"question": "How does prefix caching hash cache blocks so requests can share them?",
                                      "article": "kv-cache"}).json()
    assert body["route"] == "retrieval" and body["scope"] == "site"
    assert body["citations"][0]["doc_id"] == "prefix-caching-and-kv-reuse"


@pytest.mark.parametrize("payload, status, fragment", [
    ({"question": ""}, 422, "question: the question is empty"),
    ({"question": "   "}, 422, "question: the question is empty"),
    ({"question": "x" * 2001}, 422, "the limit is 2000"),
    ({}, 422, "question: Field required"),
    ({"question": 42}, 422, "question"),
    ({"question": "What is Mooncake?", "article": "no-such-article"}, 404, "'no-such-article'"),
    ({"question": "What is Mooncake?", "article": "Bad Id!"}, 422, "article"),
    ({"question": "What is Mooncake?", "history": [{"role": "wizard", "content": "hi"}]}, 422, "history.0.role"),
])
def test_bad_input_gets_a_specific_error_never_a_500(http, payload, status, fragment):
    response = http.post("/v1/ask", json=payload)
    assert response.status_code == status
    error = response.json()["error"]
    assert fragment in error["message"] and error["code"]


def test_malformed_json_is_a_400(http):
    response = http.post("/v1/ask", content=b'{"question": "unterminated', headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed_json"


def test_articles_listing_and_detail(http):
    listing = http.get("/v1/articles").json()["articles"]
    assert {a["id"] for a in listing} == {"mooncake", "kv-cache"}
    detail = http.get("/v1/articles/mooncake").json()
    assert detail["sections"][0] == {"heading": "The same words, over and over", "anchor": "the-same-words-over-and-over",
                                     "url": "https://learn.ai-infra.example/articles/mooncake#the-same-words-over-and-over"}
    assert "mooncake-2024" in detail["sources"]
    missing = http.get("/v1/articles/nope")
    assert missing.status_code == 404 and "'nope'" in missing.json()["error"]["message"]


def test_health_and_readiness(http, client):
    assert http.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz").json()
    assert ready["status"] == "ready" and ready["chunks"] > 0 and ready["release"]


def test_readiness_is_503_when_no_index_has_been_built(tmp_path):
    from fastapi.testclient import TestClient

    from conftest import make_settings
    from service.app import create_app

    with TestClient(create_app(make_settings(tmp_path))) as client:
        ready = client.get("/readyz")
        assert ready.status_code == 503 and ready.headers["retry-after"]
        assert "ingest build" in ready.json()["error"]["message"]
        ask = client.post("/v1/ask", json={"question": "What is the KV cache?"})
        assert ask.status_code == 503


def test_a_numeric_question_is_answered_by_the_calculator_with_its_working(http):
    body = http.post("/v1/ask", json={"question": "How much memory does Llama 3.1 70B need in bf16?"}).json()
    assert body["route"] == "calculator" and body["generator"] == "extractive"
    calc = body["calculation"]
    assert calc["calculator"] == "memory"
    assert calc["primary"]["name"] == "weights_bytes" and calc["primary"]["value"] == 141_107_412_992
    assert calc["primary"]["display"] == "141.1 GB"
    assert any("70,553,706,496" in step for step in calc["steps"])
    assert "141.1 GB" in body["answer"]


def test_a_figure_asked_in_a_unit_is_also_given_in_it(http):
    body = http.post("/v1/ask", json={"question": "llama 3.1 8b kv cache for 32 users at 8k in bf16, in GiB?"}).json()
    assert body["route"] == "calculator" and body["calculation"]["primary"]["display"] == "34.4 GB"
    assert body["answer"].startswith("**KV cache: 34.4 GB = 32 GiB**")
    body = http.post("/v1/ask", json={"question": "how many gpu days to train llama 3 8b on 15T tokens on h200s at "
                                                  "42% mfu in bf16?"}).json()
    assert body["calculation"]["primary"]["name"] == "gpu_hours"
    assert "= 20,138 GPU-days**" in body["answer"]


def test_an_unknown_model_is_named_not_guessed(http):
    body = http.post("/v1/ask", json={"question": "How much memory does Llama 9 900B need in fp8?"}).json()
    assert body["route"] == "calculator" and body["calculation"] is None
    assert body["answer"].startswith("I don't know that model; closest:")


def test_what_is_the_kv_cache_is_not_a_calculator_question(http):
    body = http.post("/v1/ask", json={"question": "What is the KV cache?", "article": "kv-cache"}).json()
    assert body["route"] == "retrieval" and body["calculation"] is None


def test_explain_and_compute_gets_a_cited_answer_with_the_calculation_attached(http):
    body = http.post("/v1/ask", json={"question": "Explain why the KV cache grows with context, and how big is it per token for Llama 3.1 8B in bf16?",
                                      "article": "kv-cache"}).json()
    assert body["route"] == "retrieval" and body["citations"]
    assert body["calculation"]["primary"]["value"] == 131_072


def test_calculate_endpoint_runs_one_calculator_on_typed_inputs(http):
    response = http.post("/v1/calculate/kv_cache", json={"model": "llama-3.1-70b", "context": 8192, "batch": 16})
    assert response.status_code == 200, response.text
    calc = response.json()
    assert calc["primary"]["name"] == "kv_cache_bytes"
    assert calc["primary"]["value"] == 16 * 8192 * 327_680


@pytest.mark.parametrize("calculator, payload, field", [
    ("memory", {"model": "llama-3.1-70b", "precision": "fp7"}, "precision"),
    ("memory", {"model": "llama-3.1-70b", "gpu": "h900"}, "gpu"),
    ("memory", {"model": "no-such-model"}, "model"),
    ("collective", {"op": "all_reduce", "size": -5, "ranks": 8}, "size"),
    ("collective", {"op": "all_reduce", "size": "1 GB", "ranks": 0}, "ranks"),
])
def test_calculate_endpoint_rejects_bad_inputs_naming_the_field(http, calculator, payload, field):
    response = http.post(f"/v1/calculate/{calculator}", json=payload)
    assert response.status_code == 422, response.text
    assert response.json()["error"]["message"].startswith(f"{field}:")


def test_unknown_calculator_is_a_404(http):
    response = http.post("/v1/calculate/horoscope", json={})
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
