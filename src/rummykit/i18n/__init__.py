"""Messages in six languages for the terminal table (the browser has its own loader).

One catalog per language: the browser's (``rummykit/server/static/i18n/<lang>.json``:
moves, hint reasons, phases, deal ends, scores) merged with the terminal's own
(``rummykit/i18n/<lang>.json``, keys ``cli.*``).  Both are package data, read as files:
nothing here imports the server.  A missing message falls back to English; a key
missing from every catalog raises ``KeyError`` (a test checks every key exists in
every language).

Engine and server texts (an illegal move's reason, a hint written out) are English:
:meth:`Messages.local` keeps them on an English screen and keeps only their rule
references elsewhere, so no English reaches a Romanian or German player.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["LANGUAGES", "Messages", "catalog", "howto_markdown", "language_from_environment"]

LANGUAGES = ("en", "ro", "de", "hr", "bg", "pl")
"""The languages every message exists in."""

# Close relatives read the nearest catalog (as the browser does): Moldovan -> Romanian,
# Bosnian/Serbian/Montenegrin (Latin) -> Croatian, Macedonian -> Bulgarian.
_ALIASES = {"mo": "ro", "bs": "hr", "sr": "hr", "sh": "hr", "cnr": "hr", "mk": "bg"}
_SLOT = re.compile(r"\{(\w+)\}")
_RULE_REF = re.compile(r"§\s*\d+(?:\.\d+)*(?:\([a-z0-9]+\))?|\bA-\d+")


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language of the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``, ``LANGUAGE``,
    as POSIX orders them), one of :data:`LANGUAGES`; English when none is known."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        for item in env.get(name, "").split(":"):
            base = item.strip().lower().split(".")[0].replace("-", "_").split("_")[0]
            code = _ALIASES.get(base, base)
            if code in LANGUAGES:
                return code
            if base in ("c", "posix"):
                return "en"
    return "en"


def _read(*parts: str) -> dict[str, str]:
    path = resources.files("rummykit")
    for part in parts:
        path = path / part
    data: Any = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{'/'.join(parts)} is not a flat catalog")
    return {str(k): str(v) for k, v in data.items()}


@cache
def catalog(lang: str) -> Mapping[str, str]:
    """Every message of ``lang``: the browser's catalog and the terminal's."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose from {', '.join(LANGUAGES)}")
    return _read("server", "static", "i18n", f"{lang}.json") | _read("i18n", f"{lang}.json")


class Messages:
    """The messages of one language: ``msg("cli.you_drew", pieces="R5")``."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang
        self._own = catalog(lang)
        self._english = catalog("en")

    def __call__(self, key: str, **params: object) -> str:
        text = self._own.get(key) or self._english[key]
        return _SLOT.sub(lambda m: str(params.get(m[1], m[0])), text)

    def has(self, key: str) -> bool:
        """Whether ``key`` is a message (for open families such as ``phase.*``)."""
        return key in self._english

    def family(self, family: str, value: object) -> str:
        """``family.value`` translated, or the value itself when there is no message."""
        key = f"{family}.{value}"
        return self(key) if self.has(key) else str(value)

    def local(self, text: str) -> str:
        """An engine text (English) as this language may show it: whole in English,
        elsewhere only its rule references (``RULES §9.6, A-50``), or nothing."""
        if self.lang == "en":
            return text
        refs = list(dict.fromkeys(_RULE_REF.findall(text)))
        return f"RULES {', '.join(refs)}" if refs else ""


def howto_markdown(lang: str) -> str:
    """The how-to-play pages of every game in ``lang`` as one Markdown document (what
    ``docs/howto/<lang>.md`` holds; the browser shows the same text per game)."""
    from rummykit.rules.variant import all_variants

    msg = Messages(lang)
    lines = [f"# {msg('table.how_to_play')} — rummykit ({lang})", ""]
    for v in sorted(all_variants(), key=lambda v: v.name):
        lines += [f"## {msg.family('variant', v.name)}", "", f"`{v.name}`", ""]
        for para in msg(f"howto.{v.name}").split("\n"):
            lines += [para, ""]
    return "\n".join(lines).rstrip() + "\n"
