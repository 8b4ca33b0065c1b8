"""The trained models' storage: what `python -m evals train` saves is what the answer path loads."""
import json

import numpy as np
import pytest

from service.answer.learned import LEARNED_DIR, BlendedModel, LinearModel, MatrixModel, TreeModel, load_model


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


def test_the_question_adapter_maps_a_vector_to_unit_length_and_loads_back(tmp_path):
    rng = np.random.default_rng(1)
    matrix = np.eye(4, dtype=np.float32) + 0.1 * rng.normal(size=(4, 4)).astype(np.float32)
    MatrixModel("question_adapter", matrix, {"rows": 3}).save(tmp_path)
    loaded = load_model("question_adapter", tmp_path)
    assert isinstance(loaded, MatrixModel) and loaded.notes == {"rows": 3}
    v = np.array([1.0, 0.0, 0.0, 0.0], dtype=np.float32)
    mapped = loaded.apply(v)
    assert np.linalg.norm(mapped) == pytest.approx(1.0)
    assert mapped == pytest.approx((matrix @ v) / np.linalg.norm(matrix @ v), abs=1e-6)


def test_an_adapter_of_the_wrong_shape_is_an_error_and_a_missing_one_is_none(tmp_path):
    MatrixModel("question_adapter", np.eye(3, dtype=np.float32)).save(tmp_path)
    np.save(tmp_path / "question_adapter.npy", np.ones((3, 2), dtype=np.float32))
    with pytest.raises(ValueError, match="not a usable"):
        load_model("question_adapter", tmp_path)
    (tmp_path / "question_adapter.npy").unlink()
    assert load_model("question_adapter", tmp_path) is None


def test_the_committed_adapter_beats_raw_cosine_on_questions_it_did_not_see():
    adapter = load_model("question_adapter")
    assert isinstance(adapter, MatrixModel) and adapter.matrix.shape == (384, 384)
    notes = adapter.notes
    assert notes["dev_cross_fitted_sentence_hit@1"] > notes["raw_cosine_sentence_hit@1"]


def test_the_retriever_compares_sentences_with_the_adapted_question():
    """Both searches (site and page) carry the adapter's vector for the sentences; the passages are still
    searched with the question's own vector."""
    from types import SimpleNamespace

    from ingest.index import Query
    from service.answer.reading import Reading
    from service.answer.retrieve import Retriever
    from service.answer.terms import TermWeights

    seen = []
    searcher = SimpleNamespace(search=lambda query, scope, limit, mode: seen.append(query) or [])
    catalogue = SimpleNamespace(linked=lambda article: {})
    adapter = MatrixModel("question_adapter", np.array([[0.0, 1.0], [1.0, 0.0]], dtype=np.float32))
    retriever = Retriever(searcher, catalogue, TermWeights(["a text"]), frozenset(), 6, 0.0, 0.3, adapter=adapter)
    query = Query("q", np.array([1.0, 0.0], dtype=np.float32), None)
    retriever.retrieve(Reading.plain("what is it"), query, "kv-cache")
    assert len(seen) == 2 and all((q.dense == query.dense).all() for q in seen)
    assert all(q.units.tolist() == [0.0, 1.0] for q in seen)
