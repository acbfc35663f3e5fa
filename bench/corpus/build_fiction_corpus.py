# ruff: noqa: E501  (commands and tables)
"""Builds the fiction evaluation's clean replies from human-translated game dialogue and narration.

Source: the Battle for Wesnoth campaigns and unit descriptions, as shipped in Debian (``wesnoth-1.16-data``
and the per-campaign ``wesnoth-1.16-*`` packages: one gettext catalogue per campaign and language). Every
translated message is written by a human translator; the English text is the message id. Nothing is
committed: this script reads the installed (or extracted) packages at run time::

    mkdir -p /tmp/wesnoth && cd /tmp/wesnoth
    apt-get download wesnoth-1.16-data wesnoth-1.16-{did,dm,dw,ei,httt,l,low,nr,sof,sota,sotbe,thot,trow,tsg,ttb,utbs}
    for deb in *.deb; do dpkg-deb -x "$deb" root; done
    cd - && .venv/bin/python bench/corpus/build_fiction_corpus.py \\
        --root /tmp/wesnoth/root/usr/share/games/wesnoth --out bench/results/fiction_replies.jsonl

(or ``apt-get install`` those packages and leave ``--root`` at its default). Malay, which Wesnoth is not
translated into, comes from the gettext catalogues of the packages installed under ``/usr/share/locale``
(``--system-locale``): interface messages, used only as a partner language for switch and mixing.

Output: one JSON line per reply ``{"locale", "source", "keys", "lines", "text"}``: ``source`` is the catalogue (a
campaign: the document the dev/test split is drawn by), ``keys`` and ``lines`` the message ids it was made of and their text (so a
switch can use the same lines in another language). A reply is 1-4 messages of one catalogue joined until
it has at least ``--min-chars`` characters, like a role-play reply of a few paragraphs.

The message filter is independent of the judges: a message is kept when it is prose (ends with sentence
punctuation, no markup, variables or formatting codes, 60-900 characters) and translated (differs from
its id, except in English).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import struct
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

# The 17 product locales and the partner languages (switch and mixing) from Wesnoth's catalogue names.
LOCALE_DIRS = {
    "es": "es", "pt-BR": "pt_BR", "fr": "fr", "de": "de", "it": "it", "nl": "nl", "pl": "pl", "ru": "ru",
    "uk": "uk", "tr": "tr", "ja": "ja", "ko": "ko", "zh-Hans": "zh_CN", "zh-Hant": "zh_TW", "id": "id",
    "vi": "vi",
}  # fmt: skip
PARTNER_DIRS = {
    "ca": "ca", "gl": "gl", "af": "af", "bg": "bg", "cs": "cs", "sk": "sk", "pt": "pt", "sv": "sv", "da": "da",
    "fi": "fi", "hu": "hu", "ro": "ro", "el": "el", "he": "he", "hr": "hr", "sl": "sl", "et": "et",
    "lt": "lt", "lv": "lv", "eu": "eu", "nb": "nb_NO", "mk": "mk", "sr": "sr", "ar": "ar", "eo": "eo",
}  # fmt: skip
SYSTEM_PARTNERS = {"ms": "ms", "af": "af"}  # from /usr/share/locale: languages Wesnoth lacks or barely has
# Catalogues that are story text (campaigns, unit descriptions, multiplayer scenario narration); the main
# catalogue (tips and interface), help, editor and tutorial are not the product's register.
SKIP_DOMAINS = frozenset({"wesnoth", "wesnoth-help", "wesnoth-lib", "wesnoth-editor", "wesnoth-tutorial", "wesnoth-test",
                          "wesnoth-manpages", "wesnoth-manual", "wesnoth-ai", "wesnoth-wc"})  # fmt: skip
_MARKUP = re.compile(r"[<>{}$@&|=~\\\[\]_#^*]|\.\.\.\.|https?:")
_ENDS = re.compile(r"[.!?…。！？」』\"”»]\s*$")
_LETTER = re.compile(r"[^\W\d_]")


def read_mo(path: Path) -> Iterator[tuple[str, str]]:
    """(message id, translation) pairs of a gettext .mo file (no plural forms, no context)."""
    data = path.read_bytes()
    if len(data) < 28:
        return
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == 0x950412DE else ">" if magic == 0xDE120495 else None
    if order is None:
        return
    _, count, ids_at, strs_at = struct.unpack(order + "4I", data[4:20])
    for i in range(count):
        id_len, id_off = struct.unpack(order + "2I", data[ids_at + 8 * i : ids_at + 8 * i + 8])
        str_len, str_off = struct.unpack(order + "2I", data[strs_at + 8 * i : strs_at + 8 * i + 8])
        msgid = data[id_off : id_off + id_len]
        if not msgid or b"\x00" in msgid or b"\x04" in msgid:
            continue  # the header, plural forms, messages with a context
        try:
            yield msgid.decode("utf-8"), data[str_off : str_off + str_len].decode("utf-8")
        except UnicodeDecodeError:
            continue


def prose(text: str, min_chars: int = 60) -> str | None:
    """The message as one reply paragraph, or None when it is not prose."""
    text = re.sub(r"\s+", " ", text).strip()
    if not (min_chars <= len(text) <= 900) or _MARKUP.search(text) or not _ENDS.search(text):
        return None
    if len(_LETTER.findall(text)) < 0.6 * len(text.replace(" ", "")):
        return None
    return text


def catalogues(root: Path, directory: str) -> Iterator[tuple[str, Path]]:
    for mo in sorted(root.glob(f"**/locale/{directory}/LC_MESSAGES/*.mo")):
        if mo.stem not in SKIP_DOMAINS:
            yield mo.stem, mo


def messages(root: Path) -> dict[str, dict[tuple[str, str], str]]:
    """language -> {(catalogue, message id): prose text}; English from the ids."""
    out: dict[str, dict[tuple[str, str], str]] = defaultdict(dict)
    for language, directory in {**LOCALE_DIRS, **PARTNER_DIRS}.items():
        for domain, mo in catalogues(root, directory):
            for msgid, msgstr in read_mo(mo):
                english = prose(msgid)
                if english is None:
                    continue
                out["en"][(domain, msgid)] = english
                if msgstr != msgid and (text := prose(msgstr)) is not None:
                    out[language][(domain, msgid)] = text
    return out


def system_messages(root: Path, directory: str) -> dict[tuple[str, str], str]:
    out: dict[tuple[str, str], str] = {}
    for mo in sorted(root.glob(f"{directory}/LC_MESSAGES/*.mo")):
        for msgid, msgstr in read_mo(mo):
            if msgstr != msgid and (text := prose(msgstr, 40)) is not None:
                out[(mo.stem, msgid)] = text
    return out


def replies(language: str, found: dict[tuple[str, str], str], min_chars: int) -> Iterator[dict[str, object]]:
    """Messages of one catalogue joined (in a fixed pseudo-random order) into replies of min_chars+."""
    by_domain: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for (domain, msgid), text in found.items():
        by_domain[domain].append((msgid, text))
    joiner = "" if language in ("ja", "zh-Hans", "zh-Hant") else " "
    for domain, items in sorted(by_domain.items()):
        items.sort(key=lambda item: hashlib.sha256(item[0].encode()).digest())
        keys: list[str] = []
        texts: list[str] = []
        for msgid, text in items:
            keys.append(msgid)
            texts.append(text)
            if sum(map(len, texts)) >= min_chars or len(texts) == 4:
                yield {"locale": language, "source": domain, "keys": keys, "lines": texts,
                       "text": joiner.join(texts)}  # fmt: skip
                keys, texts = [], []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("/usr/share/games/wesnoth"))
    parser.add_argument("--system-locale", type=Path, default=Path("/usr/share/locale"))
    parser.add_argument("--min-chars", type=int, default=300)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    found = messages(args.root)
    if not found:
        print(f"no Wesnoth catalogues under {args.root}", file=sys.stderr)
        return 1
    for language, directory in SYSTEM_PARTNERS.items():
        extra = system_messages(args.system_locale, directory)
        found[language] = {**extra, **found.get(language, {})}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    with args.out.open("w", encoding="utf-8") as out:
        for language in sorted(found):
            for reply in replies(language, found[language], args.min_chars):
                out.write(json.dumps(reply, ensure_ascii=False) + "\n")
                counts[language] = counts.get(language, 0) + 1
    print(" ".join(f"{k}:{v}" for k, v in sorted(counts.items())), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
