"""`python -m ingest validate`: every DESIGN §3 rule, all problems in one run, `path:line: message`."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import FIXTURE_CORPUS, copy_corpus
from ingest.corpus import concept_id, slugify
from ingest.validate import validate


def run_validate(corpus: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ingest", "validate", "--corpus", str(corpus), *extra],
                          capture_output=True, text=True, cwd=Path(__file__).parent.parent)


def test_fixture_corpus_is_valid():
    result = run_validate(FIXTURE_CORPUS, "--strict")
    assert result.returncode == 0, result.stderr
    assert "0 error(s)" in result.stdout


def test_five_different_mistakes_are_all_reported_in_one_run(tmp_path):
    corpus = copy_corpus(tmp_path)
    kv = corpus / "articles" / "kv-cache.md"
    # 1. unknown source id, 2. empty section, 3. anchor used twice
    kv.write_text(kv.read_text()
                  .replace("sources: [vllm-pagedattention-2023]", "sources: [no-such-paper-2031]")
                  .replace("## Sizing the cache\n", "## Sizing the cache\n\n## Nothing here\n\n## Sizing the cache\n"))
    # 4. missing required field
    concept = corpus / "concepts" / "inference-and-serving" / "the-kv-cache.md"
    concept.write_text(concept.read_text().replace("level: free\n", ""))
    # 5. duplicate id
    dup = corpus / "sources" / "mooncake-copy.md"
    dup.write_text((corpus / "sources" / "mooncake-2024.md").read_text())

    result = run_validate(corpus)
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    expect = {
        "unknown source id 'no-such-paper-2031'": "kv-cache.md:8:",
        "section 'Nothing here' is empty": "kv-cache.md:",
        "heading anchor '#sizing-the-cache' is used twice": "kv-cache.md:",
        "missing field 'level'": "the-kv-cache.md:1:",
        "duplicate id 'mooncake-2024' (another source": "mooncake-copy.md:2:",
    }
    for message, location in expect.items():
        assert any(message in line and location in line for line in lines), (message, lines)


def test_unknown_field_bad_kind_and_pending_concepts(tmp_path):
    corpus = copy_corpus(tmp_path)
    article = corpus / "articles" / "mooncake.md"
    article.write_text(article.read_text().replace("tags: [", "colour: blue\ntags: [")
                       .replace("concepts: [the-kv-cache,", "concepts: [not-written-yet, the-kv-cache,"))
    _, problems = validate(corpus)
    messages = [(p.severity, p.message) for p in problems]
    assert ("error", "unknown field 'colour' for a article") in messages
    # a concept page that is not written yet is a warning, and an error under --strict
    assert ("warning", "links to unknown concept id 'not-written-yet'") in messages
    _, strict = validate(corpus, strict=True)
    assert ("error", "links to unknown concept id 'not-written-yet'") in [(p.severity, p.message) for p in strict]


def test_an_article_says_which_calculator_its_page_is_about(tmp_path):
    corpus = copy_corpus(tmp_path)
    article = corpus / "articles" / "mooncake.md"
    article.write_text(article.read_text().replace("tags: [", "computes: kv_cache\ntags: [", 1))
    _, problems = validate(corpus)
    assert not [p for p in problems if p.severity == "error"]
    article.write_text(article.read_text().replace("computes: kv_cache", "computes: kv-cache"))
    _, problems = validate(corpus)
    assert any(p.path.name == "mooncake.md" and p.message.startswith("computes must be one of memory, kv_cache")
               and "got 'kv-cache'" in p.message for p in problems)


def test_unparseable_file_is_reported_with_the_rest(tmp_path):
    corpus = copy_corpus(tmp_path)
    (corpus / "sources" / "broken.md").write_text("no front matter here\n")
    _, problems = validate(corpus)
    assert any(p.path.name == "broken.md" and p.line == 1 and "front matter" in p.message for p in problems)


def test_anchor_and_concept_id_rules():
    assert slugify("When it helps, and when it doesn’t") == "when-it-helps-and-when-it-doesnt"
    assert slugify("Prefill–decode disaggregation") == "prefilldecode-disaggregation"
    assert slugify("From O(t·d) to O(d) per step") == "from-otd-to-od-per-step"
    assert concept_id("KV Cache Sizing") == "kv-cache-sizing"
    assert concept_id("Training FLOPs: 6ND") == "training-flops-6nd"
    assert concept_id("Numerics: FP32, BF16, FP8 and FP4") == "numerics-fp32-bf16-fp8-and-fp4"


def test_an_article_and_a_concept_may_share_an_id_but_two_concepts_may_not(tmp_path):
    corpus = copy_corpus(tmp_path)
    track = corpus / "concepts" / "inference-and-serving"
    page = (track / "the-kv-cache.md").read_text().replace("id: the-kv-cache", "id: kv-cache").replace('title: "The KV Cache"', 'title: "KV Cache"')
    (track / "kv-cache.md").write_text(page)  # same id as the article `kv-cache`: allowed
    _, problems = validate(corpus)
    assert not [p for p in problems if "duplicate" in p.message]
    (corpus / "concepts" / "napkin-math-and-capacity" / "kv-cache.md").write_text(page.replace("track: inference-and-serving", "track: napkin-math-and-capacity"))
    _, problems = validate(corpus)
    assert [p.message for p in problems if "duplicate" in p.message] == ["duplicate id 'kv-cache' (another concept uses it too)"] * 2
