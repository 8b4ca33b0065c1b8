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

_PHRASE_LIST = [(pattern, words) for pattern, words in (
    # why a figure is what it is (before "por" is read as "per"): "¿por qué …?", "pourquoi", "warum", "¿qué limita …?"
    (r"¿?\s*por qu[ée]", "why"), (r"pourquoi", "why"), (r"warum|wieso|weshalb", "why"), (r"perch[ée]", "why"),
    (r"¿?\s*qu[ée] (?:limita|determina)", "what limits"), (r"qu'est-ce qui (?:limite|détermine)", "what limits"),
    (r"was (?:begrenzt|bestimmt)", "what limits"), (r"o que (?:limita|determina)", "what limits"),
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
    # German figures and words not above
    (r"mrd\.?", "billion"), (r"bio\.?(?= tokens)", "trillion"), (r"parametern", "parameters"),
    (r"ein(?:e)? einzelne", "a single"), (r"ein(?:e|en)? modell", "a model"), (r"gewichte gerechnet", "weights"),
    (r"pro sekunde", "per second"), (r"sekunden?", "seconds"), (r"trainieren", "train"), (r"grafikkarten", "cards"),
    (r"reicht(?: das)?", "is it enough"), (r"durchsatz", "throughput"),
    # French, Italian, Portuguese and Spanish words not above
    (r"combien de(?! temps)", "how many"), (r"faut-il", ""), (r"tient(?:-il)?", "does it fit"), (r"poids", "weights"),
    (r"jetons", "tokens"), (r"par seconde", "per second"), (r"n(?:œ|oe)uds", "nodes"), (r"cartes", "cards"),
    (r"entra[îi]ner", "train"), (r"d[ée]bit", "throughput"), (r"reste-t-il", "left"),
    (r"quanta", "how much"), (r"pesi", "weights"), (r"nodi", "nodes"), (r"schede", "cards"), (r"addestrare", "train"),
    (r"al secondo", "per second"), (r"miliardi", "billion"), (r"liber[ao]", "free"), (r"rimane", "left"),
    (r"n[óo]s", "nodes"), (r"placas", "cards"), (r"por segundo", "per second"), (r"bilh[õo]es", "billion"),
    (r"trilh[õo]es", "trillion"), (r"cabe", "does it fit"), (r"sobra|queda", "left"), (r"livre", "free"),
    (r"tarjetas", "cards"), (r"billones", "trillion"),
    # half a million, said in each language
    (r"(?:een )?half miljoen|medio mill[oó]n|un demi-million|eine halbe million|meio milh[ãa]o|mezzo milione|"
     r"p[óo][łl] miliona|yar[ıi]m milyon|setengah juta", "500,000"),
    # Spanish words not above
    (r"nodos", "nodes"), (r"de(?= \d)", "of"), (r"cada uno", "each"), (r"esquema jer[aá]rquico|jer[aá]rquico", "hierarchical"),
    # Dutch
    (r"hoe groot", "how big"), (r"hoe lang", "how long"), (r"hoeveel", "how many"), (r"geheugen", "memory"),
    (r"gebruikers", "users"), (r"[ée][ée]n", "one"), (r"sequentie", "sequence"), (r"bij", "at"),
    (r"per seconde", "per second"), (r"trainen", "train"), (r"knooppunten", "nodes"), (r"kaarten", "cards"),
    (r"gewichten", "weights"), (r"vrij", "free"), (r"miljoen", "million"), (r"miljard", "billion"), (r"biljoen", "trillion"), (r"dagen", "days"), (r"uren", "hours"),
    # Polish ("ile" before its noun: Turkish "ile" is "with")
    (r"ile trwa", "how long"), (r"ile(?= (?:kart|gpu|chip|pami[eę]ci|token[óo]w|czasu|bajt[óo]w|gb|dni|godzin|to\b))",
     "how many"), (r"kart", "cards"), (r"potrzeba", "do i need"), (r"minimalnie", "at least"),
    (r"same wagi|tylko wagi", "weights only"), (r"wagi", "weights"), (r"licz[eę]", ""), (r"chipach", "chips"),
    (r"u[żz]ytkownik[óo]w", "users"), (r"w[ęe]z[łl](?:ach|[óo]w|y)", "nodes"), (r"trenowa(?:nie|[ćc])", "train"),
    (r"zmie[śs]ci si[ęe]", "does it fit"), (r"zostaje|zostanie", "left"), (r"na u[żz]ytkownika", "per user"), (r"pami[eę]ci", "memory"),
    (r"token[óo]w na sekund[eę]", "tokens per second"), (r"dni", "days"), (r"godzin", "hours"), (r"po", "over"),
    # Turkish
    (r"ka[çc] g[üu]n", "how many days"), (r"ka[çc]", "how many"), (r"ne kadar", "how much"), (r"s[üu]rer", ""),
    (r"bellek", "memory"), (r"milyar", "billion"), (r"trilyon", "trillion"), (r"parametreli", "parameters"),
    (r"e[ğg]it(?:mek|irsem|ilirse|im)", "train"), (r"[üu]zerinde", "on"), (r"ba[şs][ıi]na", "per"),
    (r"a[ğg][ıi]rl[ıi]k(?:lar)?", "weights"), (r"gradyan", "grads"), (r"durumlar[ıi]", "states"),
    (r"aktivasyonlar hari[çc]", "excluding activations"), (r"saniyede", "per second"), (r"d[üu][ğg][üu]m", "nodes"),
    (r"s[ıi][ğg]ar m[ıi]", "does it fit"), (r"kal[ıi]r", "left"), (r"toplam", "total"), (r"ile", "with"), (r"kullan[ıi]c[ıi]", "users"),
    # Indonesian
    (r"berapa lama", "how long"), (r"berapa", "how many"), (r"pengguna", "users"), (r"masing-masing", "each"),
    (r"konteks", "context"), (r"token/detik", "tokens/s"), (r"detik", "second"), (r"di satu", "on one"),
    (r"satu", "one"), (r"dua", "two"), (r"empat", "four"), (r"delapan", "eight"), (r"juta", "million"),
    (r"miliar", "billion"), (r"triliun", "trillion"), (r"hari", "days"), (r"jam", "hours"), (r"untuk", "for"),
    (r"dengan", "with"), (r"muat", "does it fit"), (r"tersisa", "left"), (r"bobot", "weights"), (r"kartu", "cards"),
    (r"dibutuhkan", "needed"), (r"melatih", "train"), (r"di", "on"),
    # German counts and nouns not above; Hindi's "din" (days)
    (r"zwei", "two"), (r"drei", "three"), (r"vier", "four"), (r"acht", "eight"), (r"sechzehn", "sixteen"),
    (r"karte", "card"), (r"din", "days"),
    # Vietnamese, with its diacritics (without them "la", "de", "tren" are other languages' words)
    (r"còn dư bao nhiêu", "how much left"), (r"bao nhiêu", "how much"), (r"nghìn tỷ", "trillion"), (r"tỷ", "billion"),
    (r"triệu", "million"), (r"tổng", "total"), (r"trên", "on"), (r"một", "one"), (r"mỗi người", "each"),
    (r"chạy", "run"), (r"là", "is"), (r"để", "to"),
)]
# each phrase with the letters it must start with: a question holding none of them skips its regular expression
# (~200 phrases tried in turn cost half a millisecond a question; most are English and hold almost none)
_PHRASES = [(re.compile(rf"(?<![\w-]){pattern}(?![\w-])", re.I), words,
             lead.group(0) if (lead := re.match(r"[a-z]{2,}", pattern)) else "")
            for pattern, words in _PHRASE_LIST]
# Chinese and Japanese: no spaces between words, so no word boundaries either; each becomes English with spaces
_CJK = [(re.compile(pattern), words if "\\" in words else f" {words} ") for pattern, words in (
    (r"每节点\s*(\d+)\s*[张个块台]?\s*([A-Za-z]+\d+\w*)", r" \1 \2 per node "),  # "每节点 8 张 H200"
    (r"节点间每卡\s*([\d.]+\s*[GT]b/s)", r" \1 per gpu between nodes "),
    (r"(?:1\s*)?トークンあたり何ミリ秒", "how many ms per token"),
    (r"每秒能?出?多少\s*tokens?", "how many tokens per second"), (r"要?多久", "how long"), (r"多少", "how many"),
    (r"万亿", "trillion"), (r"十亿", "billion"), (r"张量并行", "tensor parallel"), (r"每节点", "per node"),
    (r"节点间每卡", "per gpu between nodes"), (r"节点间", "between nodes"), (r"节点", "nodes"), (r"每卡", "per gpu"),
    (r"扁平", "flat"), (r"显存", "memory"), (r"权重", "weights"), (r"训练", "train"), (r"个|张|的|做|用|在|上|，|、|？", " "),
    (r"何ミリ秒", "how many ms"), (r"(?:1\s*)?トークンあたり", "per token"), (r"バッチ", "batch"), (r"トークン", "tokens"),
    (r"何\s*GPU\s*時間", "how many gpu hours"), (r"GPU\s*時間", "gpu hours"), (r"何日", "how many days"),
    (r"兆", "trillion"), (r"学習", "train"), (r"何枚", "how many cards"), (r"何台", "how many"), (r"何秒", "how many seconds"),
    (r"どれくらい|どのくらい", "how much"), (r"メモリ", "memory"), (r"重み", "weights"), (r"ユーザー", "users"),
    (r"コンテキスト", "context"), (r"毎秒", "per second"), (r"ノード", "nodes"), (r"時間", "hours"), (r"日", "days"),
    (r"需要(?:几|多少)张", "how many gpus do i need"), (r"几", "how many"), (r"上下文", "context"), (r"用户", "users"),
    (r"并发", "concurrent"), (r"秒", "seconds"), (r"天", "days"), (r"小时", "hours"), (r"带宽", "bandwidth"),
    (r"峰值", "peak"), (r"算力", "compute"), (r"能放下|放得下|装得下", "does it fit"), (r"剩余|剩下", "left"),
    (r"总共|总", "total"), (r"かかる|させる場合|なら|を|で|に|載せて|枚|・", " "),
)]
# "B300 1 枚": a card, then its count and the counter word; said count first
_CARD_THEN_COUNT = re.compile(r"\b([A-Za-z]+\d+[A-Za-z]*)\s+(\d+)\s*(?:枚|张|台|块)")
_SUFFIXED = re.compile(r"(?<=[\w.])['’](?:y[ıi]|da|de|ta|te|d[ae]n|t[ae]n|n[ıi]n|[ıiuü]n|[ıiuüae])\b")  # "GPU'da", "70b'yi"
_PERCENT_FIRST = re.compile(r"(?<![\w%])%\s?(\d+(?:[.,]\d+)?)\b")  # Turkish "%38 MFU"
_HAS_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
_NYA = re.compile(r"(?<=\w)-nya\b")  # Indonesian "throughput-nya"


# Indian numbering: "1,00,000" and "1,48,00,00,00,00,000" (groups of two before the last three); "2 lakh" (100,000s),
# "700 crore" (10,000,000s), "15 lakh crore" (10^12s)
_INDIAN_GROUPS = re.compile(r"(?<![\d,.])\d{1,2}(?:,\d{2})+,\d{3}(?![\d,])")
_INDIAN_SCALE = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(lakh\s+crores?|lakhs?|crores?)\b", re.I)
_INDIAN_FACTOR = {"lakh": 10**5, "crore": 10**7}


def _in_indian_numbering(text: str) -> str:
    if not re.search(r"lakh|crore|\d,\d\d,", text, re.I):
        return text
    text = _INDIAN_GROUPS.sub(lambda m: m.group(0).replace(",", ""), text)

    def digits(m: re.Match) -> str:
        words = m.group(2).lower().split()
        factor = 10**12 if len(words) == 2 else _INDIAN_FACTOR[words[0].rstrip("s")]
        return f"{round(float(m.group(1).replace(',', '')) * factor):d}"
    return _INDIAN_SCALE.sub(digits, text)


def in_english(text: str) -> str:
    """The question with European number formats made English and its foreign question words translated."""
    if _HAS_CJK.search(text):
        text = _CARD_THEN_COUNT.sub(r"\2 \1", text)
        for pattern, words in _CJK:
            text = pattern.sub(words, text)
        text = re.sub(r"\s{2,}", " ", text).strip()
    text = _PERCENT_FIRST.sub(r"\1%", _NYA.sub("", _SUFFIXED.sub("", text)))
    text = _in_indian_numbering(text)
    text = _DECIMAL_COMMA.sub(r"\1.\2", text)
    text = _DOT_GROUPS.sub(lambda m: m.group(0).replace(".", ""), text)
    text = _DOT_GROUP.sub(r"\1\2", text)
    text = _FRENCH_UNITS.sub(lambda m: _FRENCH[m.group(1)], text)
    text = _PLURAL_SCALE.sub(r"\1\2", text)
    text = _WHICH_FIGURE.sub("what is the ", text)
    lowered = text.lower()
    for pattern, words, lead in _PHRASES:
        if lead in lowered:  # ("" is in every question: a phrase with no plain first letters is always tried)
            text = pattern.sub(words, text)
            lowered = text.lower()
    return text
