"""The training-only questions of evals/training/ stay true to the corpus they were written from.

`python -m evals train` reads them as they are; a section renamed or a sentence rewritten in corpus/ would
silently turn a training question's gold section or key fact into noise. These tests name the entry that broke."""
from pathlib import Path

import pytest
import yaml

from evals.metrics import normalized
from evals.train import TRAINING_DIR
from ingest.corpus import load_corpus

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def sections():
    corpus = load_corpus(ROOT / "corpus")
    return {f"{d.id}#{s.anchor}": normalized(f"{s.heading}\n{s.text}") for d in corpus.documents for s in d.sections}


@pytest.fixture(scope="module")
def entries():
    out = []
    for path in sorted([*TRAINING_DIR.glob("*.yaml"), *TRAINING_DIR.glob("held_back/*.yaml")]):
        out += [(path.name, e) for e in yaml.safe_load(path.read_text(encoding="utf-8")) or []]
    return out


def test_every_training_question_has_a_unique_id_and_a_known_route(entries):
    ids = [e["id"] for _, e in entries]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    assert {e["route"] for _, e in entries} <= {"retrieval", "no_answer"}
    assert len(entries) > 1700  # every file was read, the held-back ones too


def test_gold_sections_exist_and_key_facts_are_in_them(entries, sections):
    broken = []
    for name, e in entries:
        anchors = e.get("anchors") or []
        broken += [f"{name} {e['id']}: no section {a}" for a in anchors if a not in sections]
        for fact in e.get("key_facts") or []:
            if anchors and not any(normalized(str(fact)) in sections.get(a, "") for a in anchors):
                broken.append(f"{name} {e['id']}: key fact not in its gold sections: {fact!r}")
    assert not broken, "\n".join(broken[:20])
