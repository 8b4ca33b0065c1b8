"""A figure given in parts is their total: "prompt 3k + 1k output", "20 turns of 500 tokens", "two 512 MB buckets".

Readers describe one request's length, one buffer or one training run's tokens in pieces: "a 2k system prompt
plus a 6k user message", "12k in + 4k out", "sys prompt 1k, history 14k, new msg 1k", "three docs of 8k plus a
2k instruction", "a 700 MB embedding table + 300 MB of other weights", "1T tokens + 500B more". Read as typed,
the binder took the first piece and computed on it with confidence. Pieces of one kind (tokens, bytes) joined by
"+", "plus", "and", a comma or "in … out", with nothing but their own words between them, become one figure
whose value is their sum; "N turns / docs / chunks / buckets of X" and "two 512 MB buckets" are N × X.
Different kinds ("16 users at 32k") are never added.

A request's context given in labelled parts the tagger cannot see as tokens ("ISL 1024 / OSL 256", "4k in / 1k
out", "a 3,000-token prompt + 1,000 generated", "prompts are 3,000 tokens, output is capped at 1,000", "prefill 8192
then decode 1024") is summed before tagging (`as_context_summed`): the cache at the end of generation holds every
part; asked "right after prefill" or "before it generates anything", only the prompt's parts count. The words that
only say when ("once every request has finished generating", "at the end of generation") go with the parts, so they
ask for no decode rate.
"""
from __future__ import annotations

import re

from rapidfuzz import process
from rapidfuzz.distance import OSA
from spacy.tokens import Doc

_JOINS = {"+", "plus", "and", ",", "&", "then", "followed"}  # ("a 500B-token stage then a 100B-token one")
_PIECES = {"turns", "turn", "docs", "doc", "documents", "chunks", "chunk", "messages", "pages", "files", "passages",
           "buckets", "bucket", "tensors", "shards", "rounds", "exchanges", "layers", "groups", "blocks"}
_STOPS = {".", "?", "!", ";", ":", "—", "-", "at", "on", "for", "per", "each", "with", "x", "×", "batch", "users", "why",
          "not", "no", "but", "vs", "versus", "than",
          "requests", "seqs", "sequences", "chats", "gpus"}
_GAP = 5  # words a piece's own description may run to ("of prompt", "system prompt", "of other weights")


def with_parts_added(doc: Doc, tags: list) -> list:
    """The tags with each figure given in parts made one figure."""
    tags = _multiplied(doc, tags)
    figures = [t for t in tags if t.label == "QUANTITY"]
    groups, i = [], 0
    while i < len(figures):
        j = i
        while j + 1 < len(figures) and (_same_kind(figures[j], figures[j + 1])
                                        or _token_sizes(doc, tags, figures, j)) \
                and _joined(doc, tags, figures[j], figures[j + 1]):
            j += 1
        if j > i:
            groups.append(figures[i:j + 1])
        i = j + 1
    for group in groups:  # (a word among the pieces that asks for no calculation describes a piece: "100B code")
        tags = [t for t in tags if t not in group
                and not (t.label == "CUE" and t.key == "outside" and (group[0].start <= t.start < group[-1].end or (
                    group[-1].end <= t.start <= group[-1].end + 3 and t.text.lower() in _STAGES)))]  # ("100B of fresh code")
        tags.append(_total(group, tokens=_tokens_follow(doc, group[-1])))
    return sorted(tags, key=lambda t: (t.start, -t.end))


def _total(group: list, tokens: bool = False):
    """One figure for its pieces, with how it was read ("“3k + 1k” added up (k = 1,024)")."""
    first, said = group[0], " + ".join(t.text for t in group)
    kind = "tokens" if tokens or any(_kind(t.key) == "tokens" for t in group) else _kind(first.key)
    note = f"“{said}” added up" + (" (k = 1,024)" if any(_thousands(t) for t in group) else "")
    return type(first)(first.label, kind, first.start, group[-1].end, said, sum(_piece(t) for t in group), first.unit,
                       note)


def _kind(key: str) -> str:
    return "tokens" if key.startswith("tokens") else key


def _thousands(t) -> bool:
    return _kind(t.key) == "tokens" and bool(re.fullmatch(r"[\d.,]+\s*k", t.text.strip(), re.I))


def _piece(t) -> float:
    """A piece's value; "k" tokens are 1,024s in a request's parts (they add up to a window: 3k + 1k = 4k)."""
    if _thousands(t):
        return float(re.match(r"[\d.,]+", t.text.strip()).group(0).replace(",", "")) * 1024
    return t.value or 0.0


def _same_kind(a, b) -> bool:
    if not (a.value and b.value):
        return False
    kinds = {_kind(a.key), _kind(b.key)}
    # a training run's tokens in parts: "1T tokens + 500B more", "800B english + 200B multilingual tokens"
    if kinds == {"tokens", "size_name"}:
        return min(a.value, b.value) >= 1e9
    return len(kinds) == 1 and kinds <= {"tokens", "bytes"}


def _token_sizes(doc: Doc, tags: list, figures: list, j: int) -> bool:
    """"800B english + 200B multilingual tokens", "300B general + 100B code + 50B math tokens": bare sizes joined
    one after another, which the word "tokens" after the last of them counts; or each said of a training stage
    ("1.2T pretraining tokens + 300B of midtraining", "2T of pretraining, then 300B of … and 200B of long-context")."""
    for a, b in zip(figures[j:], figures[j + 1:]):
        if not (_kind(a.key) in ("size_name", "tokens") and b.key == "size_name" and min(a.value or 0, b.value or 0) >= 1e9
                and _joined(doc, tags, a, b)):
            return False
        if _tokens_follow(doc, b) or (_of_a_stage(doc, a) and _of_a_stage(doc, b)):
            return True
    return False


_STAGES = {"pretraining", "pre-training", "midtraining", "mid-training", "annealing", "continued", "sft", "code",
           "long-context", "long", "web", "math", "tokens", "token", "data"}


def _of_a_stage(doc: Doc, t) -> bool:
    return any(w.lower_ in _STAGES for w in doc[t.end:t.end + 3])


def _tokens_follow(doc: Doc, t) -> bool:
    return any(w.lower_ in ("tokens", "token", "toks") for w in doc[t.end:t.end + 2])


def _joined(doc: Doc, tags: list, a, b) -> bool:
    """Nothing but a join and the pieces' own words between two figures: "3k + 1k", "2k system prompt plus a 6k"."""
    between = [doc[k].lower_ for k in range(a.end, b.start)]
    if len(between) > _GAP + 2 or not (_JOINS & set(between) or {"in", "out"} <= set(between) | _after(doc, b)):
        return False
    if _STOPS & set(between):
        return False
    return not any(t.label in ("QUANTITY", "COUNT", "NUMBER", "MODEL", "GPU") and a.end <= t.start < b.start for t in tags)


def _after(doc: Doc, b) -> set[str]:
    return {doc[b.end].lower_} if b.end < len(doc) else set()


def _multiplied(doc: Doc, tags: list) -> list:
    """"20 turns of 500 tokens", "3 docs of 2k", "two 512 MB buckets": so many pieces of one size."""
    out = list(tags)
    numbers = [t for t in tags if t.label == "NUMBER" and t.value]
    figures = [t for t in tags if t.label == "QUANTITY" and t.value and _kind(t.key) in ("tokens", "bytes")]
    for n in numbers:
        for f in figures:
            words = [doc[k].lower_ for k in range(n.end, f.start)]
            # "3 docs of 2k", "20 turns each of 500 tokens", "32 layer buckets of 200 MB", "4 expert groups x 64 MB",
            # "3 decoder layers at 420 MB each"
            before = len(words) in (2, 3) and words[-1] in ("of", "x", "×", "at") and (
                words[0] in _PIECES and (len(words) == 2 or words[1] in ("each",))
                or len(words) == 3 and words[1] in _PIECES)
            each = f.end < len(doc) and doc[f.end].lower_ in ("each", "apiece")
            if before and words[-1] == "at" and not each:
                continue  # ("3 docs at 2k" says no size of each)
            after = f.start == n.end and f.end < len(doc) and doc[f.end].lower_ in _PIECES
            if before or after:
                product = type(f)(f.label, _kind(f.key), n.start, f.end + (1 if after or each else 0),
                                  f"{n.text} × {f.text}", n.value * f.value, f.unit, f"“{n.text} × {f.text}” multiplied")
                out = [t for t in out if t is not n and t is not f] + [product]
                break
    out.sort(key=lambda t: (t.start, -t.end))
    return out


# a request's context in labelled parts, read from the text (the tagger sees "OSL 256" as a bare number)
def _figure(n: int) -> str:
    return rf"(?P<n{n}>\d+(?:,\d{{3}})*(?:\.\d+)?)(?:\s*(?P<k{n}>[kK]))?"


_PROMPT_WORDS = (r"prompt_eval_count|(?:random[-_])?input[-_]len|prompt_tokens|input_tokens|tokens\s+in|"
                 r"input\s+seq(?:uence)?\s+len(?:gth)?|prompts?|inputs?|isl|in|prefill|system\s+prompt|"
                 r"system\s+part|user\s+part|history|chat\s+history|document|doc|new\s+(?:msg|message)|prefix|suffix|"
                 r"(?:user\s+)?question|retrieved\s+(?:context|chunks|passages)|rag\s+context|context|"
                 r"instructions?(?:\s+block)?|query|few-shot\s+examples|examples|"
                 # "800 sys + 6,000 doc + 200 q", "kb article 5,000", "2,500 of tool specs + 3,500 of scratchpad"
                 r"sys(?:tem)?|(?<!single )(?<!one )(?<!per )(?<!each )user(?:\s+(?:msg|message|turn|input|q))?|q|"
                 # "hist 4,500 + my msg 300", "convo so far 2,600 + latest msg 150", "few-shot 3 x 800"
                 r"hist|(?:my\s+|latest\s+|last\s+|next\s+)?(?:msg|message|mesage)|convo(?:\s+so\s+far)?|"
                 r"conversation\s+so\s+far|few-shot|tool\s+results?|(?:pasted\s+)?transcript|(?:kb\s+)?article|tool\s+specs?|scratchpad")
_OUTPUT_WORDS = (r"eval_count|(?:random[-_])?output[-_]len|output_tokens|completion_tokens|max_new_tokens|tokens\s+out|"
                 r"output\s+seq(?:uence)?\s+len(?:gth)?|outputs?|osl|out|completions?|generated|generation|generates|"
                 r"reply|replies|answers?|final\s+answer|middle|"
                 r"decode(?:\s+steps)?|decoded|thinking(?:\s+tokens)?|reasoning(?:\s+tokens)?|response|responses|new\s+tokens|"
                 r"summary|decode\s+steps|steps\s+of\s+decode|tokens\s+generated")
# "8 examples at 400 tokens each", "4 chunks of 2048": so many prompt pieces of one size
# "45 msgs averaging 250 tokens", "40 messages so far (user and bot combined) at ~300 tokens each", "3 examples x 700"
_PIECES_OF = re.compile(r"(?<![\w.,])(?:top\s+)?(?P<count>\d+)\s+(?:earlier\s+|previous\s+|past\s+|prior\s+)?"
                        r"(?:few-shot\s+|user\s+|bot\s+|assistant\s+|model\s+|retrieved\s+)?"
                        r"(?:examples|shots|documents|docs|pdfs|chunks|turns|messages|msgs|passages|exchanges|tool\s+results|"
                        r"(?P<out>replies|answers|responses))(?:\s+so\s+far)?(?:\s*\([^()]{0,40}\))?\s*"
                        r"(?:at|of|x|×|@|averaging|avg|each\s+of)\s+"
                        r"(?:about\s+|around\s+|roughly\s+)?(?P<size>\d+(?:,\d{3})*)(?:\s*(?P<k>[kK]))?(?:[\s-]*tokens?)?"
                        r"(?:\s+each)?", re.I)
# "few-shot 3 x 800", "chunks 6 × 512": the pieces named first, then how many of what size
_NOUN_COUNT_SIZE = re.compile(r"\b(?:few-shot(?:\s+examples)?|examples|chunks|passages|docs|documents|tool\s+results)\s+"
                              r"(?P<count>\d+)\s*[x×*]\s*(?P<size>\d+(?:,\d{3})*)(?:\s*(?P<k>[kK]))?(?:[\s-]*tokens?)?", re.I)
# "the model answers in 100 tokens", "replies with about 300 tokens": the output, said by its verb
_ANSWERS_IN = re.compile(r"\b(?:(?:the\s+)?model\s+|it\s+|they\s+)?(?:answers?|replies|responds|writes|generates)\s+(?:(?:in|with)\s+(?:about\s+|up\s+to\s+|~)?"
                         r"(?P<size>\d+(?:,\d{3})*)\s*(?P<k>[kK])?[\s-]*tokens?\b|an?\s+(?P<size2>\d+(?:,\d{3})*)\s*(?P<k2>[kK])?"
                         r"[\s-]*tokens?\s+(?:middle|answer|reply|summary|completion|response|output)\b)", re.I)
# "the user sends 800 tokens", "the model thinks for 15,000 and answers in 1,200": the parts said by their verbs, the
# word "tokens" left out once the first part has said it
_SAID_BY_VERB = re.compile(r"\b(?:(?:the\s+)?(?:user|model|it|they|i|we)\s+)?(?P<verb>sends?|pastes?|submits?|thinks?|reasons?|"
                           r"answers?|replies|responds)\s+(?:(?:for|in|with)\s+)?(?:about\s+|~)?"
                           r"(?P<size>\d+(?:,\d{3})*)(?:\s*(?P<k>[kK]))?(?:[\s-]*tokens?\b|(?=\s*(?:[.,;)]|and\b|$)))", re.I)
# "packed into one sequence", "trained as one sequence": the parts' sequence, not a batch of one
_ONE_SEQUENCE = re.compile(r"\s*,?\s*(?:packed\s+|trained\s+)?(?:in)?(?:to|as)\s+(?:one|a\s+single)\s+sequence\b", re.I)


def _words(n: int) -> str:
    return rf"(?P<label{n}>{_PROMPT_WORDS}|{_OUTPUT_WORDS})"


# "1,500-token prompt", "4k in", "a 2k answer", "24,000 thinking tokens" | "ISL 1024", "history 6k", "ISL=1024",
# "prompts are 3,000 tokens", "output is capped at 1,000"
_PART = re.compile(
    rf"(?<![\w.,]){_figure(1)}(?:[\s-]*tokens?)?[\s-]+(?:of\s+)?{_words(1)}\b(?:\s+tokens?\b)?"
    rf"|\b(?!(?:in|out)\s+\d){_words(2)}(?:\s+tokens?)?(?:\s*[:=]\s*|\s+(?:is|are|of|will\s+be|wil\s+be)\s+(?:capped\s+at\s+|up\s+to\s+|about\s+|~)?|"
    rf"\s+(?:capped|limited)\s+at\s+|\s+up\s+to\s+|\s+(?:around|about|roughly)\s+|\s+)"
    rf"{_figure(2)}(?![\w]|\.\d|,\d|\s*(?:tok(?:ens)?/s|ms|s\b|%|users|requests|seqs|sequences|gpus|x\b))"
    # (not a figure its own label follows: "few-shot prompt: 2100 prompt tokens" is the 2100 of the prompt)
    rf"(?!(?:[\s-]*tokens?)?[\s-]+(?:of\s+)?(?:{_PROMPT_WORDS}|{_OUTPUT_WORDS})[\s-]+tokens?\b|"
    rf"[\s-]*tokens?[\s-]+(?:of\s+)?(?:{_PROMPT_WORDS}|{_OUTPUT_WORDS})\b)(?:[\s-]*tokens?\b)?",
    re.I)
_JOINED = re.compile(r"^\s*(?:\+|/|,|;|\||and|plus|then|with|&|->|→|\.|--|on\s+top\s+of)?\s*(?:and\s+|plus\s+|then\s+|a\s+|an\s+|--|"
                     r"the\s+(?:user\s+|bot\s+|model\s+|actual\s+|next\s+|final\s+|new\s+)?)*"
                     r"(?:(?:is|are)\s+)?$", re.I)
_PROMPT_ONLY = re.compile(r"\b(?:right\s+)?after\s+(?:the\s+)?prefill\b|\bbefore\s+(?:it|they|decoding|generation|the\s+first\s+"
                          r"(?:output\s+)?token)\b|\bprompt\s+(?:alone|only)\b|\bonly\s+the\s+prompt\b|\bend\s+of\s+prefill\b|"
                          r"\bprefill\s+(?:is\s+)?(?:done|finished|complete|ends)\b|\bbefore\s+token\s+one\b|"
                          # "right before it starts answering", "before the summary starts", "the very first answer
                          # token", "at the first decode step, so only the input is in there"
                          r"\bbefore\s+(?:it|they)\s+(?:starts?\s+|begins?\s+)?(?:answering|replying|writing|write|writes|"
                          r"generating|responding)\b|\bbefore\s+the\s+(?:\w+\s+)?(?:summary|reply|replies|answer|answers|"
                          r"output|response|responses)\s+(?:starts?|begins?)\b|\bfirst\s+(?:answer|output|reply|response)\s+token\b|"
                          r"\bfirst\s+decode\s+step\b|\bonly\s+the\s+(?:input|prompt)\s+is\b", re.I)
# "right after prefill, before it generates anything": when, not a prefill figure asked
_PROMPT_ONLY_SAID = re.compile(r",?\s*(?:right\s+)?after\s+(?:the\s+)?prefill(?:\s+(?:is\s+)?(?:done|finished|complete))?|"
                               r",?\s*before\s+(?:it|they)\s+(?:generates?|decodes?|outputs?)\s+anything|"
                               r",?\s*before\s+the\s+first\s+(?:output\s+)?token|"
                               r",?\s*(?:the\s+)?(?:instant|moment|second)\s+prefill\s+(?:ends|is\s+done|finishes)|"
                               r",?\s*before\s+token\s+one(?:\s+of\s+any\s+(?:answer|output|reply))?", re.I)
# when the figure is wanted, not what is asked: the words go with the parts
_WHEN = re.compile(r",?\s*\b(?:once\s+(?:every\s+request\s+has|they(?:'ve|\s+have)?|all\s+(?:requests\s+)?(?:have)?)\s*"
                   r"(?:all\s+)?(?:finished|done)(?:\s+generating)?|once\s+they'?re\s+all\s+done|"
                   r"when\s+(?:they|all\s+of\s+them|the\s+requests)\s+(?:all\s+)?(?:finish|are\s+done)(?:\s+generating)?|"
                   r"at\s+the\s+end\s+of\s+(?:generation|generaton|decoding|decode)|at\s+the\s+end|"
                   r"after\s+the\s+last\s+(?:generated\s+|output\s+)?token|"
                   r"(?:all\s+|have\s+|having\s+)?finished\s+generating|"
                   r"as\s+the\s+(?:replies|answers|completions|outputs)\s+finish|when\s+(?:the\s+)?(?:generation|decoding)"
                   r"\s+(?:ends|finishes))\b", re.I)


def as_context_summed(question: str) -> tuple[str, list[str]]:
    """The question with a context given in parts replaced by their sum (or by the prompt's parts, when only the
    prefill is asked about), and a note of the sum."""
    typed = question
    question = _as_pieces_typed(question)
    # ("18 bot replies avg 220 tok" earlier in a chat are its history: a prompt's part, like one reply of one)
    question = _PIECES_OF.sub(lambda m: f"{int(m.group('count')) * _size(m)} "
                                        f"{'output' if m.group('out') and int(m.group('count')) == 1 else 'prompt'} tokens",
                              question)
    question = _NOUN_COUNT_SIZE.sub(lambda m: f"{int(m.group('count')) * _size(m)} prompt tokens", question)
    question = _ANSWERS_IN.sub(lambda m: f"{_answer_size(m)} output tokens", question)
    if len(_SAID_BY_VERB.findall(question)) >= 2:
        question = _SAID_BY_VERB.sub(lambda m: f"{_size(m)} {_verb_part(m)} tokens", question)
    parts = _parts(question)
    if len(parts) < 2 or not any(_is_prompt(m) for m in parts):
        return typed, []
    # ("1,200 tok system prompt, top 10 chunks at 800 each, user question ~150": three parts listed are added)
    listed = len(parts) >= 3 and not any(_label(m) == "context" for m in parts)
    if not any(not _is_prompt(m) for m in parts) and not listed and not all(
            "+" in question[a.end():b.start()] or (re.search(r"\b(?:and|plus|then|on\s+top\s+of)\b", question[a.end():b.start()])
                                                   and "context" not in (_label(a), _label(b)))
            for a, b in zip(parts, parts[1:])):
        return typed, []  # prompt parts only, not added: "a 4k prompt, the 8k context window"
    prompt_only = bool(_PROMPT_ONLY.search(question))
    counted = [m for m in parts if _is_prompt(m) or not prompt_only]
    total = sum(_value(m) for m in counted)
    said = " + ".join(f"{_value(m):,}" for m in counted) + (f" = {total:,}" if len(counted) > 1 else "")
    why = ("the prompt only, before any output" if prompt_only else "the prompt's parts" if all(map(_is_prompt, counted))
           else "prompt and output together: the whole sequence")
    text = question[:parts[0].start()] + f"context {total} tokens" + question[parts[-1].end():]
    text = _ONE_SEQUENCE.sub("", (_WHEN if not prompt_only else _PROMPT_ONLY_SAID).sub("", text))
    return text, [f"context {said} tokens ({why})"]


# "~1,200 tok system prompt", "user question ~150": the figure without its tilde, "tok" as "tokens"
_TILDE = re.compile(r"~\s*(?=\d)")
_TOK = re.compile(r"(?<=\d)(\s*)toks?\b(?!/)", re.I)  # (not a rate: "40 tok/s")
# "500 tokens into a 1,000 token reply": so far, the reply holds its first 500
_INTO_A_REPLY = re.compile(r"\b(?:(?:it'?s|it\s+is|we'?re|we\s+are)\s+)?(?:now\s+)?(?P<n>\d+(?:,\d{3})*)\s+tokens?\s+into\s+(?:a|the|its)\s+\d+(?:,\d{3})*[\s-]*tokens?\s+"
                           r"(?P<part>reply|answer|output|response|summary)\b", re.I)
_LABELS = ("history", "thinking", "question", "instructions", "messages", "summary", "answer", "output", "prompt",
           "reply", "response", "scratchpad", "examples", "chunks", "system")


def _as_pieces_typed(question: str) -> str:
    """The parts' typing made plain: no tildes, "tok" as "tokens", a slipped label mended ("histroy", "thinkng")."""
    if len(re.findall(r"\d", question)) < 2:
        return question
    question = _TOK.sub(r"\1 tokens", _TILDE.sub("", question))
    question = _INTO_A_REPLY.sub(lambda m: f"{m['n']} token {m['part']}", question)

    def mended(m: re.Match) -> str:
        word = m.group("word") or m.group("word2")
        near = None if word.lower() in _LABELS else process.extractOne(word.lower(), _LABELS, scorer=OSA.distance,
                                                                         score_cutoff=1)
        return (m.group("pre") or "") + (near[0] if near else word)
    return _LABEL_TYPED.sub(mended, question)


# a label beside a figure: "250 token qeustion", "3,500 histroy", "400 tokens of instructons", "histroy is 2,000"
_LABEL_TYPED = re.compile(r"(?P<pre>\d[\s-]+(?:tokens?[\s-]+)?(?:of\s+)?)(?P<word>[A-Za-z]{6,})\b|"
                          r"\b(?P<word2>[A-Za-z]{6,})(?=\s+(?:is\s+)?\d)")


def _parts(question: str) -> list[re.Match]:
    """The longest run of parts written one after another ("ISL 1024 / OSL 256", "2k + 6k + 500 + a 1,500 reply")."""
    found = list(_PART.finditer(question))
    runs: list[list[re.Match]] = []
    for m in found:
        if runs and _JOINED.match(question[runs[-1][-1].end():m.start()]):
            runs[-1].append(m)
        else:
            runs.append([m])
    return max(runs, key=len, default=[])


def _label(m: re.Match) -> str:
    return re.sub(r"\s+", " ", (m.group("label1") or m.group("label2")).lower())


def _is_prompt(m: re.Match) -> bool:
    return re.fullmatch(_PROMPT_WORDS, _label(m), re.I) is not None


def _tokens(number: str, k: str | None) -> int:
    """"1,500" → 1500, "4" with "k" → 4096 (a k of context is 1,024 tokens)."""
    return round(float(number.replace(",", "")) * (1024 if k else 1))


def _size(m: re.Match) -> int:
    return _tokens(m.group("size"), m.group("k"))


def _verb_part(m: re.Match) -> str:
    verb = m.group("verb").lower()
    return "prompt" if verb.startswith(("send", "paste", "submit")) else "thinking" if verb.startswith(("think", "reason")) \
        else "output"


def _answer_size(m: re.Match) -> int:
    """"answers in 100 tokens" or "writes a 250-token middle"."""
    return _tokens(m.group("size"), m.group("k")) if m.group("size") else _tokens(m.group("size2"), m.group("k2"))


def _value(m: re.Match) -> int:
    n = 1 if m.group("n1") else 2
    return _tokens(m.group(f"n{n}"), m.group(f"k{n}"))
