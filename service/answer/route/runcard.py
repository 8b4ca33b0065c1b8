"""A training run's tokens as run cards and papers give them → the total the training calculator reads.

"global batch 4M tokens for 30k steps" (1.2e11 tokens), "global batch 1,536 sequences × 2,048 tokens, 150k steps",
"seq len 4k, global batch 512 seqs, 200k steps", "60k steps of 4M tokens", "4096 seq × 1024 batch × 250,000 steps",
"3 epochs of a 1T-token corpus" (3T tokens), "400 million documents of around 2,000 tokens each". Read as typed, the
router bound the batch or one epoch as the run's tokens and computed with confidence. Each rewrite states the
total in tokens; a question that gives the total itself is left as it is. A pasted launcher's settings give the
same product (`with_run_settings_as_tokens`): "--train-iters 50000 --global-batch-size 1024 --seq-length 4096",
"--train-samples 244140625 --seq-length 4096", "num_train_epochs: 3 … dataset is about 2B tokens", maxtext's
"per_device_batch_size: 4 … steps: 20000" on "256 chips".
"""
from __future__ import annotations

import math
import re

_NUM = r"(\d[\d,]*(?:\.\d+)?)\s*([kmbt]?)"
_SCALE = {"": 1.0, "k": 1e3, "m": 1e6, "b": 1e9, "t": 1e12}
_EPOCHS = re.compile(rf"\b{_NUM}\s+epochs?\s+(?:of|over|on)\s+(?:an?\s+|the\s+|our\s+)?{_NUM}[- ]?tokens?"
                     r"(?:\s+(?:corpus|dataset|set|mix))?", re.I)
_BATCH_TOKENS = re.compile(rf"\bglobal batch(?: size)?(?: of)?\s+{_NUM}\s*tokens?(?: per step)?,?\s+(?:for\s+)?{_NUM}\s+steps",
                           re.I)
_BATCH_SEQS = re.compile(rf"(?:\bglobal batch(?: size)?(?: of)?\s+|(?<![\w.,]))(?<!seq )(?<!seq len ){_NUM}\s*"
                         rf"(?:seqs|sequences|samples)?\s*(?:x|×|of)\s*{_NUM}\s*(?:tokens?|tok)(?: each)?(?: per step)?,?\s+"
                         rf"(?:for\s+)?{_NUM}\s+steps", re.I)
_SEQ_THEN_BATCH = re.compile(rf"\bseq(?:uence)?(?: len(?:gth)?)?\s+{_NUM},?\s+global batch(?: size)?(?: of)?\s+{_NUM}\s*"
                             rf"(?:seqs|sequences|samples)?,?\s+(?:for\s+)?{_NUM}\s+steps", re.I)


# "60,000 steps × 4,000,000 tokens", "60k steps of 4M tokens each", "4M tokens per step for 60k steps", "4096 seq ×
# 1024 batch × 250,000 steps"
_STEPS_OF_TOKENS = re.compile(rf"(?<![\w.,]){_NUM}\s+steps?\s*(?:of|×|x|\*|at)\s*{_NUM}\s*tokens?"
                              r"(?:\s+(?:each|per step|a step))?", re.I)
_TOKENS_PER_STEP = re.compile(rf"(?<![\w.,]){_NUM}\s*tokens?\s+(?:per|a|each)\s+step,?\s+(?:for\s+|×\s*|x\s*)?{_NUM}\s+steps",
                              re.I)
_SEQ_BATCH_STEPS = re.compile(rf"(?<![\w.,]){_NUM}\s*(?:seq(?:uence)?(?:\s+len(?:gth)?)?|tokens?)\s*(?:x|×|\*)\s*{_NUM}\s*"
                              rf"(?:batch|seqs|sequences)\s*(?:x|×|\*)\s*{_NUM}\s*steps", re.I)


# "gbs 2048 x seqlen 8192 x 20k steps", "gbs 1024 seqs x seqlen 4096, 250k steps"
_GBS_SEQLEN_STEPS = re.compile(rf"\b(?:gbs|global batch(?: size)?)\s*(?:of\s+)?{_NUM}\s*(?:seqs|sequences|samples)?\s*"
                               rf"(?:x|×|\*)\s*(?:seq(?:uence)?[\s_]?len(?:gth)?|seqlen|ctx|seq)?\s*{_NUM}\s*(?:tokens?)?\s*"
                               rf"(?:x|×|\*|,)\s*(?:for\s+)?{_NUM}\s*steps", re.I)
# "gbs 1024 mbs 2 ga 8": the data-parallel ranks the global batch needs, given the micro-batch and accumulation
_GBS_MBS_GA = re.compile(rf"\bgbs\s*{_NUM}\s*,?\s*mbs\s*{_NUM}\s*,?\s*(?:ga|grad(?:ient)?[\s_]accum(?:ulation)?(?:[\s_]steps)?)"
                         rf"\s*{_NUM}", re.I)


# a corpus counted in documents of a size: "400 million documents of around 2,000 tokens each", "50k books of about
# 100,000 tokens each" (a thousand or more of them: a few documents of a size are a prompt's pieces, parts.py)
_DOCUMENTS = re.compile(rf"(?<![\w.,]){_NUM}\s*(?P<word>million|billion|thousand)?\s+(?:documents|docs|books|examples|"
                        r"samples|files|papers|articles|web\s+pages|pages|conversations|dialogues|transcripts|sequences)\s+"
                        rf"(?:of|at|with)\s+(?:about\s+|around\s+|roughly\s+|~\s*)?{_NUM}[- ]?tokens?(?:\s+each)?", re.I)
_WORD_SCALE = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
# each said after the count: "250,000 samples, each context 1250 tokens" (a sample's parts summed: parts.py),
# "400,000 tool-use dialogues, each 2,500 tokens"
_DOCUMENTS_EACH = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)()\s*(?P<word>million|billion|thousand)?\s+"
                             r"(?:[a-z][\w-]*\s+)?(?:documents|docs|"
                             r"examples|samples|conversations|dialogues|chats|transcripts|sequences)(?:\s*\([^()]{0,20}\))?"
                             r"(?:\s*(?:x|×)\s*(?P<epochs>\d+)\s+epochs?)?,?\s+"  # ("400,000 dialogues x 2 epochs, each …")
                             rf"each\s+(?:context\s+|a\s+|sample\s+)?{_NUM}[- ]?tokens?", re.I)
# the epochs after the tokens of one: "312500000 tokens, 2 epochs", "… tokens x 3 epochs"
_TOKENS_THEN_EPOCHS = re.compile(rf"(?<![\w.,])(\d+) tokens,?\s+(?:(?:x|×|\*|for)\s*)?{_NUM}\s+epochs?\b", re.I)


def _documents(m: re.Match, epochs: float = 1.0) -> str:
    count = _value(*m.group(1, 2)) * _WORD_SCALE.get((m.group("word") or "").lower(), 1.0)
    size = m.group(m.re.groups - 1, m.re.groups)  # (a document's size is the pattern's last figure)
    return _tokens(count * _value(*size) * epochs) if count >= 1000 else m.group(0)


def _data_parallel(m: re.Match) -> str:
    gbs, mbs, ga = _value(*m.group(1, 2)), _value(*m.group(3, 4)), _value(*m.group(5, 6))
    dp = gbs / (mbs * ga)
    return f"micro batch {mbs:g}, dp {dp:g}" if dp.is_integer() else m.group(0)


def _value(number: str, scale: str, k_is_1024: bool = False) -> float:
    base = 1024.0 if k_is_1024 and scale.lower() == "k" else _SCALE[scale.lower()]
    return float(number.replace(",", "")) * base


def _tokens(total: float) -> str:
    return f"{round(total)} tokens"


def _two_factors(m: re.Match) -> str:
    """"3 epochs of 1T tokens", "4M tokens for 30k steps", "60k steps at 4M tokens": the product, in tokens."""
    return _tokens(_value(*m.group(1, 2)) * _value(*m.group(3, 4)))


def _three_factors(seq: int):
    """The product of a match's three figures, in tokens, its `seq`-th (0, 1 or 2) a sequence length whose "k" is
    1,024: "gbs 2048 x seqlen 8k x 20k steps", "4096 seq × 1024 batch × 250,000 steps"."""
    return lambda m: _tokens(math.prod(_value(*m.group(2 * i + 1, 2 * i + 2), i == seq) for i in range(3)))


# a run in labelled stages whose tokens are asked over all of them: "stage 1: 8T tokens at seq 4096; stage 2: 1.5T at
# seq 8192; stage 3 (anneal): 0.5T. total compute … over all stages?"
_STAGE_LABEL = re.compile(r"\b(?:stage|phase)\s*\d+\s*(?:\([^)]*\))?\s*:\s*", re.I)
_STAGE_TOKENS = re.compile(r"(?<![\w.,])(\d[\d,]*(?:\.\d+)?)\s*([kmbt]?)\b(?:[- ]?tokens?)?", re.I)
_OVER_THE_STAGES = re.compile(r"\s*\b(?:over|across|for|in)\s+(?:all\s+(?:the\s+)?(?:\w+\s+)?|both\s+)(?:stages|phases)\b", re.I)


def _stages_summed(text: str) -> str:
    """The text with its labelled stages' tokens said as one total, when it asks over all of them; as typed when a
    stage gives no tokens."""
    labels = list(_STAGE_LABEL.finditer(text))
    if len(labels) < 2 or not _OVER_THE_STAGES.search(text):
        return text
    ends = [m.start() for m in labels[1:]] + [len(text)]
    figures = []
    for label, end in zip(labels, ends):
        segment = re.split(r"[.;?](?:\s|$)", text[label.end():end])[0]
        m = _STAGE_TOKENS.search(segment)
        if m is None or (not m.group(2) and "token" not in m.group(0).lower()):
            return text  # a stage without its tokens: left as typed
        figures.append((label.end() + m.start(), label.end() + m.end(), _value(*m.group(1, 2))))
    total = sum(v for _, _, v in figures)
    last = figures[-1][1]
    return text[:labels[0].start()] + _tokens(total) + text[last:] if total else text


def with_run_tokens(text: str) -> str:
    """The question with its run's tokens said as one total."""
    text = _GBS_MBS_GA.sub(_data_parallel, text)
    text = _GBS_SEQLEN_STEPS.sub(_three_factors(seq=1), text)
    text = _DOCUMENTS.sub(_documents, text)
    text = _DOCUMENTS_EACH.sub(lambda m: _documents(m, epochs=float(m.group("epochs") or 1)), text)
    text = _TOKENS_THEN_EPOCHS.sub(lambda m: _tokens(float(m.group(1)) * _value(*m.group(2, 3))), text)
    text = _EPOCHS.sub(_two_factors, text)
    text = _BATCH_TOKENS.sub(_two_factors, text)
    text = _BATCH_SEQS.sub(_three_factors(seq=1), text)
    text = _STEPS_OF_TOKENS.sub(_two_factors, text)
    text = _TOKENS_PER_STEP.sub(_two_factors, text)
    text = _SEQ_BATCH_STEPS.sub(_three_factors(seq=0), text)
    text = _SEQ_THEN_BATCH.sub(_three_factors(seq=0), text)
    summed = _stages_summed(text)
    return _OVER_THE_STAGES.sub("", summed) if summed != text else text


# a launcher's or a config's settings, in any order and any of the forms they are pasted in: "--train-iters 50000",
# '"train_iters": 1000', "steps: 20000", "max_steps=5000"
def _setting(*keys: str) -> re.Pattern:
    names = "|".join(k.replace("_", "[-_]") for k in keys)
    return re.compile(rf"(?<![\w-])(?:--)?[\"']?(?:{names})[\"']?\s*[:=]?\s*[\"']?{_NUM}\b[\"']?,?", re.I)


_STEPS = _setting("train_iters", "train_steps", "max_steps", "num_train_steps", "total_steps", "steps", "iterations")
_GLOBAL_BATCH = _setting("global_batch_size", "train_batch_size", "gbs")
_SEQ_LENGTH = _setting("seq_length", "seq_len", "max_seq_length", "max_seq_len", "sequence_length", "sequence_len",
                       "max_target_length", "cutoff_len", "seqlen")
_SAMPLES = _setting("train_samples", "num_samples")
_PER_DEVICE_BATCH = _setting("per_device_batch_size", "per_device_train_batch_size")
_DEVICES = re.compile(rf"(?<![\w.,-]){_NUM}\s+(?:chips|gpus|devices|accelerators)\b", re.I)
_EPOCH_COUNT = _setting("num_train_epochs", "num_epochs", "epochs")
_DATASET_TOKENS = re.compile(rf"\b(?:dataset|corpus|data|data\s*set)\b[^.;?\n]{{0,24}}?(?<![\w.,]){_NUM}[- ]?tokens?\b|"
                             rf"(?<![\w.,]){_NUM}[- ]?tokens?\s+(?:dataset|corpus|of\s+data)\b", re.I)
# what the settings are read for: the run's length, compute or cost (a memory question keeps its sequence length)
_RUN_ASKED = re.compile(r"\b(?:days?|dyas|hours?|weeks?|how long|wall[- ]?clock|time|flops?|gpu[- ]?hours|"
                        r"gpus? (?:do|would|will) (?:we|i) need|how many (?:gpus|chips|cards))\b", re.I)


def with_run_settings_as_tokens(text: str) -> str:
    """The question with a pasted launcher's steps × global batch × sequence length (or samples × sequence length,
    or epochs × the dataset's tokens) said as the run's tokens, when the run's length, compute or cost is asked."""
    if not _RUN_ASKED.search(text):
        return text
    steps, batch, seq, samples = (p.search(text) for p in (_STEPS, _GLOBAL_BATCH, _SEQ_LENGTH, _SAMPLES))
    per_device, devices = _PER_DEVICE_BATCH.search(text), _DEVICES.search(text)
    if steps and batch and seq:
        factors = (steps, batch, seq)
    elif steps and per_device and devices and seq:  # maxtext: the global batch is per device × devices
        factors = (steps, per_device, devices, seq)
    elif samples and seq:
        factors = (samples, seq)
    else:
        epochs, dataset = _EPOCH_COUNT.search(text), _DATASET_TOKENS.search(text)
        if not (epochs and dataset):
            return text
        figure = dataset.group(1, 2) if dataset.group(1) else dataset.group(3, 4)
        total = _value(*epochs.group(1, 2)) * _value(*figure)
        return _replaced(text, [epochs], dataset, f"a run of {round(total)} tokens")
    total = math.prod(_value(*m.group(1, 2), k_is_1024=m.re is _SEQ_LENGTH) for m in factors)
    dropped = [m for m in factors[1:] if m is not devices]  # (the devices are the run's GPUs too)
    return _replaced(text, dropped, factors[0], f"a run of {round(total)} tokens,")


def _replaced(text: str, dropped: list[re.Match], kept: re.Match, words: str) -> str:
    """The text with `kept`'s span said as `words` and the `dropped` settings taken out."""
    spans = sorted([(m.start(), m.end(), "") for m in dropped] + [(kept.start(), kept.end(), f" {words} ")], reverse=True)
    for start, end, said in spans:
        text = text[:start] + said + text[end:]
    return text
