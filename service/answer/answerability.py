"""Does the site answer this question at all? The judge that decides between an answer and "not covered".

The trained classifier (`learned/answerable.json`: a logistic regression and LightGBM trees, their
probabilities averaged) reads the question against what
retrieval and the composer found: how well the best passages and the best sentence match it, how many of its
rarer words they miss, how many of its words the site never uses ("pastry", "pbtxt"), whether it asks about
now or prices, which the site does not track. Its threshold was chosen on dev to refuse as many
unanswerable questions as possible while wrongly refusing at most 1% of answerable ones (the reader dev
set at 2% still refused 3.4–3.8% of its answerable questions, above the 3% target). Without a trained
model, the rule it replaced: the best passage's support (cosine + lexical weight × coverage) must reach
`SUPPORT_THRESHOLD`. A question with nothing of the reader's in it (an injection alone, "1 2 3") is refused
either way, and so is one about today's prices (the site is dated and tracks no market). `scope` is
`article` when the best passage is the reader's article, else `site`.
"""
from __future__ import annotations

from dataclasses import dataclass

from .compose import Quote
from .learned import BlendedModel, LinearModel
from .reading import Reading
from .retrieve import Retrieved

JUDGE_FEATURES = ("best_sentence", "second_sentence", "asked_unit_cov", "asked_unit_head_cov", "best_unit_cov")


@dataclass(frozen=True)
class Verdict:
    supported: bool
    confidence: float  # the classifier's probability (the rule: 1.0 or 0.0)
    scope: str | None  # "article" | "site" | None when not supported


def judge_features(retrieved: Retrieved, quotes: list[Quote]) -> dict[str, float]:
    """The question's features (features.py) and those of the best sentences the composer found."""
    scores = sorted((q.score for q in quotes), reverse=True)
    best = lambda name: max((q.features[name] for q in quotes), default=0.0)  # noqa: E731
    return {**retrieved.question,
            "best_sentence": scores[0] if scores else 0.0, "second_sentence": scores[1] if len(scores) > 1 else 0.0,
            # how much of the question the best single sentence covers: as asked, with its headings, with the subject
            "asked_unit_cov": best("cov"), "asked_unit_head_cov": best("cov_ctx"), "best_unit_cov": best("cov_subject")}


def _asks_todays_market(retrieved: Retrieved) -> bool:
    """A price, a cost or a share price *now* ("h100 rental price right now", "what is lambda labs charging this
    week"): the site is dated and tracks no market, so whatever it says about costs cannot answer that."""
    return bool(retrieved.question.get("asks_now") and retrieved.question.get("asks_price"))


class Judge:
    def __init__(self, threshold: float, model: BlendedModel | LinearModel | None = None):
        self.threshold, self.model = threshold, model

    def decide(self, reading: Reading, retrieved: Retrieved, quotes: list[Quote]) -> Verdict:
        if reading.asks_nothing or not retrieved.candidates or _asks_todays_market(retrieved):
            return Verdict(False, 0.0, None)
        if self.model is not None:
            confidence = self.model.probability(judge_features(retrieved, quotes))
            supported = confidence >= self.model.threshold
        else:
            supported = retrieved.support >= self.threshold
            confidence = float(supported)
        top = retrieved.candidates[0].features
        return Verdict(supported, confidence, ("article" if top["in_article"] else "site") if supported else None)
