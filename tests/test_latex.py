"""LaTeX from students and papers is read as plain text: thin spaces join numbers, powers of ten become figures,
wrappers give their contents, and money's dollar signs are no math."""
import pytest
from routing import assert_routed

from service.answer.route.latex import as_plain_math


@pytest.mark.parametrize(("typed", "read"), [
    ("Mixtral $8\\times22$B in $\\texttt{nvfp4}$: $M$ in GB?", "Mixtral 8x22B in nvfp4: M in GB?"),
    ("$s = 32\\,768$, $b = 16$", "s = 32768, b = 16"),
    ("\\(N = 7\\times10^{9}\\), $D = 2 \\cdot 10^{12}$ tokens", "N = 7e9 , D = 2e12 tokens"),
    ("$\\frac{2(n-1)}{n}$", "(2(n-1))/(n)"),
    # siunitx, a decimal comma in braces, a digit group in braces, a list, a name's escaped space, days
    ("$S = \\SI{4}{\\gibi\\byte}$ at \\SI{100}{\\giga\\byte\\per\\second}", "S = 4 GiB at 100 GB/s"),
    ("$\\mathrm{MFU} = 0{,}42$, $s = 131{,}072$", "MFU = 0.42, s = 131072"),
    ("\\begin{itemize} \\item model: Qwen2.5-7B \\end{itemize}", "- model: Qwen2.5-7B"),
    ("$n = 8$ $\\mathrm{A100\\ 80GB}$, $T \\le 21\\ \\mathrm{d}$", "n = 8 A100 80GB, T <= 21 days"),
    ("$\\Psi = 2.2\\times10^{10}$", "2.2e10 parameters"),
    ("$m = 4$ nodes $\\times$ $g = 8$ $\\mathrm{H200}$", "m = 4 nodes x 8 H200"),
    ("$t_{\\text{compute}} = \\dfrac{2 N B}{n\\,\\pi_{\\text{fp8}}}$", "compute time = (2 N B)/(n peak fp8)"),
])
def test_latex_is_said_as_plain_text(typed, read):
    assert as_plain_math(typed) == read


@pytest.mark.parametrize("text", [
    "before we sign the $48k quote for 2x mi325x and the $20k one: weights per card?",  # money, not math
    "llama 3.1 8b kv at 32k for 16 users?",
])
def test_what_is_no_latex_is_left_alone(text):
    assert as_plain_math(text) == text


@pytest.mark.parametrize(("question", "calculator", "expected"), [
    ("$C = 6ND$ with \\(N = 7\\times10^{9}\\) and $D = 2 \\cdot 10^{12}$ tokens — total training FLOPs?", "training",
     {"params": 7e9, "tokens": 2 * 10**12}),
    ("$$M = W + 2 L\\, n_{kv}\\, d_h \\, s \\, B \\, b_{kv}$$ Mistral 7B with \\text{bf16} weights, $s = 8\\,192$, "
     "$B = 32$, \\text{bf16} cache — $M$ in GB?", "memory", {"model": "mistral-7b", "context": 8192, "batch": 32}),
    ("ring all-reduce: $n = 16$, $\\alpha = 5\\,\\mu s$, $\\beta = 400$ GB/s, $S = 2$ GiB — $t$?", "collective",
     {"ranks": 16, "alpha_s": 5e-6, "bandwidth": 4e11, "size": 2 * 2**30}),
    ("\\(\\text{tok/s} = \\eta\\,\\beta / W\\) with \\(\\eta = 0.8\\): Qwen2.5-72B in \\(\\text{fp8}\\) on one "
     "\\(\\mathrm{H200}\\), batch 1, ignore the KV cache", "decode", {"efficiency": 0.8, "gpu": "h200"}),
])
def test_latex_questions_are_computed(question, calculator, expected):
    assert_routed(question, calculator, expected)
