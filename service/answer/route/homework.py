"""Homework and exam layout: a question's number and marks, and the one part of several that is asked.

"Q4 (3 marks): …", "Exercise 6\n(a) … (b) …\nAnswer part (b) only.", "Show your working." The number of a
question is no figure ("Q4" is no 4-bit quant, "Q6" no precision), the marks and the rounding asked are no
figures either, and of lettered parts only the one the reader says to answer is asked: the other parts stay as
its setup when they name something, and go when they only ask ("(a) flat ring time").
"""
from __future__ import annotations

import re

# "Q4 (3 marks):", "Question 2.", "Exercise 2.b", "Problem 3:", "Task 1 -" at a line's start. A bare "Q4" is a
# number only with marks or punctuation after it: "Q4 llama 8b, memory?" may be a 4-bit quant
_MARKED = r"[\(\[][ \t]*\d+[ \t]*(?:marks?|pts?|points?)[ \t]*[\)\]]"  # "(3 marks)", "[4 pts]"
_NUMBERED = re.compile(
    rf"(?im)^[ \t]*(?:(?:question|exercise|problem|task)[ \t]*\d+(?:\.\d+)?(?:\.?[a-e]\b)?(?:[ \t]*\([ \t]*[a-e][ \t]*\))?"
    rf"(?:[ \t]*{_MARKED})?[ \t]*[:.)\-]?"
    rf"|q[ \t]?\d+[a-e]?(?=[ \t]*(?:{_MARKED}|[:.)](?=\s|$)|$))(?:[ \t]*{_MARKED})?[ \t]*[:.)]?)")
_MARKS = re.compile(rf"\s*{_MARKED}", re.I)
_WORKING = re.compile(r"\s*\b(?:show|explain)\s+(?:your|all|the)\s+(?:working|workings|work|steps)\b\.?", re.I)
_ROUNDING = re.compile(r"\s*\(?\s*\b(?:round(?:ed)?|give (?:it|the answer))\s+to\s+(?:\d+|one|two|three)\s+"
                       r"(?:d\.?\s?p\.?|decimal places?|s\.?\s?f\.?|sig(?:nificant)?\.?\s+fig(?:ure)?s?)\s*\)?\.?", re.I)

# "Answer part (b) only.", "Answer (b).", "answer 7(b) only", "only part b", "just do (c)"
_CHOSEN = re.compile(r"(?i)[^\n.;]*?\b(?:answer|do|solve|give|find)\s+(?:only\s+|just\s+)?(?:part\s+)?(?:\d+\s*)?"
                     r"\(\s*(?P<letter>[a-e])\s*\)(?:\s+only)?\s*[.!]?"
                     r"|[^\n.;]*?\b(?:only|just)\s+(?:answer\s+|do\s+)?part\s+\(?(?P<letter2>[a-e])\)?\b\s*[.!]?")
# a lettered part: "(a) …", "a) …", "b. …" at a line's start, or "(b) …" inside a line
_PART = re.compile(r"(?im)^[ \t]*(?:\(\s*(?P<a>[a-e])\s*\)|(?P<b>[a-e])[).](?=\s))|(?<=[\s;:])\(\s*(?P<c>[a-e])\s*\)")


def as_one_part(question: str) -> tuple[str, list[str]]:
    """The question without its exam layout; when one of several lettered parts is asked, that part last."""
    text = _NUMBERED.sub("", question)
    text = _WORKING.sub("", _ROUNDING.sub("", _MARKS.sub("", text))).strip()
    chosen = _CHOSEN.search(text)
    if chosen is None or len(_PART.findall(text)) < 2:
        return (question, []) if text == question.strip() else (text, [])
    letter = (chosen["letter"] or chosen["letter2"]).lower()
    text = text[:chosen.start()] + text[chosen.end():]
    parts = list(_PART.finditer(text))
    asked, setup = "", []
    for k, part in enumerate(parts):
        body = text[part.end():parts[k + 1].start() if k + 1 < len(parts) else len(text)].strip()
        if (part["a"] or part["b"] or part["c"]).lower() == letter:
            asked = body
        elif re.search(r"\d", body):  # a part that names the setup stays; one that only asks goes
            setup.append(body)
    if not asked:
        return text.strip(), []
    head = text[:parts[0].start()].strip()
    return "\n".join(x for x in (head, *setup, asked) if x), [f"answering part ({letter})"]
