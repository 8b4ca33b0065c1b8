"""The insights report over real HTTP (`GET /v1/admin/insights`), its command line, and the golden-set
stubs `python -m evals candidates` makes of it: gaps grouped by meaning, down-votes joined to their
questions, an HTML page with nothing in it that runs or loads, and the admin key in front of it all."""
from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest
import yaml

from conftest import LiveServer
from evals import datasets
from service.app import create_app
from service.feedback import default_url
from service.insights import Options, _Asked, gaps, render_html, telling_terms

ROOT = Path(__file__).parent.parent
ADMIN_KEY = "adm-insights-7c6b5a4d"
PASTRY = ["How do I bake a lotus seed mooncake with salted egg yolks?",
          "What is a good recipe for mooncake pastry?",
          "Which flour should I use to make mooncakes at home?"]
OTHER_GAPS = [("Who won the football world cup in 1998?", None), ("How do I paginate a REST API?", "kv-cache"),
              ("What will the weather be in Paris tomorrow?", None)]
ANSWERED = [("What goes into the formula for the cache size per token?", "kv-cache"),
            ("How big is the KV cache per token for Llama 3.1 8B?", None),
            ("What did Mooncake achieve for Kimi?", "mooncake")]
HOSTILE = '<script>alert(1)</script><img src="https://evil.example/x.png"> how to bake mooncake ice cream?'


@pytest.fixture(scope="module")
def site(built, tmp_path_factory):
    """A service with an admin key and a question log holding a known set of questions and ratings."""
    data = tmp_path_factory.mktemp("insights")
    settings = type(built)(**{**built.model_dump(), "feedback_url": default_url(data), "admin_key": ADMIN_KEY,
                              "rate_limit_ip_per_minute": 0})
    app = create_app(settings)
    with LiveServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as http:
        asked = {}
        for question in PASTRY:
            asked[question] = http.post("/v1/ask", json={"question": question, "article": "mooncake"},
                                        headers={"X-Client": "widget", "X-Session": "pastry-session-0001"}).json()
        for question, article in OTHER_GAPS + ANSWERED:
            asked[question] = http.post("/v1/ask", json={"question": question, "article": article}).json()
        asked[HOSTILE] = http.post("/v1/ask", json={"question": HOSTILE, "article": "kv-cache"}).json()
        down = asked[ANSWERED[0][0]]
        for answer, rating, comment, source in [(down, "down", "it skipped the <b>bytes</b> per element", "widget"),
                                                (asked[ANSWERED[2][0]], "up", None, "widget"),
                                                (asked[PASTRY[0]], "down", "=not what I asked", "widget")]:
            assert http.post("/v1/feedback", json={"answer_id": answer["answer_id"], "rating": rating, "comment": comment,
                                                   "source": source}).status_code == 201
        assert app.state.runtime.questions.flush(30)
        server.app, server.asked, server.data = app, asked, data
        yield server


@pytest.fixture
def admin(site):
    with httpx.Client(base_url=site.url, timeout=120, headers={"X-Admin-Key": ADMIN_KEY}) as client:
        yield client


def test_the_asked_questions_are_what_the_fixture_expects(site):
    routes = {q: a["route"] for q, a in site.asked.items()}
    assert all(routes[q] == "no_answer" for q in PASTRY) and all(routes[q] == "no_answer" for q, _ in OTHER_GAPS)
    assert [routes[q] for q, _ in ANSWERED] == ["retrieval", "calculator", "retrieval"]


def test_the_report_counts_routes_articles_and_ratings(admin, site):
    report = admin.get("/v1/admin/insights").json()
    assert set(report) >= {"period", "questions", "by_route", "no_answer_rate", "gaps", "downvoted", "by_article"}
    since, until = (dt.datetime.fromisoformat(report["period"][k]) for k in ("since", "until"))
    assert dt.timedelta(days=29) < until - since <= dt.timedelta(days=30, seconds=1)
    total = len(site.asked)
    refused = sum(a["route"] == "no_answer" for a in site.asked.values())
    assert report["questions"] == total and sum(report["by_route"].values()) == total
    assert report["by_route"]["no_answer"] == refused and report["no_answer_rate"] == round(refused / total, 4)
    assert report["by_client"] == {"widget": 3, "slack": 0, "api": total - 3} and report["sessions"] == 1
    by_article = {a["article"]: a for a in report["by_article"]}
    assert by_article["mooncake"]["questions"] == 4 and by_article["mooncake"]["no_answer_rate"] == 0.75
    assert (by_article["mooncake"]["up"], by_article["mooncake"]["down"]) == (1, 1)
    assert by_article["kv-cache"]["down"] == 1 and by_article[None]["questions"] == 3
    assert by_article["mooncake"]["title"]  # from the catalogue
    assert report["by_article"][0]["article"] == "mooncake"  # the most asked first
    assert sum(d["no_answer"] for d in report["by_day"]) == refused and report["by_day"][-1]["date"] == until.date().isoformat()


def test_three_phrasings_of_one_missing_topic_form_one_gap(admin):
    report = admin.get("/v1/admin/insights").json()
    gap = next(g for g in report["gaps"] if set(PASTRY) & set(g["examples"]))
    assert set(PASTRY) <= set(gap["examples"]) and gap["articles"][0] == "mooncake"
    assert gap["count"] >= 3 and gap["no_answer"] >= 3
    assert "mooncake" in gap["label"] and gap["terms"]
    assert report["gaps"][0] is not None and report["gaps"][0]["count"] == max(g["count"] for g in report["gaps"])
    assert [g["count"] for g in report["gaps"]] == sorted((g["count"] for g in report["gaps"]), reverse=True)
    others = [g for g in report["gaps"] if g is not gap]
    for question, _ in OTHER_GAPS:  # different topics, different gaps
        assert question not in gap["examples"] and any(question in g["examples"] for g in others)


def test_a_down_vote_is_shown_with_its_question_answer_and_sources(admin, site):
    report = admin.get("/v1/admin/insights").json()
    answer = site.asked[ANSWERED[0][0]]
    vote = next(v for v in report["downvoted"] if v["answer_id"] == answer["answer_id"])
    assert vote["question"] == ANSWERED[0][0] and vote["answer"] == answer["answer"]
    assert vote["comment"] == "it skipped the <b>bytes</b> per element"
    assert (vote["article"], vote["client"], vote["route"]) == ("kv-cache", "api", "retrieval")
    assert vote["cited"] and vote["cited"][0] == f"{answer['citations'][0]['doc_id']}#{answer['citations'][0]['anchor']}"
    refused = next(v for v in report["downvoted"] if v["answer_id"] == site.asked[PASTRY[0]]["answer_id"])
    assert (refused["question"], refused["client"], refused["cited"]) == (PASTRY[0], "widget", [])
    assert len(report["downvoted"]) == 2

    exported = [json.loads(line) for line in admin.get("/v1/admin/feedback/export").text.splitlines()]
    joined = next(r for r in exported if r["answer_id"] == answer["answer_id"])
    assert (joined["question"], joined["article"], joined["answer"]) == (ANSWERED[0][0], "kv-cache", answer["answer"])
    assert "question" in admin.get("/v1/admin/feedback/export?format=csv").text.splitlines()[0]


def test_the_period_filters_and_is_checked(admin):
    future = admin.get("/v1/admin/insights", params={"since": "2999-01-01", "until": "2999-02-01"}).json()
    assert future["questions"] == 0 and future["gaps"] == [] and future["downvoted"] == []
    assert len(future["by_day"]) == 31 and future["period"]["since"].startswith("2999-01-01T00:00:00")
    backwards = admin.get("/v1/admin/insights", params={"since": "2026-02-01", "until": "2026-01-01"})
    assert backwards.status_code == 422 and "before" in backwards.json()["error"]["message"]
    assert admin.get("/v1/admin/insights", params={"format": "pdf"}).status_code == 422


class _Tags(HTMLParser):
    """Every tag and attribute of a page, and a check that every element is closed where it should be."""

    VOID = {"meta", "br", "html", "head", "body"}

    def __init__(self):
        super().__init__()
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str]] = []
        self.open: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes += [(name, value or "") for name, value in attrs]
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        if tag not in self.VOID:
            assert self.open and self.open[-1] == tag, f"</{tag}> closes <{self.open[-1] if self.open else None}>"
            self.open.pop()


def test_the_html_page_has_charts_and_nothing_that_runs_or_loads(admin):
    response = admin.get("/v1/admin/insights", params={"format": "html"})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in response.headers["content-security-policy"]
    page = response.text
    parsed = _Tags()
    parsed.feed(page)
    parsed.close()
    assert parsed.open == []  # well-formed
    assert parsed.tags.count("svg") >= 3  # questions per day, gaps, no-answer rate per article
    assert {"rect", "table", "style"} <= set(parsed.tags)
    assert not {"script", "link", "img", "iframe", "object", "embed", "image", "use", "a", "form", "base"} & set(parsed.tags)
    assert not [(n, v) for n, v in parsed.attributes if n.startswith("on") or n in ("src", "href", "xlink:href", "action")]
    assert not [(n, v) for n, v in parsed.attributes if "://" in v or v.startswith("//")]
    assert "url(" not in page and "@import" not in page and "<script" not in page.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # the hostile question is shown, as text
    assert "Which flour should I use to make mooncakes at home?" in page


def test_the_admin_key_guards_the_report(site, built, tmp_path):
    assert httpx.get(f"{site.url}/v1/admin/insights").status_code == 401
    wrong = httpx.get(f"{site.url}/v1/admin/insights?format=html", headers={"X-Admin-Key": "not-the-key"})
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "unauthorized"
    app = create_app(type(built)(**{**built.model_dump(), "feedback_url": default_url(tmp_path)}))  # no ADMIN_KEY
    with LiveServer(app) as server:
        assert httpx.get(f"{server.url}/v1/admin/insights", headers={"X-Admin-Key": ADMIN_KEY}).status_code == 404


def env_for(site) -> dict:
    env = {**os.environ, "DATA_DIR": str(site.data), "CORPUS_DIR": str(site.app.state.runtime.settings.corpus_dir)}
    env.pop("FEEDBACK_URL", None)
    return env


def test_the_command_line_writes_json_and_a_self_contained_page(site, tmp_path):
    out = tmp_path / "report"
    done = subprocess.run([sys.executable, "-m", "service.insights", "--out", str(out), "--since", "2000-01-01"],
                          cwd=ROOT, env=env_for(site), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"{len(site.asked)} questions" in done.stdout
    report = json.loads((out / "insights.json").read_text())
    assert report["questions"] == len(site.asked) and report["period"]["since"].startswith("2000-01-01")
    assert any(set(PASTRY) <= set(g["examples"]) for g in report["gaps"])
    page = (out / "insights.html").read_text()
    assert page.startswith("<!doctype html>") and "<svg" in page and "<script" not in page
    bad = subprocess.run([sys.executable, "-m", "service.insights", "--out", str(out), "--since", "yesterday"],
                         cwd=ROOT, env=env_for(site), capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "not an ISO date" in bad.stderr


def test_evals_candidates_writes_golden_stubs_an_editor_can_complete(site, tmp_path):
    target = tmp_path / "candidates.yaml"
    done = subprocess.run([sys.executable, "-m", "evals", "candidates", "--since", "2000-01-01", "--out", str(target)],
                          cwd=ROOT, env=env_for(site), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    stubs = yaml.safe_load(target.read_text())
    questions = [s["question"] for s in stubs]
    assert set(PASTRY) <= set(questions) and ANSWERED[0][0] in questions  # a gap, and a down-voted answer
    assert len(questions) == len(set(questions)) and len({s["id"] for s in stubs}) == len(stubs)
    for stub in stubs:
        assert set(stub) >= {"id", "article", "question", "route", "key_facts", "note"} and stub["key_facts"] == []
    pastry = next(s for s in stubs if s["question"] == PASTRY[1])
    assert pastry["article"] == "mooncake" and "gap" in pastry["note"] and pastry["route"] == "retrieval"
    down = next(s for s in stubs if s["question"] == ANSWERED[0][0])
    assert "down-voted" in down["note"] and "bytes" in down["note"] and down["article"] == "kv-cache"

    root = tmp_path / "datasets"
    (root / "parts").mkdir(parents=True)
    assert all(not datasets._item(stub, "adversarial")[1] for stub in stubs)  # as written: valid items already
    for stub in stubs:  # the editor completes them: the sections that (now) answer, the facts an answer needs
        stub["anchors"] = [f"{stub['article'] or 'kv-cache'}#an-answering-section"]
        stub["key_facts"] = ["a fact the page states"]
    (root / "parts" / "articles-readers.yaml").write_text(yaml.safe_dump(stubs, sort_keys=False))
    items = datasets.load(["articles"], root)
    assert {i.question for i in items} == set(questions) and all(i.key_facts for i in items)

    again = subprocess.run([sys.executable, "-m", "evals", "candidates", "--since", "2000-01-01"], cwd=ROOT,
                           env=env_for(site), capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and [s["id"] for s in yaml.safe_load(again.stdout)] == [s["id"] for s in stubs]  # stable ids


# ---- the clustering and the labels, on the assistant's own model --------------------------------


@pytest.fixture(scope="module")
def embed(built):
    return built.embedder().encode


def test_paraphrases_cluster_by_topic_with_the_real_embedder(embed):
    topics = [
        PASTRY,
        ["Who won the 1998 football world cup?", "Which country won the World Cup in 1998?", "Winner of the 1998 FIFA World Cup?"],
        ["How does speculative decoding work?", "What is speculative decoding and why is it faster?",
         "Explain draft models in speculative decoding"],
        ["How do I configure the Kubernetes GPU operator?", "Setting up the NVIDIA GPU operator on k8s",
         "What does the GPU operator install on a Kubernetes cluster?"],
        ["What is the weather in Paris?"],
    ]
    asked = [_Asked(q, count=1, no_answer=1, articles={}, answer_ids=[f"{t}-{i}"])
             for t, group in enumerate(topics) for i, q in enumerate(group)]
    found = gaps(asked, embed, Options())
    grouped = sorted(sorted(g["examples"]) for g in found)
    assert grouped == sorted(sorted(t) for t in topics)
    assert [g["count"] for g in found] == [3, 3, 3, 3, 1]
    labels = {frozenset(g["examples"]): g["label"] for g in found}
    assert "speculative decoding" in labels[frozenset(topics[2])]
    assert "gpu operator" in labels[frozenset(topics[3])]
    assert "1998" in labels[frozenset(topics[1])] or "world cup" in labels[frozenset(topics[1])]


def test_telling_terms_prefer_what_sets_a_group_apart():
    groups = [["how big is the kv cache", "kv cache size for 70b", "why is the kv cache so large"],
              ["what is the cache hit rate of prefix caching", "prefix caching hit rate"]]
    first, second = telling_terms(groups)
    assert first[0] == "kv cache" and "cache" not in first[1:]
    assert "prefix caching" in second or "hit rate" in second


def test_render_html_escapes_everything_and_survives_an_empty_report():
    report = {"period": {"since": "2026-01-01T00:00:00+00:00", "until": "2026-01-02T00:00:00+00:00"},
              "generated_at": "2026-01-02T00:00:00+00:00", "questions": 0, "sessions": 0,
              "by_route": {"retrieval": 0, "calculator": 0, "no_answer": 0}, "by_client": {"widget": 0, "slack": 0, "api": 0},
              "no_answer_rate": 0.0, "low_support": 0, "low_support_rate": 0.0, "low_support_cut": 0.65,
              "latency_ms": {"p50": None, "p95": None}, "feedback": {"up": 0, "down": 0, "unlogged": 0},
              "by_day": [{"date": "2026-01-01", "retrieval": 0, "calculator": 0, "no_answer": 0}],
              "gaps": [], "downvoted": [], "by_article": []}
    page = render_html(report)
    assert "No gaps in this period." in page and "<script" not in page
    report["gaps"] = [{"label": "<b>x</b>", "terms": [], "count": 2, "distinct": 1, "no_answer": 2, "low_support": 0,
                       "articles": ["a\"b"], "examples": ["</td><script>"], "answer_ids": []}]
    page = render_html(report)
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page and "</td><script>" not in page
