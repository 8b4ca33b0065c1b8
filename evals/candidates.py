"""What readers asked, back into the release gate: golden-question stubs from the question log.

    python -m evals candidates --since 2026-11-01 [--until 2026-12-01] [--out FILE] [--per-gap 3]

Reads the insights report (service/insights.py) on the service's database and writes, as a YAML list in
the golden-set format (docs/writing-the-corpus.md, "Golden questions"), one stub per question an
editor should look at:

- the questions of each content gap (refused, or answered with low support), up to `--per-gap` of
  them per gap, the most typical first, largest gap first;
- every down-voted answer's question (with the reader's comment in the note).

A stub has `id` (stable: the same question gives the same id on every run), `article`, `question`,
`route` (`retrieval` for a gap: what it should become once the site covers it; the route it took for
a down-vote), empty `anchors` and `key_facts`, and a `note` saying where it came from. As written the
file loads as a dataset of its own; an editor fills in anchors, key facts (and a reference), drops
what should stay unanswered (or sets `route: no_answer`), and moves the rest into
`evals/datasets/parts/<dataset>-<name>.yaml`.
"""
from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path

import yaml

PER_GAP = 3


def stub_id(question: str, article: str | None) -> str:
    digest = hashlib.sha1(" ".join(question.casefold().split()).encode()).hexdigest()[:10]
    return f"reader-{article or 'site'}-{digest}"


def candidates(report: dict, per_gap: int = PER_GAP) -> list[dict]:
    """The stubs for a report (see the module docstring), each question once."""
    stubs: dict[str, dict] = {}
    period = f"{report['period']['since'][:10]} to {report['period']['until'][:10]}"
    for gap in report["gaps"]:
        for asked in gap.get("asked", [])[:per_gap]:
            state = ("not covered" if asked["no_answer"] == asked["count"] else
                     "answered with low support" if not asked["no_answer"] else "not covered or low-support")
            note = (f"from the question log ({period}): gap '{gap['label']}' ({gap['count']} question(s), "
                    f"{gap['no_answer']} not covered, {gap['low_support']} low-support); this one asked "
                    f"{asked['count']} time(s), {state}. Fill in anchors, key_facts and a reference once the site "
                    "answers it (or set route: no_answer if it should stay unanswered).")
            _add(stubs, asked["question"], asked["article"], "retrieval", note)
    for vote in report["downvoted"]:
        if not vote.get("question"):
            continue  # a rating of an answer the log does not hold: nothing to ask again
        cited = ", ".join(vote.get("cited") or []) or "no section"
        comment = f" with the comment {vote['comment']!r}" if vote.get("comment") else ""
        route = vote.get("route") if vote.get("route") in ("retrieval", "calculator") else "retrieval"
        note = (f"from the question log: down-voted {vote['rated_at'][:10]} via {vote['client']}{comment}; it was "
                f"answered by the {vote.get('route') or 'unknown'} route citing {cited}. Check what the right answer "
                "is, then fill in anchors, key_facts and a reference.")
        _add(stubs, vote["question"], vote.get("article"), route, note)
    return list(stubs.values())


def _add(stubs: dict[str, dict], question: str, article: str | None, route: str, note: str) -> None:
    key = " ".join(question.casefold().split())
    if key in stubs:
        stubs[key]["note"] += " Also: " + note
        return
    stubs[key] = {"id": stub_id(question, article), "article": article, "question": question, "route": route,
                  "anchors": [], "key_facts": [], "note": note}


def render(stubs: list[dict], report: dict) -> str:
    since, until = report["period"]["since"][:10], report["period"]["until"][:10]
    header = (f"# Golden-question candidates from what readers asked, {since} to {until} "
              f"(python -m evals candidates; {len(stubs)} stub(s)).\n"
              "# Complete each one (anchors, key_facts, a reference), delete the ones that should not be kept,\n"
              "# and move the rest into evals/datasets/parts/<dataset>-<name>.yaml (docs/writing-the-corpus.md).\n")
    body = yaml.safe_dump(stubs, sort_keys=False, allow_unicode=True, width=110) if stubs else "[]\n"
    return header + body


def run(since: dt.datetime | None, until: dt.datetime | None, out: Path | None, per_gap: int = PER_GAP) -> tuple[str, int]:
    """The stubs' YAML on the service's settings (written to `out` when given) and how many there are."""
    from service.insights import from_settings
    from service.settings import Settings

    report = from_settings(Settings(), since, until)
    stubs = candidates(report, per_gap)
    text = render(stubs, report)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
    return text, len(stubs)
