"""Write a run's report: report.json (the data), report.md (for a terminal or a PR), report.html (self-contained).

The HTML has no scripts and loads nothing: charts are CSS bars, so the file opens offline and can be
attached to a release as it is.
"""
from __future__ import annotations

import datetime as dt
import html
import json
from pathlib import Path

from .metrics import METRICS

REPORTS_DIR = Path("reports")
_SUMMARY = ("hit@1", "hit@6", "mrr", "context_facts", "answer_facts", "answer_words", "false_refusal_rate",
            "semantic_similarity", "route_accuracy", "calculator_exact", "no_answer_recall")


def new_report_dir(root: Path = REPORTS_DIR) -> Path:
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    folder, n = root / stamp, 1
    while folder.exists():
        n += 1
        folder = root / f"{stamp}-{n}"
    folder.mkdir(parents=True)
    return folder


def write(report: dict, folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = {"json": folder / "report.json", "md": folder / "report.md", "html": folder / "report.html"}
    paths["json"].write_text(json.dumps(report, indent=1, ensure_ascii=False, allow_nan=False, default=str), encoding="utf-8")
    paths["md"].write_text(markdown(report), encoding="utf-8")
    paths["html"].write_text(to_html(report), encoding="utf-8")
    return paths


def _fmt(metric: str, value) -> str:
    if value is None:
        return "–"
    return f"{value:.1f}" if metric.endswith(("_ms", "_words")) else f"{value:.3f}"


def _delta(metric: str, delta) -> str:
    if delta is None:
        return "–"
    return f"{delta:+.1f}" if metric.endswith("_ms") else f"{delta:+.3f}"


def _generators(run: dict) -> str:
    return ", ".join(f"{g} ×{n}" for g, n in (run.get("generators") or {}).items()) or "?"


def _measured(report: dict) -> list[str]:
    return [m for m in METRICS if any(report["metrics"][mode].get(m) is not None for mode in report["run"]["modes"])]


# ---------------------------------------------------------------------------------------------------
# Markdown


def markdown(report: dict) -> str:
    run, modes = report["run"], report["run"]["modes"]
    primary = run["primary_mode"]
    lines = [f"# Eval report — release {run.get('release') or '?'}", "",
             f"{run['questions']} questions ({', '.join(run['datasets'])}) × {len(modes)} mode(s) against "
             f"{run['target']}, {run['seconds']} s; answers: {_generators(run)}; judge: "
             f"{run['judge']['model'] if run.get('judge') else 'none (offline)'}.", ""]
    gate = report.get("gate")
    if gate:
        lines += [f"**Gate: {'PASSED' if gate['passed'] else 'FAILED'}**" + (f" ({gate['gates_file']})" if gate.get("gates_file") else ""), ""]
        lines += [f"- {f}" for f in gate["failures"]] + ([""] if gate["failures"] else [])
    if run.get("promotion"):
        lines += [f"Promotion: {run['promotion']}", ""]
    lines += ["## Metrics", "", "| metric | " + " | ".join(modes) + " |", "| --- |" + " ---: |" * len(modes)]
    for m in _measured(report):
        lines.append(f"| {m} | " + " | ".join(_fmt(m, report["metrics"][mode].get(m)) for mode in modes) + " |")
    diff = report.get("diff")
    if diff:
        lines += ["", f"## Against the baseline (release {diff['baseline'].get('release')}, {diff['shared_questions']} shared "
                      f"questions, {diff['added_questions']} added, {diff['removed_questions']} removed)", "",
                  "| metric | baseline | now | Δ |", "| --- | ---: | ---: | ---: |"]
        for row in diff["metrics"].get(primary, []):
            flag = " **REGRESSED**" if row["regressed"] else ""
            lines.append(f"| {row['metric']} | {_fmt(row['metric'], row['baseline'])} | {_fmt(row['metric'], row['current'])} "
                         f"| {_delta(row['metric'], row['delta'])}{flag} |")
        if diff["worse_questions"]:
            lines += ["", f"### Questions that got worse ({len(diff['worse_questions'])}; {diff['better_questions']} got better)", ""]
            for q in diff["worse_questions"][:20]:
                changes = ", ".join(f"{k} {a:.2f}→{(b or 0):.2f}" for k, (a, b) in q["changes"].items())
                lines.append(f"- `{q['id']}` {q['question']} — {changes}; now retrieved {', '.join(q['retrieved_now']) or 'nothing'}")
    for title, key in (("Per split (tuned on dev, quoted on test)", "by_dataset_split"), ("Per article", "by_article")):
        # per article, answer_facts beside context_facts shows what the composer loses of what retrieval found
        lines += ["", f"## {title} ({primary})", "", f"| {key[3:]} | " + " | ".join(_SUMMARY) + " |",
                  "| --- |" + " ---: |" * len(_SUMMARY)]
        for name, values in report.get(key, {}).get(primary, {}).items():
            lines.append(f"| {name} | " + " | ".join(_fmt(m, values.get(m)) for m in _SUMMARY) + " |")
    lines += ["", "## Latency per route (ms)", "", "| mode | route | n | p50 | p95 |", "| --- | --- | ---: | ---: | ---: |"]
    for mode in modes:
        for route, v in report["latency"][mode].items():
            lines.append(f"| {mode} | {route} | {v['n']} | {_fmt('_ms', v['p50_ms'])} | {_fmt('_ms', v['p95_ms'])} |")
    lines += ["", f"## The ten worst questions ({primary})", ""]
    by_id = {r["id"]: r for r in report["questions"]}
    for qid in report["worst"]:
        r = by_id[qid]
        row = r["modes"][primary]
        lines.append(f"- `{qid}` ({r['article'] or 'site'}) {r['question'][:200]} — quality {row['quality']:.2f}, "
                     f"route {row['route']} (expected {r['route']}); gold {', '.join(r['anchors']) or '–'}; retrieved "
                     f"{', '.join(c['section'] for c in row['retrieved'][:4]) or 'nothing'}")
    if report.get("warnings"):
        lines += ["", "## Warnings", ""] + [f"- {w}" for w in report["warnings"]]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------------
# HTML

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem auto;max-width:1200px;color:#1c1c1c;padding:0 1rem}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2.2rem;border-bottom:1px solid #ddd;padding-bottom:.3rem}
table{border-collapse:collapse;margin:.5rem 0;font-size:13px}th,td{padding:.25rem .6rem;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f6f6f6}
.pass{color:#0a7a2f;font-weight:700}.fail,.reg{color:#c0162b;font-weight:700}.better{color:#0a7a2f}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:1rem}
.chart{border:1px solid #eee;border-radius:6px;padding:.5rem .7rem}.chart h3{font-size:13px;margin:.1rem 0 .4rem}
.bar{display:flex;align-items:center;gap:.4rem;margin:.15rem 0;font-size:12px}.bar span.l{width:4.5rem}
.bar .track{flex:1;background:#f1f1f1;height:12px;border-radius:3px;overflow:hidden}
.bar .fill{height:12px}.m-hybrid{background:#3867d6}.m-dense{background:#20bf6b}.m-bm25{background:#f7b731}.m-base{background:#a5a5a5}
.bar span.v{width:3.6rem;text-align:right;font-variant-numeric:tabular-nums}
.small{color:#666;font-size:12px}code{font-size:12px}details{margin:.2rem 0}
"""


def to_html(report: dict) -> str:
    e = html.escape
    run, modes = report["run"], report["run"]["modes"]
    primary = run["primary_mode"]
    out = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Eval report {e(str(run.get('release')))}</title>"
           f"<style>{_CSS}</style></head><body>",
           f"<h1>Eval report — release <code>{e(str(run.get('release') or '?'))}</code></h1>",
           f"<p class='small'>{run['questions']} questions ({e(', '.join(run['datasets']))}) × {len(modes)} mode(s) against "
           f"{e(run['target'])} · {run['seconds']} s · started {e(run['started_at'])} · answers: {e(_generators(run))} · judge: "
           f"{e(run['judge']['model']) if run.get('judge') else 'none (offline)'}</p>"]
    gate = report.get("gate")
    if gate:
        verdict = "<span class='pass'>PASSED</span>" if gate["passed"] else "<span class='fail'>FAILED</span>"
        out.append(f"<h2>Gate: {verdict}</h2>")
        if gate["failures"]:
            out.append("<ul>" + "".join(f"<li class='fail'>{e(f)}</li>" for f in gate["failures"]) + "</ul>")
    if run.get("promotion"):
        out.append(f"<p><b>Promotion:</b> {e(run['promotion'])}</p>")

    # Headline table, the baselines side by side.
    measured = _measured(report)
    out.append("<h2>Metrics: hybrid vs the dense-only and BM25-only baselines</h2><table><tr><th>metric</th><th>group</th>"
               + "".join(f"<th>{e(m)}</th>" for m in modes) + "</tr>")
    for m in measured:
        vals = [report["metrics"][mode].get(m) for mode in modes]
        present = [v for v in vals if v is not None]
        best = (max(present) if METRICS[m][1] else min(present)) if present else None
        cells = "".join(f"<td class='n'>{'<b>' if v is not None and v == best and len(present) > 1 else ''}{_fmt(m, v)}"
                        f"{'</b>' if v is not None and v == best and len(present) > 1 else ''}</td>" for v in vals)
        out.append(f"<tr><td>{e(m)}</td><td class='small'>{e(METRICS[m][0])}</td>{cells}</tr>")
    out.append("</table>")

    # Per-metric charts.
    diff = report.get("diff")
    base_rows = {r["metric"]: r for r in diff["metrics"].get(primary, [])} if diff else {}
    out.append("<h2>Per-metric charts</h2><div class='charts'>")
    for m in measured:
        vals = {mode: report["metrics"][mode].get(m) for mode in modes}
        if m in base_rows and base_rows[m]["full_baseline"] is not None:
            vals["baseline"] = base_rows[m]["full_baseline"]
        scale = max([v for v in vals.values() if v is not None] + [1e-9]) if m.endswith("_ms") else 1.0
        bars = "".join(
            f"<div class='bar'><span class='l'>{e(k)}</span><span class='track'><span class='fill m-{'base' if k == 'baseline' else e(k)}' "
            f"style='display:block;width:{0 if v is None else max(0.0, min(100.0, 100 * v / scale)):.1f}%'></span></span>"
            f"<span class='v'>{_fmt(m, v)}</span></div>" for k, v in vals.items())
        out.append(f"<div class='chart'><h3>{e(m)} <span class='small'>({'higher' if METRICS[m][1] else 'lower'} is better)</span></h3>{bars}</div>")
    out.append("</div>")

    if diff:
        out.append(f"<h2>Diff against the baseline</h2><p class='small'>baseline release <code>{e(str(diff['baseline'].get('release')))}</code> "
                   f"({e(str(diff['baseline'].get('path')))}) · {diff['shared_questions']} shared questions, "
                   f"{diff['added_questions']} added, {diff['removed_questions']} removed. Deltas are on the shared questions.</p>")
        out.append("<table><tr><th>metric</th><th>baseline</th><th>now</th><th>Δ</th></tr>")
        for row in diff["metrics"].get(primary, []):
            cls = " class='reg'" if row["regressed"] else (" class='better'" if row["delta"] else "")
            out.append(f"<tr{cls}><td>{e(row['metric'])}</td><td class='n'>{_fmt(row['metric'], row['baseline'])}</td>"
                       f"<td class='n'>{_fmt(row['metric'], row['current'])}</td><td class='n'>{_delta(row['metric'], row['delta'])}</td></tr>")
        out.append("</table>")
        worse = diff["worse_questions"]
        out.append(f"<h3>Questions that got worse: {len(worse)} <span class='small'>({diff['better_questions']} got better)</span></h3>")
        if worse:
            out.append("<table><tr><th>id</th><th>question</th><th>what dropped</th><th>retrieved before → now</th></tr>")
            for q in worse:
                changes = ", ".join(f"{k} {a:.2f}→{(b or 0):.2f}" for k, (a, b) in q["changes"].items())
                out.append(f"<tr class='reg'><td><code>{e(q['id'])}</code></td><td>{e(q['question'][:200])}</td><td>{e(changes)}</td>"
                           f"<td class='small'>{e(', '.join(q['retrieved_before']))}<br>→ {e(', '.join(q['retrieved_now']))}</td></tr>")
            out.append("</table>")

    # Per-article and per-dataset tables.
    for title, key in (("Per dataset and split (tuned on dev, quoted on test)", "by_dataset_split"),
                       ("Per article (answer_facts against context_facts: what the composer loses)", "by_article"),
                       ("Per dataset", "by_dataset")):
        out.append(f"<h2>{title} ({e(primary)})</h2><table><tr><th>{e(key[3:])}</th>"
                   + "".join(f"<th>{e(m)}</th>" for m in _SUMMARY) + "</tr>")
        for name, values in report.get(key, {}).get(primary, {}).items():
            out.append(f"<tr><td>{e(name)}</td>" + "".join(f"<td class='n'>{_fmt(m, values.get(m))}</td>" for m in _SUMMARY) + "</tr>")
        out.append("</table>")

    out.append("<h2>Latency per route (ms)</h2><table><tr><th>mode</th><th>route</th><th>n</th><th>p50</th><th>p95</th></tr>")
    for mode in modes:
        for route, v in report["latency"][mode].items():
            out.append(f"<tr><td>{e(mode)}</td><td>{e(route)}</td><td class='n'>{v['n']}</td>"
                       f"<td class='n'>{_fmt('_ms', v['p50_ms'])}</td><td class='n'>{_fmt('_ms', v['p95_ms'])}</td></tr>")
    out.append("</table>")

    out.append(f"<h2>The ten worst questions ({e(primary)})</h2>")
    by_id = {r["id"]: r for r in report["questions"]}
    for qid in report["worst"]:
        r = by_id[qid]
        row = r["modes"][primary]
        gold = set(r["anchors"])
        retrieved = "".join(
            f"<li>{'<b>' if c['section'] in gold else ''}<code>{e(c['section'])}</code>{'</b> (gold)' if c['section'] in gold else ''}"
            f" <span class='small'>cos {c['dense'] if c['dense'] is not None else '–'} · {e(c['text'])}…</span></li>"
            for c in row["retrieved"])
        scores = ", ".join(f"{k} {v:.2f}" for k, v in row["scores"].items() if isinstance(v, (int, float)))
        out.append(
            f"<details open><summary><code>{e(qid)}</code> ({e(r['article'] or 'site-wide')}) — {e(r['question'][:240])} "
            f"<span class='small'>quality {row['quality']:.2f}</span></summary><div class='small'>"
            f"expected route <b>{e(r['route'])}</b>, got <b>{e(str(row['route']))}</b> (scope {e(str(row['scope']))}); "
            f"gold sections: {e(', '.join(r['anchors']) or '–')}; key facts: {e(', '.join(r['key_facts']) or '–')}<br>"
            f"scores: {e(scores)}<br>answer: {e(row['answer'][:600])}</div>"
            f"<ol class='small'>{retrieved or '<li>nothing retrieved</li>'}</ol></details>")
    if report.get("warnings"):
        out.append("<h2>Warnings</h2><ul>" + "".join(f"<li>{e(w)}</li>" for w in report["warnings"]) + "</ul>")
    out.append("</body></html>")
    return "\n".join(out)
