"""Reply generation: recognise what a request asks for, write the answer a real host would, then break it.

Pure functions over values (the RNG is passed in). ``understand`` reads the request the way a model would
"understand" it: a ``json_schema`` response format gets a JSON object valid for the schema, a prompt
written in one of the 17 locales gets 3-6 role-play sentences in that locale (the language is read from the
prompt's own text), anything else an English role-play reply. ``compose`` applies the content faults a
``Plan`` decided (refusal, schema breakage, drift, code-mixing, leading garbage, encoding corruption) and
honours ``max_tokens``.

Example::

    >>> import random
    >>> from exporter.devtools.simulator.profiles import Plan
    >>> request = understand({"messages": [{"role": "user", "content": "hi"}]}, structured_outputs=True)
    >>> compose(request, Plan(ttft=0.1, inter_token=0.0), Texts.load(), random.Random(1), 4).finish_reason
    'length'
"""

from __future__ import annotations

import functools
import json
import math
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from exporter.devtools.simulator import styles
from exporter.devtools.simulator.locales import Recogniser, Texts, is_unspaced, join_sentences
from exporter.devtools.simulator.profiles import Kind, Plan
from exporter.devtools.simulator.styles import Style

REFUSAL_TEXT_EN = (
    "I'm sorry, but I can't continue this scene. It involves graphic violence, which I'm not able to write."
)
REFUSAL_TEXT_ZH = "抱歉，我无法继续这个场景，因为其中包含暴力内容。"
# Polite declines, no policy words: what a soft filter returns instead of the scene (style "soft").
SOFT_REFUSALS = {
    "en": "I'd rather not write that scene. Let's talk about something else, shall we?",
    "es": "Prefiero no escribir esa escena. ¿Hablamos de otra cosa?",
    "pt-BR": "Prefiro não escrever essa cena. Vamos mudar de assunto?",
    "fr": "Je préférerais ne pas écrire cette scène. Parlons d'autre chose.",
    "de": "Ich würde diese Szene lieber nicht schreiben. Lass uns über etwas anderes sprechen.",
    "it": "Preferirei non scrivere questa scena. Parliamo d'altro?",
    "ru": "Я бы предпочла не писать эту сцену. Давайте поговорим о чём-нибудь другом.",
    "ja": "その場面を書くのは控えさせていただきます。別の話題にしませんか。",
    "zh-Hans": "我还是不写这段了，我们换个话题吧。",
    "zh-Hant": "我還是不寫這段了，我們換個話題吧。",
}
_REFUSALS = {"empty": "", "text_en": REFUSAL_TEXT_EN, "text_zh": REFUSAL_TEXT_ZH}
_CJK_CODECS = frozenset({"gb18030", "big5", "cp949", "cp932", "euc_jp"})
_OPENER_GARBAGE = ("ing *", "ment —", "tion *", "ly — ")
# Subword pieces (continuation tokens of a BPE vocabulary) spaced from the capitalised first word:
# "ation The…", "ly — Quédate…"; in front of Chinese, Japanese or Korean text the same piece, spaced.
_SPACED_GARBAGE = ("ation ", "ally ", "ly — ", "ment ", "ness ", "ish ", "ing ", "ive ")
# A reasoning host's thinking, sentence by sentence: the effort it is asked for sets how many it writes.
REASONING_SENTENCES = (
    "The user wants the scene to continue in character.",
    "I should keep the voice of the narrator, stay consistent with the setting, and answer in {language}.",
    "Let me recall who is on stage, what was said last, and what the scene is building towards.",
    "The tone is light adventure, so the reply should move the action forward without ending the scene.",
    "I could add a small surprise, but it must not contradict anything established so far.",
    "A short exchange of dialogue followed by one line of description would fit the pacing best.",
    "I will check the register: informal, vivid, no modern slang, and the names spelled as before.",
    "Finally, the reply should stop at a natural beat so the user can answer.",
)
# OpenRouter's effort levels (docs/use-cases/reasoning-tokens) as the sentences a host writes; a host asked
# nothing thinks at length (~110 tokens), which exhausts a small probe budget as real thinking models do.
EFFORT_SENTENCES = {"none": 0, "minimal": 1, "low": 2, "medium": 4, "high": 6, "xhigh": 8}
DEFAULT_SENTENCES = 6


@dataclass(frozen=True, slots=True)
class Thinking:
    """What a reasoning host thinks before answering, and whether the reply shows it (``exclude``)."""

    text: str = ""
    shown: bool = True


def thinking(host_reasons: bool, body: Mapping[str, object], locale: str | None) -> Thinking:
    """The thinking a host does for ``body``, honouring ``reasoning`` ({effort | max_tokens, exclude,
    enabled}) and ``reasoning_effort`` as OpenRouter describes them.

    >>> len(thinking(True, {"reasoning": {"effort": "low"}}, None).text) < len(thinking(True, {}, None).text)
    True
    """
    if not host_reasons:
        return Thinking()
    control, effort = body.get("reasoning"), body.get("reasoning_effort")
    sentences, cap, shown = DEFAULT_SENTENCES, None, True
    if isinstance(control, dict):
        effort = control.get("effort", effort)
        limit = control.get("max_tokens")
        if isinstance(limit, int) and not isinstance(limit, bool) and limit >= 0:
            cap = limit
        shown = control.get("exclude") is not True
        if control.get("enabled") is False:
            sentences = 0
    if isinstance(effort, str):
        sentences = EFFORT_SENTENCES.get(effort, sentences)
    text = " ".join(REASONING_SENTENCES[:sentences]).format(language=locale or "English")
    return Thinking(_cut_to_tokens(text, cap) if cap is not None else text, shown)


# Starts a real host must not produce: a stray mark or a subword fragment before the first word. Not a
# hyphen glued to it: Spanish, Portuguese, Italian, French, Polish and Vietnamese text opens dialogue so
# ("-Hola -dijo ella"), and the judge passes it.
_GARBAGE_LATIN = (",", ".", ";", ")", ":", "ción ", '"ing ', "ing ", "ly ", "ment ", "tion ")
_GARBAGE_CYRILLIC = (",", ".", ")", "ся ", "ого ", "ть ")
_GARBAGE_DENSE = ("、", "。", "的", "」", "ます", "了")
_DENSE_CHARS = re.compile("[\u3000-\u303f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3\uf900-\ufaff\uff00-\uffef]")
_CONTROL_CHARS = ("\x07", "\x08", "\x0b", "\x0e", "\x1b", "\x7f")


@dataclass(frozen=True, slots=True)
class Understood:
    """What a chat request asks for."""

    kind: Kind
    locale: str | None = None
    schema: Mapping[str, object] | None = None
    last_user_message: str = ""
    prompt_tokens: int = 0
    temperature: float | None = None  # as sent (absent: the host's default)
    declared: str = ""  # Kind.DECLARED: the healthy reply the probe's contract declares


@dataclass(frozen=True, slots=True)
class Reply:
    """The reply a host writes (before wire formatting)."""

    content: str
    reasoning: str = ""
    finish_reason: str = "stop"
    native_finish_reason: str = "stop"
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    # asked for with logprobs: the first token with its log-probability, and the alternatives listed there
    first_token: tuple[str, float] | None = None
    alternatives: tuple[tuple[str, float], ...] = ()


def message_text(message: Mapping[str, object]) -> str:
    """The text of an OpenAI-style message whose content is a string or a list of parts."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(part.get("text", ""))
            for part in content
            if isinstance(part, dict) and part.get("type") == "text"
        )
    return ""


def understand(
    body: Mapping[str, object],
    structured_outputs: bool,
    ping: bool = False,
    declared: Callable[[Mapping[str, object]], str | None] | None = None,
) -> Understood:
    """Recognise the request kind from the request itself, as a model would: a response format asks for
    JSON, and prose is answered in the language the prompt is written in (``default_recogniser``).
    Nothing else in the request is read: no marker tells the simulator which contract or locale a probe
    is. ``declared`` gives the healthy reply a contract declares for its own probe
    (``Contract.healthy_reply``), None for any other request.

    >>> understand({"messages": [{"role": "system", "content": "Du bist Kapitänin Mara Voss. Bleib in "
    ...     "deiner Rolle und antworte in fünf Sätzen."}]}, True).locale
    'de'
    """
    sent_messages = body.get("messages")
    messages = [m for m in sent_messages if isinstance(m, dict)] if isinstance(sent_messages, list) else []
    prompt_tokens = sum(estimate_tokens(message_text(m)) + 4 for m in messages)
    last_user = next((message_text(m) for m in reversed(messages) if m.get("role") == "user"), "")

    sent = body.get("temperature")
    temperature = float(sent) if isinstance(sent, int | float) and not isinstance(sent, bool) else None

    def made(kind: Kind, locale: str | None = None, schema: Mapping[str, object] | None = None) -> Understood:
        return Understood(kind, locale, schema, last_user, prompt_tokens, temperature)

    if ping:
        return made(Kind.PING)
    if declared is not None and (healthy := declared(body)) is not None:
        return replace(made(Kind.DECLARED), declared=healthy)
    response_format = body.get("response_format")
    if isinstance(response_format, dict):
        if response_format.get("type") == "json_schema" and structured_outputs:
            spec = response_format.get("json_schema")
            schema = spec.get("schema") if isinstance(spec, dict) else None
            return made(Kind.STRUCTURED, schema=schema if isinstance(schema, dict) else {"type": "object"})
        if response_format.get("type") == "json_object":
            return made(Kind.JSON_OBJECT)
    prompt = "\n".join(message_text(m) for m in messages if m.get("role") in ("system", "developer", "user"))
    locale = default_recogniser()(prompt)
    if temperature is not None and temperature > 0 and {m.get("role") for m in messages} == {"user"}:
        return made(Kind.OPEN, locale=locale)  # sampled with no persona: a host's style shows
    return made(Kind.LANGUAGE, locale=locale) if locale is not None else made(Kind.ROLEPLAY)


@functools.cache
def default_recogniser() -> Recogniser:
    """The recogniser over the shipped sentence files (built once, about 20 ms)."""
    return Recogniser(Texts.load())


def estimate_tokens(text: str) -> int:
    """A rough token count: one per CJK/kana/hangul character, one per four other characters.

    >>> estimate_tokens("abcdefgh"), estimate_tokens("船长笑了")
    (2, 4)
    """
    dense = len(_DENSE_CHARS.findall(text))
    return dense + math.ceil((len(text) - dense) / 4)


def compose(
    request: Understood,
    plan: Plan,
    texts: Texts,
    rng: random.Random,
    max_tokens: int | None,
    thought: Thinking = Thinking(),
    style: Style = "healthy",
) -> Reply:
    """Write the reply for ``request`` with the content faults of ``plan``, cut to ``max_tokens`` (which
    the thinking counts against; excluded thinking is billed but not shown); an open-ended prompt is
    answered from the host's reply distribution (``style``)."""
    finish = "stop"
    if plan.refusal == "content_filter":
        content, finish = "", "content_filter"
    elif plan.refusal in _REFUSALS:
        content = _REFUSALS[plan.refusal]
    elif plan.refusal == "soft":
        content = SOFT_REFUSALS.get(request.locale or "en", SOFT_REFUSALS["en"])
    elif request.kind is Kind.PING:
        content = "OK"
    elif request.kind is Kind.DECLARED:
        content = request.declared
    elif request.kind is Kind.STRUCTURED:
        content, finish = _structured(request.schema or {}, plan.schema_fault, rng)
    elif request.kind is Kind.JSON_OBJECT:
        content = json.dumps({"reply": rng.choice(texts.for_locale("en"))}, ensure_ascii=False)
    elif request.kind is Kind.OPEN:
        locale = request.locale or "en"
        sep = "" if is_unspaced(locale) else " "
        bank = texts.for_locale(locale)
        content = styles.reply(
            request.last_user_message,
            bank,
            style,
            rng,
            temperature=1.0 if request.temperature is None else request.temperature,
            sep=sep,
        )
    else:
        content = _prose(request, plan, texts, rng)
    reply = _fit(content, thought.text, finish, max_tokens)
    return reply if thought.shown else replace(reply, reasoning="")


def _prose(request: Understood, plan: Plan, texts: Texts, rng: random.Random) -> str:
    locale = request.locale or "en"
    if plan.drift_to is not None:
        locale = plan.drift_to
    sentences = pick_sentences(texts.for_locale(locale), locale, rng)
    if plan.mix_with is not None:
        sentences = mix_sentences(sentences, texts.for_locale(plan.mix_with), plan.mix_fraction, rng)
    if plan.degenerate == "repetition":
        sentences = [sentences[0]] * 12  # a sampling loop: the first sentence over and over
    content = join_sentences(sentences, locale)
    if plan.degenerate == "truncated":
        content = _cut_mid_sentence(content)
    garbage = rng.choice(_garbage_for(content))  # drawn for the script of the clean text
    if plan.garbage_style == "before_opener":
        garbage = rng.choice(_OPENER_GARBAGE) if not _is_dense(content[0]) else "的 *"
    elif plan.garbage_style == "spaced":
        garbage = rng.choice(_SPACED_GARBAGE)
    if plan.encoding is not None:
        content = corrupt_encoding(content, plan.encoding, rng, plan.encoding_codec)
    return garbage + content if plan.leading_garbage else content


def _cut_mid_sentence(text: str) -> str:
    """The first few words (or CJK characters) of ``text``, ending on a letter: a story cut off."""
    cut = text[:6] if text and _is_dense(text[0]) else " ".join(text.split()[:5])
    return re.sub(r"[\W_]+$", "", cut) or cut


def pick_sentences(pool: tuple[str, ...], locale: str, rng: random.Random) -> list[str]:
    """3-6 distinct sentences, about 300-700 characters (120-320 for the dense CJK and Hangul scripts)."""
    dense = is_unspaced(locale) or locale == "ko"
    low, high = (120, 320) if dense else (300, 700)
    target = rng.randint(low, high)
    order = rng.sample(range(len(pool)), k=min(6, len(pool)))
    chosen: list[str] = []
    for index in order:
        if len(chosen) >= 3 and sum(map(len, chosen)) >= target:
            break
        chosen.append(pool[index])
    return chosen


def mix_sentences(
    sentences: list[str], partner_pool: tuple[str, ...], fraction: float, rng: random.Random
) -> list[str]:
    """Replace about ``fraction`` of the whole sentences (at least one, never all) with partner sentences."""
    count = min(len(sentences) - 1, max(1, round(len(sentences) * fraction)))
    if count <= 0:
        return list(sentences)
    positions = set(rng.sample(range(len(sentences)), k=count))
    partners = iter(rng.sample(partner_pool, k=count))
    return [next(partners) if i in positions else s for i, s in enumerate(sentences)]


def corrupt_encoding(text: str, kind: str, rng: random.Random, codec: str = "cp1252") -> str:
    """Mojibake (UTF-8 bytes read as ``codec``), U+FFFD replacement characters, or stray control bytes.

    >>> corrupt_encoding("café", "mojibake", random.Random(0))
    'cafÃ©'
    """
    if kind == "mojibake":
        if text.isascii():  # nothing to garble in ASCII: add a dash of more than one byte
            text = text.replace(", ", " — ", 1) if ", " in text else text.replace(" ", " — ", 1)
        if codec in _CJK_CODECS:
            # a legacy East Asian codec reads two bytes per character: decode the whole text at once
            return text.encode("utf-8").decode(codec, errors="replace")
        return "".join(_decode_byte(b, codec) for b in text.encode("utf-8"))
    chars = list(text)
    positions = [i for i, ch in enumerate(chars) if ch.isalpha()] or list(range(len(chars)))
    picks = sorted(rng.sample(positions, k=min(len(positions), rng.randint(1, 3))), reverse=True)
    for i in picks:
        if kind == "replacement":
            chars[i] = "\ufffd"
        else:
            chars.insert(i, rng.choice(_CONTROL_CHARS))
    return "".join(chars)


def _decode_byte(byte: int, codec: str) -> str:
    """One byte read as ``codec``; one it leaves undefined passes as latin-1, as sloppy decoders do."""
    try:
        return bytes([byte]).decode(codec)
    except UnicodeDecodeError:
        return chr(byte)


def _garbage_for(content: str) -> tuple[str, ...]:
    first = next((ch for ch in content if ch.isalpha()), "a")
    if _is_dense(first):  # Han, kana and hangul
        return _GARBAGE_DENSE
    if "\u0400" <= first <= "\u04ff":
        return _GARBAGE_CYRILLIC
    return _GARBAGE_LATIN


NONDETERMINISM_NATS = 0.05  # per-request noise on each log-probability, as batching and kernels give
UNLIKELY_NATS = -20.0  # the log-probability listed for a token the host's style never starts with


def with_logprobs(reply: Reply, request: Understood, texts: Texts, style: Style, count: int,
                  rng: random.Random) -> Reply:  # fmt: skip
    """``reply`` with its first position's log-probabilities (``count`` alternatives): for an open-ended
    prompt the style's first-token distribution (``styles.first_tokens``) with per-request noise of
    ``NONDETERMINISM_NATS``; for any other reply its first word, certain.

    >>> import random
    >>> asked = {"messages": [{"role": "user", "content": "Name a fruit."}], "temperature": 1}
    >>> open_ = understand(asked, False)
    >>> got = with_logprobs(Reply("Apples"), open_, Texts.load(), "healthy", 3, random.Random(1))
    >>> len(got.alternatives), got.first_token is not None
    (3, True)
    """
    words = reply.content.split(maxsplit=1)
    token = words[0] if words else reply.content
    if request.kind is not Kind.OPEN:
        return replace(reply, first_token=(token, 0.0), alternatives=((token, 0.0),)[:count])
    locale = request.locale or "en"
    temperature = 1.0 if request.temperature is None else request.temperature
    unspaced = is_unspaced(locale)
    law = styles.first_tokens(request.last_user_message, texts.for_locale(locale), style,
                              temperature=temperature, unspaced=unspaced)  # fmt: skip
    noisy = [(t, math.log(p) + rng.gauss(0.0, NONDETERMINISM_NATS)) for t, p in law if p > 0]
    norm = math.log(sum(math.exp(lp) for _, lp in noisy))
    ranked = sorted(((t, lp - norm) for t, lp in noisy), key=lambda item: -item[1])
    if len(ranked) < count:  # a vocabulary has more tokens than a style uses: the rest, all but impossible
        unused = [t for t, _ in styles.first_tokens(request.last_user_message, texts.for_locale(locale),
                  "healthy", unspaced=unspaced) if t not in dict(ranked)]  # fmt: skip
        ranked += [(t, UNLIKELY_NATS - i) for i, t in enumerate(unused[: count - len(ranked)])]
    # the token the (possibly cut) reply starts with
    token = next((t for t, _ in ranked if t.startswith(token) or token.startswith(t)), token)
    logprob = dict(ranked).get(token, ranked[-1][1])
    return replace(reply, first_token=(token, logprob), alternatives=tuple(ranked[:count]))


def _is_dense(ch: str) -> bool:
    return _DENSE_CHARS.match(ch) is not None


def _fit(content: str, reasoning: str, finish: str, max_tokens: int | None) -> Reply:
    reasoning_tokens = estimate_tokens(reasoning)
    if max_tokens is not None:
        if reasoning_tokens >= max_tokens:
            reasoning = _cut_to_tokens(reasoning, max_tokens)
            return Reply("", reasoning, "length", "length", max_tokens, max_tokens)
        budget = max_tokens - reasoning_tokens
        if estimate_tokens(content) > budget:
            content = _cut_to_tokens(content, budget)
            finish = "length"
    tokens = estimate_tokens(content) + reasoning_tokens
    return Reply(content, reasoning, finish, finish, tokens, reasoning_tokens)


def _cut_to_tokens(text: str, budget: int) -> str:
    if estimate_tokens(text) <= budget:
        return text
    if not _DENSE_CHARS.search(text):
        return text[: budget * 4]
    dense = other = 0
    for i, ch in enumerate(text):
        if _is_dense(ch):
            dense += 1
        else:
            other += 1
        if dense + math.ceil(other / 4) > budget:
            return text[:i]
    return text


# -- structured output -----------------------------------------------------------------------------------


def _structured(schema: Mapping[str, object], fault: str | None, rng: random.Random) -> tuple[str, str]:
    instance = schema_instance(schema, rng)
    if fault == "mismatch":
        instance = schema_mismatch(schema, instance, rng)
    text = json.dumps(instance, ensure_ascii=False, indent=rng.choice((None, 2)))
    if fault == "code_fenced":
        return f"```json\n{json.dumps(instance, ensure_ascii=False, indent=2)}\n```", "stop"
    if fault == "truncated":
        return text[: max(1, int(len(text) * rng.uniform(0.4, 0.8)))], "length"
    if fault == "invalid_json":
        return _break_json(instance, text, rng), "stop"
    return text, "stop"


_WORDS = (
    "Mara", "Voss", "harbor", "storm", "lantern", "cutlass", "tavern", "compass", "ember", "tide",
    "raven", "anchor", "silver", "north", "whisper", "ledger", "dawn", "reef", "banner", "gale",
)  # fmt: skip


def schema_instance(schema: Mapping[str, object], rng: random.Random) -> object:
    """A value valid for ``schema`` (subset: object, properties, required, additionalProperties, array,
    items, string, number, integer, boolean, null, enum, const, anyOf/oneOf, min/max bounds).

    >>> schema_instance({"type": "object", "properties": {"ok": {"type": "boolean"}}}, random.Random(0))
    {'ok': False}
    """
    if "const" in schema:
        return schema["const"]
    if isinstance(enum := schema.get("enum"), list) and enum:
        return rng.choice(enum)
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list) and options and isinstance(options[0], dict):
            return schema_instance(options[0], rng)
    kind = schema.get("type", "object" if "properties" in schema else "string")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object":
        properties = _as_schema(schema.get("properties"))
        return {name: schema_instance(_as_schema(sub), rng) for name, sub in properties.items()}
    if kind == "array":
        items = _as_schema(schema.get("items", {"type": "string"}))
        fewest = int(_number(schema, "minItems", 1))
        most = max(fewest, int(_number(schema, "maxItems", max(fewest, 3))))
        return [schema_instance(items, rng) for _ in range(rng.randint(fewest, most))]
    if kind == "integer":
        first = math.ceil(_number(schema, "minimum", 0))
        last = math.floor(_number(schema, "maximum", max(first, 100)))
        return rng.randint(first, max(first, last))
    if kind == "number":
        low = _number(schema, "minimum", 0)
        high = _number(schema, "maximum", max(low, 100))
        return round(rng.uniform(low, max(low, high)), 2)
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "null":
        return None
    return _string(schema, rng)


def _as_schema(value: object) -> Mapping[str, object]:
    return value if isinstance(value, dict) else {}


def _number(schema: Mapping[str, object], key: str, default: float) -> float:
    """A numeric keyword of ``schema`` (a bound), ``default`` when absent or not a number."""
    value = schema.get(key)
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else default


def _string(schema: Mapping[str, object], rng: random.Random) -> str:
    text = " ".join(rng.sample(_WORDS, k=rng.randint(1, 3)))
    low = int(_number(schema, "minLength", 0))
    high = int(_number(schema, "maxLength", max(low, 200)))
    while len(text) < low:
        text += " " + rng.choice(_WORDS)
    return text[: max(low, high)]


def schema_mismatch(schema: Mapping[str, object], instance: object, rng: random.Random) -> object:
    """A plausible-looking value that breaks ``schema``: a required field missing, a wrong type, or an
    extra field where ``additionalProperties`` is false. Non-object schemas get a value of the wrong type.
    """
    if not isinstance(instance, dict):
        return {"value": instance} if not isinstance(instance, dict | list) else "mismatch"
    properties = _as_schema(schema.get("properties"))
    options: list[str] = []
    listed = schema.get("required")
    required = [name for name in listed if name in instance] if isinstance(listed, list) else []
    if required:
        options.append("drop_required")
    typed = [
        name
        for name, sub in properties.items()
        if isinstance(sub, dict) and name in instance and ({"type", "enum", "const"} & set(sub))
    ]
    if typed:
        options.append("wrong_type")
    if schema.get("additionalProperties") is False:
        options.append("extra")
    broken = dict(instance)
    if not options:
        return [broken]
    choice = rng.choice(options)
    if choice == "drop_required":
        del broken[rng.choice(required)]
    elif choice == "wrong_type":
        name = rng.choice(typed)
        broken[name] = _wrong_type(_as_schema(properties[name]))
    else:
        broken["comment"] = "The captain is ready."
    return broken


def _wrong_type(schema: Mapping[str, object]) -> object:
    if "enum" in schema or "const" in schema:
        return 12345.5
    kind = schema.get("type")
    allowed = set(kind) if isinstance(kind, list) else {kind}
    candidates: tuple[tuple[object, set[str]], ...] = (
        ("forty-two", {"string"}),
        (42.5, {"number"}),
        (True, {"boolean"}),
        (["none"], {"array"}),
        ({"none": 0}, {"object"}),
    )
    return next(value for value, kinds in candidates if not kinds & allowed)


def _break_json(instance: object, text: str, rng: random.Random) -> str:
    variant = rng.choice(("trailing_comma", "single_quotes", "unclosed"))
    compact = json.dumps(instance, ensure_ascii=False)
    if variant == "trailing_comma" and compact.endswith("}") and len(compact) > 2:
        broken = compact[:-1] + ",}"
    elif variant == "single_quotes":
        broken = compact.replace('"', "'")
    else:
        broken = text.rstrip()[:-1] + "\n"
    try:
        json.loads(broken)
    except ValueError:
        return broken
    return compact + "}"  # the variant happened to stay valid (e.g. "{}"): an unbalanced brace never is
