"""`python -m evals train`: fit the answer path's four small models on the dev halves, and save them.

0. question adapter — a 384 × 384 linear map of the question's vector, so that the sentence stating a key fact
   of the question is nearer to it than the other sentences of the passages found (a softmax over each
   question's sentences, full-batch Adam from the identity with a small pull back towards it); the rankers
   below read sentence cosines taken with it
1. passage ranker — which retrieved passage is in a gold section of the question? (articles, concepts and
   readers dev questions with gold sections, every candidate of the site and page searches a row):
   LightGBM lambdarank, gradient-boosted trees that order each question's candidates
2. sentence ranker — does this sentence of the best passages state a key fact of the question?
   LightGBM again (binary: its probability also decides whether a second sentence is worth adding)
3. answerability — does the site answer this question at all? (the same questions, the refusals of the
   reader, golden and adversarial dev halves, and evals/datasets/no_answer_dev.yaml), read against the
   candidates as the trained ranker orders them and the sentences as the trained scorer rates them; its
   threshold is chosen on dev, by cross-validation, as the one that refuses the most unanswerable
   questions while wrongly refusing at most `--max-false-refusals` of the answerable ones

Answerability averages a logistic regression (scikit-learn, lbfgs, on standardised features) and LightGBM
trees over the same features; its threshold is on that average. All four are
deterministic (one thread, fixed seeds), saved in service/answer/learned/ with their dev cross-validation
figures beside the rule each replaces. Only `split: dev` questions of the eval sets are read, plus the
training-only questions of evals/training/*.yaml (written for training, never scored); the test halves are
never seen. Under seven minutes on 2 cores.
"""
from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import numpy as np
import yaml

from . import datasets as golden
from .metrics import normalized

RANKER, ANSWERABLE, SENTENCES, ADAPTER = "passage_ranker", "answerable", "sentence_ranker", "question_adapter"
# the adapter's training: the softmax's temperature (cosines × 20), the pull towards the identity, Adam's steps
ADAPTER_SCALE, ADAPTER_PULL, ADAPTER_STEPS, ADAPTER_LR = 20.0, 1e-3, 300, 1e-3


def _answerable_features() -> tuple[str, ...]:
    from service.answer.answerability import JUDGE_FEATURES
    from service.answer.features import QUESTION_FEATURES

    return QUESTION_FEATURES + JUDGE_FEATURES
TRAINING_SETS = ("articles", "concepts", "readers", "adversarial")
NO_ANSWER_DEV = Path(__file__).parent / "datasets" / "no_answer_dev.yaml"
TRAINING_DIR = Path(__file__).parent / "training"  # questions written for training only
SENTENCE_PARAMS = dict(objective="binary", n_estimators=200, learning_rate=0.05, num_leaves=7, min_child_samples=50,
                       subsample=0.8, subsample_freq=1, colsample_bytree=0.8, random_state=7, deterministic=True,
                       force_row_wise=True, n_jobs=1, verbose=-1)
RANKER_PARAMS = dict(objective="lambdarank", n_estimators=150, learning_rate=0.05, num_leaves=7, min_child_samples=20,
                     subsample=0.8, subsample_freq=1, colsample_bytree=0.8, random_state=7, deterministic=True,
                     force_row_wise=True, n_jobs=1, verbose=-1)
# The judge's trees: no row or column sampling, classes weighted as its logistic regression's are
JUDGE_PARAMS = dict(objective="binary", n_estimators=200, learning_rate=0.05, num_leaves=15, min_child_samples=20,
                    class_weight="balanced", random_state=7, deterministic=True, force_row_wise=True, n_jobs=1,
                    verbose=-1)
FOLDS = 5
# The judge's threshold wrongly refuses at most this share of the answerable dev questions (cross-validated). Chosen
# on held-out dev (`evals.heldout`, both folds) with the reader-typed refusals of evals/training/refusals_readers.yaml:
# readers no-answer recall 0.80 at 0.01 → 0.90 at 0.02, false refusals 0.010 → 0.029 (the limit is 0.03)
MAX_FALSE_REFUSALS = 0.02


@dataclasses.dataclass
class Question:
    id: str
    question: str
    article: str | None
    answerable: bool
    anchors: tuple[str, ...] = ()
    key_facts: tuple[str, ...] = ()


def training_questions(root: Path = golden.DATASETS_DIR) -> list[Question]:
    items = [i for i in golden.load([d for d in TRAINING_SETS if golden.dataset_files(d, root)], root)
             if i.split == "dev" and i.route != "calculator" and not i.expected]
    out = [Question(i.id, i.question, i.article, i.route != "no_answer", i.anchors, i.key_facts) for i in items]
    for n, entry in enumerate(yaml.safe_load(NO_ANSWER_DEV.read_text()) or []):
        if entry.get("route") != "calculator":
            out.append(Question(f"no-answer-dev-{n}", entry["question"], entry.get("article"),
                                bool(entry.get("answerable", entry.get("route") != "no_answer"))))
    for path in sorted(TRAINING_DIR.glob("*.yaml")):
        for entry in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            out.append(Question(entry["id"], entry["question"], entry.get("article"), entry["route"] != "no_answer",
                                tuple(entry.get("anchors") or ()), tuple(str(f) for f in entry.get("key_facts") or ())))
    return out


def _fit(name: str, features: tuple[str, ...], x: np.ndarray, y: np.ndarray, notes: dict, balanced: bool = False):
    from sklearn.linear_model import LogisticRegression

    from service.answer.learned import LinearModel

    mean = x.mean(axis=0)
    scale = np.where(x.std(axis=0) > 1e-9, x.std(axis=0), 1.0)
    model = LogisticRegression(C=1.0, max_iter=2000, class_weight="balanced" if balanced else None)
    model.fit((x - mean) / scale, y)
    return LinearModel(name, list(features), mean.round(8).tolist(), scale.round(8).tolist(),
                       model.coef_[0].round(8).tolist(), round(float(model.intercept_[0]), 8), 0.5, notes)


def _cv_probabilities(x: np.ndarray, y: np.ndarray, groups: np.ndarray, balanced: bool = False) -> np.ndarray:
    """Out-of-fold probabilities, folds by question (no question is scored by a model that saw it)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GroupKFold

    out = np.zeros(len(y))
    for train, held in GroupKFold(n_splits=FOLDS).split(x, y, groups):
        mean = x[train].mean(axis=0)
        scale = np.where(x[train].std(axis=0) > 1e-9, x[train].std(axis=0), 1.0)
        model = LogisticRegression(C=1.0, max_iter=2000, class_weight="balanced" if balanced else None)
        model.fit((x[train] - mean) / scale, y[train])
        out[held] = model.predict_proba((x[held] - mean) / scale)[:, 1]
    return out


def _fit_ranker(name: str, features: tuple[str, ...], x: np.ndarray, y: np.ndarray, groups: np.ndarray, notes: dict):
    import lightgbm

    from service.answer.learned import TreeModel

    order = np.argsort(groups, kind="stable")
    _, counts = np.unique(groups[order], return_counts=True)
    model = lightgbm.LGBMRanker(**RANKER_PARAMS).fit(x[order], y[order], group=counts)
    return TreeModel(name, list(features), model.booster_, notes)


def _fit_classifier(name: str, features: tuple[str, ...], x: np.ndarray, y: np.ndarray, notes: dict,
                    params: dict = SENTENCE_PARAMS):
    import lightgbm

    from service.answer.learned import TreeModel

    return TreeModel(name, list(features), lightgbm.LGBMClassifier(**params).fit(x, y).booster_, notes)


def _cv_classifier(x: np.ndarray, y: np.ndarray, groups: np.ndarray, params: dict = SENTENCE_PARAMS) -> np.ndarray:
    import lightgbm
    from sklearn.model_selection import GroupKFold

    out = np.zeros(len(y))
    for train, held in GroupKFold(n_splits=FOLDS).split(x, y, groups):
        out[held] = lightgbm.LGBMClassifier(**params).fit(x[train], y[train]).predict_proba(x[held])[:, 1]
    return out


def _cv_ranker(x: np.ndarray, y: np.ndarray, groups: np.ndarray) -> np.ndarray:
    import lightgbm
    from sklearn.model_selection import GroupKFold

    out = np.zeros(len(y))
    for train, held in GroupKFold(n_splits=FOLDS).split(x, y, groups):
        train = train[np.argsort(groups[train], kind="stable")]
        _, counts = np.unique(groups[train], return_counts=True)
        out[held] = lightgbm.LGBMRanker(**RANKER_PARAMS).fit(x[train], y[train], group=counts).predict(x[held])
    return out


def _hit_at_1(scores: np.ndarray, labels: np.ndarray, groups: np.ndarray) -> float:
    hits, asked = 0, 0
    for g in np.unique(groups):
        rows = np.where(groups == g)[0]
        if labels[rows].any():
            asked += 1
            hits += bool(labels[rows[np.argmax(scores[rows])]])
    return round(hits / max(asked, 1), 4)


def train(settings, max_false_refusals: float = MAX_FALSE_REFUSALS, out_dir: Path | None = None,
          questions: list[Question] | None = None, judge_byte: int = 0) -> dict:
    """Fit and save the four models on `questions` (default: every training question). `judge_byte` picks the
    id-hash byte that halves them for the judge's cross-fitting (another one when they are already a half)."""
    from service.answer import open_assistant
    from service.answer.learned import LEARNED_DIR

    out_dir = out_dir or LEARNED_DIR
    questions = training_questions() if questions is None else questions
    stamp = {"trained_on": "dev halves only", "questions": len(questions),
             "trained_at": dt.datetime.now(dt.timezone.utc).date().isoformat()}
    with open_assistant(settings) as assistant:
        trainer = _Trainer(assistant, stamp)
        adapter = trainer.fit_adapters(questions)
        ranker, sentences = trainer.fit_rankers(questions, report=True)
        # The judge reads the rankers' scores, so it must learn from scores of questions the rankers did not
        # see, as at test time: each half is scored by rankers fitted on the other half (cross-fitting).
        halves = [[q for q in questions if _half(q.id, byte=judge_byte) == h] for h in (0, 1)]
        rows, labels, rule = [], [], []
        for fitted_on, scored in ((halves[0], halves[1]), (halves[1], halves[0])):
            trainer.rows_for_judge(scored, *trainer.fit_rankers(fitted_on), rows, labels, rule)
        answerable = trainer.fit_judge(np.array(rows), np.array(labels, dtype=int), np.array(rule), max_false_refusals,
                                       settings.support_threshold)
    for model in (adapter, ranker, sentences, answerable):
        model.save(out_dir)
    return {m.name: m.notes for m in (adapter, ranker, sentences, answerable)}


def _table(rows):
    """(question, features, label, rule score) rows → feature matrix, labels, question groups, rule scores."""
    groups, features, labels, rule = zip(*rows)
    return np.array(features), np.array(labels, dtype=int), np.array(groups), np.array(rule)


def _fit_adapter(examples: list[tuple], notes: dict):
    """The identity plus a learned correction D: each question's sentences softmax-scored by their cosine to
    (I + D)q, the facts' sentences pushed up; full batch, deterministic (one thread, no random start)."""
    import torch

    from service.answer.learned import MatrixModel

    torch.set_num_threads(1)
    dim = len(examples[0][1])
    most = max(len(e[2]) for e in examples)
    q = torch.tensor(np.stack([e[1] for e in examples]), dtype=torch.float32)
    u = torch.zeros(len(examples), most, dim)
    real = torch.zeros(len(examples), most, dtype=torch.bool)
    fact = torch.zeros(len(examples), most, dtype=torch.bool)
    for i, (_, _, vectors, labels) in enumerate(examples):
        u[i, :len(vectors)] = torch.tensor(vectors)
        real[i, :len(vectors)] = True
        fact[i, :len(labels)] = torch.tensor(labels)
    d = torch.zeros(dim, dim, requires_grad=True)
    optimiser = torch.optim.Adam([d], lr=ADAPTER_LR)
    for _ in range(ADAPTER_STEPS):
        optimiser.zero_grad()
        mapped = q + q @ d.T
        mapped = mapped / mapped.norm(dim=1, keepdim=True)
        logits = ADAPTER_SCALE * torch.einsum("nmd,nd->nm", u, mapped)
        everything = torch.logsumexp(logits.masked_fill(~real, -1e9), dim=1)
        facts = torch.logsumexp(logits.masked_fill(~fact, -1e9), dim=1)
        loss = (everything - facts).mean() + ADAPTER_PULL * (d ** 2).sum()
        loss.backward()
        optimiser.step()
    matrix = (torch.eye(dim) + d).detach().numpy().astype(np.float32)
    return MatrixModel(ADAPTER, matrix, {**notes, "rows": len(examples)})


def _adapter_hit_at_1(adapter, examples: list[tuple]) -> tuple[float, float]:
    """On questions it did not see: how often the sentence nearest to the mapped question states a fact, and
    how often the one nearest to the raw question does."""
    mapped = np.mean([e[3][int(np.argmax(e[2] @ adapter.apply(e[1])))] for e in examples])
    raw = np.mean([e[3][int(np.argmax(e[2] @ e[1]))] for e in examples])
    return float(mapped), float(raw)


def _rows(x: np.ndarray, y: np.ndarray, g: np.ndarray, keep: np.ndarray):
    return x[keep], y[keep], g[keep]


def _half(question_id: str, byte: int = 0) -> int:
    import hashlib

    return hashlib.sha256(question_id.encode()).digest()[byte] % 2


class _Trainer:
    def __init__(self, assistant, stamp: dict):
        self.assistant, self.stamp = assistant, stamp
        self.adapters: dict[int, object] = {}  # by half: the adapter fitted on the other half's questions

    def _retrieve(self, q: Question, ranker):
        reading, _, found = self._search(q, ranker)
        return reading, found

    def _search(self, q: Question, ranker):
        """The question read, its query, and what the retriever finds for it."""
        a = self.assistant
        a.retriever.ranker = ranker
        # every training row reads sentence cosines as a new question's would be: with an adapter that did not
        # see it (fitted on the other half), not with the one that learned its answer
        a.retriever.adapter = self.adapters.get(_half(q.id, byte=3))
        reading = a.reader.read(q.question, q.article)
        query = a.searcher.query(reading.text)
        return reading, query, a.retriever.retrieve(reading, query, q.article)

    def fit_adapters(self, questions: list[Question]):
        """The question adapter on every question, and one on each half for the other half's training rows."""
        examples = self._adapter_examples(questions)
        for h in (0, 1):
            self.adapters[h] = _fit_adapter([e for e in examples if _half(e[0], byte=3) != h], {})
        notes = {**self.stamp, "questions_used": len(examples)}
        held = [_adapter_hit_at_1(self.adapters[h], [e for e in examples if _half(e[0], byte=3) == h]) for h in (0, 1)]
        notes["dev_cross_fitted_sentence_hit@1"] = round(float(np.mean([m for m, _ in held])), 4)
        notes["raw_cosine_sentence_hit@1"] = round(float(np.mean([r for _, r in held])), 4)
        return _fit_adapter(examples, notes)

    def _adapter_examples(self, questions: list[Question]) -> list[tuple]:
        """(question id, its vector, its passages' sentence vectors, which state a key fact) per question
        that has both a sentence stating a fact and one that does not, among the passages found without models."""
        from ingest.sentences import units

        a, rows = self.assistant, []
        for q in (qq for qq in questions if qq.answerable and qq.key_facts):
            _, query, found = self._search(q, None)
            facts = [normalized(f) for f in q.key_facts]
            texts = list(dict.fromkeys(u.text for hit in found.hits for u in units(hit.passage.text) if u.quotable))
            labels = np.array([any(f in normalized(t) for f in facts) for t in texts])
            if labels.any() and not labels.all():
                rows.append((q.id, query.dense, texts, labels))
        every_text = sorted({t for *_, texts, _ in rows for t in texts})
        vectors = dict(zip(every_text, np.asarray(a.searcher.embedder.encode(every_text), dtype=np.float32)))
        return [(qid, dense, np.stack([vectors[t] for t in texts]), labels) for qid, dense, texts, labels in rows]

    def fit_rankers(self, questions: list[Question], report: bool = False):
        """The passage ranker, then the sentence ranker on the passages it puts first."""
        from service.answer.compose import SENTENCE_FEATURES
        from service.answer.features import PASSAGE_FEATURES

        with_anchors = [q for q in questions if q.anchors]

        def passages():
            for gi, q in enumerate(with_anchors):
                for c in self._retrieve(q, None)[1].candidates:
                    yield gi, [c.features[f] for f in PASSAGE_FEATURES], c.hit.passage.section_id in q.anchors, c.score

        x, y, g, rule = _table(passages())
        notes = self._notes("hit@1", _cv_ranker, x, y, g, rule, report)
        ranker = _fit_ranker(RANKER, PASSAGE_FEATURES, x, y, g, notes)
        # The sentence ranker learns from passages ordered as a new question's would be: each question's by a
        # passage ranker fitted on the other half (cross-fitting). Ordered by the ranker that saw them, the gold
        # passage is first more often than it will be, and the scorer would learn to trust the first passage.
        half_of = np.array([_half(q.id, byte=2) for q in with_anchors])  # (not the judge's halves: within one)
        other_half = {h: _fit_ranker(RANKER, PASSAGE_FEATURES, *_rows(x, y, g, half_of[g] != h), {}) for h in (0, 1)}

        composer = self.assistant.composer
        composer.scorer = None

        def sentences():
            for gi, q in enumerate(qq for qq in questions if qq.answerable and qq.key_facts):
                reading, found = self._retrieve(q, other_half[_half(q.id, byte=2)])
                facts = [normalized(f) for f in q.key_facts]
                for quote in composer.candidates(reading, found.hits):
                    said = normalized(quote.text)
                    yield gi, [quote.features[f] for f in SENTENCE_FEATURES], any(f in said for f in facts), quote.score

        x, y, g, rule = _table(sentences())
        notes = self._notes("lead_states_a_fact", _cv_classifier, x, y, g, rule, report)
        return ranker, _fit_classifier(SENTENCES, SENTENCE_FEATURES, x, y, notes)

    def _notes(self, measure: str, cross_validated, x, y, g, rule, report: bool) -> dict:
        """How the model compares on dev (cross-validated by question) with a logistic model and with the rule."""
        notes = {**self.stamp, "rows": len(y)}
        if report:
            notes.update({f"dev_cv_{measure}": _hit_at_1(cross_validated(x, y, g), y, g),
                          f"logistic_dev_cv_{measure}": _hit_at_1(_cv_probabilities(x, y, g), y, g),
                          f"rule_{measure}": _hit_at_1(rule, y, g)})
        return notes

    def rows_for_judge(self, questions: list[Question], ranker, sentences, rows, labels, rule) -> None:
        from service.answer.answerability import judge_features

        self.assistant.composer.scorer = sentences
        for q in questions:
            reading, found = self._retrieve(q, ranker)
            if reading.asks_nothing:
                continue  # refused by rule before the classifier is asked
            judged = judge_features(found, self.assistant.composer.candidates(reading, found.hits))
            rows.append([judged[f] for f in _answerable_features()])
            labels.append(q.answerable)
            rule.append(found.support)

    def fit_judge(self, x: np.ndarray, y: np.ndarray, rule: np.ndarray, max_false_refusals: float, rule_threshold: float):
        """A logistic regression and LightGBM trees, their probabilities averaged (they err on different
        questions: dev CV refusals at 1% false refusals 0.62 and 0.66 alone, 0.69 together)."""
        groups = np.arange(len(y))
        linear_cv = _cv_probabilities(x, y, groups, balanced=True)
        trees_cv = _cv_classifier(x, y, groups, JUDGE_PARAMS)
        cv = (linear_cv + trees_cv) / 2
        threshold = _threshold(cv, y, max_false_refusals)
        refused, rule_refused = cv < threshold, rule < rule_threshold
        alone = {name: _rate(p[y == 0] < _threshold(p, y, max_false_refusals))
                 for name, p in (("logistic", linear_cv), ("trees", trees_cv))}
        notes = {**self.stamp, "rows": len(y), "threshold_max_false_refusals": max_false_refusals,
                 "dev_cv_false_refusal_rate": _rate(refused[y == 1]), "dev_cv_no_answer_recall": _rate(refused[y == 0]),
                 "logistic_dev_cv_no_answer_recall": alone["logistic"], "trees_dev_cv_no_answer_recall": alone["trees"],
                 "rule_false_refusal_rate": _rate(rule_refused[y == 1]),
                 "rule_no_answer_recall": _rate(rule_refused[y == 0])}
        from service.answer.learned import BlendedModel

        features = _answerable_features()
        linear = _fit(f"{ANSWERABLE}_logistic", features, x, y, {"member_of": ANSWERABLE}, balanced=True)
        trees = _fit_classifier(f"{ANSWERABLE}_trees", features, x, y, {"member_of": ANSWERABLE}, JUDGE_PARAMS)
        return BlendedModel(ANSWERABLE, [linear, trees], round(float(threshold), 6), notes)


def _threshold(probabilities: np.ndarray, answerable: np.ndarray, max_false_refusals: float) -> float:
    """The highest threshold whose false-refusal rate on the answerable questions stays within the limit."""
    scores = np.sort(probabilities[answerable == 1])
    allowed = int(np.floor(max_false_refusals * len(scores)))
    return float(scores[allowed]) if len(scores) else 0.5


def _rate(flags: np.ndarray) -> float:
    return round(float(np.mean(flags)), 4) if len(flags) else 0.0


def main(argv=None) -> int:
    import argparse

    from service.settings import Settings

    parser = argparse.ArgumentParser(prog="python -m evals train", description=__doc__.splitlines()[0])
    parser.add_argument("--max-false-refusals", type=float, default=MAX_FALSE_REFUSALS,
                        help="the answerability threshold refuses at most this share of answerable dev questions")
    args = parser.parse_args(argv)
    summary = train(Settings(), args.max_false_refusals)
    for name, notes in summary.items():
        shown = {k: v for k, v in notes.items() if k not in ("trained_on", "trained_at")}
        print(f"{name}: {shown}")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())
