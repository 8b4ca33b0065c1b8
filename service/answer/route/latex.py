"""LaTeX from students and papers → plain text the tagger reads.

"$s = 32\\,768$", "\\(N = 7\\times10^{9}\\)", "$D = 2 \\cdot 10^{12}$ tokens", "$\\alpha = 5\\,\\mu s$", "\\text{fp8}",
"$\\mathrm{H200}$", "Mixtral $8\\times22$B", "$$M = W + 2 L\\, n_{kv}\\, d_h \\, s \\, B \\, b_{kv}$$". Read as typed,
the math delimiters, commands and braces split every figure and name ("32\\,768" was 32 and 768, "\\text{fp8}" no
precision). Each rewrite says the notation the way it reads: a thin space inside a number joins it, "a \\times
10^{b}" is "aeb", \\text{…} and its kin are their contents, \\frac{a}{b} is (a)/(b), and the delimiters go. A
question with no LaTeX is unchanged.
"""
from __future__ import annotations

import re

_COMMAND = re.compile(r"\\[a-zA-Z]+|\\[(\[,;!]|\d\{,\}\d")
# "$s = 32\,768$", "$M$", "$$…$$": math between dollars holds a command, "=", a sub- or superscript, or one letter
# ("$48k quote … $20k" is money)
_MATH = re.compile(r"(\$\$?)([^$\n]{1,300}?)\1")


def _math(m: re.Match) -> str:
    inner, text = m.group(2), m.string
    if not re.search(r"[\\=_^]|^\s*[A-Za-z]\s*$|\{,\}", inner):
        return m.group(0)
    before = " " if m.start() > 0 and text[m.start() - 1].isalnum() else ""
    glued = inner[-1:].isdigit() and m.end() < len(text) and text[m.end()].isalpha()  # "$8\times22$B"
    after = " " if m.end() < len(text) and text[m.end()].isalnum() and not glued else ""
    return before + inner + after
_WRAPPERS = re.compile(r"\\(?:text|mathrm|texttt|textbf|mathbf|textit|mathit|operatorname|mbox|textrm|mathsf|boldsymbol)"
                       r"\s*\{([^{}]*)\}")
_POWER_OF_TEN = re.compile(r"(\d+(?:\.\d+)?)\s*(?:\\times|\\cdot|\*|x)\s*10\s*\^\s*\{?\s*(-?\d+)\s*\}?")
_BARE_POWER = re.compile(r"(?<![\d.])10\s*\^\s*\{?\s*(-?\d+)\s*\}?")
_FRACTION = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
# a thin space between a number's digit groups ("32\,768", "1\ 024"), never after a name's digits ("A100\ 80GB")
_THIN_IN_NUMBER = re.compile(r"(?<![\w.])\d{1,3}(?:(?:\\[,;:! ]|~)\d{3})+(?![\d])")
# "0{,}42" is a decimal comma, "131{,}072" a digit group
_BRACED_COMMA = re.compile(r"(?<=\d)\{,\}(?=(\d{3}(?!\d))?)")
# siunitx: "\SI{4}{\gibi\byte}", "\qty{100}{\giga\byte\per\second}", "\num{65536}"
_SIUNITX = re.compile(r"\\(?:SI|qty|SIrange)\s*(?:\[[^\]]*\])?\s*\{([^{}]*)\}\s*\{([^{}]*)\}|\\num\s*\{([^{}]*)\}")
_SI_WORDS = {"kibi": "Ki", "mebi": "Mi", "gibi": "Gi", "tebi": "Ti", "kilo": "k", "mega": "M", "giga": "G", "tera": "T",
             "peta": "P", "milli": "m", "micro": "u", "nano": "n", "byte": "B", "bit": "b", "second": "s", "hour": "h",
             "day": " days", "percent": "%", "flop": "FLOP", "watt": "W"}
_LIST = re.compile(r"\\(?:begin|end)\s*\{(?:itemize|enumerate|description)\}|\\item\b")
_SUBSCRIPT = re.compile(r"_\{([^{}]*)\}")
_SUPERSCRIPT = re.compile(r"\^\{([^{}]*)\}")
_SYMBOLS = [(re.compile(pattern), words) for pattern, words in (
    (r"(?<=\d)\s*\\times\s*(?=\d)", "x"),  # "8\times22B": Mixtral's name; "4 \times 8" a product, read as 4x8
    (r"\\times", " x "), (r"\\cdot", " * "), (r"\\approx|\\sim", " ~ "), (r"\\geq?\b", " >= "), (r"\\leq?\b", " <= "),
    (r"\\mu\s*s\b", "us"), (r"\\mu\b", "u"), (r"\\%", "%"), (r"\\_", "_"), (r"\\#", "#"), (r"\\&", "&"),
    (r"\\(?:left|right|big|Big|bigg|Bigg)\b\s*", ""), (r"\\[lr](?:ceil|floor)\b", ""),
    (r"\\pi_\{?([a-z0-9]+)\}?", r"peak \1"),  # "\pi_{\text{fp8}}": the fp8 peak
    (r"\\Psi\s*=\s*([\d.]+(?:e-?\d+)?)", r"\1 parameters"),  # "$\Psi = 2.2\times10^{10}$": ZeRO's parameter count
    (r"\\Psi\s*=\s*", ""),  # "$\Psi$ = Mixtral 8x7B": ZeRO's symbol for the model's parameters
    (r"\\alpha\b", "α"), (r"\\beta\b", "β"), (r"\\eta\b", "η"),
    (r"\\pi\s*/\s*(?:\\beta\b|β)", "ridge point"),  # "$I^* = \pi/\beta$": peak over bandwidth
    (r"\\pi\b(?!\s*(?:=|\\approx)\s*3\.14)", "peak"),  # "the value of $\pi$ for a TPU v5e": its peak FLOP/s
    (r"\\(gamma|delta|Psi|psi|Phi|phi|theta|rho|sigma|tau|lambda|min|max|log|ln)\b", r"\1"),
    (r"\\\(|\\\)|\\\[|\\\]", " "),  # the other delimiters
    (r"\\[,;:! ]|~", " "),  # spacing commands between words
    (r"(?<=[x×])\s+[a-z]\s*=\s*(?=\d)", " "),  # "m = 4 nodes x g = 8 H200": the factor's letter
    # "t_{\text{compute}}", "t_{mem}", "t_{\text{hier}}": the times the pages name so
    (r"\bt_(?:compute|comp)\b", "compute time"), (r"\bt_(?:mem|memory)\b", "memory-bound time"),
    (r"\bt_hier\w*", "hierarchical time"),
    (r"[{}]", ""),
)]


def _si(m: re.Match) -> str:
    r""""\SI{4}{\gibi\byte}" → "4 GiB", "\SI{100}{\giga\byte\per\second}" → "100 GB/s", "\num{65536}" → "65536"."""
    if m.group(3) is not None:
        return m.group(3)
    unit = m.group(2).strip()
    if "\\" in unit:
        words = re.findall(r"\\([a-zA-Z]+)", unit)
        unit = "".join("/" if w == "per" else _SI_WORDS.get(w, w) for w in words)
    return f"{m.group(1).strip()} {unit}"


def as_plain_math(text: str) -> str:
    """The question with its LaTeX said as plain text (a question with none comes back as it is)."""
    unwrapped = _MATH.sub(_math, text)
    if unwrapped == text and not _COMMAND.search(text):
        return text
    text = _SIUNITX.sub(_si, _LIST.sub(lambda m: "\n-" if m.group(0).startswith("\\item") else " ", unwrapped))
    text = re.sub(r"(?<=\d)(?:\s|\\[,;:! ])*\\(?:mathrm|text)\s*\{d\}", " days", text)  # "21\ \mathrm{d}"
    for _ in range(3):  # "\textbf{\text{fp8}}": wrappers inside wrappers
        text = _WRAPPERS.sub(r"\1", text)
    text = _THIN_IN_NUMBER.sub(lambda m: re.sub(r"\\[,;:! ]|~", "", m.group(0)), text)
    text = _BRACED_COMMA.sub(lambda m: "" if m.group(1) else ".", text)
    text = _POWER_OF_TEN.sub(r"\1e\2", text)
    text = _BARE_POWER.sub(r"1e\1", text)
    text = _SUBSCRIPT.sub(r"_\1", _SUPERSCRIPT.sub(r"^\1", text))  # (before fractions: "\frac{2NB}{\pi_{fp8}}")
    text = _FRACTION.sub(r"(\1)/(\2)", text)
    for pattern, words in _SYMBOLS:
        text = pattern.sub(words, text)
    return re.sub(r"[ \t]{2,}", " ", text).strip()
