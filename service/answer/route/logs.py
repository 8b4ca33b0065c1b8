"""Log and error text pasted into a question: its figures are not the calculation's inputs.

A reader troubleshooting a run pastes what the run printed: "pid 9921 exits with 'ValueError: … 17.11 GiB …'",
"OOM at step 1200 of epoch 3", "driver 560.35.03", "(NCCL 2.18.3, MASTER_PORT 29500)", "nvidia-smi: 72 W,
58°C, P0", "at 2024-11-02 17:45:10". Read as figures, those become a context of 9,921 tokens, a 17.11 GiB card,
a 29,500-port NIC. This takes them out before the question is tagged: a quoted message that is an error or a
log line, the numbers of versions, processes, ports, steps and timestamps, and a card's telemetry. The figures
the reader states about the run itself ("8k context on a 24 GB L4", "--max-model-len 8192") stay.
"""
from __future__ import annotations

import re

# a quoted message that a program printed: an error, an allocator's complaint, a server's log line
_MESSAGE_WORDS = (r"error|exception|exhausted|out of memory|\boom\b|tried to allocate|traceback|warning|\binfo\b|"
                  r"killed|throughput:|blocks:|usage:|utilization\s*=|errno|failed|abort|preempt|is full|retract")
_QUOTED = re.compile(rf"'[^']*?(?:{_MESSAGE_WORDS})[^']*'|\"[^\"]*?(?:{_MESSAGE_WORDS})[^\"]*\"|"
                     rf"`[^`]*?(?:{_MESSAGE_WORDS})[^`]*`", re.IGNORECASE)
_SOFTWARE = (r"driver|nccl(?:-tests)?|rccl|rocm|cuda|cudnn|vllm|sglang|torch|pytorch|python|transformers|"
             r"transformerengine|tensorrt(?:-llm)?|trt(?:-llm)?|deepspeed|megatron(?:-lm|-core)?|megablocks|jax|jaxlib|"
             r"xla|ubuntu|kernel|llama\.cpp|ollama|tgi|text-generation-inference|jetstream|open ?mpi|firmware|nemo|"
             r"xformers|flash-attn|synapseai|build|runtime")
_VERSIONS = [(re.compile(pattern, re.IGNORECASE), kept) for pattern, kept in (
    # versions and builds: "driver 560.35", "build b4521", "SGLang 0.5.0rc1"
    (rf"\b({_SOFTWARE})([ -])v?b?\d+(?:\.\d+)*(?:[-.]?(?:rc|post|dev)\d*)?\b", r"\1"),
    (r"\b\d+\.\d+\.\d+(?:\.\d+)?(?:[-.]?(?:rc|post|dev)\d*)?\b", ""),  # any three-part version ("560.35.03")
)]
_DROPPED = [(re.compile(pattern, re.IGNORECASE), kept) for pattern, kept in (
    (r"\b\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?\b|\b\d{1,2}:\d{2}:\d{2}\b", ""),  # timestamps
    (r"\b(at|around) \d{1,2}:\d{2}\b", ""),
    # processes, ports, jobs, requests, exit codes, a rank's number (not rank 0: a root)
    # ("batch job: 1024 sequences", "each request: 1,500 tokens": a count said after the label, not an id)
    (r"\b(pid|port|job|job id|master_port|request|req|exit code|code)\s*[:=#]?\s*#?\d+\b(?![,.]\d)"
     r"(?!\s+(?:sequences?|seqs?|tokens?|users?|requests?|prompts?|chats?|gpus?|nodes?|ranks?)\b)", r"\1"),
    (r"\b(rank)\s+(?!0\b)\d+\b", r"\1"),
    (r"\b(step|iteration|iter|epoch)\s+\d[\d,]*(?:\s*(?:of|/)\s*\d[\d,]*)?\b", r"\1"),  # where the run was
    (r"\b\d+(?:\.\d+)?\s?(?:W|°C|watts)(?![\w/])|\bP[0-8]\b", ""),  # a card's power, temperature, perf state
)]


# programs whose names read as what is asked ("text-generation-webui" is not a question about generation)
_PROGRAMS = re.compile(r"\btext[- ]generation[- ](?:webui|inference)\b", re.IGNORECASE)


def without_versions(text: str) -> str:
    """Software versions and builds taken out; the software's name stays ("driver 560.35.03" → "driver")."""
    for pattern, kept in _VERSIONS:
        text = pattern.sub(kept, text)
    return text


def without_log_figures(text: str) -> str:
    """The question with pasted log text and its figures taken out."""
    text = without_versions(_PROGRAMS.sub("the server", _QUOTED.sub(" ", text)))
    for pattern, kept in _DROPPED:
        text = pattern.sub(kept, text)
    return text
