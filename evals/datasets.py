"""Golden questions: load `evals/datasets/<name>.yaml` (or its parts) and check every item.

A dataset is a YAML list of items (format: docs/writing-the-corpus.md, "Golden questions"). While the
maintainer has not merged a dataset yet, it is read as the concatenation of
`evals/datasets/parts/<name>-*.yaml`, in file-name order.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .errors import EvalError

DATASETS_DIR = Path(__file__).parent / "datasets"
DATASET_NAMES = ("articles", "concepts", "numeric", "adversarial", "readers", "numeric_readers")
SPLITS = ("dev", "test")
STYLES = ("short", "vague", "typo", "lowercase", "pronoun", "vs", "two_part", "one_line", "long",
          # numeric phrasings
          "template", "units", "word_numbers", "label_order", "topology", "intent", "alias", "ambiguous",
          "training", "quantity_of_model", "collective_new", "non_nvidia")
ROUTES = ("retrieval", "calculator", "no_answer")
SCOPES = ("article", "site")
_ANCHOR = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*#[^\s#]+$")
_ARTICLE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_FIELDS = {"id", "article", "question", "route", "scope", "reference", "anchors", "key_facts", "expected", "explain",
           "note", "kind", "style", "split"}


class DatasetError(EvalError):
    """A golden dataset is missing or malformed; `problems` lists every `file: id: message`."""

    def __init__(self, message: str, problems: list[str] | None = None):
        super().__init__(message if not problems else message + ":\n  " + "\n  ".join(problems))
        self.problems = problems or []


@dataclass(frozen=True)
class Item:
    id: str
    dataset: str
    question: str
    route: str
    article: str | None = None
    scope: str | None = None
    reference: str | None = None
    anchors: tuple[str, ...] = ()
    key_facts: tuple[str, ...] = ()
    expected: dict = field(default_factory=dict)
    explain: bool = False
    kind: str | None = None  # adversarial items: injection | off_topic | near_miss | long | odd | must_not_route | …
    style: tuple[str, ...] = ()  # what makes it reader-like (STYLES)
    split: str | None = None  # dev | test, assigned once (python -m evals split); None = not split

    @property
    def answerable(self) -> bool:
        return self.route != "no_answer"


def dataset_files(name: str, root: Path = DATASETS_DIR) -> list[Path]:
    """The merged file if it exists, else the parts, else nothing."""
    merged = root / f"{name}.yaml"
    if merged.exists():
        return [merged]
    return sorted((root / "parts").glob(f"{name}-*.yaml"))


def available(root: Path = DATASETS_DIR) -> list[str]:
    return [name for name in DATASET_NAMES if dataset_files(name, root)]


def load(names: list[str] | tuple[str, ...] | None = None, root: Path = DATASETS_DIR) -> list[Item]:
    """All items of the named datasets (default: every dataset that exists), checked; ids unique across them."""
    names = list(names or available(root))
    items: list[Item] = []
    problems: list[str] = []
    for name in names:
        files = dataset_files(name, root)
        if not files:
            raise DatasetError(f"no dataset '{name}': neither {root / (name + '.yaml')} nor {root}/parts/{name}-*.yaml")
        for path in files:
            raw = yaml.safe_load(path.read_text(encoding="utf-8")) or []
            if not isinstance(raw, list):
                problems.append(f"{path.name}: a dataset is a YAML list of items")
                continue
            for position, entry in enumerate(raw):
                item, errors = _item(entry, name)
                where = f"{path.name}: {entry.get('id', f'item {position + 1}') if isinstance(entry, dict) else f'item {position + 1}'}"
                problems += [f"{where}: {e}" for e in errors]
                if item is not None:
                    items.append(item)
    seen: dict[str, str] = {}
    for item in items:
        if item.id in seen:
            problems.append(f"{item.dataset}: {item.id}: duplicate id (also in {seen[item.id]})")
        seen[item.id] = item.dataset
    if problems:
        raise DatasetError(f"{len(problems)} problem(s) in the golden datasets", problems)
    return items


def _item(entry, dataset: str) -> tuple[Item | None, list[str]]:
    if not isinstance(entry, dict):
        return None, ["an item is a mapping"]
    errors = [f"unknown field '{k}'" for k in entry if k not in _FIELDS]
    for key in ("id", "question", "route"):
        if not isinstance(entry.get(key), str) or not entry[key].strip():
            errors.append(f"'{key}' is required and must be a non-empty string")
    route = entry.get("route")
    if isinstance(route, str) and route not in ROUTES:
        errors.append(f"route '{route}' is not one of {', '.join(ROUTES)}")
    article = entry.get("article")
    if article is not None and (not isinstance(article, str) or not _ARTICLE.match(article)):
        errors.append(f"article '{article}' is not an article id")
    scope = entry.get("scope")
    if scope is not None and scope not in SCOPES:
        errors.append(f"scope '{scope}' is not one of {', '.join(SCOPES)}")
    anchors = entry.get("anchors") or []
    if not isinstance(anchors, list) or not all(isinstance(a, str) and _ANCHOR.match(a) for a in anchors):
        errors.append("anchors must be a list of 'doc_id#anchor'")
        anchors = []
    facts = entry.get("key_facts") or []
    if not isinstance(facts, list) or not all(isinstance(f, (str, int, float)) for f in facts):
        errors.append("key_facts must be a list of strings")
        facts = []
    expected = entry.get("expected") or {}
    if not isinstance(expected, dict):
        errors.append("expected must be a mapping")
        expected = {}
    elif expected and not (expected.get("unknown_model") or expected.get("unknown_gpu")):
        missing = [k for k in ("calculator", "quantity", "value") if k not in expected]
        if missing:
            errors.append(f"expected lacks {', '.join(missing)}")
    if route == "retrieval" and dataset in ("articles", "concepts", "readers") and not anchors:
        errors.append("a retrieval item needs anchors")
    style = entry.get("style") or []
    if not isinstance(style, list) or not all(isinstance(x, str) and x in STYLES for x in style):
        errors.append(f"style must be a list of: {', '.join(STYLES)}")
        style = []
    if entry.get("split") is not None and entry.get("split") not in SPLITS:
        errors.append(f"split '{entry.get('split')}' is not one of {', '.join(SPLITS)}")
    if errors:
        return None, errors
    return Item(
        id=entry["id"].strip(), dataset=dataset, question=entry["question"], route=route, article=article, scope=scope,
        reference=(entry.get("reference") or None), anchors=tuple(anchors), key_facts=tuple(str(f) for f in facts),
        expected=dict(expected), explain=bool(entry.get("explain", False)), kind=entry.get("kind"),
        style=tuple(style), split=entry.get("split"),
    ), []
