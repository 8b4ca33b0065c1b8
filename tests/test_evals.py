"""The eval suite and the release gate, on the fixture corpus and its small golden set (tests/fixtures/evals).

The gate must pass on an intact index and fail on deliberately broken ones (shuffled vectors, an emptied
article); a release is promoted only after a pass; report files are written and parse; an offline run
attempts no outbound connection.
"""
from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import textwrap
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from evals import datasets as golden
from evals.gate import GateConfigError, Gates
from evals.release import conclude, release
from evals.suite import RunOptions, evaluate

from conftest import copy_corpus, make_settings

ROOT = Path(__file__).resolve().parents[1]
FIXTURE_EVALS = Path(__file__).parent / "fixtures" / "evals"
FIXTURE_GATES = FIXTURE_EVALS / "gates.yaml"


def _options(settings, **kw) -> RunOptions:
    return RunOptions(settings=settings, datasets_dir=FIXTURE_EVALS, progress=False, **kw)


@pytest.fixture(scope="module")
def intact_report(built) -> dict:
    return evaluate(_options(built))


@pytest.fixture(scope="module")
def shuffled_settings(tmp_path_factory):
    """A release of the fixture corpus whose dense vectors belong to the wrong passages (no sanity check ran)."""
    settings = make_settings(tmp_path_factory.mktemp("shuffled"))
    return settings.model_copy(update={"index_release": _write_shuffled_release(settings)})


def _write_shuffled_release(settings) -> str:
    from ingest.build import SCHEMA_VERSION, new_release_id
    from ingest.chunking import chunk_corpus
    from ingest.corpus import load_corpus
    from ingest.embedding import Embedder, sparse_document
    from ingest.embedding.unit_vectors import PackedUnits  # none: a release without sentence vectors
    from ingest.index import open_store

    corpus = load_corpus(settings.corpus_dir)
    embedder = Embedder(settings.embedding_model)
    chunks = chunk_corpus(corpus, embedder)
    vectors = embedder.encode([c.embed_text for c in chunks])
    vectors = vectors[np.random.default_rng(7).permutation(len(chunks))]
    release_id = new_release_id()
    writer = open_store(settings).new_release(release_id, embedder.dimension)
    writer.write([(c, v.tolist(), sparse_document(c.embed_text), PackedUnits()) for c, v in zip(chunks, vectors)])
    writer.finish({"release_id": release_id, "schema_version": SCHEMA_VERSION, "model_id": embedder.model_id,
                   "fingerprint": "shuffled", "documents": len(corpus.documents), "chunks": len(chunks),
                   "created_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")})
    return release_id


def _empty_article(corpus: Path, article: str = "mooncake") -> None:
    path = corpus / "articles" / f"{article}.md"
    text = path.read_text(encoding="utf-8")
    front = text[: text.index("\n---", 3) + 4]
    path.write_text(front + "\n## Being rewritten\n\nThis page is being rewritten and will be back soon.\n", encoding="utf-8")


# --- datasets -----------------------------------------------------------------------------------------


def test_real_datasets_load_and_are_valid():
    items = golden.load()
    assert {i.dataset for i in items} >= {"articles", "concepts", "numeric", "adversarial"}
    assert len({i.id for i in items}) == len(items)
    adversarial = [i for i in items if i.dataset == "adversarial"]
    assert {i.kind for i in adversarial} >= {"injection", "off_topic", "near_miss", "long", "odd"}
    assert all(len(i.question) <= 2000 for i in adversarial)


def test_parts_are_read_until_the_merged_file_exists(tmp_path):
    (tmp_path / "parts").mkdir()
    item = "- {{id: {id}, article: null, question: 'q {id}?', route: no_answer}}\n"
    (tmp_path / "parts" / "articles-b.yaml").write_text(item.format(id="b1"))
    (tmp_path / "parts" / "articles-a.yaml").write_text(item.format(id="a1") + item.format(id="a2"))
    assert [i.id for i in golden.load(["articles"], tmp_path)] == ["a1", "a2", "b1"]
    (tmp_path / "articles.yaml").write_text(item.format(id="merged"))
    assert [i.id for i in golden.load(["articles"], tmp_path)] == ["merged"]


def test_malformed_items_are_reported_with_their_ids(tmp_path):
    (tmp_path / "numeric.yaml").write_text(textwrap.dedent("""\
        - {id: x1, question: "a?", route: guess}
        - {id: x1, question: "b?", route: calculator, expected: {calculator: memory}}
        - {id: x2, question: "c?", route: retrieval, anchors: ["not an anchor"]}
        """))
    with pytest.raises(golden.DatasetError) as err:
        golden.load(["numeric"], tmp_path)
    text = str(err.value)
    assert "x1: route 'guess'" in text and "expected lacks quantity, value" in text and "x2: anchors" in text
    with pytest.raises(golden.DatasetError, match="no dataset 'concepts'"):
        golden.load(["concepts"], tmp_path)


def test_gates_file_is_valid_and_typos_are_caught(tmp_path):
    gates = Gates.load()
    assert gates.mode == "hybrid" and gates.floors and gates.max_regression
    (tmp_path / "g.yaml").write_text("floors: {hit_at_6: 0.5}\n")
    with pytest.raises(GateConfigError, match="unknown metric 'hit_at_6'"):
        Gates.load(tmp_path / "g.yaml")


# --- the run, the reports and the gate -----------------------------------------------------------------


def test_intact_index_passes_the_gate_and_reports_parse(intact_report, tmp_path):
    report = intact_report
    assert report["run"]["modes"] == ["hybrid", "dense", "bm25"]
    assert report["run"]["questions"] >= 15
    for mode in ("hybrid", "dense", "bm25"):
        values = report["metrics"][mode]
        for metric in ("hit@6", "mrr", "context_precision", "context_recall", "nonllm_context_recall", "key_facts",
                       "semantic_similarity", "rouge_l", "citation_validity", "route_accuracy", "calculator_exact",
                       "no_answer_precision", "no_answer_recall", "latency_p50_ms", "latency_p95_ms"):
            assert values[metric] is not None, (mode, metric)
        assert values["faithfulness"] is None  # no judge configured: not measured, not guessed
    assert report["metrics"]["hybrid"]["calculator_exact"] == 1.0
    assert set(report["latency"]["hybrid"]) >= {"retrieval", "calculator", "no_answer"}

    outcome = conclude(json.loads(json.dumps(report)), Gates.load(FIXTURE_GATES), None, tmp_path)
    assert outcome.failures == [], outcome.failures
    saved = json.loads((outcome.folder / "report.json").read_text())
    assert saved["gate"]["passed"] is True and len(saved["worst"]) == 10
    md = (outcome.folder / "report.md").read_text()
    assert md.startswith("# Eval report") and "| hit@6 |" in md and "The ten worst questions" in md
    page = (outcome.folder / "report.html").read_text()
    _parse_html(page)
    assert "Per-metric charts" in page and "Per article" in page and "The ten worst questions" in page
    assert "<script" not in page and "http://" not in page.replace("http://127.0.0.1", "")  # self-contained
    assert "https://" not in page.split("</style>")[0]


def test_shuffled_vectors_fail_the_gate(intact_report, shuffled_settings, tmp_path):
    broken = evaluate(_options(shuffled_settings))
    assert broken["run"]["release"] == shuffled_settings.index_release
    # the intact run is the baseline: regressions are measured and the questions that got worse are listed
    baseline = conclude(json.loads(json.dumps(intact_report)), Gates.load(FIXTURE_GATES), None, tmp_path)
    outcome = conclude(broken, Gates.load(FIXTURE_GATES), "last", tmp_path)
    assert outcome.failures, "a release with shuffled vectors must not pass"
    assert all("\n" not in f for f in outcome.failures)
    assert any("below the floor" in f for f in outcome.failures)
    assert any("regressed by" in f for f in outcome.failures)
    diff = outcome.report["diff"]
    assert diff["baseline"]["path"] == str(baseline.folder / "report.json")
    assert diff["worse_questions"] and any(r["regressed"] for r in diff["metrics"]["hybrid"])
    page = (outcome.folder / "report.html").read_text()
    assert "class='reg'" in page and "Gate: <span class='fail'>FAILED" in page
    # the same verdict from the CLI on the saved report: exit 1 and one line per failed gate
    from evals.__main__ import main

    assert main(["gate", str(outcome.folder / "report.json"), "--gates", str(FIXTURE_GATES),
                 "--baseline", str(baseline.folder)]) == 1


def test_release_promotes_only_after_a_pass(tmp_path):
    from ingest.index import open_store

    corpus = copy_corpus(tmp_path)
    settings = make_settings(tmp_path, corpus)
    store = open_store(settings)
    gates, reports = Gates.load(FIXTURE_GATES), tmp_path / "reports"

    first = release(settings, _options(settings), gates, reports, "last", FIXTURE_GATES)
    assert first.passed and first.promoted and store.live_release() == first.promoted
    assert "promoted" in first.report["run"]["promotion"]

    _empty_article(corpus)
    second = release(settings, _options(settings), gates, reports, "last", FIXTURE_GATES)
    assert not second.passed and second.promoted is None
    assert store.live_release() == first.promoted  # the live index is untouched
    staged = second.report["run"]["staged_release"]
    assert staged in store.releases() and staged != first.promoted
    saved = json.loads((second.folder / "report.json").read_text())
    assert "NOT promoted" in saved["run"]["promotion"] and saved["gate"]["passed"] is False
    assert saved["diff"]["baseline"]["release"] == first.promoted
    assert any(q["article"] == "mooncake" for q in saved["diff"]["worse_questions"])
    assert "NOT promoted" in (second.folder / "report.md").read_text()


# --- offline ---------------------------------------------------------------------------------------------

_GUARD = """
import socket, sys, json
attempts = []
LOCAL = ("127.", "::1", "localhost", "0.0.0.0")
def _local(address):
    host = address[0] if isinstance(address, tuple) else address
    return isinstance(host, str) and (host.startswith(LOCAL) or host == "") or not isinstance(address, tuple)
_connect, _create, _getaddrinfo = socket.socket.connect, socket.create_connection, socket.getaddrinfo
def connect(self, address):
    if not _local(address):
        attempts.append(repr(address)); raise OSError("outbound connection blocked by the test")
    return _connect(self, address)
def create_connection(address, *a, **kw):
    if not _local(address):
        attempts.append(repr(address)); raise OSError("outbound connection blocked by the test")
    return _create(address, *a, **kw)
def getaddrinfo(host, *a, **kw):
    if isinstance(host, str) and not (host.startswith(LOCAL) or host == ""):
        attempts.append("dns " + host); raise OSError("name lookup blocked by the test")
    return _getaddrinfo(host, *a, **kw)
socket.socket.connect, socket.create_connection, socket.getaddrinfo = connect, create_connection, getaddrinfo
from evals.__main__ import main
code = main(sys.argv[1:])
print("ATTEMPTS " + json.dumps(attempts))
sys.exit(code)
"""


def test_offline_run_attempts_no_outbound_connection(built, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EVAL_LLM_", "LLM_", "QDRANT_", "RAGAS_", "OPENAI_"))}
    env.update(CORPUS_DIR=str(built.corpus_dir), DATA_DIR=str(built.data_dir), PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-c", _GUARD, "run", "--limit", "3", "--datasets-dir", str(FIXTURE_EVALS), "--no-gate",
         "--out", str(tmp_path), "--quiet"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    attempts = json.loads(proc.stdout.split("ATTEMPTS ", 1)[1].splitlines()[0])
    assert attempts == [], attempts
    assert len(list(tmp_path.glob("*/report.json"))) == 1


def _parse_html(page: str) -> None:
    class Checker(HTMLParser):
        def __init__(self):
            super().__init__()
            self.stack: list[str] = []

        def handle_starttag(self, tag, attrs):
            if tag not in {"meta", "br", "html", "head", "body"}:
                self.stack.append(tag)

        def handle_endtag(self, tag):
            if tag in {"html", "head", "body"}:
                return
            assert self.stack and self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1] if self.stack else None}>"
            self.stack.pop()

    checker = Checker()
    checker.feed(page)
    checker.close()
    assert checker.stack == [], checker.stack


def test_a_deployed_service_is_evaluated_over_http(live_server, built, tmp_path, monkeypatch):
    from evals.__main__ import main

    monkeypatch.setenv("CORPUS_DIR", str(built.corpus_dir))
    code = main(["run", "--url", live_server.url, "--limit", "2", "--datasets-dir", str(FIXTURE_EVALS),
                 "--no-gate", "--out", str(tmp_path), "--quiet"])
    assert code == 0
    report = json.loads(next(tmp_path.glob("*/report.json")).read_text())
    assert report["run"]["modes"] == ["hybrid"] and report["run"]["target"] == live_server.url
    assert report["run"]["release"]  # from /readyz
    assert report["metrics"]["hybrid"]["route_accuracy"] is not None


@pytest.mark.parametrize("verdict, expected", [(1, 1.0), (0, 0.0)])
def test_llm_judged_metrics_run_against_an_openai_compatible_judge(built, verdict, expected):
    from conftest import LiveServer
    from evals.metrics import JudgeConfig
    from fake_judge import FakeJudge

    judge = FakeJudge(verdict)
    with LiveServer(judge.app) as server:
        report = evaluate(_options(built, modes=("hybrid",), limit=3,
                                   judge=JudgeConfig(f"{server.url}/v1", "judge-model", "not-needed")))
    values = report["metrics"]["hybrid"]
    assert {"statements", "nli", "relevance", "context"} <= set(judge.steps) and "unknown" not in judge.steps
    assert values["faithfulness"] == pytest.approx(expected)
    assert values["llm_context_precision"] == pytest.approx(expected, abs=1e-6)
    assert values["response_relevancy"] is not None and 0.0 <= values["response_relevancy"] <= 1.0


def test_citation_validity_reads_bracketed_numbers_in_words_as_text():
    from evals.metrics import citation_validity
    from evals.runner import Answer

    sentence = "A warp reading a column of tile[32][32] hits one bank 32 times."
    citation = {"n": 1, "doc_id": "shared-memory", "anchor": "bank-conflicts", "snippet": f"… {sentence} …"}
    sections = {"shared-memory#bank-conflicts": "…"}
    good = Answer("q", "hybrid", "retrieval", answer=f"{sentence} [1]", citations=[citation])
    assert citation_validity(good, sections) == 1.0
    wrong_snippet = Answer("q", "hybrid", "retrieval", answer="Something it never said. [1]", citations=[citation])
    unknown_number = Answer("q", "hybrid", "retrieval", answer=f"{sentence} [1][2]", citations=[citation])
    assert citation_validity(wrong_snippet, sections) == citation_validity(unknown_number, sections) == 0.0


def test_train_is_a_subcommand_of_the_evals_cli(capsys):
    """README's `python -m evals train` reaches the trainer's own options; a stray option elsewhere is an error."""
    from evals.__main__ import main

    with pytest.raises(SystemExit) as exited:
        main(["train", "--help"])
    assert exited.value.code == 0
    assert "--max-false-refusals" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exited:
        main(["split", "readers", "--max-false-refusals", "0.02"])
    assert exited.value.code == 2
    assert "unrecognized arguments: --max-false-refusals 0.02" in capsys.readouterr().err


def test_the_held_out_dev_measure_refuses_a_fold_that_is_not_a_half(capsys):
    """`python -m evals.heldout` (README, "The trained models") takes fold 0 or 1 and nothing else."""
    from evals.heldout import main

    with pytest.raises(SystemExit) as exited:
        main(["--fold", "2"])
    assert exited.value.code == 2
    assert "invalid choice: 2" in capsys.readouterr().err
