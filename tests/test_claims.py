"""`python -m ingest claims`: every `<!-- check: … -->` figure recomputed with the calculators."""
from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ingest.claims import check_corpus, check_text, parse_figure
from ingest.corpus import parse_document
from ingest.validate import validate

ROOT = Path(__file__).parent.parent
FIXTURE_CORPUS = Path(__file__).parent / "fixtures" / "corpus"
# Llama 3.1 70B bf16 on one H100 SXM: (141.1 − 2.1) GB read per step / 3.35 TB/s (the input
# embedding is gathered, not read).
STEP = "decode model=llama-3.1-70b precision=bf16 gpu=h100-sxm"


def mark(body: str) -> str:
    return f"<!-- check: {body} -->"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ingest", *args], capture_output=True, text=True, cwd=ROOT)


def copy_corpus(tmp: Path) -> Path:
    return Path(shutil.copytree(FIXTURE_CORPUS, tmp / "corpus"))


def add_lines(corpus: Path, *lines: str) -> tuple[Path, int]:
    """Append lines to the fixture's kv-cache article; returns the file and the first new line number."""
    article = corpus / "articles" / "kv-cache.md"
    text = article.read_text(encoding="utf-8")
    first = len(text.splitlines()) + 1
    article.write_text(text.rstrip("\n") + "\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return article, first


def findings(*bodies: str) -> list[str]:
    text = "\n".join(f"A figure. {mark(b)}" for b in bodies)
    return [str(f) for f in check_text(text, Path("page.md")).findings]


def test_agreeing_figures_exit_0_and_are_counted(tmp_path):
    corpus = copy_corpus(tmp_path)
    add_lines(corpus,
              f"The 8B model needs 128 KiB per token. {mark('kv_cache model=llama-3.1-8b | kv_bytes_per_token = 128 KiB')}",
              f"One step takes 41.5 ms. {mark(STEP + ' | step_time_s = 41.5 ms')} "
              f"That is 24.1 tokens/s. {mark(STEP + ' | tokens_per_s_per_sequence = 24.1 tokens/s')}")
    result = run("claims", "--corpus", str(corpus))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().splitlines()[-1] == "3 figures checked, 0 disagree"


def test_a_disagreeing_figure_is_reported_at_path_line_and_exits_1(tmp_path):
    corpus = copy_corpus(tmp_path)
    article, line = add_lines(corpus, "Filler line.",
                              f"One step takes 42.1 ms. {mark(STEP + ' | step_time_s = 42.1 ms')}")
    result = run("claims", "--corpus", str(corpus))
    assert result.returncode == 1
    lines = result.stdout.strip().splitlines()
    assert lines[0].startswith(f"{article}:{line + 1}: stated 42.1 ms, calculators give 41.49")
    assert lines[0].endswith("ms (decode step_time_s)")
    assert lines[-1] == "1 figures checked, 1 disagree"


def test_rounding_is_at_the_stated_digits():
    # the calculator gives 41.4944 ms: 41.5, 41 and 41.49 round to it; 41.4 and 41.50 do not
    assert findings(STEP + " | step_time_s = 41.5 ms", STEP + " | step_time_s = 41 ms",
                    STEP + " | step_time_s = 41.49 ms") == []
    wrong = findings(STEP + " | step_time_s = 41.4 ms", STEP + " | step_time_s = 41.50 ms")
    assert len(wrong) == 2 and "calculators give 41.494 ms" in wrong[0] and "41.4944 ms" in wrong[1]
    # integers with thousands separators: exact to the byte
    assert findings("kv_cache model=llama-3.1-8b | kv_bytes_per_token = 131,072 B") == []
    assert "131,072.00 B" in findings("kv_cache model=llama-3.1-8b | kv_bytes_per_token = 131,073 B")[0]


def test_an_explicit_tolerance_widens_the_match():
    # 24.1 tokens/s: "about 24" passes at ±3%, "about 25" only with a wider tolerance
    assert findings(STEP + " | tokens_per_s_per_sequence = 24 tokens/s ±3%") == []
    assert findings(STEP + " | tokens_per_s_per_sequence = 25 tokens/s ±3%") != []
    assert findings(STEP + " | tokens_per_s_per_sequence = 25 tokens/s ±5%") == []
    assert findings(STEP + " | step_time_s = 40 ms ±2 ms", STEP + " | step_time_s = 40 ms +/- 0.002 s") == []
    assert findings(STEP + " | step_time_s = 40 ms ±1 ms") != []


def test_units_convert_decimal_binary_time_and_flop_notation():
    kv = "kv_cache model=llama-3.1-8b | kv_bytes_per_token = "
    assert findings(kv + "128 KiB", kv + "131.1 KB", kv + "0.125 MiB") == []
    assert findings(kv + "128 KB") != []  # 128 KiB is 131.1 KB, not 128 KB
    weights = "memory model=llama-3.1-70b precision=bf16 | weights_bytes = "
    assert findings(weights + "141.1 GB", weights + "131.4 GiB", weights + "0.14 TB") == []
    assert findings(STEP + " | step_time_s = 0.0415 s", STEP + " | step_time_s = 41,494 µs") == []
    flops = "training model=llama-3.1-70b tokens=15.6T | flops = "
    assert findings(flops + "6.6e24 FLOP", flops + "6.6 × 10^24 FLOP", flops + "6.6×10²⁴ FLOP",
                    flops + "6,604 ZFLOP ±1%") == []
    assert "calculators give 6.604e24 FLOP" in findings(flops + "6.7e24 FLOP")[0]
    link = 'collective op=all_reduce size="1 GB" ranks=8 link=nvlink4 | busbw = '
    assert findings(link + "447 GB/s", link + "3,574 Gb/s") == []
    run_ = "training model=llama-3.1-70b tokens=15.6T gpus=16384 gpu=h100-sxm mfu=0.4 | "
    assert findings(run_ + "gpu_hours = 4.6M GPU-hours", run_ + "gpu_hours = 4.64 million GPU-h",
                    run_ + "time_s = 11.8 days", run_ + "time_s = 283 h") == []
    assert findings("memory model=llama-3.1-70b | min_gpus = 2 GPUs", "memory model=llama-3.1-70b | min_gpus = 2") == []


def test_figures_parse_as_printed():
    figure = parse_figure("70.55B params")
    assert figure.value == pytest.approx(70.55e9) and figure.decimals == 2 and figure.unit_text == "params"
    assert parse_figure("141B", information=True).unit_text == "B"  # bytes when the quantity is bytes
    assert parse_figure("3.8e25 FLOP").value == pytest.approx(3.8e25)
    assert parse_figure("131,072 B").grouped


def test_malformed_markup_is_reported_with_what_is_wrong(tmp_path):
    problems = findings(
        "memry model=llama-3.1-70b | weights_bytes = 141.1 GB",
        "memory modl=llama-3.1-70b | weights_bytes = 141.1 GB",
        "memory model=llama-3.1-70x | weights_bytes = 141.1 GB",
        "memory model=llama-3.1-70b | weight_bytes = 141.1 GB",
        "memory model=llama-3.1-70b weights_bytes = 141.1 GB",
        "memory model=llama-3.1-70b | weights_bytes = 141.1 furlongs",
        "memory model=llama-3.1-70b | weights_bytes = 141.1 ms",
        "memory model=llama-3.1-70b | weights_bytes = 141.1",
    )
    expected = ["unknown calculator 'memry'", "no input field 'modl'", "unknown model 'llama-3.1-70x'",
                "no quantity 'weight_bytes'", "needs '| QUANTITY = STATED'", "unknown unit 'furlongs'",
                "a unit of another kind", "has no unit"]
    assert len(problems) == len(expected)
    for number, (problem, words) in enumerate(zip(problems, expected), 1):
        assert problem.startswith(f"page.md:{number}: ") and words in problem, (problem, words)
    unclosed = check_text("x\nA figure <!-- check: roofline gpu=h100-sxm | ridge_point = 295 FLOP/B\n", Path("p.md"))
    assert [str(f) for f in unclosed.findings] == ["p.md:2: check markup is not closed with '-->' on the same line"]
    no_colon = check_text("<!-- check roofline gpu=h100-sxm | ridge_point = 295 FLOP/B -->", Path("p.md"))
    assert "must read '<!-- check: CALCULATOR" in str(no_colon.findings[0])

    corpus = copy_corpus(tmp_path)
    add_lines(corpus, f"Broken. {mark('memry model=llama-3.1-70b | weights_bytes = 141.1 GB')}")
    result = run("claims", "--corpus", str(corpus))
    assert result.returncode == 1
    assert result.stdout.strip().splitlines()[-1] == "0 figures checked, 0 disagree, 1 malformed"


def test_markup_inside_code_fences_is_an_example_not_a_figure():
    text = "```\n" + mark(STEP + " | step_time_s = 99 ms") + "\n```\n"
    report = check_text(text, Path("p.md"))
    assert report.checked == 0 and report.ok


def test_readers_never_see_the_markup(tmp_path):
    from service.catalogue import Catalogue
    try:
        from service.demo import article_page
    except ImportError:  # the demo page's module before the service/ reorganisation
        from service.demo import article_page

    corpus = copy_corpus(tmp_path)
    article, line = add_lines(corpus, "## Step time", "",
                              f"One step takes 41.5 ms. {mark(STEP + ' | step_time_s = 41.5 ms')} Then more.")
    doc = parse_document(article)
    section = next(s for s in doc.sections if s.heading == "Step time")
    assert section.text == "One step takes 41.5 ms. Then more."
    assert section.line == line  # line numbers are kept
    assert doc.content_hash == hashlib.sha256(article.read_bytes()).hexdigest()  # the hash is of the file as is
    assert "check:" in doc.body  # validation still sees the raw lines
    page = article_page(Catalogue.load(corpus), "kv-cache")
    assert "One step takes 41.5 ms." in page and "check:" not in page and "&lt;!--" not in page


def test_validate_reports_a_disagreement_as_an_error(tmp_path):
    corpus = copy_corpus(tmp_path)
    article, line = add_lines(corpus, f"One step takes 42.1 ms. {mark(STEP + ' | step_time_s = 42.1 ms')}")
    _, problems = validate(corpus)
    errors = [p for p in problems if p.severity == "error"]
    assert [(p.path, p.line) for p in errors] == [(article, line)]
    assert "stated 42.1 ms, calculators give 41.49" in errors[0].message
    result = run("validate", "--corpus", str(corpus))
    assert result.returncode == 1 and f"{article}:{line}: stated 42.1 ms" in result.stderr


def test_the_release_report_records_the_claims_summary(tmp_path):
    corpus = copy_corpus(tmp_path)
    add_lines(corpus, f"Ridge. {mark('roofline gpu=h100-sxm | ridge_point = 295 FLOP/B')}")
    assert check_corpus(corpus).summary() == {"checked": 1, "disagree": 0}


def test_a_release_records_the_claims_summary_in_its_run(tmp_path, monkeypatch):
    """evals.release.release writes {"checked", "disagree"} under report["run"] (build and eval stubbed)."""
    from types import SimpleNamespace

    import evals.release as releasing
    import ingest.build
    from evals.suite import RunOptions

    corpus = copy_corpus(tmp_path)
    add_lines(corpus, f"Ridge. {mark('roofline gpu=h100-sxm | ridge_point = 295 FLOP/B')}")
    settings = SimpleNamespace(corpus_dir=corpus, keep_releases=2, model_copy=lambda update: None)
    store = SimpleNamespace(live_release=lambda: None, promote=lambda r: None, prune=lambda n: None)
    monkeypatch.setattr(ingest.build, "build", lambda *a, **k: SimpleNamespace(release_id="r1"))
    monkeypatch.setattr(releasing, "evaluate", lambda options: {"run": {}, "warnings": []})
    seen = {}

    def conclude(report, *args):
        seen.update(report["run"])
        return releasing.Outcome(report, tmp_path, failures=[])

    monkeypatch.setattr(releasing, "conclude", conclude)
    monkeypatch.setattr(releasing.reporting, "write", lambda report, folder: None)
    releasing.release(settings, RunOptions(progress=False), gates=None, reports_dir=tmp_path, store=store)
    assert seen["claims"] == {"checked": 1, "disagree": 0}
