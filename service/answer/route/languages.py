"""A question typed partly in another language, or with its numbers written the European way → English words.

Engineers ask in their own language around the technical terms: "wie viele Karten brauch ich", "cuántas L40S
necesito", "combien de temps pour un all-gather de 2 Go", "kitne din lagenge". They write a decimal comma
("1,5 TB/s", "MFU 0,4", "37,5 FLOP/B") and a thousands dot ("1.000.000 tokens", "1.024 GPUs"), and French units
("Go", "To"). The figures are read first (a misread comma is a figure ten or a hundred times off, stated with
confidence); then the common question words and nouns of German, Spanish, French, Portuguese, Italian, Hindi
written in Latin letters and Chinese pinyin become the English the tagger reads. Only whole words are replaced,
and only words with no meaning in an English question about AI infrastructure.
"""
from __future__ import annotations

import re

# "1,5" "37,5" "0,25": a comma with one or two digits after it and no digit group around it is a decimal comma
# ("1,024" and "8,192" are digit groups; "1,2,4,8" a list)
_DECIMAL_COMMA = re.compile(r"(?<![\d,.])(\d+),(\d{1,2})(?![\d,])")
# "1.000.000": two or more dot groups; "1.024 GPUs", "65.536 ctx": one group before a count that has no fractions
_DOT_GROUPS = re.compile(r"(?<![\d.,])\d{1,3}(?:\.\d{3}){2,}(?![\d.,])")
_COUNTED = r"(?:gpus?|cards?|chips?|ranks?|nodes?|tokens?|ctx|context|seqs?|sequences?|users?|requests?|steps?)\b"
_DOT_GROUP = re.compile(rf"(?<![\d.,])(\d{{1,3}})\.(\d{{3}})(?=\s*(?:{_COUNTED}|[A-Za-z]{{1,3}}\d{{2,4}}\b))", re.I)
# "15,6 trillions of tokens", "one hundred twenty billions of parameters": a scale word in the plural after a number
_PLURAL_SCALE = re.compile(r"\b((?:\d[\d.]*|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|"
                           r"sixty|seventy|eighty|ninety|hundred)\s+)(thousand|million|billion|trillion)s(?:\s+of)?\b", re.I)
# "which is the velocity of tokens for …": one figure asked with "which", as "what" would ask it
_WHICH_FIGURE = re.compile(r"\bwhich is the (?=(?:velocity|speed|time|size|memory|number|value|throughput|quantity)\b)",
                           re.I)
_FRENCH_UNITS = re.compile(r"(?<=\d)\s*(Go|To|Mo|Ko)\b")
_FRENCH = {"Go": " GB", "To": " TB", "Mo": " MB", "Ko": " kB"}

_PHRASES = [(re.compile(rf"(?<![\w-]){pattern}(?![\w-])", re.I), words) for pattern, words in (
    # German
    (r"wie viele", "how many"), (r"wie ?viel", "how much"), (r"wie lange(?: dauert(?: das)?)?", "how long"),
    (r"passt", "does it fit"), (r"brauch(?:e|t)?(?: ich)?", "do i need"), (r"mindestens", "at least"),
    (r"speicher", "memory"), (r"karten", "cards"), (r"(?:be)?nutzer(?:n|innen)?", "users"), (r"anfragen", "requests"),
    (r"kontext", "context"), (r"gewichte", "weights"), (r"knoten", "nodes"),
    (r"bleibt", "left"), (r"frei", "free"), (r"milliarden", "billion"), (r"billionen", "trillion"),
    (r"tage", "days"), (r"stunden", "hours"), (r"rechenaufwand", "compute"), (r"über", "over"), (r"auf", "on"),
    (r"mit", "with"), (r"für", "for"), (r"nur", "only"), (r"pro(?= (?:gpu|karte|knoten|node|chip|rank))", "per"),
    # Spanish
    (r"cu[aá]nt[ao]s?(?: tiempo)? tarda", "how long"), (r"cu[aá]nt[ao] tiempo", "how long"),
    (r"cu[aá]nt[ao]s", "how many"), (r"cu[aá]nt[ao]", "how much"), (r"necesito", "do i need"),
    (r"pesos", "weights"), (r"usuarios", "users"), (r"peticiones|solicitudes", "requests"), (r"contexto", "context"), (r"memoria", "memory"), (r"horas", "hours"), (r"d[ií]as", "days"),
    (r"entrenar", "train"), (r"con", "with"), (r"sobre", "over"), (r"libre", "free"),
    (r"mil millones", "billion"), (r"solo", "only"), (r"desde", "from"), (r"por", "per"),
    (r"segundos?", "second"),
    # French
    (r"combien de temps", "how long"), (r"combien", "how much"), (r"m[ée]moire", "memory"), (r"jours", "days"),
    (r"heures", "hours"), (r"utilisateurs", "users"), (r"requ[êe]tes", "requests"), (r"contexte", "context"), (r"sur", "on"), (r"avec", "with"), (r"reste", "left"), (r"milliards", "billion"),
    (r"totale?", "total"), (r"à", "of"),
    # Portuguese and Italian
    (r"quanto tempo(?: (?:leva|demora|ci vuole))?", "how long"), (r"quant[ao]s|quante|quanti", "how many"),
    (r"quanto", "how much"), (r"preciso", "do i need"), (r"treinar", "train"),
    (r"mem[óo]ria", "memory"), (r"usu[áa]rios|utenti", "users"), (r"requisi[çc][õo]es|richieste", "requests"), (r"giorni", "days"), (r"ore", "hours"), (r"em", "in"),
    # Hindi in Latin letters
    (r"kitne din", "how many days"), (r"kitna time", "how long"), (r"kitne|kitni", "how many"),
    (r"kitna", "how much"), (r"lagega|lagenge|lagegi|milenge|milega|chahiye|hain|hai|yaar|sirf", ""),
    (r"pe", "on"), (r"mein", "in"),
    # Chinese in pinyin
    (r"suanli fengzhi|fengzhi suanli", "peak compute"), (r"duoshao", "how much"), (r"xiancun", "memory"),
    (r"shijian", "time"),
)]


def in_english(text: str) -> str:
    """The question with European number formats made English and its foreign question words translated."""
    text = _DECIMAL_COMMA.sub(r"\1.\2", text)
    text = _DOT_GROUPS.sub(lambda m: m.group(0).replace(".", ""), text)
    text = _DOT_GROUP.sub(r"\1\2", text)
    text = _FRENCH_UNITS.sub(lambda m: _FRENCH[m.group(1)], text)
    text = _PLURAL_SCALE.sub(r"\1\2", text)
    text = _WHICH_FIGURE.sub("what is the ", text)
    for pattern, words in _PHRASES:
        text = pattern.sub(words, text)
    return text
