"""The widget's server side, without a browser: /widget.js, the demo pages, safe Markdown, and CORS."""
from __future__ import annotations

import re
from pathlib import Path
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient

from ingest.corpus import parse_document
from service.app import create_app
from service.demo import render_markdown

from conftest import FIXTURE_CORPUS

ROOT = Path(__file__).resolve().parent.parent

SITE = "https://learn.ai-infra.example"


@pytest.fixture(scope="module")
def client(built):
    settings = type(built)(**{**built.model_dump(), "cors_origins": [SITE]})
    with TestClient(create_app(settings)) as test_client:
        yield test_client


class Tags(HTMLParser):
    """Every start tag with its attributes, to look at a page's structure rather than its text."""

    def __init__(self, html: str):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def test_widget_js_is_served_as_javascript_with_revalidation(client):
    response = client.get("/widget.js")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/javascript; charset=utf-8"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert "max-age=" in response.headers["cache-control"]
    assert 'customElements.define("ask-article"' in response.text
    # no HTML parsing of strings anywhere: the DOM is built node by node
    assert not re.search(r"\.(inner|outer)HTML\b|insertAdjacentHTML|document\.write|\beval\(|new Function|createContextualFragment",
                         response.text)
    again = client.get("/widget.js", headers={"If-None-Match": response.headers["etag"]})
    assert again.status_code == 304 and again.content == b""


def test_the_demo_index_lists_every_article(client):
    response = client.get("/demo")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    links = {attrs["href"] for tag, attrs in Tags(response.text).tags if tag == "a"}
    assert {"/demo/kv-cache", "/demo/mooncake"} <= links


def test_the_demo_page_renders_the_article_with_the_widget_in_its_ask_section(client):
    page = client.get("/demo/kv-cache")
    assert page.status_code == 200
    tags = Tags(page.text).tags
    anchors = [attrs["id"] for tag, attrs in tags if tag == "h2"]
    expected = [s["anchor"] for s in client.get("/v1/articles/kv-cache").json()["sections"]]
    assert anchors == expected  # citations link to url#anchor: the page has exactly those anchors
    assert ("script", {"src": "/widget.js", "defer": None}) in tags
    ask_section = page.text.split('id="ask-about-this-article"', 1)[1].split("</section>", 1)[0]
    assert '<ask-article article="kv-cache"></ask-article>' in ask_section
    assert "2 × 32 × 8 × 128 × 2 = 131,072 bytes" in page.text


def test_an_unknown_article_is_a_404_page(client):
    response = client.get("/demo/no-such-article")
    assert response.status_code == 404 and response.headers["content-type"].startswith("text/html")
    assert "no-such-article" in response.text
    hostile = client.get("/demo/%3Cscript%3Ealert(1)%3C%2Fscript%3E")
    assert hostile.status_code == 404 and "<script>alert" not in hostile.text


def test_corpus_markdown_is_rendered_without_its_raw_html():
    doc = parse_document(FIXTURE_CORPUS / "sources" / "untrusted-notes-2026.md")
    html = "".join(render_markdown(section.text) for section in doc.sections)
    assert "&lt;img src=x onerror" in html and "&lt;script&gt;alert" in html
    assert not re.search(r"<(img|script)\b", html)
    assert 'href="javascript:' not in render_markdown("[click](javascript:alert(1)) <b onclick=x>hi</b>")
    assert "<b " not in render_markdown("<b onclick=x>hi</b>")


@pytest.mark.parametrize("path", ["/v1/ask", "/v1/feedback"])
def test_cors_lets_the_sites_own_origin_embed_the_widget(client, path):
    preflight = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"}
    allowed = client.options(path, headers={"Origin": SITE, **preflight})
    assert allowed.status_code == 200
    assert allowed.headers["access-control-allow-origin"] == SITE
    assert "content-type" in allowed.headers["access-control-allow-headers"].lower()
    refused = client.options(path, headers={"Origin": "https://evil.example", **preflight})
    assert "access-control-allow-origin" not in refused.headers


def test_cors_headers_on_the_answer_itself(client):
    answer = client.post("/v1/ask", json={"question": "What is the KV cache?", "article": "kv-cache"},
                         headers={"Origin": SITE})
    assert answer.headers["access-control-allow-origin"] == SITE
    other = client.post("/v1/ask", json={"question": "What is the KV cache?", "article": "kv-cache"},
                        headers={"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in other.headers


def test_every_article_of_the_real_corpus_gets_a_demo_page():
    from pathlib import Path

    from service.catalogue import Catalogue
    from service.demo import article_page

    catalogue = Catalogue.load(Path(__file__).parent.parent / "corpus")
    for article_id, info in catalogue.articles.items():
        tags = Tags(article_page(catalogue, article_id)).tags
        assert [a["id"] for t, a in tags if t == "h2"][: len(info.sections)] == [s.anchor for s in info.sections]
        assert ("ask-article", {"article": article_id}) in tags


def test_the_widget_reads_citation_markers_with_the_services_grammar():
    """One marker grammar: the widget's renderer carries service/answer/markers.py's pattern verbatim."""
    import json

    from service.answer.markers import MARKER_SOURCE, markers

    line = next(line for line in (ROOT / "service" / "static" / "widget.js").read_text().splitlines()
                if "citation markers" in line and "MARKER_SOURCE" in line)
    literal = line.strip().split(",  //")[0]
    assert json.loads(literal) == MARKER_SOURCE
    # and the grammar reads answers the way a reader sees them
    assert [n for _, n in markers("Paged blocks. [1][2] A tile[32][32] read [3, 4]")] == [1, 2, 3, 4]
