"""Free-text routing of numeric questions to the calculators (DESIGN §5 step 1, §9).

`route_numeric(question, previous)` reads a question in three steps:

1. tagger.py tags its spans (models, GPUs, links, precisions, collectives, ZeRO stages, figures with
   their units and nouns, and the cue words that say what is asked);
2. slots.py binds every figure to a role (by its type, and by the label nearest to it);
3. this module decides whether the question asks for a number at all, which calculator computes it and
   which of its quantities is the answer, and maps the slots onto that calculator's inputs.

It returns a `NumericRequest` whose `assumed` lists, in words, every reading the answer rests on: how a
name or a figure was read ("“lamma 3 70b” read as Llama 3 70B", "“32k” read as 32,768 tokens"), the
figures nothing used, and the defaults the calculator filled. A model or GPU the registries do not know
is an `UnknownModel` / `UnknownGpu` (answered "I don't know that …; closest: …"), never a default. A
question that is not a calculation — conceptual ("why is decode memory-bound on an H100?"), about a
quantity no calculator computes (cost, LoRA, checkpoint frequency), or a yes/no question that is not a
fit check — returns None and goes to retrieval.
"""

from __future__ import annotations

import dataclasses

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from pydantic import ValidationError

from calculators import INPUT_MODELS, validate
from calculators.registry import closest_gpus, closest_models, find_gpu, find_link, find_model
from calculators.units import fmt_bandwidth, fmt_bytes, fmt_int, fmt_num

from ..models import Turn
from .followup import opens_as_followup, user_questions
from .slots import Slots, bind, is_kv_precision
from .config import pasted_config, without_restated_architecture
from .asides import without_set_aside
from .background import without_background, without_prefill_rate, carried_from_last_run
from .chat import as_plain, quoted_and_asked
from .typography import as_plain_characters
from .links import as_link_names
from .bot_commands import as_said
from .run_names import as_fields_said
from .metrics_pasted import as_metrics_said
from .corrections import corrected
from .inline_corrections import as_corrected_inline
from .negations import without_negated
from ..asked_unit import asks_a_time
from .one_node import as_gpus_in_use, replica_gpus
from .business import as_workload
from .instances import as_gpus
from .hierarchy import as_nodes
from .calendar_words import as_days
from .choice import as_one_option
from .focus import as_one_subject
from .parts import as_context_summed
from .ranges import as_one_value
from .fleet import as_fleet_batch
from .totals import as_counts
from .rates import as_decode_rate
from .nccl_figures import as_nccl_figures
from .derating import as_efficiency
from .blocks import as_block_tokens
from .arithmetic import as_worked_out
from .described import as_named, closest_to_unlisted
from .scanned import as_read_from_scan
from .model_descriptions import as_model_names
from .relative import SHARE_WORDS, has_relative_amount, share_of, with_relative_amounts
from .check import without_claimed_results, without_observed_results
from .known import without_known_results, without_reference_parts
from .homework import as_one_part
from .article_example import without_the_articles_example
from .requirements import as_required
from .artifacts import without_paste_artifacts
from .printed_python import as_values_named
from .latex import as_plain_math
from .compact_specs import as_spelled_spec
from .env_settings import as_settings_said
from .issue_template import as_issue_question
from .transcript import turns, without_answer
from .long_message import is_long, read as read_long, sentences
from .two_asks import calculation_half, first_question
from .tagger import BYTE_WORDS, COUNT_NOUNS, Reading, Tag, tag
from .whatif import read_what_if


@dataclass
class NumericRequest:
    calculator: str
    inputs: dict[str, Any]
    assumed: list[str] = field(default_factory=list)
    explain: bool = False
    # the inputs as the calculator validated them while routing: calculating from them skips a second validation
    validated: Any = field(default=None, repr=False, compare=False)


@dataclass
class UnknownName:
    """A model or part the registries do not know: answered as such, never replaced by a default."""

    name: str
    closest: list[str]
    what = "name"

    @property
    def message(self) -> str:
        return f"I don't know that {self.what}; closest: {', '.join(self.closest)}"


class UnknownModel(UnknownName):
    what = "model"


class UnknownGpu(UnknownName):
    what = "GPU"


class UnknownPrecision(UnknownName):
    """A bit width no calculator holds ("Q5_K_M", "6-bit"), where the calculation needs that precision."""

    what = "precision"

    @property
    def message(self) -> str:
        return f"I don't know that precision ({self.name}); closest: {', '.join(self.closest)}"

    @classmethod
    def of(cls, tag: Tag) -> "UnknownPrecision":
        bits = int(tag.key)
        if tag.text.lower().startswith("fp"):
            return cls(tag.text, ["nvfp4", "fp8"])
        return cls(tag.text, ["int4"] if bits < 4 else ["int4", "int8"])


# --- does the question ask for a number? -------------------------------------------------------------------

_CONCEPTUAL = ("why", "how_does", "explain", "what_does", "who", "which", "should", "vs", "difference", "mean",
               "where", "judgement")
_REQUEST = ("how_much", "how_many", "how_long", "how_fast", "how_big", "compute")
_AUXILIARIES = {"is", "are", "does", "do", "did", "can", "could", "will", "would", "was", "were", "has", "have",
                "should", "shall", "may", "might", "must"}
_FIT = ("fit", "run", "enough", "left")


_OPENERS = ("who", "which", "where", "should")  # conceptual only where the question starts with them


def _is_conceptual(r: Reading) -> bool:
    where_is_a_figure = r.has("ridge")  # "where's the ridge for …" asks for the ridge point
    return any(t.key in _CONCEPTUAL and (t.key not in _OPENERS or t.start <= 1 or _a_choice_asked(r, t))
               and not (t.key == "where" and where_is_a_figure)
               and not (t.key == "vs" and (_between_figures(r, t) or _to_compare_against(r, t)))
               and not (t.key == "what_does" and (_in_a_unit(r, t) or r.has("check") or _adds_an_amount(r, t)
                                                   or _a_model_says(r, t)))
               and not (t.key == "how_does" and r.words[t.end:t.end + 2] in (["it", "look"], ["that", "look"],
                                                                            ["this", "look"]))  # the figure, on a page
               and not (t.key == "how_does" and _does_with_a_figure(r, t))
               for t in r.of("CUE"))


def _a_choice_asked(r: Reading, cue: Tag) -> bool:
    """"gpt-oss-120b ships mxfp4 (4.25 bits), should we requant to fp8 … or serve it as released": advice between two
    courses, asked in a clause of its own after the setup."""
    return (cue.key == "should" and r.words[cue.start - 1] in (",", ".", ";", "?", "-", "—", ":")
            and r.words[cue.end:cue.end + 1] in (["we"], ["i"], ["you"]) and "or" in r.words[cue.end:])


def _to_compare_against(r: Reading, cue: Tag) -> bool:
    """"what's the rated hbm bandwidth to compare it with?": the figure is asked, to set beside a measured one."""
    rest = r.words[cue.end:]
    clause = rest[:next((k for k, w in enumerate(rest) if w in ("?", ".", "!", ";")), len(rest))]
    return (r.words[cue.start - 1:cue.end] == ["to", "compare"] and bool(clause)
            and set(clause) <= {"it", "that", "this", "mine", "ours", "with", "against", "to"})  # nothing else named


def _does_with_a_figure(r: Reading, cue: Tag) -> bool:
    """"how do 8 mi300x on infinity fabric do with 512 MB": how a setup does with a given amount, a time asked."""
    rest = r.words[cue.end:]
    return any(rest[k:k + 2] in (["do", "with"], ["does", "with"]) for k in range(len(rest))) and bool(
        r.of("QUANTITY")) and bool(r.of("GPU") or r.of("LINK"))


def _a_model_says(r: Reading, cue: Tag) -> bool:
    """"what does the roofline say is attainable", "what does the formula give", "what does … come to": a figure."""
    after = set(r.words[cue.end:cue.end + 4])
    if after & {"say", "give", "predict", "allow", "allows"} and after & {"roofline", "formula", "math", "calculator"}:
        return True
    rest = r.words[cue.end:cue.end + 16]  # "what does one full training checkpoint of X come to": its size
    return any(rest[k:k + 2] == ["come", "to"] or rest[k:k + 3] == ["add", "up", "to"] for k in range(len(rest)))


def _clause_before(r: Reading, start: int, most: int) -> list[str]:
    """Up to `most` words before `start`, back to the last punctuation."""
    words = r.words[max(start - most, 0):start]
    stops = [i for i, w in enumerate(words) if w in (",", ".", ";", ":", "?", "!", "-", "(", ")")]
    return words[stops[-1] + 1:] if stops else words


def _adds_an_amount(r: Reading, what_does: Tag) -> bool:
    """"what does each token past the window add?", "what does one request reserve?": an amount, asked as a verb."""
    words = [w for w in r.words[what_does.end:] if w not in ("?", ".", "!")]
    adds_to = any(w in ("add", "adds") and words[k + 1:k + 2] == ["to"] for k, w in enumerate(words))  # "… add to the kv"
    return bool(words) and (adds_to or words[-1] in ("add", "adds", "cost", "reserve", "take", "need", "use", "occupy",
                                                     "weigh"))


_UNIT_WORDS = {"tok", "toks", "tokens", "ms", "seconds", "s", "gb", "gib", "mb", "tb", "bytes", "flops", "tflops"}


def _in_a_unit(r: Reading, cue: Tag) -> bool:
    """'what does each user see in tok/s?': a unit asked for after "what does" makes it a figure; so does a
    level asked for ("what does the roofline cap it at?", "what does that come out to?")."""
    after = r.words[cue.end:cue.end + 7]
    level = any(w in ("at", "to") and after[i + 1:i + 2] == ["?"] for i, w in enumerate(after))
    # "what does the 120b one need in kv?": an amount it needs, with the figures it needs it for
    level = level or bool({"need", "needs", "take", "takes", "use", "uses"} & set(after) and r.of("COUNT"))
    return level or any(w == "in" and after[i + 1:i + 2] and after[i + 1] in _UNIT_WORDS for i, w in enumerate(after))


def _between_figures(r: Reading, cue: Tag) -> bool:
    """"864 GB/s vs 362 TFLOPS": two figures set side by side, not two things compared (a unit the tagger does
    not read may stand between the first and the "vs": "1835 TFLOPS vs 3.7 TB/s")."""
    figures = r.of("QUANTITY") + r.of("NUMBER")
    return (any(cue.start - 1 <= f.end <= cue.start for f in figures)
            and any(f.start == cue.end for f in figures))


def _asks_for_a_number(r: Reading, s: Slots) -> bool:
    # (a "did" in a sentence that asks nothing is the setup: "deepseek did v3 on 2048 h800s. same tokens on …, days?")
    did = [Tag("CUE", "did", i, i + 1, w) for i, w in enumerate(r.words) if w == "did"]
    history = (any(not _in_a_sentence_asking_nothing(r, t) for t in did)
               and not (r.has("how_long") and r.of("COLLECTIVE"))  # not "how long did each op take"
               and not r.has("check"))  # nor "I got 28 GiB — did I double count?"
    # "was trained on 15.6 trillion tokens; with 6ND, how many FLOPs": the figures are given, the sum is asked
    # (a "was" before the training word: "how many gpus was llama 3 405b trained on"; not one after it, "fp8 training
    # of … mfu measured … was 28%. time?", which asks this run's time)
    trained = (any({"was", "were"} & set(r.words[:c.start]) for c in r.of("CUE", "train"))
               and not (r.has("flops") and _training_tokens(s)))
    pasted = isinstance(s.values.get("model"), dict)  # "hidden size", "vocab size" are then the config's fields
    outside = [c for c in r.of("CUE", "outside") if not (pasted and c.text.lower() in _CONFIG_WORDS)]
    if any(not _asked_in_passing(r, c) for c in outside) or history or trained:
        return False  # a quantity no calculator computes; "what did Llama 3 use?" is history, not a calculation
    if len({*s.other_names}) or (s.unknown_model and re.search(r"\d", s.unknown_model) and "model" in s.values
                                 and not _restates(s.unknown_model, s.values["model"])):
        return False  # two models or parts named: a comparison, not one calculation
    if any(t.end == c.start and not _a_target(r, t) for c in r.of("CUE", "tokens_per_s") for t in s.loose):
        return False  # "logs 900 tokens per second … what is its MFU?": the rate is given, not asked (not "h100x2 tok/s")
    if _is_conceptual(r) and not r.has(*_REQUEST) or r.has("no_figure"):
        return False
    first = next((w for w in r.words if w.isalpha()), "")
    imperative = r.words[:2] in (["do", "it"], ["do", "this"], ["do", "that"])  # "do it two-level: …"
    supposed = first in ("were", "was") and "to" in r.words[2:4]  # "were we to broadcast …, how long would it take?"
    if first in _AUXILIARIES and not r.has(*_FIT, "check") and not imperative and not supposed:
        return False  # "did temperature affect…?", "is an H20 good for training?" (not "is it really only 37?")
    return True


_ASKING = ("compute", "how_much", "how_many", "how_long", "how_big", "what_is", "question_mark")


_TARGET_WORDS = {"target", "sla", "slo", "promised", "promise", "goal", "want", "need", "require", "requires",
                 "required", "requirement", "budget", "aim"}


def _a_target(r: Reading, figure: Tag) -> bool:
    """"SLA target is 25 tok/s per user", "we promised 30 tok/s": a rate to meet, so the rate is what is asked."""
    return bool(_TARGET_WORDS & set(r.words[max(figure.start - 4, 0):figure.start]))


def _scopes_a_figure(r: Reading, cue: Tag) -> bool:
    """'16k tokens of context per sequence', '4096 tokens each': the cue says whose figure the one before it is."""
    return any(0 <= cue.start - t.end <= 3 for t in r.of("QUANTITY") + r.of("CUE", "context"))


def _in_the_setup(r: Reading, cue: Tag) -> bool:
    """The cue is in a sentence before the last, and the last asks for a figure: a problem's setup, then
    "Compute …" / "Determine …" / "how much …?"."""
    ends = [i for i in _sentence_ends(r) if i < len(r.words) - 1 and r.words[i] != "?"]
    asked_from = ends[-1] + 1 if ends else 0  # where the last sentence starts
    return cue.start < asked_from and any(t.start >= asked_from and t.key in _ASKING for t in r.of("CUE"))


def _sentence_ends(r: Reading) -> list[int]:
    """Where the question's sentences end: a stop, "!", ";", "?", "etc." or a pasted sheet's line break."""
    return [i for i, w in enumerate(r.words)
            if w in (".", "!", ";", "?") or (len(w) > 1 and w.endswith(".")) or "\n" in w]


def _after_the_question(r: Reading, cue: Tag) -> bool:
    """The cue comes after a sentence ending in "?"."""
    return any(w == "?" for w in r.words[:cue.start])


def _in_a_sentence_asking_nothing(r: Reading, cue: Tag, asides: bool = False) -> bool:
    """The cue's sentence has no asking word, and another sentence of the question has one; with `asides`, an
    aside in brackets counts as a sentence ("tok/s on a 4090 (bought mine in 2023 for $1600 lol)")."""
    ends = _sentence_ends(r) + ([i for i, w in enumerate(r.words) if w in ("(", ")")] if asides else [])
    start = max([e + 1 for e in ends if e < cue.start], default=0)
    end = min([e for e in ends if e >= cue.end], default=len(r.words))
    asking = [t for t in r.of("CUE") if t.key in _ASKING]
    aside = asides and r.words[start - 1:start] == ["("]  # an aside need not stand beside an asking sentence
    return (bool(asking) or aside) and all(not start <= t.start <= end for t in asking)  # (its own "?" is in it)


_CONFIG_WORDS = {"hidden size", "hidden dim", "vocab size", "vocabulary", "head dim", "intermediate size"}


def _restates(name: str, model: object) -> bool:
    """'llama 3 8b (the original llama 3, not 3.1)', 'the tpu pod … a tpu v5e chip': a family name the named model's or
    part's id begins with is that model or part again."""
    return isinstance(model, str) and _squashed(model).startswith(_squashed(name))


def _squashed(text: str) -> str:
    return re.sub(r"[\s._-]+", "", text.lower())


# what asks for money: "how much would it cost", "what's the price", "in dollars", "$ per million tokens?", "cheaper"
_MONEY_ASKED = re.compile(r"\bhow\s+much\b[^.?!]*\b(?:cost|costs|pay|spend|charge|bill)\b|\b(?:cost|price|bill|spend|"
                          r"tco|dollars?|usd|budget)\b[^.!]*\?|\bin\s+(?:dollars|usd|\$)|\$\s*(?:per|/)\s*[\w-]+\s*\?|"
                          r"\bcheap(?:er|est)?\b|\bexpensive\b|\bworth\b|\bafford|\bper\s+dollar\b|\bhow\s+many\s+dollars\b|"
                          # "how much to train … at $2/hr", "how many h100s … for $40k/month?": the money is asked or
                          # is the ask's condition
                          r"\bhow\s+much\s+(?:to|for|would|will|does|do)\b|\bfor\s+(?:~|about\s+)?\$\s*\d", re.I)


def _figure_given_with(r: Reading, cue: Tag) -> bool:
    """A rate (a number and "tok/s") or a time within a few words of the cue, said of it."""
    rates = [n for n in r.of("NUMBER") for t in r.of("CUE", "tokens_per_s") if t.start == n.end]
    times = r.of("QUANTITY", "seconds")
    return any(abs(f.start - cue.end) <= 4 or abs(cue.start - f.end) <= 4 for f in rates + times)


_PLACES = {"box", "boxes", "node", "nodes", "side", "server", "servers", "pool", "instance", "instances", "cluster",
           "worker", "workers", "gpus", "tier"}


def _asked_in_passing(r: Reading, cue: Tag) -> bool:
    """An outside word that does not make the question one no calculator answers: "cost in h100 gpu-hours"
    asks for GPU-hours, not money; "in its shipped mxfp4" names the release precision, not shipping."""
    word = cue.text.lower()
    if ({"no", "not", "without", "ignore", "ignoring", "excluding"} & set(r.words[max(cue.start - 2, 0):cue.start])
            or {"ignore", "ignoring", "excluding", "exclude"} & set(_clause_before(r, cue.start, 6))):
        return True  # "(assume no paging savings)", "ignore the kv cache and runtime overhead": set aside, not asked
    if _after_the_question(r, cue) and _in_a_sentence_asking_nothing(r, cue):
        return True  # "… fit on one 8x mi300x node? we pay $2.10/hr per card so id rather not buy a second": why
    if _in_the_setup(r, cue):
        return True  # "… and bills $2.19 per million output tokens. Estimate the total memory": a given, not asked
    if word == "cost" and r.has("kv") and r.has("per_token", "past_window"):
        return True  # "past the sliding window whats each extra token cost?": its KV bytes, not money
    if [w for w in r.words[cue.end:cue.end + 2] if w not in ('"', "'")][:1] in ([":"], ["="]):
        return True  # a pasted setting's key ('"temperature": 0.3', "vocab_size=128256"): part of the paste
    if word == "what should a":  # "what should a 1 GB all_reduce … take": the time to expect, not advice
        return "take" in r.words[cue.end:] and any(t.start >= cue.end for t in r.of("QUANTITY"))
    if word == "each of the":  # "hbm bandwidth of each of the 8 gpus": a scope, not stages to sum
        return any(t.start == cue.end and t.key in ("gpus", "nodes", "ranks", "batch") for t in r.of("COUNT"))
    if word in ("rent", "rental", "rented", "renting", "buy") and r.has("how_many", "how_long", "days") \
            and not r.has("how_much"):
        return True  # "how many do we need to rent?": a count, not a price
    if word in ("rent", "rented", "renting", "buy", "bought") and not r.has("how_much") and any(
            0 <= t.start - cue.end <= 1 for t in r.of("COUNT") + r.of("NUMBER")):
        return True  # "we rent 16 cubes", "we bought 64 h100s": how many there are, not a price asked
    if word == "rental" and "the" in r.words[max(cue.start - 3, 0):cue.start] and not r.has("how_much"):
        return True  # "on the h200 rental, …": the option rented, named
    if word in ("gemm", "matmul") and (r.of("QUANTITY", "flop_per_byte") or "intensity" in r.words):
        return True  # "our fp8 gemm at 300 ops/byte": a kernel given by its intensity
    if word in ("gemm", "matmul") and r.of("QUANTITY", "bytes") and (r.has("attainable") or "roofline" in r.words):
        return True  # "our matmul make 1e11 FLOP and read 2e9 byte — the maximum flop/s by roofline?": its work
    if word == "reduction" and r.of("COLLECTIVE") and r.words[cue.start - 1:cue.start] in (["#num"], ["each"], ["per"],
                                                                                             ["a"], ["every"]):
        return True  # "all-reduce … how many second for one reduction?": the collective itself, not a saving
    if word == "$" and any(0 < g.start - cue.end <= 3 for g in r.of("GPU")):
        return True  # "the $7k l40s": the card's price, said of it, not asked
    if word == "prefill" and r.words[cue.end:cue.end + 1] and r.words[cue.end] in _PLACES:
        return True  # "from the prefill box to the decode box": where the bytes go from, not prefill asked
    if word in ("prefill", "ttft") and _figure_given_with(r, cue):
        return True  # "prefill peaks at 9,000 tok/s", "a 150 ms TTFT target": a measured rate or a target, given
    if word == "$" and not re.match(r"\d|#num", r.words[cue.end] if cue.end < len(r.words) else ""):
        return True  # "$M = P \times 2$ bytes": LaTeX's math delimiter, no dollar
    if word in ("$", "usd", "dollars") and not _MONEY_ASKED.search(r.question):
        return True  # "our object store bills $21 per TB-month … how large is one checkpoint?": a price given
    if word in ("$", "usd", "dollars"):  # "… in bf16? budget is $40k/month": a given in a sentence that asks nothing
        return _in_a_sentence_asking_nothing(r, cue, asides=True)
    if word in ("cost", "costs"):  # "how many KiB of kv does each token cost": bytes, not money
        figures = {i for t in r.of("QUANTITY") for i in range(t.start, t.end)}
        return _gpu_hours(r) or any(w in BYTE_WORDS and i not in figures for i, w in enumerate(r.words))
    if word in ("shipped", "ships", "ship"):  # "as shipped", "in its shipped mxfp4", "the mxfp4 format openai
        # ships it in": the release precision
        return (any(0 <= p.start - cue.end <= 1 or 0 < cue.start - p.end <= 5 for p in r.of("PRECISION"))  # ("ships in mxfp4")
                or r.words[cue.start - 1:cue.start] == ["as"]
                # "ship a 20 GiB kv cache from the prefill box to the decode box over one … link": bytes moved
                or (any(0 <= q.start - cue.end <= 2 for q in r.of("QUANTITY", "bytes")) and bool(r.of("LINK"))))
    if word in ("storage", "nvme", "ssd", "ssds", "disk", "write", "writing", "written", "writes", "object store",
                "object storage", "bucket", "s3"):
        # "our storage team wants the size of one checkpoint", "how many TB would we be writing every save"
        return r.has("checkpoint") and not r.has("how_long") and (r.has("how_big") or any(w in BYTE_WORDS for w in r.words))
    if word in ("save", "saves", "saved", "saving"):  # "if i save the optimizer state too": what a checkpoint holds
        return r.has("checkpoint") and any(c.start > cue.start for c in r.of("CUE") if c.key in (
            "training_state", "adam", "weights", "checkpoint", "grads"))
    if word in ("page", "page's", "article", "article's") and r.words[cue.start - 1:cue.start] in (["this"], ["the"]):
        return True  # "by the formula on this page", "using this page's ring model": the page's method
    if word == "code" and any(0 <= cue.start - t.end <= 1 for t in r.of("QUANTITY", "tokens")):
        return True  # "40B tokens of chat data plus 10B of code": training data
    # "a gemm at intensity 120", "my code does 20 FLOPs for each byte", "profiling prefill: a kernel at 120 FLOP/byte":
    if word in ("gemm", "matmul", "code", "prefill"):
        return bool(r.of("QUANTITY", "flop_per_byte")) or r.has("intensity")  # a roofline question about it
    if word in ("block", "blocks", "page", "pages"):  # "bytes in one 32-token kv block": the KV cache of 32 tokens
        sized = any(t.key == "tokens" and 0 <= cue.start - t.end <= 1 for t in r.of("QUANTITY"))
        return sized and r.has("kv") and any(w in BYTE_WORDS for w in r.words)
    if word in ("fused", "fuse", "fusing") and r.of("COLLECTIVE") and r.of("QUANTITY", "bytes"):
        return True  # "two 512 MB buckets fused into one call": the buffer the collective moves
    if word in ("fused", "fuse", "fusing"):  # "a fused mlp kernel at 400 flop/B": a roofline question about it
        return bool(r.of("QUANTITY", "flop_per_byte")) or r.has("intensity")
    if word == "traffic":  # "weights 2 GB + activations 1 GB of traffic": the bytes a kernel moves
        return any(0 <= cue.start - t.end <= 2 for t in r.of("QUANTITY", "bytes"))
    if word in ("groq", "cerebras"):  # "ridge point of a groq lpu": the vendor of a part we do not know
        return any(t.start == cue.end for t in r.of("UNKNOWN_GPU"))
    if word in ("wait", "waiting") and r.words[cue.start - 1:cue.start] == ["of"]:
        return r.has("days", "hours", "how_long")  # "how many days of waiting is that": a training time
    return False


def _conceptual(r: Reading) -> bool:
    """Explain + compute: the answer carries the site's explanation as well as the calculation."""
    if _is_conceptual(r):
        return True
    what = r.cue("what_is")
    return what is not None and what.start == 0 and "and" in r.words


# --- which calculator, and which of its quantities ---------------------------------------------------------

_GPU_NOUNS = set(COUNT_NOUNS["gpus"])


def _parts_of(r: Reading, start: int) -> bool:
    """A part or a GPU noun names what follows "how many of", before the clause goes on ("of the 80 gig h100s")."""
    end = start
    while end < min(start + 8, len(r.words)) and r.words[end] not in _CLAUSE_GOES_ON:
        end += 1
    return (any(t.label in ("GPU", "UNKNOWN_GPU") and start <= t.start < end for t in r.tags)
            or any(w in _GPU_NOUNS for w in r.words[start:end]))


_CLAUSE_GOES_ON = {"?", ",", ".", ";", "do", "does", "would", "will", "can", "to", "for", "is", "are", "we", "i"}


def _how_many_gpus(r: Reading) -> bool:
    """'how many H200s', 'how many GPUs', 'minimum number of MI300Xs', '405b fp8 how many h200', 'card count?'."""
    if any(c.start == 0 or r.words[c.start - 1] not in ("same", "equal") for c in r.of("CUE", "gpu_count")):
        return True  # ("each replica over the same number of gpus" asks no count)
    for cue in r.of("CUE", "how_many"):
        nxt = [t for t in r.tags if t.start >= cue.end and t.start - cue.end <= 1]
        if any(t.label in ("GPU", "UNKNOWN_GPU") for t in nxt):
            return True
        if any(w in _GPU_NOUNS or w in ("trillium",) for w in r.words[cue.end:cue.end + 3]):
            return True
        if r.words[cue.end:cue.end + 1] == ["of"] and _parts_of(r, cue.end + 1):
            return True  # "how many of the 80 gig h100 sxm cards do i need"
    if any(r.words[g.end:g.end + 1] == ["count"] for g in r.of("GPU")):
        return True  # "h200 count for llama 3.1 70b …"
    # "I say 3 H200s minimum": a minimum said after the part; "min mi325x for zero3 …": before it, opening the ask
    return any({"minimum", "min"} & set(r.words[g.end:g.end + 2]) or (g.start == 1 and r.words[0] in ("min", "minimum"))
               for g in r.of("GPU"))


def _has_model(s: Slots) -> bool:
    return "model" in s.values or "params" in s.values or s.unknown_model is not None


def _training_tokens(s: Slots) -> Tag | None:
    big = [t for t in s.token_counts if t.value >= 1e9 or t.unit.lower() in ("t", "b", "trillion", "billion", "bn")]
    return big[0] if big else None


def _gpu_hours(r: Reading) -> bool:
    if r.has("gpu_hours"):
        return True
    return any(c.start == g.end for g in r.of("GPU") + r.of("UNKNOWN_GPU") for c in r.of("CUE", "hours"))


def _memoryish(r: Reading, v: dict) -> bool:
    return (r.has("memory", "adam", "training_state", "state", "activations", "no_activations", "checkpoint", "fit",
                  "enough", "left", "size") or any(k in v for k in ("zero_stage", "fsdp", "dp")))


_FLOP_WORDS = {"flops", "flop/s", "tflops", "tflop/s", "pflops", "teraflops", "petaflops"}


_RATED = re.compile(r"\bwhat(?:'s|s| is)\s+(?:the\s+|its\s+)?(?:rated|spec(?:'d|ced)?|datasheet|nominal|advertised|official)\b",
                    re.I)  # the figure on paper asked, beside one measured


def _spec_lookup(r: Reading, s: Slots) -> str | None:
    """'h100 pcie hbm bandwith?', 'b200 fp8 dense tflops': a card's own figure asked with nothing to compute on
    (no model, no figure): its HBM bandwidth or its compute peak, the roofline's two roofs."""
    # (how many there are, "54 nodes x 4 gb300", changes no card's own figure)
    counts = {"gpus", "nodes", "gpus_per_node", "ranks_total"}
    # ("a copy kernel hits 3.1 TB/s on our gaudi 3. what's the rated hbm bandwidth?": a measured rate beside the spec)
    measured = {"bandwidth"} if _RATED.search(r.question) else set()
    if (set(s.values) - {"gpu", "precision", "link"} - counts - measured or ("gpu" not in s.values and not s.unknown_gpu)
            or (r.of("QUANTITY") and not measured) or s.other_names):  # (an unknown card is said unknown, as ever)
        return None
    negated = {i + d for i, w in enumerate(r.words) if w in ("not", "no") for d in (1, 2)}  # "not the flops"
    flops = any(w in _FLOP_WORDS and i not in negated for i, w in enumerate(r.words)) or (
        "peak" in r.words and "precision" in s.values)  # "trainium2 peak in brain float 16?"
    hbm = r.has("bandwidth") and (r.has("memory") or "hbm" in r.words or any(  # "move data in and out of its VRAM"
        t.key == "bandwidth" and re.search(r"\b(?:v?ram|memory|data)\b", t.text, re.I) for t in r.of("CUE")))
    if hbm and not flops:
        return "bandwidth"
    if flops and not r.has("bandwidth", "ridge", "intensity", "attainable"):
        return "peak_flops"
    return None


_ASKS_THE_CACHE = re.compile(r"\b(?:total|whole|entire)\s+(?:kv\s+)?cache(?:\s+size)?\b(?!\s+(?:and|plus|\+))|\bhow (?:big|large) is the cache\b|"
                             r"\bcache size (?:for|of|at|once|when|after|right)\b|"  # "cache size for 4 seqs sitting at the full 131072"
                             # "whats the kv total once …", "what does the kv cache add up to for all 64"
                             # (not "weights + kv total?", "kv total mem footprint", "fp16 kv\ntotal vram")
                             r"(?<!\+)(?<!\+ )(?<!plus )\bkv(?:[ \t]+cache)?[ \t]+total\b"
                             r"(?![ \t]*(?:and|plus|\+|mem\w*|footprint|vram|wts|weights)\b)|"
                             r"\bwhat\s+(?:does|do|will|would)\s+the\s+kv(?:\s+cache)?\s+add\s+up\s+to\b|"
                             r"\bsize of the cache\b|\bmemory does the (?:kv\s+)?cache (?:need|take|use)\b|"
                             # the ask that ends the message: "— total kv?", "more than 250 GB of cache?"
                             r"\btotal kv\s*\?\s*$|\b(?:more|less|over|under) (?:than )?[\d.]+\s*[GT]i?B of (?:kv )?cache\s*\?", re.I)


_ADDED_TO = re.compile(r"(?:\+|\bplus|\band)\s+(?:the\s+)?(?:total|whole|entire)\s+(?:kv\s+)?cache\b", re.I)


def _named_calculator(r: Reading, s: Slots) -> str | None:
    """The calculator the words point at, before checking that its inputs are there."""
    v = s.values
    if _spec_lookup(r, s):
        return "roofline"
    if "op" in v or (r.has("busbw", "algbw") and any(k in v for k in ("bandwidth", "busbw", "algbw"))):
        return "collective"
    if r.has("two_level") and r.has("grads") and "nodes" in v:
        return "collective"  # "do it two-level: bf16 grads of llama 3.1 70b over 8 nodes": the gradients' all-reduce
    if ("size" in v and any(k in v for k in ("ranks", "gpus", "nodes")) and any(k in v for k in ("link", "inter_link"))
            and not _has_model(s)):
        return "collective"  # "redo the 14 GB one on 16 ranks over xdr": bytes over ranks and a link, no op named
    if _one_transfer(s) and not r.has("fit", "left", "weights", "ridge", "intensity", "attainable", "peak_flops"):
        return "collective"  # "shipping 10.7 GB over one 200G hdr link": bytes moved over one link, point to point
    train = r.has("train")
    # "train on 15T tokens at 30% mfu of the fp8 peak, gpu hours?": the peak is the MFU's reference, not asked
    peak_of_mfu = ("mfu" in v and (_training_tokens(s) or _gpu_hours(r) or train)
                   and not r.has("ridge", "intensity", "attainable", "peak_bandwidth"))
    # "just the FLOP side, use the fp8 dense peak: compute time of one decode step for qwen2.5 72b": the peak is
    # what the step's compute time divides by, not the figure asked
    if (r.has("compute_time", "memory_time") and _has_model(s) and not train and not _training_tokens(s)
            and not r.has("ridge", "intensity", "attainable") and "intensity" not in v):
        return "decode"
    if (r.has("ridge", "intensity", "attainable", "peak_flops", "peak_bandwidth", "roofline") and not peak_of_mfu
            or "intensity" in v or (r.has("compute_bound") and not _has_model(s))):
        return "roofline"
    # ("launch is in 2 weeks: … 8 users at 8k, how much memory is left?": a date around a serving question is no deadline)
    deadline = "deadline_days" in v and not (r.has("kv", "left", "fit", "tokens_per_s", "latency", "training_state",
                                                    "checkpoint", "weights", "adam", "memory", "bandwidth") and not train)
    # ("we've got 64 GPUs for 6 weeks … what's the model state per GPU?": the run's state, whatever its schedule)
    deadline = deadline and not (r.has("training_state") and not _training_tokens(s))
    # ("we keep checkpoints for 90 days … how large is one full training checkpoint?": a retention, not a deadline)
    deadline = deadline and not (_full_checkpoint(r) and not _training_tokens(s))
    # ("training state per gpu …? we plan for 45% MFU but that's a separate question": the state is asked, not a run)
    mfu = "mfu" in v and not (r.has("training_state") and not _training_tokens(s))
    if (_training_tokens(s) or mfu or deadline or _gpu_hours(r)
            or (r.has("flops") and (train or (s.token_counts and not _asks_decode_time(r))))
            or (train and r.has("how_long", "days") and not _memoryish(r, v) and not r.has("training_state"))):
        return "training"
    # ("ignore activations" beside a KV cache is an inference footprint: weights + KV; "3 replicas" of a server are
    # copies of it, data parallelism only in training)
    # ("deployed as dp 8 × tp 2, 1,200 sessions … kv per replica": users and a KV cache are a server's)
    serving_replicas = (any(c.key == "dp" and c.text.lower() == "replicas" for c in r.of("CUE"))
                        or (r.has("kv") and bool(r.of("COUNT", "batch")))) and not (
        train or r.has("adam", "training_state", "grads", "checkpoint"))
    if (any(k in v for k in ("zero_stage", "fsdp")) or ("dp" in v and not serving_replicas) or r.has("training_state")
            or (r.has("no_activations") and not r.has("kv"))
            or (train and _memoryish(r, v))
            or (train and r.has("weights") and any(k in v for k in ("tp", "pp")))  # "training with tp8 pp8, weights per rank"
            or (r.has("checkpoint") and (train or r.has("adam", "state") or _full_checkpoint(r)))
            or (r.has("adam") and r.has("memory", "state", "how_much"))
            or (r.has("activations") and r.has("recompute_full", "recompute_none", "recompute_selective"))):
        return "training_memory"
    # ("cache size at the first decode step": the step says when the cache is asked, not a decode figure)
    when_decoding = r.has("decode") and _ASKS_THE_CACHE.search(r.question) and r.has("kv")
    if (r.has("tokens_per_s", "latency", "throughput", "how_fast", "speed", "compute_time", "memory_time")
            or (r.has("decode") and not when_decoding)
            or (r.has("aggregate") and not r.has("memory") and not _kv_summed(r))):  # ("total memory summed over
        # the 8 gpus")
        return "decode"
    # "the KV cache required to hold one sequence", "sixteen users each hold 65,536 tokens": with no card to
    # fit into, "hold" is what the cache does; "that load" is the work, not loading the weights
    fits = [c for c in r.of("CUE", "fit") if (c.text.lower() not in ("hold", "holds") or "gpu" in v or s.capacity)
            and not (c.text.lower() == "load"
                     and (r.words[c.start - 1:c.start] in (["that"], ["the"], ["this"], ["peak"])
                          or r.words[c.end:c.end + 1] in (["test"], ["tests"], ["testing"])))  # ("our load test")
            and not ("oom" in c.text.lower() and _in_a_sentence_asking_nothing(r, c))]  # ("the server OOMs after …")
    if (r.has("kv") and _ASKS_THE_CACHE.search(r.question) and not (fits or r.has("enough", "left"))
            and not _how_many_gpus(r) and not _ADDED_TO.search(r.question)):  # ("weights + the whole KV cache")
        return "kv_cache"  # "total cache for all seqs?", "how big is the cache?": the cache, whatever else is named
    runs = any(not _in_a_sentence_asking_nothing(r, c) for c in r.of("CUE", "run"))  # ("we serve llama 3.1 70b.")
    if r.has("kv") and not (fits or runs or r.has("enough", "left", "weights") or _how_many_gpus(r)
                            or (r.has("memory", "total") and "plus" in r.words)  # "8B bf16 plus a kv cache"
                            or (r.has("memory") and r.has("total"))  # "total vram, …, fp8 kv cache": the sum
                            # "fp8 w/ fp8 kv … tot GB": the weights' precision and the cache's, summed
                            or (r.has("total") and "precision" in v and "kv_precision" in v)):
        return "kv_cache"
    if r.has("past_window") and r.has("per_token"):  # what each token adds once the window is full: its KV
        return "kv_cache"
    # "serving a dozen chats at 8k each, total kv cache?": the cache is what is asked, whatever runs it
    if any(r.words[c.start - 1:c.start] == ["total"] for c in r.of("CUE", "kv")) and "precision" not in v:
        return "kv_cache"
    # "with an fp8 cache, the 70b's 32k prompt is how many GB?": only a cache's precision is given, so it is the cache
    if ("kv_precision" in v and "precision" not in v and re.search(r"\bcache\b", r.question, re.I)
            and not (fits or r.has("enough", "left", "weights", "run", "memory") or _how_many_gpus(r))):
        return "kv_cache"
    size_of = any(c.text.lower().startswith("size") for c in r.of("CUE", "compute"))  # "size of a 13B model"
    if r.has("memory", "size", "weights", "fit", "run", "enough", "left", "how_big", "how_much", "need",
             "checkpoint", "release", "kv") or _how_many_gpus(r) or "size" in v or size_of:
        return "memory"
    return None


def _one_transfer(s: Slots) -> bool:
    """Bytes over one link, with no ranks, model or collective: a send from one side to the other."""
    v = s.values
    return ("size" in v and any(k in v for k in ("link", "inter_link")) and "op" not in v and not _has_model(s)
            and not any(k in v for k in ("ranks", "gpus", "nodes", "gpus_per_node")))


# a collective's time without its per-step latency, as the reader asks
_NO_LATENCY = re.compile(r"\b(?:ignor(?:e|ing)|skip(?:ping)?|drop(?:ping)?|neglect(?:ing)?|without|no|zero|leave\s+out|"
                         r"leaving\s+out|excluding|exclude)\s+(?:the\s+|any\s+)?(?:latency|α|alpha)(?:\s+term)?\b|"
                         r"\b(?:latency|α|alpha)(?:\s+term)?\s+(?:aside|ignored|left\s+out|excluded|=\s*0)\b|"
                         r"\bbandwidth\s+term\s+only\b|\bonly\s+the\s+bandwidth\s+term\b", re.I)


def _calculator(r: Reading, s: Slots) -> str | None:
    """The calculator, once the inputs it cannot do without are there (else retrieval answers)."""
    named = _named_calculator(r, s)
    v = s.values
    if named == "collective":
        slots = ("size", "ranks", "gpus", "nodes", "link", "inter_link", "gpu", "bandwidth", "busbw", "algbw",
                 "model", "params", "gpus_per_node")
        return named if any(k in v for k in slots) or s.unknown_gpu else None
    if named == "roofline":
        return named if "gpu" in v or s.unknown_gpu else None
    if named == "training":
        return named if _has_model(s) and (s.token_counts or s.unknown_model) else None
    if named == "kv_cache" and "model" not in v and s.unknown_model is None:
        return "memory" if "params" in v else None
    if named in ("training_memory", "decode", "kv_cache", "memory"):
        return named if _has_model(s) else None
    return None


def _full_checkpoint(r: Reading) -> bool:
    """'one full (training) checkpoint of X': weights, fp32 master copy and optimizer moments (a training checkpoint)."""
    return any(r.words[c.start - 1:c.start] == ["full"] or r.words[c.start - 2:c.start] == ["full", "training"]
               for c in r.of("CUE", "checkpoint"))


def _joined_to_state(r: Reading) -> bool:
    """'state + activations', 'weights and activations': the activations asked together with the model state."""
    return any(c.start >= 2 and r.words[c.start - 2] in ("state", "states", "weights")
               and r.words[c.start - 1] in ("+", "and", "plus") for c in r.of("CUE", "activations"))


def _primary(calculator: str, r: Reading, s: Slots, inputs: dict) -> str | None:
    v = s.values
    if calculator == "memory" and inputs.get("mode") == "training":
        if r.has("checkpoint"):
            return "checkpoint_bytes"
        if r.has("left"):
            return "free_bytes"  # "HBM free per GPU": what the whole footprint leaves
        if r.has("activations") and not r.has("no_activations"):
            # "total memory per card, state + activations": the sum; "the activations alone": their share
            return "total_bytes" if r.has("total") or _joined_to_state(r) else "activation_bytes"
        if _how_many_gpus(r):
            return "min_gpus"
        if r.has("weights") and not r.has("grads", "adam", "state", "training_state"):
            return "weights_bytes"  # "how many GB of bf16 weights sit on each rank": the weights' share alone
        return "training_state_bytes"
    if calculator == "memory":
        if _how_many_gpus(r):
            return "min_gpus"
        if r.has("left"):
            return "free_bytes"
        request, fit = r.cue("how_much", "how_big"), r.cue("fit", "run", "enough")
        if request is not None and fit is not None and request.start < fit.start:
            return None  # "how much memory do its weights take, and does that fit?": the size first
        if fit is not None and fit.key == "run" and r.has("weights") and not r.has("kv", "fit", "enough"):
            return "weights_bytes"  # "we serve Qwen2.5 72B in int4 — what do the weights come to?": their size
        if fit is not None:
            if "gpu" in inputs or "gpus" in inputs or s.capacity is None:
                return "free_bytes"
            return "total_bytes"
        if r.has("kv") and r.has("per_token"):
            return "kv_bytes_per_token"
        return None
    if calculator == "kv_cache":
        if r.has("past_window"):
            return "kv_bytes_per_token_past_window"
        if r.has("per_token") and "context" not in inputs:
            return "kv_bytes_per_token"
        return None
    if calculator == "decode":
        batch = inputs.get("batch", 1)
        if _how_many_gpus(r):
            return "min_gpus"
        if r.has("compute_time") or (r.has("compute_bound") and r.has("latency")):  # "compute-bound time per step"
            return "compute_time_s"
        if r.has("memory_time"):
            return "memory_time_s"
        if r.has("latency") or (r.has("how_long") and "step" in r.words):  # "how long does each decode step take"
            return "step_time_s"
        if "step" in r.words and asks_a_time(r.question):  # "decode step of … on one h100, in μs?"
            return "step_time_s"
        # ("16k tokens of context per sequence" says whose context it is, not which rate is asked)
        per_sequence = [c for c in r.of("CUE", "per_sequence") if not r.has("aggregate") or not _scopes_a_figure(r, c)]
        if per_sequence or any(c.key == "each" and c.start == rate.end and not (r.has("aggregate") and c.text.lower() != "each")
                               for c in r.of("CUE") for rate in r.of("CUE", "tokens_per_s")):
            return "tokens_per_s_per_sequence"  # "tokens/sec each" ("aggregate tok/s per node" is a node's total)
        if r.has("aggregate") or (batch > 1 and r.has("throughput", "total", "tokens_per_s", "how_fast", "speed")):
            return "aggregate_tokens_per_s"
        return "tokens_per_s_per_sequence"
    if calculator == "collective":
        if s.asked and not (inputs.get("busbw") or inputs.get("algbw")) and not r.has("how_long"):
            return s.asked
        if (inputs.get("busbw") or inputs.get("algbw")) and r.has("how_long") and "size" in inputs:
            return "time_s"  # "seeing busbw 190 … with a 4 GiB buffer, how long did each op take"
        if inputs.get("busbw") or inputs.get("algbw"):
            return s.asked if s.asked and s.asked not in inputs else ("algbw" if "busbw" in inputs else "busbw")
        flat, two_level = _algorithm_cue(r, "flat"), _algorithm_cue(r, "two_level")
        if flat is not None and (two_level is None or flat.start < two_level.start) and inputs.get("nodes"):
            return "flat_ring_time_s"  # "flat ring time? and the two-level one?", "a flat ring, not two-level": asked
        if inputs.get("algorithm") == "hierarchical" and two_level is not None:
            return "hierarchical_time_s"
        return "time_s"
    if calculator == "training":
        if _gpu_hours(r):
            return "gpu_hours"
        if _how_many_gpus(r) or ("deadline_days" in v and "gpus" not in inputs):
            return "gpus_needed"
        if r.has("flops") and not r.has("how_long", "days"):
            return "flops"
        if r.has("how_long", "days", "time_to_train", "hours"):
            return "time_s"
        return None
    if calculator == "roofline":
        if spec := _spec_lookup(r, s):
            return spec
        if (r.has("peak_flops") or (r.has("roofline") and {"peak", "flat"} & set(r.words))) and not r.has("ridge"):
            return "peak_flops"
        if r.has("peak_bandwidth") and not r.has("ridge"):
            return "bandwidth"
        if r.has("ridge") or "intensity" not in inputs:
            return "ridge_point"
        return "attainable_flops"
    return None


# --- from slots to inputs ----------------------------------------------------------------------------------


class _Inputs:
    """One calculator's inputs, and the readings to state alongside them."""

    def __init__(self, calculator: str, r: Reading, s: Slots, followup: bool = False):
        self.calculator, self.r, self.s, self.followup = calculator, r, s, followup
        self.values: dict[str, Any] = {}
        self.notes: list[str] = list(s.notes)

    def set(self, name: str, value: Any) -> None:
        if value is not None:
            self.values[name] = value

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)


def _inputs(calculator: str, r: Reading, s: Slots, followup: bool = False) -> _Inputs:
    """The inputs the question gives `calculator` (a follow-up gives only what changed)."""
    out = _Inputs("memory" if calculator == "training_memory" else calculator, r, s, followup)
    v = s.values
    name = out.calculator
    if name in ("memory", "kv_cache", "decode", "training") or (name == "collective" and "size" not in v):
        if "model" in v:
            out.set("model", v["model"])
        elif "params" in v:
            out.set("params", v["params"])
    {"memory": _memory, "kv_cache": _kv, "decode": _decode, "collective": _collective, "training": _training,
     "roofline": _roofline}[name](out, calculator == "training_memory")
    primary = _primary(name, r, s, out.values)
    if primary:
        out.values["primary"] = primary
    _state_the_rest(out)
    return out


def _gpus(out: _Inputs) -> int | None:
    """GPUs in total: counted, or ranks, or nodes × GPUs per node (8 per node when not said)."""
    v = out.s.values
    if "gpus" in v:
        return v["gpus"]
    if "ranks" in v:
        return v["ranks"]
    if "ranks_total" in v:
        return v["ranks_total"]
    if "nodes" in v:
        out.note(f"{v['nodes']} nodes read as {v['nodes'] * 8} GPUs (8 per node)")
        return v["nodes"] * 8
    return None


def _replica_gpus(out: _Inputs) -> int | None:
    """The GPUs of one node, when one replica is sharded over one node of several ("tp over one node")."""
    said = replica_gpus(out.r.question, out.s.values)
    if said is None:
        return None
    out.note(said[1])
    return said[0]


def _context(out: _Inputs, loose_ok: bool) -> None:
    """The context (tokens per sequence): a token count, or a bare number where only a context fits."""
    s = out.s
    counts = [t for t in s.token_counts if 1 <= t.value < 1e9]  # ("--lr 2e-5 --seq_len 4096": no 0-token context)
    if counts:
        t = counts[0]
        value = _full_window(out.s.values.get("model"), t) or int(round(t.value))
        out.set("context", value)
        number = t.text.split()[0] if t.text.split() else t.text
        if value != int(round(t.value)):
            out.note(f"“{t.text}” read as {fmt_int(value)} tokens (the model's whole window, "
                     f"{fmt_int(value // 1024)} × 1,024)")
        elif t.key != "tokens_labelled" and (t.unit or not number.replace(",", "").replace(".", "").isdigit()):
            out.note(f"“{t.text}” read as {fmt_int(t.value)} tokens")
        return
    model = out.s.values.get("model")
    if isinstance(model, str) and (share := _share_of_window(out.r.question)) and (spec := find_model(model)):
        window = spec.config.max_position_embeddings
        out.set("context", int(window * share))
        out.note(f"context {fmt_int(window * share)} tokens: {share:g} of {spec.name}'s {fmt_int(window)}-token window")
        return
    if loose_ok:
        for t in s.loose:
            if t.value >= 128 and float(t.value).is_integer():
                s.loose.remove(t)
                out.set("context", int(t.value))
                out.note(f"“{t.text}” read as the context length ({fmt_int(t.value)} tokens)")
                return


_OF_WINDOW = re.compile(rf"\b(?:(?P<share>{SHARE_WORDS}|\d{{1,3}}\s?%)\s+(?:of\s+)?)?(?:its|the(?:\s+model'?s)?)\s+"
                        r"(?:max(?:imum)?|full|whole|entire|native)\s+(?:context(?:\s+(?:window|length))?|window)\b", re.I)


def _share_of_window(question: str) -> float | None:
    """'at half its max context', 'a quarter of its max context', 'its full window': a share of the model's window."""
    m = _OF_WINDOW.search(question)
    if m is None:
        return None
    share = m.group("share") or ""
    if share.endswith("%"):
        return float(share.rstrip("% ")) / 100
    return share_of(share) if share else 1.0


def _full_window(model: str | None, t: Tag) -> int | None:
    """'160k' of DeepSeek-R1 is its 163,840-token window (160 × 1,024): a 'k' read as 1,000 (160 is no power of
    two) that, times 1,024, is exactly the named model's window is that window."""
    if not model or t.unit.lower() != "k" or t.value % 1000:
        return None
    spec = find_model(model)
    window = spec.config.max_position_embeddings if spec else None
    return window if window == t.value // 1000 * 1024 else None


def _memory(out: _Inputs, training: bool) -> None:
    v, r = out.s.values, out.r
    for k in ("precision", "kv_precision", "gpu", "tp", "pp", "zero_stage", "fsdp"):
        out.set(k, v.get(k))
    if training:
        out.values["mode"] = "training"
        if "dp" in v:
            out.set("dp", v["dp"])
        else:
            out.set("gpus", _gpus(out))
        out.set("shard_group", v.get("shard_group"))
        # the activations' sequence length, micro-batch and recomputation, when the question gives them
        _context(out, loose_ok=r.has("context"))
        out.set("batch", v.get("batch"))
        recompute = r.cue("recompute_full", "recompute_none", "recompute_selective")
        if recompute is not None:
            out.set("recompute", recompute.key.split("_")[1])
    else:
        out.set("gpus", _replica_gpus(out) or _gpus(out))
        _context(out, loose_ok=r.has("kv", "context"))
        out.set("batch", v.get("batch"))
    if out.s.capacity is None and "size" in v and not _own_memory(v.get("gpu"), v["size"]):
        out.s.capacity = v["size"]
        out.note(f"“{out.s.size_text}” given as the memory to fit into: compare it with the total"
                 + ("" if "gpu" in v else " (the fit check below is against the default GPU)"))


def _own_memory(gpu: str | None, size: float) -> bool:
    """'Gaudi 3 … 128 GB HBM2e': the named part's own memory, copied from its spec sheet (no other budget)."""
    spec = find_gpu(gpu) if gpu else None
    return bool(spec and abs(size - spec.memory_bytes) <= 0.03 * spec.memory_bytes)


def _kv(out: _Inputs, _: bool) -> None:
    v = out.s.values
    out.set("kv_precision", v.get("kv_precision") or v.get("precision"))
    _context(out, loose_ok=True)
    out.set("batch", v.get("batch"))
    if out.s.unknown_gpu:
        out.note(f"“{out.s.unknown_gpu}” is not in the registry; the KV cache does not depend on the GPU")
        out.s.unknown_gpu = None


def _decode(out: _Inputs, _: bool) -> None:
    v = out.s.values
    for k in ("precision", "kv_precision", "gpu", "batch"):
        out.set(k, v.get(k))
    out.set("gpus", v.get("tp") or _replica_gpus(out) or _gpus(out))
    lengths = [t for t in out.s.token_counts if 1 <= t.value < 1e9]
    if _NO_KV_READS.search(out.r.question) and lengths and not out.r.has("past_window"):
        # ("--max-model-len 8192 … batch 1, no kv reads": the window a launcher sets, not read in the step)
        out.set("context", 0)
        out.note(f"context 0: KV-cache reads left out, as asked (the {lengths[0].text} context is not read)")
    else:
        _context(out, loose_ok=out.r.has("context", "kv") or bool(_BATCH_AT.search(out.r.question)))
    out.set("efficiency", v.get("efficiency") or v.get("percent") or _measured_efficiency(out))


# a decode step with the KV cache's reads left out, whatever context is named: "no kv reads", "ignore kv", "skip kv"
_NO_KV_READS = re.compile(r"\b(?:no|without|ignor(?:e|ing)|skip(?:ping)?|exclud(?:e|ing)|leav(?:e|ing)\s+out|not\s+counting|"
                          r"drop(?:ping)?)\s+(?:the\s+|any\s+)?kv(?:[\s-]?cache)?(?:\s+(?:reads?|traffic))?\b(?!\s+(?:quant|offload|compress))"
                          r"|\bkv(?:[\s-]?cache)?(?:\s+reads?)?\s+(?:ignored|ignroed|excluded|left\s+out|not\s+counted|aside|skipped)\b",
                          re.I)


_MEMORY_MEASURED = re.compile(r"\b(?:hbm|memory|mem|dram|vram|gddr\w*|copy|stream|nvbandwidth|bandwidth\s+test)\b", re.I)


def _measured_efficiency(out: _Inputs) -> float | None:
    """'hbm never gets past ~4.3 TB/s' on an H200: the bandwidth the reader measures, as a share of the part's (the
    decode calculator takes no bandwidth of its own; a figure above the part's is no measurement of it)."""
    v = out.s.values
    if not _MEMORY_MEASURED.search(out.r.question) or out.r.of("LINK"):
        return None  # (a link's speed beside a decode question is no HBM measurement)
    spec = find_gpu(v["gpu"]) if v.get("bandwidth") and v.get("gpu") else None
    if spec is None or not spec.bandwidth or not 0.2 <= v["bandwidth"] / spec.bandwidth < 1:
        return None
    share = round(v["bandwidth"] / spec.bandwidth, 4)
    out.note(f"“{v['bandwidth'] / 1e12:g} TB/s” read as the memory bandwidth achieved: {share:.1%} of the {spec.name}'s "
             f"{spec.bandwidth / 1e12:g} TB/s".replace(".0%", "%"))
    return share


# "batch 32 at 8,192", "16 users at 4096": a batch, then the length each sequence is at
_BATCH_AT = re.compile(r"\b(?:batch(?:\s+of)?\s*\d+|\d+\s+(?:users|seqs|sequences|requests|chats|streams))\s+at\s+\d",
                       re.I)


def _spec_sheet_link(out: _Inputs) -> None:
    """'4th-gen Infinity Fabric, 896 GB/s aggregate per GPU', 'NeuronLink-v3: 1.28 TB/s per chip': a spec sheet's
    figure for both directions of the link the question names (or its GPU's own), twice the per-direction
    bandwidth the registry keeps, is that link: it is used, with its per-step α (scale-up links only: a NIC's
    speed is quoted per direction, "800 Gb/s RoCE" is no 400 GbE link both ways)."""
    values = out.values
    gpu = find_gpu(out.s.values["gpu"]) if "gpu" in out.s.values else None
    link = find_link(values.get("link") or (gpu.link if gpu else "") or "")
    given = values.get("bandwidth")
    if link is None or given is None:
        return
    if link.scope != "inter-node" and abs(given - 2 * link.bandwidth) <= 0.01 * given:
        del values["bandwidth"]
        values["link"] = link.id
        out.note(f"{fmt_bandwidth(given)} is {link.name}'s figure for both directions: "
                 f"its {fmt_bandwidth(link.bandwidth)} each way used")


# the scale-up fabric spans every node: "all on ICI", "one nvlink domain", "nvlink 5 only (no IB)"
_ONE_DOMAIN = re.compile(r"\ball\s+(?:on|over)\s+(?:the\s+)?(?:ici|nvlink\s*\d?|infinity\s+fabric|neuronlink)\b|"
                         r"\b(?:one|a\s+single|single|the\s+same)\s+nvlink\s+domain\b|\btreat\s+it\s+as\s+(?:a\s+|one\s+)?single\s+node\b|"
                         r"\bnvlink\s*\d?\s+only\b", re.I)


def _collective(out: _Inputs, _: bool) -> None:
    v, r = out.s.values, out.r
    op = v.get("op") or ("send_recv" if _one_transfer(out.s) else "all_reduce")
    if "op" in v or not out.followup:
        out.set("op", op)
    if "op" not in v and not out.followup:
        out.note("all-reduce assumed (no collective named)" if op == "all_reduce"
                 else "a point-to-point transfer over one link (no collective named, no ranks)")
    if "size" in v:
        out.set("size", v["size"])
    elif "model" in out.values or "params" in out.values:
        out.set("precision", v.get("precision"))
    nodes = v.get("nodes")
    ranks = v.get("ranks") or v.get("gpus")
    one_domain = _ONE_DOMAIN.search(r.question)
    # a TPU slice's hosts share its ICI ("16 hosts with 4 chips per host"), unless a network between them is named
    tpu_slice = (str(v.get("gpu", "")).startswith("tpu-") and not v.get("inter_link")
                 and not re.search(r"\b(?:dcn|multi-?slice|slices)\b", r.question, re.I))
    if (one_domain or tpu_slice) and nodes and nodes > 1 and v.get("gpus_per_node"):  # "… all on ICI": one fabric
        ranks = ranks or nodes * v["gpus_per_node"]
        out.note(f"“{one_domain.group(0)}”: {ranks} ranks on one scale-up fabric, no network between nodes" if one_domain
                 else f"{ranks} TPU chips on the slice's ICI: its hosts share one scale-up fabric")
        nodes = None
    if nodes and nodes > 1:
        out.set("nodes", nodes)
        out.set("gpus_per_node", v.get("gpus_per_node"))
        if ranks and not v.get("gpus_per_node"):
            out.set("ranks", ranks)
        out.set("link", v.get("link"))
        out.set("inter_link", v.get("inter_link"))
        out.set("nic_bandwidth", v.get("nic_bandwidth") or v.get("bandwidth"))
        out.set("bandwidth", v.get("intra_bandwidth"))  # ("nvlink ~400 GB/s in practice": the scale-up link's rate)
    else:
        if ranks is None and v.get("gpus_per_node"):
            ranks = v["gpus_per_node"]
        if op == "send_recv" and ranks in (None, 1):  # ("from one L40S to the other": one sends, one receives)
            ranks = 2
            out.note("send/recv between 2 ranks")
        out.set("ranks", ranks)
        out.set("link", v.get("link") or v.get("inter_link"))
        out.set("bandwidth", v.get("bandwidth") or v.get("intra_bandwidth") or v.get("nic_bandwidth"))
        _spec_sheet_link(out)
    latency = [t for t in r.of("QUANTITY", "seconds") if r.has("latency", "alpha") or (
        r.words[t.end:t.end + 2] in (["per", "step"], ["each", "step"], ["a", "step"]) and t.value < 1e-3)]
    # "with 5 us latency per step", "5 us per step": the per-step latency α, instead of the link's ("2 s per step"
    # budgeted for a sync is no latency of one step of a ring)
    if latency:
        out.set("alpha_s", latency[0].value)
    elif _NO_LATENCY.search(r.question):  # "ignore latency", "bandwidth term only": the α term left out
        out.set("alpha_s", 0.0)
        out.note("no per-step latency (α = 0), as asked")
    out.set("gpu", v.get("gpu"))
    out.set("busbw", v.get("busbw"))
    out.set("algbw", v.get("algbw"))
    if _algorithm_cue(r, "two_level"):
        out.set("algorithm", "hierarchical")
    elif _algorithm_cue(r, "flat"):
        out.set("algorithm", "ring")
    elif _algorithm_cue(r, "tree") and op == "all_reduce":
        out.set("algorithm", "tree")
    elif _algorithm_cue(r, "ring") and not (nodes and nodes > 1):
        out.set("algorithm", "ring")


def _algorithm_cue(r: Reading, key: str) -> Tag | None:
    """The algorithm the question asks for, not one it sets aside ("flat ring, not the two level thing")."""
    return next((t for t in r.of("CUE", key)
                 if not {"not", "no", "without", "instead", "rather"} & set(r.words[max(t.start - 3, 0):t.start])), None)


def _training(out: _Inputs, _: bool) -> None:
    v, s = out.s.values, out.s
    tokens = _stated_total(out.r) or _training_tokens(s) or (s.token_counts[0] if s.token_counts else None)
    if tokens is not None:
        out.set("tokens", int(round(tokens.value)))
        if tokens.unit:
            out.note(f"“{tokens.text}” read as {fmt_int(tokens.value)} tokens")
    for k in ("gpu", "precision", "deadline_days"):
        out.set(k, v.get(k))
    out.set("gpus", _gpus(out))
    out.set("mfu", v.get("mfu") or v.get("percent"))


_TOTALLED = ("total", "in all", "in total", "combined", "all told", "overall")


def _stated_total(r: Reading) -> Tag | None:
    """'14T tokens … then a 1T-token annealing phase (15T total)', '(2.2T tokens in all)': the run's tokens as the
    reader totals its stages."""
    # (a bare size is a token total only in trillions: "141B total" beside "39B active" counts parameters)
    return next((t for t in r.of("QUANTITY") if t.value >= 1e9
                 and (t.key == "tokens" or (t.key == "size_name" and t.unit.lower() in ("t", "trillion")))
                 and " ".join(r.words[t.end:t.end + 2]).lower().startswith(_TOTALLED)), None)


def _roofline(out: _Inputs, _: bool) -> None:
    v = out.s.values
    for k in ("gpu", "precision", "intensity"):
        out.set(k, v.get(k))
    work = _flop_amount(out.r)
    if "intensity" not in v and work and v.get("size"):  # "400 GFLOP while reading 1.5 GB and writing 0.5 GB"
        out.set("intensity", work.value / v["size"])
        said = work.text if work.label == "QUANTITY" else f"{work.text} FLOP"
        out.note(f"intensity: {said} of work over {fmt_bytes(v['size'])} moved = {fmt_num(work.value / v['size'])} FLOP/B")
        out.s.loose = [t for t in out.s.loose if t is not work]  # the work is used: not "was not used"
        out.s.unused = [t for t in out.s.unused if t is not work]


_AMOUNT_OF_WORK = re.compile(r"^\S*flop$|^of (?:work|compute|math)\b", re.I)


def _flop_amount(r: Reading) -> Tag | None:
    """A kernel's work in FLOPs ("400 GFLOP", "2 TFLOP of work"), not a rate ("989 TFLOPS")."""
    for t in r.of("QUANTITY", "flop_rate"):
        after = " ".join(r.words[t.end:t.end + 2])
        if _AMOUNT_OF_WORK.search(t.unit) or _AMOUNT_OF_WORK.search(after):
            return t
    for t in r.of("NUMBER"):  # "an op does 2e12 flops and reads 8e9 bytes": a count of FLOPs something does
        if any(c.start == t.end for c in r.of("CUE", "flops")) and _DOES & set(r.words[max(t.start - 2, 0):t.start]):
            return t
    return None


_DOES = {"does", "do", "doing", "performs", "perform", "executes", "computes", "needs", "takes"}


def _names_6nd(r: Reading, t: Tag) -> bool:
    """"(6ND)", "6 * N * D": the 6 names the rule the training calculator uses, no figure of the question."""
    after = "".join(r.words[t.end:t.end + 4])
    return t.value == 6 and re.match(r"[x*·]?n[x*·]?d", after) is not None


def _state_the_rest(out: _Inputs) -> None:
    """What the question named that this calculation does not use is said, not dropped."""
    s, fields = out.s, INPUT_MODELS[out.calculator].model_fields
    for name in s.other_names:
        out.note(f"{name} also named: this calculation is for the first one only")
    for t in s.loose:
        if t.value > 1 and not _names_6nd(out.r, t):
            out.note(f"“{t.text}” was not used in this calculation")
    for t in s.unused:
        out.note(f"“{t.text}” was not used in this calculation")
    given = {x for x in out.values.values() if not isinstance(x, dict)}  # (a pasted config is a dict)
    for key in ("tp", "pp", "zero_stage", "fsdp", "kv_precision", "precision", "efficiency", "mfu", "link"):
        if key in s.values and key not in fields and s.values[key] not in given:
            out.note(f"{key.replace('_', ' ')} {s.values[key]} does not change this calculation")


# --- the router --------------------------------------------------------------------------------------------


def route_numeric(question: str, previous: NumericRequest | None = None,
                  computes: str | None = None, follows: bool = False) -> NumericRequest | UnknownName | None:
    """Route one question: a calculator request, an unknown model or GPU, or None (→ retrieval).
    `computes` is the calculator the reader's page is about (front matter `computes`: "kv_cache" on the kv-cache
    article), which "it" and a question naming no calculator lean on. `follows`: the question is the next turn of a
    conversation about `previous` (a pasted transcript's last turn), so one that names no model continues it."""
    # a pasted transcript, read as pasted ("User: …\nAssistant: …\nUser: and on an L40S?"; a rewrite below would take
    # "AI: about 18.8 GB." for a setting said)
    conversation = turns(question)
    if conversation:
        return _after_a_transcript(conversation, previous, computes)
    for plain in (as_issue_question, as_plain_characters, as_read_from_scan, as_plain_math, as_spelled_spec,
                  without_paste_artifacts,
                  as_values_named,
                  as_settings_said,
                  as_link_names, as_metrics_said, as_said,
                  as_fields_said, as_plain):  # what was pasted, in words
        question = plain(question)
    if is_long(question):  # a rambling message: the sentence that asks, with what sets it up just before it
        routed = read_long(question, lambda window: _read(window, previous, computes, follows))
        if routed is not None:
            return routed
    routed = _read(question, previous, computes, follows)
    if routed is None:  # "how big is X's kv at 32k? and is that a lot?": the calculation, explained
        half = calculation_half(question, lambda s: _read(s, previous, computes) is not None)  # (an unknown name too)
        routed = _read(half, previous, computes) if half else None
        if isinstance(routed, NumericRequest):
            routed.explain = True
    if routed is None and (asked := first_question(question)):  # "HBM bandwidth of one H20? We have 8 per server …"
        routed = _read(asked, previous, computes, follows)
        if isinstance(routed, NumericRequest):
            routed.assumed = ["read as the question asked first; what follows it as background", *routed.assumed]
    if routed is None and not is_long(question) and len(sentences(question)) >= 2:  # a short busy message: the sentence
        routed = read_long(question, lambda window: _read(window, previous, computes, follows))  # that asks, set up
    return routed


def _read(question: str, previous: NumericRequest | None, computes: str | None,
          follows: bool = False) -> NumericRequest | UnknownName | None:
    """One question's reading: each rewrite undoes one way readers write, then the tags are bound and routed."""
    question = _BEFORE_I_CALCULATE.sub("", question)  # "before i calculate memory for …, does vllm shard …?"
    question, said = as_one_part(question)  # "Q4 (3 marks): … (a) … (b) … Answer (b) only."
    question, example = without_the_articles_example(question)  # "the article uses 8 users at 4k, but we have 24 …"
    question, unasked = as_required(question)  # "Requirements:\n- …\n- SLO: 40 ms/token\nQuestion: total memory?"
    said += example + unasked
    question, picked = as_one_value(question)  # (before corrections: "call it 96" picks a figure, it corrects none)
    question, inline = as_corrected_inline(question)  # "~~fp16~~ fp8", "tp 4 -> tp 8", "2 (no, 4) h100s"
    question, corrections = corrected(question)
    question, negated = without_negated(question)  # "not in fp8, plain bf16", "forget the h100 from the article"
    said += picked + inline + corrections + negated
    question = without_background(without_prefill_rate(question))
    said += carried_from_last_run(question)
    for reading in (_without_restated_architecture, as_named, as_context_summed, as_decode_rate, as_nccl_figures, as_efficiency, as_one_option, as_one_subject, as_workload, as_gpus, as_gpus_in_use, as_nodes, as_fleet_batch, as_counts, as_block_tokens, as_worked_out, as_days, as_model_names,
                    with_relative_amounts):  # each says what it rewrote
        question, notes = reading(question)
        said += notes
    routed = _routed(question, previous, computes, follows)
    if isinstance(routed, NumericRequest) and said:  # what was rewritten is said, as read
        routed.assumed = said + routed.assumed
    return routed


# "before i calculate memory for mixtral 8x22b on 8 h100s, does vllm shard the experts …?": what the reader will
# calculate later, not what is asked now
_BEFORE_I_CALCULATE = re.compile(r"^\s*before\s+(?:i|we)\s+(?:calculate|compute|work\s+out|estimate|size|figure\s+out)\b"
                                 r"[^,?]*,\s*(?=(?:does|do|is|are|should|can|will|would|why|how|which|what)\b)", re.I)


def _kv_summed(r: Reading) -> bool:
    """"total kv across all users": the cache summed over the users; "across all users" scopes it, no rate."""
    scopes = ("across all users", "across users", "all users", "summed", "combined", "overall")
    return (r.has("kv") and all(c.text.lower() in scopes for c in r.of("CUE", "aggregate"))
            and not r.has("tokens_per_s", "throughput"))


def _after_a_transcript(conversation: list[tuple[str, str]], previous: NumericRequest | None,
                        computes: str | None) -> NumericRequest | UnknownName | None:
    """The last turn of a pasted transcript, asked after the reader's earlier turns (the other side's answers give
    no figure; only when the reader's turns set nothing up is an answer's restated setup read)."""
    earlier = previous
    for role, turn in conversation[:-1]:
        routed = route_numeric(turn, earlier, computes) if role == "reader" else None
        earlier = routed if isinstance(routed, NumericRequest) else earlier
    follows = earlier is not None  # the reader's own setup, which the last turn continues
    if earlier is None:
        for _, turn in conversation[:-1]:
            routed = route_numeric(without_answer(turn), None, computes)
            earlier = routed if isinstance(routed, NumericRequest) else earlier
    asked = conversation[-1][1]
    last = tag(asked)
    if (_is_conceptual(last) or last.has("no_figure")) and route_numeric(asked, None, computes) is None:
        return None  # "… ok so why does the cache keep growing?", "… in words, does halving it …": no figure
    # ("and if we double the GPU count?": the figure it doubles is in an earlier turn)
    routed = None if has_relative_amount(asked) else route_numeric(asked, earlier, computes, follows)
    if routed is None:  # ("I don't buy that, r1 has MLA like v3. what's its per-token kv?"): the reader's turns as one
        # (the latest turn first: where it gives a figure again, "with 2,560 of them?", its own is the one meant; one
        # that scales an earlier figure, "double the GPU count", reads after it)
        readers = [turn for role, turn in conversation if role == "reader"]
        if not has_relative_amount(asked):
            readers = [readers[-1], *readers[:-1]]
        routed = route_numeric("\n".join(readers), previous, computes)
    return routed


def _without_restated_architecture(question: str) -> tuple[str, list[str]]:
    return without_restated_architecture(question, _ends_with_a_model)


def _ends_with_a_model(text: str):
    """The registry model named last in the text, when nothing but punctuation follows it."""
    r = tag(text)
    last = r.tags[-1] if r.tags else None
    return find_model(last.key) if last and last.label == "MODEL" and last.end >= len(r.words) - 1 else None


def _routed(question: str, previous: NumericRequest | None, computes: str | None,
            follows: bool = False) -> NumericRequest | UnknownName | None:
    quoted, question = quoted_and_asked(question)
    if quoted:
        return _after_a_quote(quoted, question, previous, computes)
    r = without_set_aside(without_reference_parts(without_known_results(without_observed_results(
        without_claimed_results(question, read_what_if(question) or tag(question))))))
    _page_subject(r, computes, pronoun=_IT.search(question) is not None)
    s = bind(r)
    _use_pasted_config(question, s)
    if previous is not None and (_is_followup(question, r, s) or (follows and _continues(r, s))):
        return _follow_up(r, s, previous)
    if not _asks_for_a_number(r, s):
        return None
    calculator = _calculator(r, s)
    if calculator is None and _page_subject(r, computes):  # on the KV-cache page "qwen 72b at 128k" is its KV cache
        s = bind(r)  # (the page's words may name a collective, which binding reads)
        _use_pasted_config(question, s)
        s.note(f"read as the {_PAGE_WORDS[computes]} this page is about (the question names no calculation)")
        calculator = _calculator(r, s)
    if calculator is None:
        return None
    out = _inputs(calculator, r, s)
    if s.unknown_model and "model" not in s.values:  # a size beside the name does not make it a model we know
        return UnknownModel(s.unknown_model, closest_models(s.unknown_model))
    if s.unknown_gpu and not _restates(s.unknown_gpu, s.values.get("gpu")):  # ("the tpu pod … one tpu v5e chip")
        return UnknownGpu(s.unknown_gpu, _closest_gpus(s.unknown_gpu))
    if s.unheld_precision is not None and _needs(out, "kv_precision" if is_kv_precision(r, s.unheld_precision)
                                                 else "precision"):
        return UnknownPrecision.of(s.unheld_precision)
    return _request(out.calculator, out.values, out.notes, _conceptual(r))


def _asks_decode_time(r: Reading) -> bool:
    """"assume full peak bandwidth and FLOP/s … the decode step time": the FLOP/s is a peak assumed, not a budget."""
    return r.has("latency", "tokens_per_s", "decode", "compute_time", "memory_time") and not r.has("train")


def _needs(out: _Inputs, field_name: str) -> bool:
    """Does the calculation take this precision, and has the question given it none the calculators hold?"""
    return field_name in INPUT_MODELS[out.calculator].model_fields and field_name not in out.values


def _after_a_quote(quoted: str, asked: str, previous: NumericRequest | None,
                   computes: str | None) -> NumericRequest | UnknownName | None:
    """A message quoting an earlier one: the quote is the previous question when it asked one ("> kv for llama 3 8b
    at 4k\nredo it for batch 128, same model"), and its figures are no part of a question that stands alone; a
    quote that asks nothing, or one the question cannot do without ("on that setup"), is the question's setup."""
    earlier = route_numeric(quoted, previous, computes) if previous is None else previous
    if isinstance(earlier, NumericRequest):
        routed = route_numeric(asked, earlier, computes)
        if routed is not None:
            return routed
    return route_numeric(f"{quoted}\n{asked}", previous, computes)


def _use_pasted_config(question: str, s: Slots) -> None:
    """A config pasted into the question is the model, when no registry model is named; its figures are its own."""
    if "model" in s.values or s.unknown_model:
        return
    config = pasted_config(question)
    if config is None:
        return
    s.values["model"] = config
    s.values.pop("params", None)
    s.note("the model is the config in the question: " + ", ".join(f"{k} {v}" for k, v in config.items()))
    mine = set(config.values())
    s.loose = [t for t in s.loose if t.value not in mine]
    s.unused = [t for t in s.unused if t.value not in mine]


_IT = re.compile(r"\b(?:it|its|it's|this|that)\b", re.IGNORECASE)
# what each page calculator stands for, in the words a reader on that page leaves out
_PAGE_WORDS = {"kv_cache": "KV cache", "collective": "all-reduce", "training": "training time", "memory": "memory",
               "decode": "decode speed", "roofline": "ridge point"}


# what a question leaning on the page must give itself: a buffer to move, tokens to train on ("a nic at 200g
# instead of 400g, is that a big deal" on the interconnects page asks no collective's time)
_PAGE_NEEDS = {"collective": (("QUANTITY", "bytes"),), "training": (("QUANTITY", "tokens"),)}


def _page_subject(r: Reading, computes: str | None, pronoun: bool = True) -> bool:
    """On a page whose worked figures are one calculator's, the question is about that quantity: "it" in "so how
    big does it get for llama 3.1 405b at 128k" on the KV-cache page, or a question that names no calculator ("what
    about 2 GB on 16 gpus, two nodes?" on the NCCL page). Adds the page's words at the question's end, unless the
    question already says them; True when it did."""
    if not computes or not pronoun or not all(r.of(*need) for need in _PAGE_NEEDS.get(computes, ())):
        return False
    page = _page_tags(computes)
    if any(r.of(t.label, None if t.label == "COLLECTIVE" else t.key) for t in page):
        return False  # (an all-gather asked on the NCCL page stays an all-gather)
    r.tags += [dataclasses.replace(t, start=len(r.words), end=len(r.words)) for t in page]
    return bool(page)


@lru_cache(maxsize=8)
def _page_tags(computes: str) -> tuple[Tag, ...]:
    """The tags of a page calculator's words (tagged once, not on every question)."""
    return tuple(tag(_PAGE_WORDS[computes]).tags)


@lru_cache(maxsize=256)
def _closest_gpus(name: str) -> list[str]:
    """The registry's nearest parts (≈10 ms a name: its difflib scoring), remembered per name typed; for a described
    card that fits no part, its vendor's parts."""
    return closest_to_unlisted(name) or closest_gpus(name)


def _request(calculator: str, inputs: dict, notes: list[str], explain: bool) -> NumericRequest | None:
    try:
        validated = validate(calculator, inputs)
    except ValidationError:
        return None
    return NumericRequest(calculator, inputs, [*notes, *validated.assumed], explain, validated)


def _is_followup(question: str, r: Reading, s: Slots) -> bool:
    """A short continuation of the previous question ("and in fp8?", "what about decode?")."""
    words = question.split()
    names_model = "model" in s.values or "params" in s.values
    if _SAME_SETUP.search(question) or _THEN_ASKED.search(question):  # "same question for qwen 2.5 72b", "… - then?"
        return True
    if names_model and (len(words) > 6 or not opens_as_followup(question)):
        return False  # a new, complete question
    if opens_as_followup(question) or (not names_model and _SAME_SETUP.search(question)):
        return True
    return len(words) <= 5 and bool(s.values or s.token_counts or s.unknown_gpu) and not _is_conceptual(r)


# "redo the kv calc for batch 128, same model", "+1, same question but 8 nodes": the earlier setup, changed
_SAME_SETUP = re.compile(r"\b(?:same\s+(?:[\w-]+\s+){0,2}?(?:model|setup|config|question|thing|run|box|cluster|"
                         r"hardware|settings|calc|precision|context|batch|kernel|intensity|gpus?|cards?|size|tokens|"
                         r"deadline|mfu|link|buffer|everything|numbers)|re-?do|re-?run)\b", re.I)
_THEN_ASKED = re.compile(r"(?:[-—–,]\s*|\b)then\s*\?\s*$", re.I)  # "assume we only hit 75% … - then?"


def _follow_up(r: Reading, s: Slots, previous: NumericRequest) -> NumericRequest | UnknownName | None:
    if s.unknown_model and not _has_known_model(s):
        return UnknownModel(s.unknown_model, closest_models(s.unknown_model))
    if s.unknown_gpu:
        return UnknownGpu(s.unknown_gpu, _closest_gpus(s.unknown_gpu))
    named = _named_calculator(r, s)
    if named == "memory" and (not r.has("memory", "weights", "fit", "run", "enough", "left", "how_big")
                              or "efficiency" in s.values):  # ("assume 75% of peak memory bandwidth - then?")
        named = None  # "what about 4 GB?" changes a figure, not the calculator
    calculator = "memory" if named == "training_memory" else (named or previous.calculator)
    fields = INPUT_MODELS[calculator].model_fields
    merged = {k: x for k, x in previous.inputs.items() if k in fields and k not in ("primary", "mode")}
    if "model" in s.values:
        merged.pop("params", None)
    if "params" in s.values:
        merged.pop("model", None)
    out = _inputs(named or calculator, r, s, followup=True)
    if calculator == previous.calculator and "primary" not in out.values and "primary" in previous.inputs:
        merged["primary"] = previous.inputs["primary"]  # "same question for qwen 2.5 72b": the same quantity asked
    if previous.inputs.get("mode") == "training" and calculator == "memory":
        out.values.setdefault("mode", "training")
    for given, other in (("busbw", "algbw"), ("algbw", "busbw")):  # a new measured figure: the earlier one is gone
        if calculator == "collective" and given in out.values:
            merged.pop(other, None)
    if calculator == "collective" and "size" in out.values:
        merged.pop("model", None)
        merged.pop("params", None)
    if calculator == "collective" and "precision" in s.values and "size" not in out.values:
        out.values["precision"] = s.values["precision"]  # "and if the grads are fp32?": the model's buffer, in fp32
    if "model" in merged and "size" in merged and calculator == "collective":
        merged.pop("model")
    return _request(calculator, {**merged, **out.values}, out.notes, False)


def _continues(r: Reading, s: Slots) -> bool:
    """A transcript's next turn that names no model nor a new one, and asks for a figure: the conversation's setup
    with what it changes ("bump it to 20 chats at 100,000 tokens each, same weights. total?")."""
    return not (_has_known_model(s) or s.unknown_model) and not _is_conceptual(r)


def _has_known_model(s: Slots) -> bool:
    return "model" in s.values or "params" in s.values


def previous_calculation(history: list[Turn]) -> NumericRequest | None:
    """The calculation the conversation was last about, following follow-ups turn by turn."""
    current = None
    for question in user_questions(history):
        routed = route_numeric(question, current)
        if isinstance(routed, NumericRequest):
            current = routed
    return current


__all__ = ["NumericRequest", "UnknownGpu", "UnknownModel", "UnknownName", "previous_calculation", "route_numeric"]
