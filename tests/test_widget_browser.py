"""The ask widget in a real browser: Debian's Chromium, headless, driven by Playwright.

The demo page is served by the real app over a socket; the widget talks to the API cross-origin (the
page is loaded from http://localhost:PORT, the API is http://127.0.0.1:PORT, and CORS allows the
former), the way an article page on the site embeds it. Screenshots of every state are written to
tests/artifacts/ (git-ignored) for a person to look at.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from service.app import create_app
from service.feedback import default_url

from conftest import LiveServer, free_port

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).parent / "artifacts"
SITE = "https://learn.ai-infra.example"
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

REQUIRED_ENV = "TESTS_REQUIRE_CHROMIUM"  # set by .ci/run: a missing browser is then a failure, not a skip
pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get(REQUIRED_ENV),
                                reason=f"{CHROMIUM} is not installed (.ci/run installs Debian's chromium)")

# Records what the widget reports to the host page, and anything an injected payload would do.
INIT_SCRIPT = """
window.__deltas = []; window.__answers = []; window.__pwned = 0;
document.addEventListener('ask-delta', e => window.__deltas.push(e.detail.answer.length));
document.addEventListener('ask-answer', e => window.__answers.push(e.detail.response));
"""

# The element that has the keyboard focus, looking through shadow roots.
FOCUSED = """() => {
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return {tag: a.tagName.toLowerCase(), cls: a.className || '', text: (a.textContent || '').trim().slice(0, 60),
          label: a.getAttribute('aria-label') || '', href: a.getAttribute('href') || ''};
}"""


class Site:
    def __init__(self, server: LiveServer, app):
        self.server, self.app = server, app

    @property
    def page_origin(self) -> str:  # where the article page is served from
        return f"http://localhost:{self.server.port}"

    @property
    def api(self) -> str:  # where the widget sends its questions: another origin
        return f"http://127.0.0.1:{self.server.port}"


@pytest.fixture(scope="module")
def site(built, tmp_path_factory):
    port = free_port()
    settings = type(built)(**{**built.model_dump(), "cors_origins": [f"http://localhost:{port}"],
                              "feedback_url": default_url(tmp_path_factory.mktemp("feedback"))})
    app = create_app(settings)
    server = LiveServer(app)
    server.port = server.server.config.port = port  # the CORS allowlist names this port
    with server:
        yield Site(server, app)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        if not CHROMIUM.exists():
            pytest.fail(f"{CHROMIUM} is not installed and {REQUIRED_ENV} is set: the widget cannot be tested")
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Reader:
    """A page with the widget, and what a reader does with it."""

    def __init__(self, page, site: Site):
        self.page, self.site = page, site
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.asked: list[dict] = []
        page.on("dialog", lambda dialog: (self.dialogs.append(dialog.message), dialog.dismiss()))
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("request", self._record)
        page.add_init_script(INIT_SCRIPT)

    def _record(self, request):
        if request.url.endswith("/v1/ask") and request.method == "POST":
            self.asked.append(json.loads(request.post_data))

    def open(self, article: str, hash: str = "") -> "Reader":
        self.page.goto(f"{self.site.page_origin}/demo/{article}{hash}")
        self.widget.locator("input").wait_for()
        self.page.evaluate("api => document.querySelector('ask-article').setAttribute('api-base', api)", self.site.api)
        return self

    @property
    def widget(self):
        return self.page.locator("ask-article")  # Playwright's CSS locators pierce open shadow roots

    def turn(self, n: int):
        return self.widget.locator(".turn").nth(n)

    def ask(self, question: str):
        count = self.widget.locator(".turn").count()
        self.widget.locator("input").fill(question)
        self.widget.locator("input").press("Enter")
        return self.answered(count)

    def answered(self, n: int):
        turn = self.turn(n)
        turn.locator('.answer[aria-busy="false"]').wait_for(timeout=20_000)
        return turn

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(ARTIFACTS / f"widget-{name}.png"), full_page=False)

    def widget_shot(self, name: str) -> None:
        self.widget.screenshot(path=str(ARTIFACTS / f"widget-{name}.png"))

    def focused(self) -> dict:
        return self.page.evaluate(FOCUSED)


@pytest.fixture
def reader(browser, site):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    reader = Reader(context.new_page(), site)
    yield reader
    context.close()
    assert reader.dialogs == [] and reader.errors == []


def test_a_cited_answer_streams_in_with_citations_that_link_to_the_section(reader):
    reader.open("mooncake")
    turn = reader.ask("What is Mooncake?")
    page = reader.page
    lengths = page.evaluate("window.__deltas")
    assert len(lengths) >= 2 and lengths == sorted(lengths), "the answer arrives in pieces, each one longer"
    done = page.evaluate("window.__answers")[-1]
    assert done["route"] == "retrieval" and done["scope"] == "article"
    body = turn.locator(".body")
    assert "Moonshot AI" in body.inner_text()
    marker = turn.locator(".cite-link").first
    expected = f"{SITE}/articles/mooncake#what-mooncake-is"
    assert marker.get_attribute("href") == expected
    assert marker.inner_text() == "[1]"
    # the snippet shows on hover, and is the marker's accessible description
    tip = turn.locator(".tip").first
    assert not tip.is_visible()
    marker.hover()
    assert tip.is_visible() and "serving platform behind Kimi" in tip.inner_text()
    assert marker.get_attribute("aria-describedby") == tip.get_attribute("id")
    assert turn.locator(".sources a").first.get_attribute("href") == expected
    assert turn.locator(".scope").count() == 0  # from this article: no "elsewhere" marker
    reader.widget.scroll_into_view_if_needed()
    reader.shot("answer-desktop")
    # on the article's own page the citation scrolls to its section
    marker.click()
    assert page.evaluate("location.hash") == "#what-mooncake-is"
    assert page.evaluate("document.activeElement.id") == "what-mooncake-is"


def test_an_answer_from_elsewhere_on_the_site_says_so(reader):
    reader.open("mooncake")
    turn = reader.ask("What is prefix caching and when can a server reuse KV blocks?")
    assert reader.page.evaluate("window.__answers")[-1]["scope"] == "site"  # the fixture article doesn't cover it
    assert turn.locator(".scope").inner_text() == "From elsewhere on the site"
    assert turn.locator(".sources .tag").count() >= 1
    reader.widget_shot("site-scope")


def test_a_numeric_question_shows_the_worked_calculation(reader):
    reader.open("kv-cache")
    turn = reader.ask("How much memory does Llama 3.1 70B need in bf16?")
    table = turn.locator(".calc table")
    assert table.locator("caption").inner_text() == "Worked calculation: memory"
    primary = table.locator("tr.primary")
    assert primary.locator("th").inner_text() == "weights" and primary.locator("td").inner_text() == "141.1 GB"
    text = table.inner_text().lower()  # group headings are upper-cased by CSS
    for expected in ("result", "inputs", "llama-3.1-70b", "steps", "70,553,706,496", "assumptions", "warnings"):
        assert expected in text
    assert "does not fit" in table.locator("tr.warning").first.inner_text()
    assert turn.locator(".body strong").first.inner_text() == "Weights: 141.1 GB"
    reader.widget_shot("calculation-desktop")


def test_an_off_topic_question_shows_the_not_covered_state(reader):
    reader.open("mooncake")
    turn = reader.ask("How do I bake a lotus-seed mooncake?")
    answer = turn.locator(".answer")
    assert "not-covered" in answer.get_attribute("class")
    assert answer.locator(".not-covered-title").inner_text() == "Not covered in this article"
    closest = [a.get_attribute("href") for a in answer.locator(".body li a").all()]
    assert closest and all(href.startswith(f"{SITE}/articles/mooncake#") for href in closest)
    reader.widget_shot("not-covered")


def test_a_thumbs_up_is_stored(reader, site):
    reader.open("kv-cache")
    turn = reader.ask("What is the KV cache?")
    answer_id = reader.page.evaluate("window.__answers")[-1]["answer_id"]
    up = turn.locator('.feedback button[data-rating="up"]')
    up.click()
    reader.page.wait_for_function("() => document.querySelector('ask-article').shadowRoot"
                                  ".querySelector('.feedback .note').textContent.length > 0")
    assert up.get_attribute("aria-pressed") == "true"
    assert turn.locator(".feedback .note").inner_text() == "Thanks for the feedback."
    rows = [r for r in site.app.state.runtime.feedback.rows() if r["answer_id"] == answer_id]
    assert [(r["rating"], r["client"]) for r in rows] == [("up", "widget")]
    up.click(force=True)  # a second click (on the now aria-disabled button) sends nothing more
    assert len([r for r in site.app.state.runtime.feedback.rows() if r["answer_id"] == answer_id]) == 1
    reader.widget_shot("feedback")


def test_a_follow_up_uses_the_conversation_until_it_is_reset(reader):
    reader.open("mooncake")
    reader.ask("What is Mooncake?")
    follow_up = reader.ask("Who built it?")
    assert "Moonshot AI" in follow_up.locator(".body").inner_text()
    assert [t["role"] for t in reader.asked[-1]["history"]] == ["user", "assistant"]
    assert reader.asked[-1]["history"][0]["content"] == "What is Mooncake?"
    reader.widget_shot("follow-up")
    reader.widget.locator("button.reset").click()
    assert reader.widget.locator(".turn").count() == 0
    assert reader.focused()["tag"] == "input"
    fresh = reader.ask("Who built it?")
    assert reader.asked[-1]["history"] == []
    assert "Moonshot AI" in fresh.locator(".body").inner_text()  # alone on the Mooncake page, "it" is Mooncake


def test_keyboard_only(reader):
    page, keyboard = reader.page, reader.page.keyboard
    reader.open("kv-cache", "#ask-about-this-article")  # the page's own link to the section
    keyboard.press("Tab")
    assert reader.focused()["tag"] == "input"
    keyboard.type("Why is decode limited by memory bandwidth?")
    keyboard.press("Enter")
    reader.answered(0)
    assert reader.focused()["tag"] == "input"  # focus stays put while the answer streams in
    keyboard.press("Shift+Tab")
    assert reader.focused()["label"] == "Not helpful"
    keyboard.press("Shift+Tab")
    assert reader.focused()["label"] == "Helpful"
    keyboard.press("Enter")
    reader.turn(0).locator('.feedback button[aria-pressed="true"]').wait_for()
    assert reader.focused()["label"] == "Helpful"  # the focus is not lost when the rating is sent
    for _ in range(10):  # back through the sources to the answer's citation markers
        keyboard.press("Shift+Tab")
        if "cite-link" in reader.focused()["cls"]:
            break
    focused = reader.focused()
    assert focused["href"].startswith(f"{SITE}/") and "#" in focused["href"]  # a cited section of the site
    assert focused["label"].startswith("Source ")
    tip = reader.turn(0).locator(".cite:focus-within .tip")
    assert tip.is_visible() and tip.inner_text()
    reader.widget_shot("keyboard-tooltip")
    keyboard.press("Escape")
    assert not tip.is_visible()
    while reader.focused()["tag"] != "input":
        keyboard.press("Tab")
    keyboard.type("and what is the ridge point?")
    keyboard.press("Tab")
    assert reader.focused()["text"] == "Ask"
    keyboard.press("Enter")  # the button works too, and keeps the focus while the answer comes
    reader.answered(1)
    assert reader.focused()["text"] == "Ask"
    assert reader.asked[-1]["history"][0]["content"] == "Why is decode limited by memory bandwidth?"
    keyboard.press("Tab")
    assert reader.focused()["text"] == "New conversation"
    keyboard.press("Enter")
    assert reader.widget.locator(".turn").count() == 0 and reader.focused()["tag"] == "input"
    labels = page.evaluate("""() => { const r = document.querySelector('ask-article').shadowRoot;
        const input = r.querySelector('input'); return [...input.labels].map(l => l.textContent); }""")
    assert labels == ["Ask a question about this article"]


def test_loading_error_and_retry(reader, site):
    reader.open("kv-cache")
    closed = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    reader.page.evaluate("api => document.querySelector('ask-article').setAttribute('api-base', api)", closed)
    turn = reader.ask("What is the KV cache?")
    error = turn.locator(".error")
    assert "Couldn’t reach the assistant" in error.inner_text()
    assert reader.focused()["text"] == "Retry"
    reader.widget_shot("error")
    reader.page.evaluate("api => document.querySelector('ask-article').setAttribute('api-base', api)", site.api)
    # while an answer is on its way the widget says so
    reader.page.route(f"{site.api}/v1/ask", lambda route: (reader.page.wait_for_timeout(600), route.continue_()))
    reader.page.keyboard.press("Enter")
    loading = turn.locator(".loading")
    loading.wait_for()
    reader.widget_shot("loading")
    reader.answered(0)
    assert turn.locator(".error").count() == 0 and "cache" in turn.locator(".body").inner_text().lower()


def test_xss_in_the_question_and_the_corpus_stays_inert(reader):
    reader.open("kv-cache")
    payload = ("<img src=x onerror=\"window.__pwned=1;alert('q')\"><script>window.__pwned=2</script>"
               " What does the eviction dashboard render as a title?")
    turn = reader.ask(payload)
    done = reader.page.evaluate("window.__answers")[-1]
    assert any(c["doc_id"] == "untrusted-notes-2026" for c in done["citations"])  # the hostile document was used
    assert "<img src=x onerror" in turn.locator(".question").inner_text()  # shown as text
    assert "<img src=x onerror=\"alert('xss')\">" in turn.locator(".body").inner_text()
    turn.locator(".cite-link").first.hover()
    assert "<script>alert('xss')</script>" in turn.locator(".tip").first.inner_text()
    reader.widget_shot("xss-inert")
    injected = reader.page.evaluate("""() => {
        const r = document.querySelector('ask-article').shadowRoot;
        return [...r.querySelectorAll('img, script, iframe, object, embed, svg:not(.feedback svg), [onerror], [onclick]')]
          .map(e => e.outerHTML); }""")
    assert injected == [] and reader.page.evaluate("window.__pwned") == 0 and reader.dialogs == []


def test_a_hostile_answer_stream_renders_as_text(reader, site):
    """As if an LLM (or a compromised proxy) sent markup, script links and a javascript: citation."""
    citation = {"n": 1, "doc_id": "kv-cache", "kind": "article", "title": "<b>T</b>", "section": "S",
                "anchor": "a", "url": "javascript:alert(1)", "snippet": "<img src=x onerror=alert(1)>"}
    answer = ("<img src=x onerror=\"window.__pwned=1\"> **bold <script>window.__pwned=2</script>** "
              "[click](javascript:alert(1)) [data](data:text/html,<script>alert(1)</script>) [1]\n\n"
              "- <iframe src=\"javascript:alert(1)\"></iframe>")
    events = [("meta", {"answer_id": "00000000-0000-4000-8000-000000000000", "route": "retrieval", "scope": "article",
                        "citations": [citation]}),
              ("delta", {"text": answer}),
              ("done", {"answer_id": "00000000-0000-4000-8000-000000000000", "route": "retrieval", "scope": "article",
                        "answer": answer, "citations": [citation], "calculation": None, "generator": "x",
                        "timings_ms": {}, "suggestions": []})]
    body = "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events)
    reader.page.route(f"{site.api}/v1/ask", lambda route: route.fulfill(
        status=200, body=body, headers={"content-type": "text/event-stream",
                                        "access-control-allow-origin": site.page_origin}))
    reader.open("kv-cache")
    turn = reader.ask("anything")
    text = turn.locator(".body").inner_text()
    assert "<img src=x" in text and "<script>" in text and "<iframe" in text
    assert turn.locator(".body strong").count() == 1
    hrefs = reader.page.evaluate("""() => [...document.querySelector('ask-article').shadowRoot
        .querySelectorAll('a')].map(a => a.getAttribute('href'))""")
    assert all(h is None or h.startswith(("http://", "https://", "#")) for h in hrefs), hrefs
    injected = reader.page.evaluate("""() => document.querySelector('ask-article').shadowRoot
        .querySelectorAll('img, script, iframe, b, [onerror]').length""")
    assert injected == 0 and reader.page.evaluate("window.__pwned") == 0


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_phone_screen_360px_wide(browser, site, scheme):
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, color_scheme=scheme)
    reader = Reader(context.new_page(), site)
    try:
        reader.open("kv-cache", "#ask-about-this-article")
        turn = reader.ask("How much memory does Llama 3.1 70B need in bf16?")
        widths = reader.page.evaluate("""() => ({page: document.documentElement.scrollWidth,
            widget: document.querySelector('ask-article').getBoundingClientRect().right})""")
        assert widths["page"] <= 360 and widths["widget"] <= 360, widths
        background = reader.page.evaluate("""() => getComputedStyle(
            document.querySelector('ask-article').shadowRoot.querySelector('.box')).backgroundColor""")
        assert (background == "rgb(255, 255, 255)") == (scheme == "light"), background
        forced = "dark" if scheme == "light" else "light"  # the theme attribute overrides the reader's scheme
        forced_background = reader.page.evaluate("""theme => { const w = document.querySelector('ask-article');
            w.setAttribute('theme', theme); const bg = getComputedStyle(w.shadowRoot.querySelector('.box')).backgroundColor;
            w.removeAttribute('theme'); return bg; }""", forced)
        assert (forced_background == "rgb(255, 255, 255)") == (forced == "light"), forced_background
        turn.locator(".calc").scroll_into_view_if_needed()
        reader.shot(f"phone-calculation-{scheme}")
        reader.ask("Why is decode limited by memory bandwidth?")
        reader.widget.locator("input").scroll_into_view_if_needed()
        reader.shot(f"phone-answer-{scheme}")
        assert reader.dialogs == [] and reader.errors == []
    finally:
        context.close()
