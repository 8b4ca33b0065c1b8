"""The trained models' storage: what `python -m evals train` saves is what the answer path loads."""
import json

import numpy as np
import pytest

from service.answer.learned import LEARNED_DIR, BlendedModel, LinearModel, TreeModel, load_model


def _members():
    import lightgbm

    rng = np.random.default_rng(0)
    x = rng.normal(size=(200, 2))
    y = (x[:, 0] + 0.3 * rng.normal(size=200) > 0).astype(int)
    booster = lightgbm.LGBMClassifier(n_estimators=20, num_leaves=4, verbose=-1, deterministic=True,
                                      force_row_wise=True, n_jobs=1).fit(x, y).booster_
    trees = TreeModel("judge_trees", ["a", "b"], booster)
    linear = LinearModel("judge_logistic", ["a", "b"], [0.0, 0.0], [1.0, 1.0], [2.0, 0.0], 0.0)
    return linear, trees


def test_a_blend_averages_its_members_and_loads_back_from_disk(tmp_path):
    linear, trees = _members()
    blend = BlendedModel("judge", [linear, trees], threshold=0.4)
    blend.save(tmp_path)
    loaded = load_model("judge", tmp_path)
    assert isinstance(loaded, BlendedModel) and loaded.threshold == 0.4
    rows = [{"a": 1.5, "b": 0.0}, {"a": -1.5, "b": 0.0}]
    expected = (linear.probabilities(rows) + trees.probabilities(rows)) / 2
    assert loaded.probabilities(rows) == pytest.approx(expected)
    assert loaded.probability(rows[0]) > 0.5 > loaded.probability(rows[1])
    # a blend is not mistaken for a member's kind, nor a member for the blend
    assert LinearModel.load("judge", tmp_path) is None and TreeModel.load("judge", tmp_path) is None
    assert isinstance(load_model("judge_trees", tmp_path), TreeModel)


def test_a_blend_missing_a_member_is_an_error_not_a_silent_half(tmp_path):
    linear, trees = _members()
    BlendedModel("judge", [linear, trees]).save(tmp_path)
    (tmp_path / "judge_trees.txt").unlink()
    with pytest.raises(ValueError, match="missing"):
        load_model("judge", tmp_path)


def test_the_committed_judge_is_a_blend_with_its_dev_threshold():
    judge = load_model("answerable")
    assert isinstance(judge, BlendedModel) and [type(m) for m in judge.members] == [LinearModel, TreeModel]
    assert 0.0 < judge.threshold < 1.0
    meta = json.loads((LEARNED_DIR / "answerable.json").read_text(encoding="utf-8"))
    assert meta["notes"]["trained_on"] == "dev halves only"
