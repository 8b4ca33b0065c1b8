"""The small trained models of the answer path, and how they are stored.

`python -m evals train` fits them on the dev halves of the golden and reader sets (and the training
questions in evals/training/) and saves them beside this file, in `learned/`:
- `LinearModel` — a logistic regression over named, standardised features, as JSON (feature names,
  means, scales, weights, the decision threshold chosen on dev). Scoring is a dot product in numpy.
- `TreeModel` — a LightGBM model (the passage ranker: gradient-boosted trees, lambdarank) as LightGBM's
  own text format, with a JSON beside it naming its features and how it was trained.
- `BlendedModel` — the mean of other models' probabilities with one threshold (the judge: its logistic
  regression and its trees, which err on different questions), as a JSON naming its members.
- `MatrixModel` — a square matrix that maps a question's vector before it is compared with sentence vectors
  (the question adapter), as a NumPy `.npy` of float32 with a JSON beside it.
All load offline and are a few kilobytes to a few hundred (the adapter: 590 KB).
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

LEARNED_DIR = Path(__file__).parent / "learned"


def _meta(name: str, directory: Path) -> dict | None:
    """A model's JSON (its kind, features, notes…), or None when none of that name has been trained."""
    path = directory / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


class _Stored:
    """What the three kinds share: a JSON named after the model beside it, and `load` for one kind by name."""

    @classmethod
    def load(cls, name: str, directory: Path = LEARNED_DIR):
        """The trained model of that name when it is of this kind, else None (`load_model` reads it)."""
        model = load_model(name, directory)
        return model if isinstance(model, cls) else None

    def _write_json(self, directory: Path, body: dict) -> Path:
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{self.name}.json"
        path.write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")
        return path


def _matrix(rows: list[dict[str, float]], features: list[str]) -> np.ndarray:
    """Rows of named features → the model's columns, in its order (a feature a row lacks is 0)."""
    return np.array([[row.get(f, 0.0) for f in features] for row in rows], dtype=np.float64)


@dataclass
class LinearModel(_Stored):
    name: str
    features: list[str]
    mean: list[float]
    scale: list[float]
    weights: list[float]
    bias: float
    threshold: float = 0.5  # on the probability; what "yes" means for this model
    notes: dict = field(default_factory=dict)  # how it was trained and what it scored (for people)

    def __post_init__(self):
        self._mean, self._scale, self._w = (np.asarray(v, dtype=np.float64) for v in (self.mean, self.scale, self.weights))

    def probabilities(self, rows: list[dict[str, float]]) -> np.ndarray:
        if not rows:
            return np.zeros(0)
        x = _matrix(rows, self.features)
        z = ((x - self._mean) / self._scale) @ self._w + self.bias
        return 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))

    def probability(self, row: dict[str, float]) -> float:
        return float(self.probabilities([row])[0])

    def save(self, directory: Path = LEARNED_DIR) -> Path:
        fields = ("name", "features", "mean", "scale", "weights", "bias", "threshold", "notes")
        return self._write_json(directory, {k: getattr(self, k) for k in fields})

    @classmethod
    def from_meta(cls, meta: dict, directory: Path) -> "LinearModel":
        model = cls(**meta)
        if not all(math.isfinite(v) for v in (*model.weights, model.bias)) or len(model.features) != len(model.weights):
            raise ValueError(f"{directory / model.name}.json is not a usable model")
        return model


@dataclass
class TreeModel(_Stored):
    """Gradient-boosted trees (LightGBM); `probabilities` are its raw scores: only their order matters."""

    name: str
    features: list[str]
    booster: object  # lightgbm.Booster
    notes: dict = field(default_factory=dict)

    def probabilities(self, rows: list[dict[str, float]]) -> np.ndarray:
        if not rows:
            return np.zeros(0)
        return self.booster.predict(_matrix(rows, self.features))

    def save(self, directory: Path = LEARNED_DIR) -> Path:
        directory.mkdir(parents=True, exist_ok=True)
        (directory / f"{self.name}.txt").write_text(self.booster.model_to_string(), encoding="utf-8")
        return self._write_json(directory, {"kind": "lightgbm", "name": self.name, "features": self.features,
                                            "notes": self.notes})

    @classmethod
    def from_meta(cls, meta: dict, directory: Path) -> "TreeModel":
        import lightgbm

        model_path = directory / f"{meta['name']}.txt"
        # trained with one thread, which the model string keeps: a request scores a few dozen rows, and
        # requests already run side by side
        booster = lightgbm.Booster(model_str=model_path.read_text(encoding="utf-8"))
        if booster.num_feature() != len(meta["features"]):
            raise ValueError(f"{model_path} expects {booster.num_feature()} features, its metadata names {len(meta['features'])}")
        return cls(meta["name"], meta["features"], booster, meta.get("notes", {}))


@dataclass
class BlendedModel(_Stored):
    """The mean of its members' probabilities; `threshold` is on that mean."""

    name: str
    members: list
    threshold: float = 0.5
    notes: dict = field(default_factory=dict)

    def probabilities(self, rows: list[dict[str, float]]) -> np.ndarray:
        return np.mean([m.probabilities(rows) for m in self.members], axis=0) if rows else np.zeros(0)

    def probability(self, row: dict[str, float]) -> float:
        return float(self.probabilities([row])[0])

    def save(self, directory: Path = LEARNED_DIR) -> Path:
        for member in self.members:
            member.save(directory)
        members = [m.name for m in self.members]
        return self._write_json(directory, {"kind": "blend", "name": self.name, "members": members,
                                            "threshold": self.threshold, "notes": self.notes})

    @classmethod
    def from_meta(cls, meta: dict, directory: Path) -> "BlendedModel":
        members = [load_model(member, directory) for member in meta["members"]]
        if any(m is None for m in members):
            raise ValueError(f"{directory / meta['name']}.json names a member model that is missing: {meta['members']}")
        return cls(meta["name"], members, float(meta["threshold"]), meta.get("notes", {}))


@dataclass
class MatrixModel(_Stored):
    """A linear map of question vectors: `apply` returns the mapped vector, unit length."""

    name: str
    matrix: np.ndarray
    notes: dict = field(default_factory=dict)

    def apply(self, vector: np.ndarray) -> np.ndarray:
        mapped = self.matrix @ np.asarray(vector, dtype=np.float32)
        return mapped / max(float(np.linalg.norm(mapped)), 1e-12)

    def save(self, directory: Path = LEARNED_DIR) -> Path:
        directory.mkdir(parents=True, exist_ok=True)
        np.save(directory / f"{self.name}.npy", self.matrix.astype(np.float32))
        return self._write_json(directory, {"kind": "matrix", "name": self.name, "shape": list(self.matrix.shape),
                                            "notes": self.notes})

    @classmethod
    def from_meta(cls, meta: dict, directory: Path) -> "MatrixModel":
        path = directory / f"{meta['name']}.npy"
        matrix = np.load(path, allow_pickle=False)
        square = list(matrix.shape) == list(meta["shape"]) and matrix.shape[0] == matrix.shape[1]
        if not square or not np.isfinite(matrix).all():
            raise ValueError(f"{path} is not a usable {meta['shape']} matrix")
        return cls(meta["name"], matrix.astype(np.float32), meta.get("notes", {}))


_KINDS = {None: LinearModel, "lightgbm": TreeModel, "blend": BlendedModel, "matrix": MatrixModel}  # (a LinearModel's
# JSON names no kind)


_FILES = {"lightgbm": "txt", "matrix": "npy"}  # the file beside the JSON that holds the model itself


def load_model(name: str, directory: Path = LEARNED_DIR) -> "LinearModel | TreeModel | BlendedModel | MatrixModel | None":
    """The trained model of that name, whichever kind it is (its JSON read once); None when none has been trained."""
    meta = _meta(name, directory)
    if meta is None:
        return None
    if meta.get("kind") in _FILES and not (directory / f"{name}.{_FILES[meta['kind']]}").exists():
        return None
    kind = _KINDS.get(meta.get("kind"))
    if kind is None:
        raise ValueError(f"{directory / name}.json is a model of an unknown kind: {meta.get('kind')!r}")
    return kind.from_meta(meta, directory)
