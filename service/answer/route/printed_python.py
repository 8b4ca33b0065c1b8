"""A pasted Python session → its names paired with their values, in the words the tagger reads.

Readers paste a REPL or notebook: ">>> cfg.model, cfg.world_size\\n('deepseek-v3', 2048)", "Out[3]: {'quant_method':
'mxfp4'}", a printed DataFrame row, "Cluster(nodes=2, gpus_per_node=8, gpu='B200')", "N, D = 'llama-3.1-70b',
15e12", then ask one line ("# wall-clock for the run?"). A value printed under the expression that made it, a
tuple printed under a tuple of names, a dict's keys, a call's keywords and a table's columns each name the figure
they hold; read as typed, "(2, 32, 'Qwen2.5-7B')" is three loose numbers and "chips: 512" names no GPUs. Each pair
is said as "<label> <value>" (or "<value> <noun>" where the label is a count or a unit: "512 chips", "60 days");
progress bars, tracebacks and the prompts themselves are dropped. A question with no Python prompt is unchanged.
"""
from __future__ import annotations

import ast
import re

from .labelled_values import label_words, said_pair, said_value

_SESSION = re.compile(r"^\s*(?:>>>|In \[\d*\]:|Out\[\d*\]:)", re.M)
_INPUT = re.compile(r"^\s*(?:>>>|In \[\d*\]:)\s?(.*)$")
_CONTINUED = re.compile(r"^\s*(?:\.\.\.|\.\.\.:)(?:\s|$)(.*)$")
_OUTPUT = re.compile(r"^\s*Out\[\d*\]:\s?(.*)$")
_NOISE = re.compile(r"^\s*(?:Traceback \(most recent call last\):|File \".*\", line \d+.*|\w*Error\b.*"
                    r"|.*\d+%\|.*\|\s*\d+/\d+\s*\[.*)$")  # a traceback's frames, a tqdm progress bar
# "ctx=131072", and a dotted override's last key: "data.tokens=2T" is the tokens, "hw.chips=256" the chips
_KEY_VALUE = re.compile(r"(?<![\w.])(?:[A-Za-z_]\w*\.)*([A-Za-z_]\w*)=(\'[^\']*\'|\"[^\"]*\"|\d{1,3}(?:,\d{3})+(?!\d)|[^\s,)]+)")
_CALL_WRAPPER = re.compile(r"\b[A-Za-z_]\w*\(|[(),\s]+")  # what a repr's "Cluster(…)" leaves once its fields are said
_ROW_ASKED = re.compile(r"\brow\s*['\"]?(\w+)['\"]?", re.I)
_CHINCHILLA = {"n": "parameters", "d": "tokens"}  # 6·N·D's letters
_SAYS_6ND = re.compile(r"6\s*\*?\s*N\s*\*?\s*D|\b6ND\b|six_?nd", re.I)
_COLLECTIVE_CALL = re.compile(r"\b(?:all ?reduce|all ?gather|reduce ?scatter|all to all|alltoall|b(?:road)?cast)", re.I)
_BUILTINS = {"sum", "len", "int", "float", "round", "print", "max", "min"}


def as_values_named(text: str) -> str:
    """The question with its pasted Python session said as labelled values (other text is unchanged)."""
    if not _SESSION.search(text):
        return text
    chinchilla = bool(_SAYS_6ND.search(text))
    said, lines = [], [line for line in text.splitlines() if not _NOISE.match(line)]
    i = 0
    while i < len(lines):
        started = _INPUT.match(lines[i])
        if not started:
            printed = [lines[i]]
            i += 1
            if _OUTPUT.fullmatch(printed[0].strip()) and _OUTPUT.match(printed[0]).group(1) == "":
                while i < len(lines) and lines[i].strip() and not _INPUT.match(lines[i]):  # "Out[4]:" then a Series
                    printed.append(lines[i])
                    i += 1
            said.append(_said_output(printed, text, chinchilla) if _OUTPUT.match(printed[0]) else printed[0])
            continue
        code = [started.group(1)]
        i += 1
        while i < len(lines) and (more := _CONTINUED.match(lines[i])):
            code.append(more.group(1))
            i += 1
        output = []
        while i < len(lines) and lines[i].strip() and not _INPUT.match(lines[i]):
            output.append(lines[i])
            i += 1
        said.append(_said_block(" ".join(code), output, text, chinchilla))
    return "\n".join(line for line in said if line.strip())


def _said_block(code: str, output: list[str], text: str, chinchilla: bool) -> str:
    code, comment = _without_comment(code)
    try:
        node = ast.parse(code.strip()).body[0] if code.strip() else None
    except SyntaxError:
        node = None
    words = []
    if node is not None and output and isinstance(node, ast.Expr):
        value = _literal("\n".join(_OUTPUT.sub(r"\1", line) for line in output))
        names = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
        values = value if isinstance(value, tuple) and len(value) == len(names) else (value,)
        if isinstance(value, dict):  # 'AutoConfig.from_pretrained("openai/gpt-oss-20b").quantization_config'
            calls = any(isinstance(n, ast.Call) for n in ast.walk(node.value))
            words = [_said_expression(node.value, chinchilla) if calls else "", _pairs(value, chinchilla)]
        elif value is not _UNREAD and len(values) == len(names):
            words = [_pair(_label(name), v, chinchilla) for name, v in zip(names, values)]
        else:
            words = [_said_output(output, text, chinchilla)]
        if len(names) == 1 and any(isinstance(n, ast.Call) and _literal_args(n) for n in ast.walk(node.value)):
            words.insert(0, _said_expression(node.value, chinchilla))  # 'kv("Qwen/Qwen2.5-32B", ctx=65536)' → nan
    elif node is not None:
        words = [_said_statement(node, code, chinchilla)] + ([_said_output(output, text, chinchilla)] if output else [])
    else:
        words = [_keywords_said(code, chinchilla)] + ([_said_output(output, text, chinchilla)] if output else [])
    said = ", ".join(w for w in words if w)
    return f"{said}. {comment}" if said and comment else said or comment


def _literal_args(call: ast.Call) -> bool:
    return any(_is_literal(a) for a in call.args) or any(_is_literal(k.value) for k in call.keywords)


def _said_statement(node: ast.stmt, code: str, chinchilla: bool) -> str:
    """An assignment of literals pairs its names with them; a call says its literal arguments and keywords."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target, value = node.targets[0], node.value
        names = target.elts if isinstance(target, ast.Tuple) else [target]
        values = value.elts if isinstance(value, ast.Tuple) and len(names) > 1 else [value]
        if len(names) == len(values) and all(_is_literal(v) for v in values):
            return ", ".join(_pair(_label(n), ast.literal_eval(v), chinchilla) for n, v in zip(names, values))
        if len(names) == 1:
            return _said_expression(value, chinchilla)
    if isinstance(node, ast.Assert):  # "assert kv_gb(…) < 40": the calls' arguments; the 40 was only hoped for
        return _said_expression(node.test, chinchilla)
    if isinstance(node, ast.Expr):
        return _said_expression(node.value, chinchilla)
    return _keywords_said(code, chinchilla)


def _said_expression(node: ast.expr, chinchilla: bool) -> str:
    """A call's keywords as pairs and its literal arguments as they are; a dict's items as pairs."""
    if isinstance(node, ast.Dict) and all(_is_literal(k) and _is_literal(v) for k, v in zip(node.keys, node.values)):
        return _pairs(ast.literal_eval(node), chinchilla)
    calls = [n for n in ast.walk(node) if isinstance(n, ast.Call)]
    if not calls:
        return _label(node) or ast.unparse(node)
    words = []
    for call in calls:  # "dist.all_to_all_single(out, inp)" says "all to all single"; a builtin says nothing
        name = "" if _is_builtin(call) else _label(call.func)
        # a collective's bare number is its buffer: "allreduce_time(4e9, topo)"; "6 * 10**9" is worked out later
        unit = " bytes" if _COLLECTIVE_CALL.search(name) else ""
        words.append(name)
        words += [said_value(ast.literal_eval(a)) + unit for a in call.args if _is_literal(a) and _is_number(a)]
        words += [said_value(ast.literal_eval(a)) for a in call.args if _is_literal(a) and not _is_number(a)]
        words += [said_value(v) + unit for a in call.args if isinstance(a, ast.BinOp) and (v := _worked_out(a)) is not None]
        words += [_pair(label_words(k.arg), ast.literal_eval(k.value), chinchilla) for k in call.keywords
                  if k.arg and _is_literal(k.value)]
    return ", ".join(w for w in words if w)


def _said_output(output: list[str], text: str, chinchilla: bool) -> str:
    """What the session printed: a literal, a DataFrame's row, a Series, "key=value" fields, or the text as it is."""
    lines = [_OUTPUT.sub(r"\1", line) for line in output]
    value = _literal("\n".join(lines))
    rows = [_literal(line) for line in lines if line.strip()]
    if len(rows) > 1 and all(_is_item(row) for row in rows):  # print(*cfg.items(), sep="\n"): one (key, value) a line
        value = dict(rows)
    if isinstance(value, dict) or _items_said(value, chinchilla):
        return _pair("", value, chinchilla)
    if isinstance(value, str):
        return value
    if isinstance(value, tuple | list):
        return ", ".join(said_value(v) for v in value if said_value(v))
    table = _table_row(lines, text)
    if table:
        return _pairs(table, chinchilla)
    return "\n".join(_keywords_said(line, chinchilla) for line in lines)


def _items_said(value, chinchilla: bool) -> str:
    """A list of (key, value) pairs ("sorted(d.items())") or of "key=value" strings (Hydra's overrides) said as pairs."""
    if not isinstance(value, list | tuple) or not value:
        return ""
    if all(_is_item(v) for v in value):
        return _pairs(dict(value), chinchilla)
    if all(isinstance(v, str) and "=" in v for v in value):
        return ", ".join(_keywords_said(v, chinchilla) for v in value)
    return ""


def _is_item(value) -> bool:
    return isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str)


def _keywords_said(line: str, chinchilla: bool) -> str:
    """"model=meta-llama/Llama-3.1-405B seqs=2 ctx=131072" → "model meta-llama/Llama-3.1-405B, 2 seqs, ctx 131072"."""
    found = _KEY_VALUE.findall(line)
    if not found or any(key in ("algo",) for key, _ in found) and len(found) == 1:
        return line
    pairs = {key: _literal(value.replace(",", "")) if _literal(value.replace(",", "")) is not _UNREAD else value
             for key, value in found}
    rest = _KEY_VALUE.sub(" ", line)
    rest = "" if not _CALL_WRAPPER.sub("", rest).strip() else rest.strip(" ,")
    return ", ".join(w for w in (rest, _pairs(pairs, chinchilla)) if w)


def _table_row(lines: list[str], text: str) -> dict | None:
    """A printed DataFrame (a header of column names, rows led by an index) → the row asked about, or its only row;
    a printed Series ("dtype   bf16" lines, then "Name: …") → its items."""
    lines = [line for line in lines if line.strip()]
    footer = lines[-1].lstrip() if lines else ""
    if len(lines) >= 2 and footer.startswith(("Name:", "dtype:")):  # (an unnamed Series ends "dtype: object")
        items = dict(line.split(None, 1) for line in lines[:-1] if len(line.split(None, 1)) == 2)
        if footer.startswith("Name:"):
            items["name"] = footer.split(":", 1)[1].split(",")[0].strip()
        return items
    if len(lines) < 2 or not lines[0].startswith(" "):
        return None
    columns = list(re.finditer(r"\S+", lines[0]))
    rows = {}
    for row in lines[1:]:
        index = row.split(None, 1)[0] if row.strip() else ""
        cells, start = {}, len(index)
        for column in columns:  # pandas right-aligns each cell under its column's name
            cells[column.group()] = row[start:column.end()].strip()
            start = column.end()
        rows[index] = cells
    asked = _ROW_ASKED.search(text)
    if asked and asked.group(1) in rows:
        return rows[asked.group(1)]
    return next(iter(rows.values())) if len(rows) == 1 else None


def _pairs(items: dict, chinchilla: bool) -> str:
    return ", ".join(p for p in (_pair(label_words(str(k)), v, chinchilla) for k, v in items.items()) if p)


def _pair(label: str, value, chinchilla: bool) -> str:
    if isinstance(value, dict):
        return _pairs(value, chinchilla)
    if said := _items_said(value, chinchilla):
        return said
    if chinchilla and label in _CHINCHILLA:  # N may hold the model's name
        label = "model" if label == "n" and isinstance(value, str) else _CHINCHILLA[label]
    return said_pair(label, value)


def _label(node: ast.expr) -> str:
    """The words an expression names its value with: "cfg.train_tokens" → "train tokens",
    'ds_cfg["zero_optimization"]["stage"]' → "zero optimization stage", "torch.cuda.device_count()" → "device count"."""
    if isinstance(node, ast.Name):
        return label_words(node.id)
    if isinstance(node, ast.Attribute):
        return label_words(node.attr)
    if isinstance(node, ast.Subscript):
        keys = [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
        return label_words(" ".join(reversed(keys))) if keys else _label(node.value)
    if isinstance(node, ast.JoinedStr):  # 'f"{n_params:.3e}"': what the f-string formats
        formatted = [v.value for v in node.values if isinstance(v, ast.FormattedValue)]
        return _label(formatted[0]) if len(formatted) == 1 else ""
    if isinstance(node, ast.Call):  # "sum(p.numel() for p in model.parameters())": what the builtin sums
        if _is_builtin(node) and node.args:
            inner = [n for n in ast.walk(node.args[0]) if isinstance(n, ast.Call)]
            return _label(inner[-1]) if inner else _label(node.args[0])
        return _label(node.func)
    return ""


_OPERATORS = {ast.Add: float.__add__, ast.Sub: float.__sub__, ast.Mult: float.__mul__, ast.Div: float.__truediv__,
              ast.Pow: float.__pow__}


def _worked_out(node: ast.expr) -> float | None:
    """"6 * 10**9", "2 * 1024**3" → its value (numbers and + − × ÷ ** only; nothing is executed)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _worked_out(node.left), _worked_out(node.right)
        if left is None or right is None or isinstance(node.op, ast.Pow) and abs(right) > 64:
            return None
        try:
            return _OPERATORS[type(node.op)](left, right)
        except (ZeroDivisionError, OverflowError):
            return None
    return None


def _is_number(node: ast.expr) -> bool:
    value = ast.literal_eval(node)
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_builtin(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Name) and call.func.id in _BUILTINS


def _without_comment(code: str) -> tuple[str, str]:
    """("x", "seconds?") from "x   # seconds?" (a "#" inside a string is no comment)."""
    quoted = False
    for i, ch in enumerate(code):
        if ch in "'\"":
            quoted = not quoted
        elif ch == "#" and not quoted:
            return code[:i], code[i + 1:].strip()
    return code, ""


_UNREAD = object()


def _literal(text: str):
    try:
        return ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return _UNREAD


def _is_literal(node: ast.expr) -> bool:
    try:
        ast.literal_eval(node)
        return True
    except (ValueError, SyntaxError, TypeError):
        return False
