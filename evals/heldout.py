"""`python -m evals.heldout`: judge a change to the answer path on dev without scoring dev in-sample.

The committed models are trained on the dev halves, so dev answer figures with them are optimistic (dev
answer_facts 0.67 against 0.58 on test, 2026-12-01). This trains the four models on one half of the training
questions (by id hash) into a scratch directory, answers the dev questions of the eval sets in the other half
with them, and prints answer_facts, context_facts, hit@1, false refusals and no-answer recall per set. Run it
with `--fold 0` and `--fold 1` and sum the two: that is the measure the adapter, the cross-fitting and the
smaller sentence trees were kept on (about 4 minutes a fold on 2 cores). The test halves are never read.
numeric_readers is scored on its near misses only (must-not-route questions, answerable or not; no gold sections,
so only false refusals and no-answer recall).
"""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np

from . import datasets as golden
from .metrics import fact_scores, rank_scores
from .train import _half, train, training_questions

SETS = ("readers", "articles", "concepts", "numeric_readers")  # numeric_readers: its near misses only


def held_out(settings, fold: int, misses: list[str] | None = None) -> dict[str, dict[str, float]]:
    """Figures per set; `misses`, when given, collects one line per wrongly refused or wrongly answered question."""
    from service.answer.learned import load_model

    from .runner import InProcessTarget

    items = [i for i in golden.load(list(SETS)) if i.split == "dev" and _half(i.id) != fold
             and i.route in ("retrieval", "no_answer") and not i.expected]
    with tempfile.TemporaryDirectory() as scratch:
        models = Path(scratch)
        train(settings, out_dir=models, questions=[q for q in training_questions() if _half(q.id) == fold],
              judge_byte=1)
        with InProcessTarget(settings) as target:
            a = target.assistant
            a.retriever.ranker, a.retriever.adapter = load_model("passage_ranker", models), load_model(
                "question_adapter", models)
            a.composer.scorer, a.judge.model = load_model("sentence_ranker", models), load_model("answerable", models)
            rows = [(item, target.ask(item, "hybrid")) for item in items]
    if misses is not None:
        misses += [f"{'refused ' if i.answerable else 'answered'} {i.id} [{i.article}] {i.question}"
                   for i, a in rows if (a.route == "no_answer") == i.answerable]
    out = {}
    for name in SETS:
        answerable = [(i, a) for i, a in rows if i.dataset == name and i.answerable]
        refusable = [(i, a) for i, a in rows if i.dataset == name and not i.answerable]
        facts = [fact_scores(i, a) for i, a in answerable if i.key_facts]
        out[name] = {"questions": len(answerable),
                     "answer_facts": float(np.mean([f["answer_facts"] for f in facts])) if facts else float("nan"),
                     "context_facts": float(np.mean([f["context_facts"] for f in facts])) if facts else float("nan"),
                     "hit@1": _mean([rank_scores(i, a)["hit@1"] for i, a in answerable if i.anchors]),
                     "false_refusals": float(np.mean([a.route == "no_answer" for _, a in answerable])),
                     "no_answer_recall": (float(np.mean([a.route == "no_answer" for _, a in refusable]))
                                          if refusable else float("nan"))}
    return out


def _mean(values: list[float]) -> float:
    return float(np.mean(values)) if values else float("nan")


def main(argv=None) -> int:
    from service.settings import Settings

    parser = argparse.ArgumentParser(prog="python -m evals.heldout", description=__doc__.splitlines()[0])
    parser.add_argument("--fold", type=int, choices=(0, 1), default=0,
                        help="train on this half of the training questions, answer the other half's dev questions")
    parser.add_argument("--misses", action="store_true",
                        help="also list the questions wrongly refused and the refusable ones answered")
    args = parser.parse_args(argv)
    misses: list[str] | None = [] if args.misses else None
    for name, figures in held_out(Settings(), args.fold, misses).items():
        print(f"{name:9} " + "  ".join(f"{k} {v:.3f}" if k != "questions" else f"n={v}" for k, v in figures.items()))
    for line in misses or []:
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
