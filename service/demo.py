"""The demo pages that show the ask widget on each article (`GET /demo`, `GET /demo/{article}`).

An article's Markdown is rendered server-side (markdown-it with raw HTML disabled, so nothing in the
corpus becomes markup) and the widget goes in its "Ask about this article" section.
"""
from __future__ import annotations

from html import escape

from markdown_it import MarkdownIt

from .catalogue import Catalogue

ASK_SECTION = "ask-about-this-article"
_markdown = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")


def render_markdown(text: str) -> str:
    """Markdown → HTML with raw HTML escaped (not passed through) and unsafe link schemes refused."""
    return _markdown.render(text)


# ------------------------------------------------------------------------------- pages ----


def article_page(catalogue: Catalogue, article_id: str) -> str:
    info = catalogue.articles[article_id]
    doc = catalogue.corpus.document("article", article_id)
    widget = (f'<ask-article article="{escape(article_id)}"></ask-article>\n'
              '<noscript><p>The ask box needs JavaScript.</p></noscript>')
    parts, placed = [], False
    for section in doc.sections:
        body = render_markdown(section.text)
        if not section.heading:
            parts.append(f'<div class="lead">{body}</div>')
            continue
        extra = ""
        if section.anchor == ASK_SECTION:
            extra, placed = widget, True
        parts.append(f'<section aria-labelledby="{escape(section.anchor)}">\n'
                     f'<h2 id="{escape(section.anchor)}" tabindex="-1">{escape(section.heading)}</h2>\n{body}{extra}</section>')
    if not placed:  # every article has the section by convention; the demo shows the widget regardless
        parts.append(f'<section aria-labelledby="{ASK_SECTION}"><h2 id="{ASK_SECTION}" tabindex="-1">'
                     f'Ask about this article</h2>{widget}</section>')
    toc = "".join(f'<li><a href="#{escape(s.anchor)}">{escape(s.heading)}</a></li>' for s in info.sections)
    content = (f'<p class="crumbs"><a href="/demo">All articles</a></p>\n'
               f'<h1>{escape(info.title)}</h1>\n<p class="dek">{escape(info.summary)}</p>\n'
               f'<nav aria-label="Sections"><ol>{toc}</ol></nav>\n' + "\n".join(parts))
    return _page(info.title, f"<article>{content}</article>", widget=True)


def index_page(catalogue: Catalogue) -> str:
    items = "".join(f'<li><a href="/demo/{escape(a.id)}">{escape(a.title)}</a><p>{escape(a.summary)}</p></li>'
                    for a in sorted(catalogue.articles.values(), key=lambda a: a.title.lower()))
    body = ("<h1>Ask about this article — demo</h1>\n"
            "<p>Each page renders an article with the ask widget in its “Ask about this article” section.</p>\n"
            f'<ul class="articles">{items}</ul>')
    return _page("Ask about this article — demo", body)


def not_found_page(article_id: str) -> str:
    body = (f"<h1>No such article</h1><p>There is no article with id “{escape(article_id)}”.</p>"
            '<p><a href="/demo">See the articles</a></p>')
    return _page("Not found", body)


_STYLE = """
:root { color-scheme: light dark; --fg: #1c1f24; --bg: #fbfbf9; --muted: #5b6270; --link: #1a56c4; --rule: #dcdfe4; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e8eb; --bg: #15171b; --muted: #a3aab5; --link: #8ab4ff; --rule: #2c3139; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 17px/1.6 Georgia, "DejaVu Serif", serif; }
main { max-width: 46rem; margin: 0 auto; padding: 1.5rem 1rem 4rem; }
h1, h2, nav, .crumbs { font-family: system-ui, "DejaVu Sans", sans-serif; }
h1 { font-size: 1.9rem; line-height: 1.25; margin: .5rem 0; }
h2 { font-size: 1.3rem; margin-top: 2.2rem; }
a { color: var(--link); }
.dek, .crumbs, nav { color: var(--muted); }
nav ol { padding-left: 1.2rem; font-size: .95rem; }
pre, code { font-size: .9em; } pre { overflow-x: auto; }
table { border-collapse: collapse; } td, th { border: 1px solid var(--rule); padding: .2rem .5rem; }
.articles { list-style: none; padding: 0; } .articles li { border-top: 1px solid var(--rule); padding: .6rem 0; }
.articles p { margin: .2rem 0 0; color: var(--muted); }
h2 { scroll-margin-top: 1rem; }
ask-article { display: block; margin-top: 1rem; }
"""


def _page(title: str, body: str, widget: bool = False) -> str:
    script = '<script src="/widget.js" defer></script>\n' if widget else ""
    return ("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{escape(title)}</title>\n<style>{_STYLE}</style>\n{script}</head>\n"
            f"<body><main>\n{body}\n</main></body>\n</html>\n")
