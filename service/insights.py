"""What readers asked, for the people who write the site: the insights report, as data and as one HTML page.

    python -m service.insights --out DIR [--since 2026-11-01] [--until 2026-12-01]   # insights.json + insights.html
    GET /v1/admin/insights?since=…&until=…&format=json|html                            # the same (X-Admin-Key)

The report covers `since <= asked < until` (default: the 30 days up to now, UTC) and reads the question
log and the feedback table (one database, service/db.py):

- volumes: `questions`, `sessions` (distinct hashed conversations), `by_route`, `by_client`, `by_day`,
  and `no_answer_rate` (refused / all);
- `gaps`: the refused questions and the low-support answers (a retrieval answer whose best support is
  under `SUPPORT_THRESHOLD + INSIGHTS_LOW_SUPPORT_MARGIN`, 0.57 + 0.08 = 0.65 by default: answered, but
  barely), grouped by meaning — embedded with the assistant's own model, clustered by scikit-learn's
  agglomerative clustering on cosine distance (average linkage, merged while the distance is under
  `INSIGHTS_GAP_DISTANCE`, 0.6) — and labelled by their most telling terms (how many of the group's
  questions use a term, weighted by how few of the other groups do). Largest first, with the articles
  they were asked on, example questions (the most typical first) and, in `asked`, each distinct question
  with its count and article;
- `downvoted`: every thumbs-down in the period with its question, answer, cited sections and comment;
- `by_article`: questions, no-answer rate and ratings per article (`article: null` = asked site-wide).

The HTML page is self-contained: inline CSS and SVG charts (questions per day by route, no-answer rate
per article, the gaps as bars), no script, nothing loaded from anywhere (its CSP forbids it too).
"""
from __future__ import annotations

import argparse
import datetime as dt
import html
import json
import math
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from .db import questions_table
from .feedback import FeedbackStore
from .questions import QuestionLog, utc

REPORT_VERSION = 1
DEFAULT_DAYS = 30
ROUTES = ("retrieval", "calculator", "no_answer")
CLIENTS = ("widget", "slack", "api")
EXAMPLES_PER_GAP = 5
ASKED_PER_GAP = 20  # the distinct questions of a gap listed with their article (`asked`)

Embed = Callable[[list[str]], np.ndarray]


@dataclass(frozen=True)
class Options:
    """How gaps are found; `from_settings` reads them from the service's settings."""

    low_support_cut: float = 0.65
    gap_distance: float = 0.6
    max_gap_questions: int = 2000

    @classmethod
    def from_settings(cls, settings) -> "Options":
        return cls(low_support_cut=round(settings.support_threshold + settings.insights_low_support_margin, 4),
                   gap_distance=settings.insights_gap_distance, max_gap_questions=settings.insights_max_gap_questions)


EARLIEST = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
LATEST = dt.datetime(9000, 1, 1, tzinfo=dt.timezone.utc)


def period(since: dt.datetime | None = None, until: dt.datetime | None = None,
           now: dt.datetime | None = None) -> tuple[dt.datetime, dt.datetime]:
    """The report's [since, until) in UTC: `until` defaults to now, `since` to DEFAULT_DAYS before `until`.
    ValueError for a period that is empty, backwards, or outside 1970–9000."""
    try:
        until = utc(until) or utc(now) or dt.datetime.now(dt.timezone.utc)
        since = utc(since) or until - dt.timedelta(days=DEFAULT_DAYS)
    except OverflowError:
        raise ValueError("since and until must be dates between 1970 and 9000") from None
    for name, value in (("since", since), ("until", until)):
        if not EARLIEST <= value <= LATEST:
            raise ValueError(f"{name} must be a date between 1970 and 9000, not {value.isoformat()}")
    if since >= until:
        raise ValueError(f"since ({since.isoformat()}) must be before until ({until.isoformat()})")
    return since, until


# ------------------------------------------------------------------------------ the report ----


def build(questions: QuestionLog, feedback: FeedbackStore, embed: Embed, since: dt.datetime | None = None,
          until: dt.datetime | None = None, options: Options = Options(), titles: dict[str, str] | None = None,
          now: dt.datetime | None = None) -> dict:
    """The report as a JSON-ready dict (see the module docstring). `embed` turns texts into unit vectors
    (the assistant's embedder: `searcher.embedder.encode`, or `settings.embedder().encode`)."""
    since, until = period(since, until, now)
    titles = titles or {}
    rows = list(questions.rows(since, until, columns=("answer_id", "created_at", "client", "session", "article",
                                                      "route", "support", "latency_ms")))
    total = len(rows)
    by_route = Counter(r["route"] for r in rows)
    low = [r for r in rows if _low_support(r, options)]

    ratings = list(feedback.rows(since, until, joined=True))
    asked = _asked_for(questions, ratings)  # answer_id -> (article, client) of every rated answer the log holds

    per_article: dict[str | None, dict] = defaultdict(lambda: {"questions": 0, "no_answer": 0, "up": 0, "down": 0})
    for r in rows:
        entry = per_article[r["article"]]
        entry["questions"] += 1
        entry["no_answer"] += r["route"] == "no_answer"
    for rating in ratings:
        if rating["answer_id"] in asked:
            per_article[asked[rating["answer_id"]][0]][rating["rating"]] += 1

    latencies = [r["latency_ms"] for r in rows if r["latency_ms"] is not None]
    return {
        "version": REPORT_VERSION,
        "generated_at": (utc(now) or dt.datetime.now(dt.timezone.utc)).isoformat(timespec="seconds"),
        "period": {"since": since.isoformat(), "until": until.isoformat()},
        "questions": total,
        "sessions": len({r["session"] for r in rows if r["session"]}),
        "by_route": {route: by_route.get(route, 0) for route in ROUTES},
        "by_client": {client: sum(1 for r in rows if r["client"] == client) for client in CLIENTS},
        "no_answer_rate": _rate(by_route.get("no_answer", 0), total),
        "low_support": len(low),
        "low_support_rate": _rate(len(low), total),
        "low_support_cut": options.low_support_cut,
        "latency_ms": {"p50": _pct(latencies, 0.5), "p95": _pct(latencies, 0.95)},
        "feedback": {"up": sum(1 for f in ratings if f["rating"] == "up"),
                     "down": sum(1 for f in ratings if f["rating"] == "down"),
                     "unlogged": sum(1 for f in ratings if f["answer_id"] not in asked)},
        "by_day": _by_day(rows, since, until),
        "gaps": gaps(_gap_questions(questions, since, until, options), embed, options),
        "downvoted": [_downvoted(f, asked) for f in reversed(ratings) if f["rating"] == "down"],
        "by_article": sorted(
            ({"article": article, "title": titles.get(article) if article else None, "questions": e["questions"],
              "no_answer_rate": _rate(e["no_answer"], e["questions"]), "up": e["up"], "down": e["down"]}
             for article, e in per_article.items()),
            key=lambda a: (-a["questions"], -(a["up"] + a["down"]), a["article"] or "")),
    }


def _low_support(row: dict, options: Options) -> bool:
    return row["route"] == "retrieval" and row["support"] is not None and row["support"] < options.low_support_cut


def _rate(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))], 1)


def _asked_for(questions: QuestionLog, ratings: list[dict]) -> dict[str, tuple[str | None, str]]:
    ids = list({f["answer_id"] for f in ratings})
    found: dict[str, tuple[str | None, str]] = {}
    for start in range(0, len(ids), 500):  # bounded IN lists
        chunk = ids[start:start + 500]
        for row in questions.rows(columns=("answer_id", "article", "client"),
                                  where=questions_table.c.answer_id.in_(chunk)):
            found[row["answer_id"]] = (row["article"], row["client"])
    return found


def _downvoted(rating: dict, asked: dict) -> dict:
    """A thumbs-down joined to its question (question, answer, article and cited are None/[] when the log
    does not hold the answer); `client` is where the question was asked (else where it was rated)."""
    _, client = asked.get(rating["answer_id"], (None, None))
    return {"answer_id": rating["answer_id"], "question": rating["question"], "answer": rating["answer"],
            "comment": rating["comment"], "article": rating["article"], "client": client or rating["client"],
            "cited": rating["cited"], "route": rating["route"], "rated_at": rating["created_at"]}


FULL_SERIES_DAYS = 366


def _by_day(rows: list[dict], since: dt.datetime, until: dt.datetime) -> list[dict]:
    """Questions per UTC day and route: every day of the period, or — for a period over a year — every day
    from the first question's to the last one's."""
    counts: dict[dt.date, Counter] = defaultdict(Counter)
    for r in rows:
        counts[r["created_at"].date()][r["route"]] += 1
    day, last = since.date(), (until - dt.timedelta(microseconds=1)).date()
    if (last - day).days >= FULL_SERIES_DAYS:
        if not counts:
            return []
        day, last = min(counts), max(counts)
    out = []
    while day <= last:
        out.append({"date": day.isoformat(), **{route: counts[day].get(route, 0) for route in ROUTES}})
        day += dt.timedelta(days=1)
    return out


# ---------------------------------------------------------------------------------- gaps ----


@dataclass
class _Asked:
    """One distinct gap question (case and spacing folded) and every time it was asked."""

    text: str
    count: int = 0
    no_answer: int = 0
    low_support: int = 0
    last: dt.datetime | None = None
    articles: Counter | None = None
    answer_ids: list[str] | None = None


def _gap_questions(questions: QuestionLog, since: dt.datetime, until: dt.datetime, options: Options) -> list[_Asked]:
    """The refused and low-support questions of the period, folded by text, the most asked first."""
    c = questions_table.c
    where = (c.route == "no_answer") | ((c.route == "retrieval") & (c.support < options.low_support_cut))
    distinct: dict[str, _Asked] = {}
    for row in questions.rows(since, until, columns=("answer_id", "created_at", "article", "question", "standalone",
                                                     "route", "support"), where=where):
        text = " ".join((row["standalone"] or row["question"]).split())
        asked = distinct.setdefault(text.casefold(), _Asked(text, articles=Counter(), answer_ids=[]))
        asked.count += 1
        asked.no_answer += row["route"] == "no_answer"
        asked.low_support += row["route"] != "no_answer"
        asked.last = row["created_at"]
        if row["article"]:
            asked.articles[row["article"]] += 1
        asked.answer_ids.append(row["answer_id"])
    ordered = sorted(distinct.values(), key=lambda a: (-a.count, -(a.last.timestamp() if a.last else 0), a.text))
    return ordered[:options.max_gap_questions]


def gaps(asked: list[_Asked], embed: Embed, options: Options = Options()) -> list[dict]:
    """Group the gap questions by meaning; largest group first."""
    if not asked:
        return []
    vectors = np.asarray(embed([a.text for a in asked]), dtype=np.float32)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    labels = cluster(vectors, options.gap_distance)
    groups: dict[int, list[int]] = defaultdict(list)
    for index, label in enumerate(labels):
        groups[int(label)].append(index)
    members = list(groups.values())
    terms = telling_terms([[asked[i].text for i in group] for group in members],
                          [[asked[i].count for i in group] for group in members])
    out = []
    for group, group_terms in zip(members, terms):
        centre = vectors[group].mean(axis=0)
        typical = sorted(group, key=lambda i: (-float(vectors[i] @ centre), -asked[i].count, asked[i].text))
        articles: Counter = Counter()
        for i in group:
            articles.update(asked[i].articles)
        out.append({
            "label": " · ".join(group_terms) if group_terms and len(group) > 1 else _short(asked[typical[0]].text),
            "terms": group_terms,
            "count": sum(asked[i].count for i in group),
            "distinct": len(group),
            "no_answer": sum(asked[i].no_answer for i in group),
            "low_support": sum(asked[i].low_support for i in group),
            "articles": [a for a, _ in sorted(articles.items(), key=lambda kv: (-kv[1], kv[0]))],
            "examples": [asked[i].text for i in typical[:EXAMPLES_PER_GAP]],
            "asked": [{"question": asked[i].text, "count": asked[i].count, "no_answer": asked[i].no_answer,
                       "low_support": asked[i].low_support,
                       "article": asked[i].articles.most_common(1)[0][0] if asked[i].articles else None}
                      for i in typical[:ASKED_PER_GAP]],
            "answer_ids": [answer_id for i in group for answer_id in asked[i].answer_ids][:50],
        })
    out.sort(key=lambda g: (-g["count"], -g["distinct"], g["label"]))
    return out


def _short(text: str, limit: int = 80) -> str:
    """A one-question gap is labelled by the question itself (its words are all equally "telling")."""
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def cluster(vectors: np.ndarray, distance: float) -> list[int]:
    """Agglomerative clustering on cosine distance, average linkage, cut at `distance`."""
    if len(vectors) < 2:
        return [0] * len(vectors)
    from sklearn.cluster import AgglomerativeClustering

    model = AgglomerativeClustering(n_clusters=None, distance_threshold=distance, metric="cosine", linkage="average")
    return [int(label) for label in model.fit_predict(vectors)]


_WORD = re.compile(r"[a-z0-9][a-z0-9+#.-]*[a-z0-9+#]|[a-z0-9]")
_EXTRA_STOP = {"does", "do", "did", "doing", "use", "used", "using", "good", "best", "way", "make", "need", "explain",
               "vs", "like", "work", "works", "mean", "means", "site", "article", "page", "thing", "things", "want",
               "tell", "know", "just", "really", "difference", "possible", "help", "get", "s", "t", "ll", "ve", "don"}


def _stop_words() -> frozenset[str]:
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return frozenset(ENGLISH_STOP_WORDS) | _EXTRA_STOP


def _key(word: str) -> str:
    """A crude singular, so "mooncakes" and "mooncake" count as one term (the label shows the usual form)."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _terms_of(text: str, stop: frozenset[str]) -> tuple[set[str], dict[str, str]]:
    words = [w.strip(".-") for w in _WORD.findall(text.lower())]
    words = [w for w in words if w and w not in stop and not (w.isdigit() and len(w) < 3)]
    keys = [_key(w) for w in words]
    surface = dict(zip(keys, words))
    for a, b, wa, wb in zip(keys, keys[1:], words, words[1:]):
        surface[f"{a} {b}"] = f"{wa} {wb}"
    return set(surface), surface


def telling_terms(groups: list[list[str]], weights: list[list[int]] | None = None, top: int = 3) -> list[list[str]]:
    """Each group's most telling terms (words and two-word phrases): the share of the group's questions
    that use a term, times log(1 + groups / groups using it) — common in the group, rare in the rest. A
    phrase that several of the group's questions share beats its words ("kv cache" over "cache"); one
    that a single question happens to contain ("bake lotus") counts a little less than a word. Ties go
    to the term rarest among all the questions, then the longer one."""
    stop = _stop_words()
    weights = weights or [[1] * len(g) for g in groups]
    per_group: list[Counter] = []
    texts_using: list[Counter] = []
    surfaces: list[dict[str, Counter]] = []
    overall: Counter = Counter()
    for texts, counts in zip(groups, weights):
        share: Counter = Counter()
        using: Counter = Counter()
        forms: dict[str, Counter] = defaultdict(Counter)
        for text, count in zip(texts, counts):
            keys, surface = _terms_of(text, stop)
            for key in keys:
                share[key] += count
                using[key] += 1
                overall[key] += 1
                forms[key][surface[key]] += count
        total = max(sum(counts), 1)
        per_group.append(Counter({k: v / total for k, v in share.items()}))
        texts_using.append(using)
        surfaces.append(forms)
    spread = Counter(key for shares in per_group for key in shares)
    out = []
    for shares, using, forms in zip(per_group, texts_using, surfaces):
        def score(key: str) -> float:
            phrase = 1.0 if " " not in key else (1.15 if using[key] >= 2 else 0.9)
            return shares[key] * math.log(1 + len(groups) / spread[key]) * phrase

        ranked = sorted(shares, key=lambda k: (-round(score(k), 9), overall[k], -len(k), k))
        chosen: list[str] = []
        for key in ranked:
            if len(chosen) == top:
                break
            if set(key.split()) & {w for c in chosen for w in c.split()}:
                continue  # "kv cache" already says "cache"
            chosen.append(key)
        out.append([forms[key].most_common(1)[0][0] for key in chosen])
    return out


# ---------------------------------------------------------------------------------- HTML ----

_COLOURS = {"retrieval": "#2f6fde", "calculator": "#18a058", "no_answer": "#d1495b"}
_ROUTE_NAMES = {"retrieval": "answered from the site", "calculator": "calculator", "no_answer": "not covered"}
_CSS = """
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2025; background: #fff;
       max-width: 1040px; margin: 0 auto; padding: 24px 20px 60px; }
h1 { font-size: 1.6em; margin: 0 0 4px; } h2 { font-size: 1.2em; margin: 36px 0 8px; border-bottom: 1px solid #d5d9e0; }
.muted { color: #5a6170; } .small { font-size: .88em; }
.tiles { display: flex; flex-wrap: wrap; gap: 12px; margin: 18px 0; padding: 0; list-style: none; }
.tiles li { border: 1px solid #d5d9e0; border-radius: 8px; padding: 10px 14px; min-width: 120px; }
.tiles b { display: block; font-size: 1.5em; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; font-size: .93em; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid #e6e8ec; vertical-align: top; }
th { background: #f3f4f6; } td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
svg { display: block; max-width: 100%; height: auto; margin: 8px 0; font: 12px system-ui, sans-serif; }
.legend span { display: inline-block; margin-right: 14px; } .legend i { display: inline-block; width: 10px;
       height: 10px; margin-right: 5px; border-radius: 2px; }
.vote { border: 1px solid #d5d9e0; border-radius: 8px; padding: 10px 14px; margin: 12px 0; }
.vote blockquote { margin: 6px 0; padding: 6px 10px; background: #f3f4f6; border-left: 3px solid #d5d9e0;
       white-space: pre-wrap; }
code { font-size: .9em; background: #f3f4f6; padding: 1px 4px; border-radius: 3px; }
ul.examples { margin: 0; padding-left: 1.2em; }
"""


def _e(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _pct_text(rate: float) -> str:
    return f"{rate * 100:.0f}%" if rate >= 0.01 or rate == 0 else f"{rate * 100:.1f}%"


def render_html(report: dict, limit: int = 25) -> str:
    """The report as one self-contained page: no script, no external resource, every value escaped."""
    since, until = report["period"]["since"][:10], report["period"]["until"][:10]
    feedback = report["feedback"]
    tiles = [("questions", f"{report['questions']:,}"), ("conversations (widget, Slack)", f"{report['sessions']:,}"),
             ("not covered", _pct_text(report["no_answer_rate"])),
             ("low support", _pct_text(report["low_support_rate"])),
             ("rated up / down", f"{feedback['up']:,} / {feedback['down']:,}"),
             ("median latency", f"{report['latency_ms']['p50']:.0f} ms" if report["latency_ms"]["p50"] is not None else "–")]
    parts = [
        "<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>What readers asked, {_e(since)} to {_e(until)}</title>", f"<style>{_CSS}</style></head><body>",
        f"<h1>What readers asked</h1><p class=\"muted\">{_e(_when_text(report['period']['since']))} to "
        f"{_e(_when_text(report['period']['until']))} UTC · generated {_e(_when_text(report['generated_at']))}</p>",
        '<ul class="tiles">' + "".join(f"<li><b>{_e(v)}</b><span class=\"muted\">{_e(k)}</span></li>" for k, v in tiles)
        + "</ul>",
        "<h2>Questions per day</h2>", _legend(), _day_chart(report["by_day"]),
        _client_line(report),
        "<h2>Content gaps</h2>",
        f"<p class=\"muted small\">Questions the site could not answer, and answers whose best support was under "
        f"{report['low_support_cut']:.2f}, grouped by meaning; the largest first. Each group is a page or a section "
        "the site may be missing.</p>",
        _bar_chart([(g["label"], g["count"], f"{g['count']}") for g in report["gaps"][:limit]], "#d1495b",
                   "Content gaps by number of questions") if report["gaps"] else "<p>No gaps in this period.</p>",
        _gap_table(report["gaps"][:limit]),
        "<h2>Not covered, per article</h2>",
        _bar_chart([(_article_name(a), a["no_answer_rate"], f"{_pct_text(a['no_answer_rate'])} of {a['questions']}")
                    for a in report["by_article"][:limit] if a["questions"]], "#d1495b",
                   "Share of questions not covered, per article", scale=1.0) if report["by_article"] else "",
        _article_table(report["by_article"]),
        f"<h2>Down-voted answers ({len(report['downvoted'])})</h2>",
        "".join(_vote(v) for v in report["downvoted"][:limit * 2]) or "<p>No down-votes in this period.</p>",
        "<h2>How to read this</h2><p class=\"small muted\">A <b>gap</b> is a group of refused or low-support "
        "questions that mean the same thing (embedded with the assistant's own model and clustered on cosine "
        "distance); its label is the terms that set it apart from the other groups. <b>Low support</b>: the "
        "answer was given, but its best passage only just cleared the bar. Write or extend the page a large gap "
        "points at, then turn its questions into golden questions with <code>python -m evals candidates</code>. "
        "The log holds no IP address and no Slack user id; conversations are counted by a salted hash.</p>",
        "</body></html>",
    ]
    return "\n".join(p for p in parts if p)


def _when_text(iso: str) -> str:
    """"2026-11-01T09:41:08.98+00:00" → "2026-11-01 09:41"."""
    return iso[:16].replace("T", " ")


def _article_name(entry: dict) -> str:
    if entry["article"] is None:
        return "(whole site)"
    return entry["article"]


def _legend() -> str:
    return '<p class="legend small">' + "".join(
        f'<span><i style="background:{_COLOURS[r]}"></i>{_e(_ROUTE_NAMES[r])}</span>' for r in ROUTES) + "</p>"


def _client_line(report: dict) -> str:
    clients = ", ".join(f"{_e(c)} {n:,}" for c, n in report["by_client"].items())
    routes = ", ".join(f"{_e(_ROUTE_NAMES[r])} {n:,}" for r, n in report["by_route"].items())
    return f'<p class="small muted">By client: {clients}. By route: {routes}.</p>'


def _nice_max(value: float) -> float:
    if value <= 0:
        return 1
    magnitude = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if value <= step * magnitude:
            return step * magnitude
    return 10 * magnitude


def _day_chart(days: list[dict]) -> str:
    """Stacked bars: questions per day by route (per week past 120 days, per month past three years)."""
    if not days:
        return ""
    unit = "day" if len(days) <= 120 else "week" if len(days) <= 3 * 366 else "month"
    buckets = days
    if unit != "day":
        grouped: dict[str, dict] = {}
        for index, d in enumerate(days):
            key = days[index - index % 7]["date"] if unit == "week" else d["date"][:7]
            bucket = grouped.setdefault(key, {"date": key, **{r: 0 for r in ROUTES}})
            for r in ROUTES:
                bucket[r] += d[r]
        buckets = list(grouped.values())
    left, bottom, top, height = 44, 28, 10, 200
    bar = max(4.0, min(24.0, 900 / len(buckets)))
    width = left + bar * len(buckets) + 10
    peak = _nice_max(max(sum(b[r] for r in ROUTES) for b in buckets))
    y = lambda v: top + height - v / peak * height  # noqa: E731
    out = [f'<svg viewBox="0 0 {width:.0f} {top + height + bottom}" width="{width:.0f}" role="img" '
           f'aria-label="Questions per {unit}, by route">', f"<title>Questions per {unit}, by route</title>"]
    for tick in (0, peak / 2, peak):
        out.append(f'<line x1="{left}" x2="{width - 6:.0f}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" stroke="#e6e8ec"/>')
        out.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end" fill="#5a6170">{tick:g}</text>')
    label_every = max(1, math.ceil(len(buckets) / 10))
    for i, b in enumerate(buckets):
        x, base = left + i * bar, 0
        for route in ROUTES:
            if b[route]:
                out.append(f'<rect x="{x + 1:.1f}" y="{y(base + b[route]):.1f}" width="{max(bar - 2, 1):.1f}" '
                           f'height="{b[route] / peak * height:.1f}" fill="{_COLOURS[route]}"><title>{_e(b["date"])}: '
                           f'{b[route]} {_e(_ROUTE_NAMES[route])}</title></rect>')
                base += b[route]
        if i % label_every == 0:
            shown = b["date"][5:] if unit != "month" else b["date"]
            out.append(f'<text x="{x + bar / 2:.1f}" y="{top + height + 18}" text-anchor="middle" '
                       f'fill="#5a6170">{_e(shown)}</text>')
    out.append("</svg>")
    return "".join(out)


def _bar_chart(bars: list[tuple[str, float, str]], colour: str, title: str, scale: float | None = None) -> str:
    """Horizontal bars: (label, value, text shown after the bar)."""
    if not bars:
        return ""
    label_w, bar_w, row, text_w = 330, 420, 24, 120
    peak = scale or _nice_max(max(v for _, v, _ in bars))
    height = row * len(bars) + 8
    out = [f'<svg viewBox="0 0 {label_w + bar_w + text_w} {height}" width="{label_w + bar_w + text_w}" role="img" '
           f'aria-label="{_e(title)}"><title>{_e(title)}</title>']
    for i, (label, value, shown) in enumerate(bars):
        y = 4 + i * row
        short = label if len(label) <= 48 else label[:47] + "…"
        length = max(value / peak * bar_w, 1 if value else 0)
        out.append(f'<text x="{label_w - 8}" y="{y + 15}" text-anchor="end">{_e(short)}</text>'
                   f'<rect x="{label_w}" y="{y + 3}" width="{length:.1f}" height="{row - 8}" rx="2" fill="{colour}">'
                   f"<title>{_e(label)}: {_e(shown)}</title></rect>"
                   f'<text x="{label_w + length + 6:.1f}" y="{y + 15}" fill="#5a6170">{_e(shown)}</text>')
    out.append("</svg>")
    return "".join(out)


def _html_table(headings: list[str], rows: list[list[str]]) -> str:
    """A table of already-escaped cells; a heading starting with "#" is a number column (right-aligned)."""
    def cell(tag: str, heading: str, value: str) -> str:
        return f'<{tag} class="n">{value}</{tag}>' if heading.startswith("#") else f"<{tag}>{value}</{tag}>"

    head = "".join(cell("th", h, h.lstrip("#")) for h in headings)
    body = "".join("<tr>" + "".join(cell("td", h, v) for h, v in zip(headings, row)) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _gap_table(gaps: list[dict]) -> str:
    if not gaps:
        return ""
    return _html_table(
        ["gap", "#questions", "#not covered", "#low support", "asked on", "examples"],
        [[_e(g["label"]), str(g["count"]), str(g["no_answer"]), str(g["low_support"]),
          _e(", ".join(g["articles"]) or "whole site"),
          '<ul class="examples">' + "".join(f"<li>{_e(x)}</li>" for x in g["examples"]) + "</ul>"] for g in gaps])


def _article_table(articles: list[dict]) -> str:
    if not articles:
        return "<p>No questions in this period.</p>"
    return _html_table(
        ["article", "title", "#questions", "#not covered", "#up", "#down"],
        [[_e(_article_name(a)), _e(a.get("title") or ""), str(a["questions"]), _pct_text(a["no_answer_rate"]),
          str(a["up"]), str(a["down"])] for a in articles])


def _vote(vote: dict) -> str:
    answer = vote["answer"] or ""
    if len(answer) > 1500:
        answer = answer[:1500] + "…"
    where = _e(vote["article"] or "whole site")
    cited = ", ".join(f"<code>{_e(c)}</code>" for c in vote["cited"] or []) or "none"
    if vote["question"] is None:
        return (f'<div class="vote"><p class="small muted">{_e(_when_text(vote["rated_at"]))} · {_e(vote["client"])} · answer '
                f'<code>{_e(vote["answer_id"])}</code> is not in the question log</p>'
                + (f"<p>Comment: {_e(vote['comment'])}</p>" if vote["comment"] else "") + "</div>")
    return (f'<div class="vote"><p><b>{_e(vote["question"])}</b></p>'
            f'<p class="small muted">{_e(_when_text(vote["rated_at"]))} · {where} · {_e(vote["client"])} · '
            f'{_e(_ROUTE_NAMES.get(vote["route"], vote["route"]))}</p>'
            + (f"<p>Comment: <i>{_e(vote['comment'])}</i></p>" if vote["comment"] else "")
            + f"<blockquote>{_e(answer)}</blockquote><p class=\"small\">Cited: {cited}</p></div>")


# ----------------------------------------------------------------------------------- CLI ----


def write(report: dict, out: Path) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    data, page = out / "insights.json", out / "insights.html"
    data.write_text(json.dumps(report, ensure_ascii=False, indent=2), encoding="utf-8")
    page.write_text(render_html(report), encoding="utf-8")
    return data, page


def titles_of(corpus_dir: Path) -> dict[str, str]:
    """Article titles for the report (empty when the corpus cannot be read: the ids are enough)."""
    try:
        from .catalogue import Catalogue

        return {a.id: a.title for a in Catalogue.load(corpus_dir).articles.values()}
    except Exception:  # noqa: BLE001
        return {}


def from_settings(settings, since: dt.datetime | None = None, until: dt.datetime | None = None,
                  embed: Embed | None = None) -> dict:
    """The report on the settings' database, with their embedder (loaded here unless `embed` is given)."""
    from .db import url_for

    questions, feedback = QuestionLog(url_for(settings), settings), FeedbackStore(url_for(settings))
    try:
        embed = embed or settings.embedder().encode
        return build(questions, feedback, embed, since, until, Options.from_settings(settings),
                     titles_of(settings.corpus_dir))
    finally:
        questions.close()
        feedback.close()


def _when(value: str) -> dt.datetime:
    try:
        return dt.datetime.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an ISO date or date-time: {value!r}") from None


def main(argv: Iterable[str] | None = None) -> int:
    from .settings import Settings

    parser = argparse.ArgumentParser(prog="python -m service.insights",
                                     description="What readers asked: volumes, content gaps, down-voted answers.")
    parser.add_argument("--out", type=Path, required=True, help="folder for insights.json and insights.html")
    parser.add_argument("--since", type=_when, help=f"from this ISO date/time, UTC (default: {DEFAULT_DAYS} days ago)")
    parser.add_argument("--until", type=_when, help="up to (not including) this ISO date/time, UTC (default: now)")
    args = parser.parse_args(list(argv) if argv is not None else None)
    try:
        period(args.since, args.until)
    except ValueError as exc:
        parser.error(str(exc))
    report = from_settings(Settings(), args.since, args.until)
    data, page = write(report, args.out)
    print(f"{report['questions']} questions, no-answer rate {_pct_text(report['no_answer_rate'])}, "
          f"{len(report['gaps'])} gap(s), {len(report['downvoted'])} down-vote(s): {data} and {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
