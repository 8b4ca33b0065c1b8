"""Prose for the answers that are not extracted from passages: calculator results and questions not covered."""
from __future__ import annotations

from calculators import Calculation
from ingest.index import Hit

from .asked_unit import said_in
from .models import Suggestion

# The concept page that explains each calculator's formula (linked from every numeric answer).
FORMULA_PAGES = {
    "memory": "model-memory-footprint",
    "kv_cache": "kv-cache-sizing",
    "decode": "bandwidth-bound-decode-throughput",
    "collective": "communication-volume-estimates",
    "training": "training-flops-6nd",
    "roofline": "roofline-model",
}

_QUANTITY_WORDS = {
    "weights_bytes": "weights", "kv_bytes_per_token": "KV cache per token", "kv_cache_bytes": "KV cache",
    "training_state_bytes": "training state", "activation_bytes": "activations (estimate)",
    "total_bytes": "memory in total", "free_bytes": "memory left free", "min_gpus": "GPUs needed at minimum",
    "step_time_s": "time per decode step", "tokens_per_s_per_sequence": "tokens/s per sequence",
    "aggregate_tokens_per_s": "tokens/s in aggregate", "compute_time_s": "compute-bound step time",
    "ridge_point": "ridge point", "time_s": "time", "busbw": "bus bandwidth", "algbw": "algorithm bandwidth",
    "flops": "training compute", "gpu_hours": "GPU-hours", "gpus_needed": "GPUs needed",
}
# the quantities named only when an answer leads with them (the "Also:" line keeps to the ones above); every quantity a
# calculator gives has words ("Hierarchical time s: 16.7 ms" had led one answer)
_LEAD_WORDS = {
    **_QUANTITY_WORDS,
    "flat_ring_time_s": "flat-ring time", "hierarchical_time_s": "two-level (hierarchical) time",
    "memory_time_s": "memory-bound step time", "attainable_flops": "attainable FLOP/s", "peak_flops": "peak FLOP/s",
    "bandwidth": "memory bandwidth", "checkpoint_bytes": "full training checkpoint",
    "kv_bytes_per_token_past_window": "KV cache per token past the window",
}


def calculation_answer(calc: Calculation, assumed: list[str], formula_page: tuple[str, str] | None,
                       asked_units: tuple[str, ...] = ()) -> str:
    """Result first (and in the unit the reader asked for, when that is another), then what was assumed and warned,
    then where the formula is explained."""
    words = _LEAD_WORDS.get(calc.primary.name, calc.primary.name.replace("_", " "))
    converted = said_in(calc.primary.value, calc.primary.unit, list(asked_units), calc.primary.display)
    said = calc.primary.display + (f" = {converted}" if converted else "")
    lines = [f"**{words[:1].upper() + words[1:]}: {said}** (worked steps below)."]
    # "memory left free −61.1 GB" reads badly: when it does not fit, the warning below says so instead
    others = [q for q in calc.quantities if q.name != calc.primary.name and q.name in _QUANTITY_WORDS
              and not (q.name == "free_bytes" and (q.value or 0) < 0)][:3]
    if others:
        lines.append("Also: " + "; ".join(f"{_QUANTITY_WORDS[q.name]} {q.display}" for q in others) + ".")
    if assumed:
        lines.append("Assumed: " + "; ".join(assumed) + ".")
    lines += [f"⚠ {w}" for w in calc.warnings]
    if formula_page:
        title, url = formula_page
        lines.append(f"How this is worked out: [{title}]({url}).")
    return "\n\n".join(lines)


def not_covered(article: str | None, suggestions: list[Suggestion]) -> str:
    """The no-answer text: what was not found, and the closest sections as links."""
    where = "this article or elsewhere on the site" if article else "the site"
    lines = [f"I can't find an answer to that in {where}, so I won't guess."]
    if suggestions:
        lines.append("The closest sections are:")
        lines += [f"- [{s.title} › {s.section}]({s.url})" for s in suggestions]
    return "\n".join(lines)


def closest_sections(hits: list[Hit], limit: int = 3) -> list[Suggestion]:
    """The distinct sections of the closest passages, best first: suggestions for a question not covered."""
    seen, out = set(), []
    for hit in hits:
        p = hit.passage
        if p.url not in seen:
            seen.add(p.url)
            out.append(Suggestion(title=p.title, section=p.section or p.title, url=p.url))
    return out[:limit]
