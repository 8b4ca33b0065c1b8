"""`python -m evals split DATASET [--seed N]`: give every item of a dataset a `split: dev | test`, once.

Items are grouped by (article, route) and each group is shuffled with the seed and dealt alternately,
so both halves see every article and the refusals in equal measure. Items that already have a split
keep it: re-running never moves a question from one half to the other, and new questions added later
are dealt the same way. The field is written into the YAML text next to the item's id, so comments
and formatting stay as they are. Rules, thresholds and trained models are tuned on `dev`; `test` is
what the report quotes.
"""
from __future__ import annotations

import random
import re
from collections import defaultdict
from pathlib import Path

import yaml

from .datasets import DATASETS_DIR, SPLITS, dataset_files
from .errors import EvalError

DEFAULT_SEED = 20261201
_ID_LINE = re.compile(r"(?m)^(- id: *)([^\s#]+)(.*)$")


def deal(items: list[dict], seed: int = DEFAULT_SEED) -> dict[str, str]:
    """id → split for the items without one, stratified by (article, route)."""
    groups: dict[tuple, list[str]] = defaultdict(list)
    for item in items:
        if item.get("split") is None:
            groups[(str(item.get("article")), item.get("route"))].append(item["id"])
    rng = random.Random(seed)
    out = {}
    for key in sorted(groups):
        ids = sorted(groups[key])
        rng.shuffle(ids)
        offset = rng.randrange(2)  # a group of odd size gives its extra item to either half
        out.update({item_id: SPLITS[(i + offset) % 2] for i, item_id in enumerate(ids)})
    return out


def split_file(path: Path, seed: int = DEFAULT_SEED) -> int:
    """Write `split:` for the items of one file that lack it; returns how many were assigned."""
    text = path.read_text(encoding="utf-8")
    items = yaml.safe_load(text) or []
    assigned = deal(items, seed)
    if not assigned:
        return 0

    def add(match: re.Match) -> str:
        split = assigned.get(match.group(2))
        return match.group(0) + (f"\n  split: {split}" if split else "")

    new_text, found = _ID_LINE.subn(add, text)
    if found != len(items):
        raise EvalError(f"{path}: every item must start with '- id: …' on its own line to be split in place")
    path.write_text(new_text, encoding="utf-8")
    return len(assigned)


def main(name: str, seed: int = DEFAULT_SEED, root: Path = DATASETS_DIR) -> int:
    files = dataset_files(name, root)
    if not files:
        raise EvalError(f"no dataset '{name}' under {root}")
    total = sum(split_file(path, seed) for path in files)
    print(f"{name}: {total} item(s) given a split (seed {seed}); items that had one kept it")
    return 0
