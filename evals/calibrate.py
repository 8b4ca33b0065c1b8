"""`python -m evals.calibrate`: choose SUPPORT_THRESHOLD on the no-answer dev set, and report it.

SUPPORT_THRESHOLD is the fallback rule's: with a trained answerability judge (`python -m evals train`,
service/answer/learned/answerable.json) the judge decides, and its threshold is chosen when it is trained.

For each dev question the retriever's best support in any scope (cosine + LEXICAL_WEIGHT × term
coverage, see service/answer/retrieve.py) is measured once; then every candidate threshold is scored as a
no-answer detector (positive = the site should decline). The chosen threshold maximises F1 of that
detector; among equal F1 it takes the middle of the widest run, so it sits in the gap, not on its edge.
"""
from __future__ import annotations

import argparse
from pathlib import Path

import yaml

DEV_SET = Path(__file__).parent / "datasets" / "no_answer_dev.yaml"


def best_support(settings, items: list[dict]) -> list[float]:
    """The rule's support for each question: the best candidate's cosine + LEXICAL_WEIGHT × coverage."""
    from service.answer import open_assistant

    with open_assistant(settings) as assistant:  # questions read and embedded as the service does
        retriever = assistant.retriever
        retriever.ranker = None  # the rule's ranking: this calibrates the rule, used when no judge is trained
        out = []
        for item in items:
            reading = assistant.reader.read(item["question"], item.get("article"))
            out.append(retriever.retrieve(reading, assistant.searcher.query(reading.text), item.get("article")).support)
        return out


def sweep(scores: list[float], answerable: list[bool]) -> list[tuple[float, float, float, float]]:
    """(threshold, precision, recall, f1) of 'declined' as a detector of unanswerable questions."""
    rows = []
    for step in range(20, 111):
        t = step / 100
        declined = [s < t for s in scores]
        tp = sum(d and not a for d, a in zip(declined, answerable))
        fp = sum(d and a for d, a in zip(declined, answerable))
        fn = sum(not d and not a for d, a in zip(declined, answerable))
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / (tp + fn) if tp + fn else 1.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        rows.append((t, precision, recall, f1))
    return rows


def main() -> None:
    from service.settings import Settings

    parser = argparse.ArgumentParser(prog="python -m evals.calibrate")
    parser.add_argument("--dev-set", type=Path, default=DEV_SET)
    args = parser.parse_args()
    settings = Settings()
    items = [i for i in yaml.safe_load(args.dev_set.read_text()) if i.get("route") != "calculator"]
    for item in items:  # golden sets say `route: no_answer`; the dev set says `answerable: false`
        item.setdefault("answerable", item.get("route") != "no_answer")
    scores = best_support(settings, items)
    answerable = [bool(i["answerable"]) for i in items]
    rows = sweep(scores, answerable)
    top = max(round(r[3], 6) for r in rows)
    ties = [r for r in rows if round(r[3], 6) == top]
    best = ties[len(ties) // 2]
    for item, score in sorted(zip(items, scores), key=lambda x: x[1]):
        print(f"{score:5.3f}  {'answerable ' if item['answerable'] else 'decline    '} {item['question']}")
    print(f"\n{len(items)} questions ({answerable.count(True)} answerable, {answerable.count(False)} to decline)")
    print(f"current SUPPORT_THRESHOLD {settings.support_threshold:.2f}: " + "precision {1:.2f} recall {2:.2f} F1 {3:.2f}".format(
        *min(rows, key=lambda r: abs(r[0] - settings.support_threshold))))
    print("best threshold {0:.2f}: no-answer precision {1:.2f}, recall {2:.2f}, F1 {3:.2f}".format(*best))


if __name__ == "__main__":
    main()
