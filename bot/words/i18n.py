"""Deckhand's words in the players' languages.

Every sentence a player reads is written in English in the code and looked up here::

    from bot.words.i18n import _, ngettext, number

    _("Your move.")
    _("{player} played {card}.", player=name, card=label)
    ngettext("{n} card", "{n} cards", count)

The English text is the message id. Catalogs are gettext ``.po`` files, shipped as
package data in ``bot/words/locales/<language>/LC_MESSAGES/<area>.po`` (one file per game
and per part of the platform, so work on one game never touches another's file). They
are read and compiled in memory the first time a language is used, so an install needs
no build step. A missing, empty or fuzzy entry falls back to English.

Whose language a sentence is in is decided by the front end, not here: it sets the
current language (a ``ContextVar``, so each task and each message keeps its own) with
:func:`using` before it renders, and the render code just calls ``_()``. The rules
engines call ``_()`` for their refusals too: this module imports nothing of Discord,
asyncio, sqlite or the clock, so they stay pure.

``en-XA`` is a pseudo-language for tests: every sentence comes back accented, a third
longer and wrapped in ``⟦…⟧``, so a word that did not go through ``_()`` stands out.

What is not translated, on purpose: Enid's names, rituals and the phrases players must
type (English wordplay, they are the game), game titles, card codes in pictures. Put
them into a translated sentence through a ``{placeholder}``.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import io
import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from importlib import resources
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

ENGLISH = "en"
PSEUDO = "en-XA"
#: Languages with a catalog, by the code used for their folder under bot/words/locales/.
#: English needs none: it is the text in the code.
CATALOG_LANGUAGES: tuple[str, ...] = ("es",)
#: Every language a server or a player can be given.
LANGUAGES: tuple[str, ...] = (ENGLISH, *CATALOG_LANGUAGES)
#: Names to show when choosing a language, in that language.
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "es": "Español"}
#: gettext plural rules of the catalogs, where they differ from CLDR's. Spanish as
#: translators write it: one form for 1, one for every other count (CLDR adds a third
#: for round millions, which no count in these games reaches).
PLURAL_FORMS: dict[str, str] = {"es": "nplurals=2; plural=(n != 1);"}

_current: contextvars.ContextVar[str] = contextvars.ContextVar("deckhand_language", default=ENGLISH)


# ---------------------------------------------------------------- which language


def language() -> str:
    """The language sentences are being written in now."""
    return _current.get()


def supported(tag: str | None) -> str | None:
    """The language Deckhand speaks for a locale tag (Discord's ``es-ES``, ``es-419``,
    ``en-GB``; a plain ``es``), or None when it speaks none close to it."""
    if not tag:
        return None
    tag = str(tag)
    if tag == PSEUDO:
        return PSEUDO
    base = tag.replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else None


#: Languages as :func:`pick` returns them: a tag already one of these is itself.
_RESOLVED = frozenset((*LANGUAGES, PSEUDO))


def pick(*tags: str | None) -> str:
    """The first of these locale tags Deckhand speaks, else English."""
    for tag in tags:
        if type(tag) is str and tag in _RESOLVED:  # already resolved (a server's, a reader's): the usual case
            return tag
        found = supported(tag)
        if found is not None:
            return found
    return ENGLISH


def set_language(lang: str) -> contextvars.Token[str]:
    """Make ``lang`` the current language of this task (see :func:`using`)."""
    return _current.set(pick(lang))


class using:
    """Write in ``lang`` inside the block (English when it is None or not spoken):
    ``with using(lang) as spoken:``. A class, not a generator: every board and hand
    is written inside one (about 25 a move)."""

    __slots__ = ("_lang", "_token")

    def __init__(self, lang: str | None) -> None:
        self._lang = pick(lang)

    def __enter__(self) -> str:
        self._token = _current.set(self._lang)
        return self._lang

    def __exit__(self, *exc: object) -> None:
        _current.reset(self._token)


# ---------------------------------------------------------------- whose language

#: Each server's language, resolved (a front end sets it: Discord from /settings language
#: or the server's preferred locale). What everyone at a table reads is in it.
_servers: dict[int, str] = {}
#: Each person's language, as last seen (Discord: their client's, on each interaction).
#: What only they read is in it; someone not seen yet reads their server's.
_readers: dict[int, str] = {}


def forget_languages() -> None:
    """Forget every server's and person's language (a front end starting afresh)."""
    _servers.clear()
    _readers.clear()


def set_server_language(guild_id: int, lang: str | None) -> None:
    _servers[guild_id] = pick(lang)


def server_language(guild_id: int | None) -> str:
    return _servers.get(guild_id, ENGLISH) if guild_id is not None else ENGLISH


def remember_reader(user_id: int, lang: str | None) -> str:
    """Note the language a person reads (from their latest interaction) and return it."""
    found = pick(lang)
    _readers[user_id] = found
    return found


def reader_language(user_id: int | None, guild_id: int | None) -> str:
    if user_id is not None and user_id in _readers:
        return _readers[user_id]
    return server_language(guild_id)


def _table_in(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The table a decorated method works on: its first argument (after ``self``) that
    has a ``record`` and a ``guild_id``."""
    if len(args) > 1 and hasattr(args[1], "record") and hasattr(args[1], "guild_id"):
        return args[1]  # the usual ``(self, table, ...)``, without building the tuple below
    for value in (*args[1:], *kwargs.values()):
        if hasattr(value, "record") and hasattr(value, "guild_id"):
            return value
    return None


def _everyones_language(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    return server_language(getattr(_table_in(args, kwargs), "guild_id", None))


def _readers_language(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    table = _table_in(args, kwargs)
    user = kwargs.get("user")
    if user is None and table is not None:
        if len(args) > 2 and args[1] is table:  # the usual ``(self, table, user, ...)``
            user = args[2] if isinstance(args[2], int) else None
        elif table in args:
            after = args[args.index(table) + 1:]
            user = after[0] if after and isinstance(after[0], int) else None
    return reader_language(user, getattr(table, "guild_id", None))


def _run_in(function: Callable[..., Any], language_of: Callable[[tuple[Any, ...], dict[str, Any]], str]) -> Callable[..., Any]:
    """``function`` run in the language ``language_of(args, kwargs)`` gives. It sets the
    current language itself rather than through :class:`using`: these run about twenty
    times a move, and the languages kept here are resolved already (no :func:`pick`)."""
    if inspect.iscoroutinefunction(function):
        @functools.wraps(function)
        async def run_async(*args: Any, **kwargs: Any) -> Any:
            token = _current.set(language_of(args, kwargs))
            try:
                return await function(*args, **kwargs)
            finally:
                _current.reset(token)
        return run_async

    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> Any:
        token = _current.set(language_of(args, kwargs))
        try:
            return function(*args, **kwargs)
        finally:
            _current.reset(token)
    return run


def for_everyone(function: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a method ``(self, table, ...)`` that writes what everyone at the table
    reads (a board, a lobby, a notice, a log line): it runs in the server's language."""
    return _run_in(function, _everyones_language)


def for_reader(function: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a method ``(self, table, user, ...)`` that writes what only ``user``
    reads (their hand): it runs in that person's language."""
    return _run_in(function, _readers_language)


# ---------------------------------------------------------------- catalogs


def catalog_files(lang: str) -> list[Any]:
    """The shipped ``.po`` files of one language (importlib resources)."""
    folder = resources.files("bot.words") / "locales" / lang / "LC_MESSAGES"
    if not folder.is_dir():
        return []
    return sorted((f for f in folder.iterdir() if f.name.endswith(".po")), key=lambda f: f.name)


def read_catalog(lang: str) -> Catalog:
    """Every ``.po`` file of a language merged into one catalog (later files do not
    override a message an earlier one translated)."""
    merged = new_catalog(lang)
    for resource in catalog_files(lang):
        with resource.open("rb") as handle:
            part = read_po(handle, locale=lang)
        for message in part:
            if not message.id or message.fuzzy:
                continue
            key = (message.id, message.context)
            existing = merged.get(message.id, message.context)
            if existing is not None and _translated(existing):
                continue
            if key and _translated(message):
                merged[message.id] = message
    return merged


def new_catalog(lang: str, **kwargs: Any) -> Catalog:
    """An empty catalog for ``lang`` with the plural rules its files are written in."""
    catalog = Catalog(locale=lang, domain="deckhand", **kwargs)
    if lang in PLURAL_FORMS:
        catalog.mime_headers = [*catalog.mime_headers, ("Plural-Forms", PLURAL_FORMS[lang])]
    return catalog


def _translated(message: Any) -> bool:
    if isinstance(message.string, (tuple, list)):
        return all(message.string)
    return bool(message.string)


@lru_cache(maxsize=None)
def _translations(lang: str) -> Translations | None:
    if lang not in CATALOG_LANGUAGES:
        return None
    buffer = io.BytesIO()
    write_mo(buffer, read_catalog(lang))
    buffer.seek(0)
    return Translations(fp=buffer, domain="deckhand")


def reload_catalogs() -> None:
    """Forget compiled catalogs (tests and translators' tools edit the files), and every
    text kept by :func:`per_language`."""
    _translations.cache_clear()
    _pseudo.cache_clear()
    for cache in _per_language_caches:
        cache.cache_clear()


_per_language_caches: list[Any] = []


def per_language(maxsize: int) -> Callable[[Callable[..., str]], Callable[..., str]]:
    """Keep what a function of hashable positional arguments writes, per current
    language (an ``lru_cache`` of ``maxsize`` keyed by the language and the arguments),
    until :func:`reload_catalogs`. For texts built again and again from the same parts
    (a card's name, a picture's alt text): the function must depend on nothing else."""
    def keep(function: Callable[..., str]) -> Callable[..., str]:
        @lru_cache(maxsize=maxsize)
        def in_language(lang: str, *args: Any) -> str:
            return function(*args)  # ``lang`` is the current language: it is the key only

        @functools.wraps(function)
        def kept(*args: Any) -> str:
            return in_language(_current.get(), *args)

        kept.cache_clear = in_language.cache_clear  # type: ignore[attr-defined]
        kept.cache_info = in_language.cache_info  # type: ignore[attr-defined]
        _per_language_caches.append(in_language)
        return kept
    return keep


# ---------------------------------------------------------------- looking words up


def _fill(text: str, fallback: str, fields: dict[str, Any]) -> str:
    if not fields:
        return text
    try:
        return text.format_map(fields)
    except (KeyError, IndexError, ValueError):
        # A translation naming a placeholder the code does not give: English, not a crash.
        return fallback.format_map(fields)


def _translate(context: str | None, msgid: str, fields: dict[str, Any]) -> str:
    lang = _current.get()
    if lang == ENGLISH:
        return msgid.format_map(fields) if fields else msgid
    if lang == PSEUDO:
        return _fill(_pseudo(msgid), msgid, fields)
    translations = _translations(lang)
    if translations is None:
        text = msgid
    else:
        text = translations.gettext(msgid) if context is None else translations.pgettext(context, msgid)
    return _fill(text, msgid, fields)


def _(msgid: str, /, **fields: Any) -> str:
    """``msgid`` in the current language, its ``{placeholders}`` filled from ``fields``."""
    if _current.get() == ENGLISH:  # :func:`_translate`'s first case, without its call (~100 a move)
        return msgid.format_map(fields) if fields else msgid
    return _translate(None, msgid, fields)


def ngettext(singular: str, plural: str, n: int, /, **fields: Any) -> str:
    """The form for ``n`` in the current language; ``{n}`` is filled with ``n``
    unless ``fields`` gives another value for it."""
    fields.setdefault("n", n)
    lang = _current.get()
    english = singular if n == 1 else plural
    if lang == ENGLISH:
        return english.format_map(fields)
    if lang == PSEUDO:
        return _fill(_pseudo(english), english, fields)
    translations = _translations(lang)
    text = translations.ngettext(singular, plural, n) if translations is not None else english
    return _fill(text, english, fields)


def pgettext(context: str, msgid: str, /, **fields: Any) -> str:
    """Like :func:`_` for a short text whose translation depends on where it stands
    (``pgettext("button", "Pass")``)."""
    return _translate(context, msgid, fields)


def N_(msgid: str, /) -> str:
    """Mark a text for translation without translating it now: for constants built at
    import time, translated where they are shown with ``_(CONSTANT)``."""
    return msgid


# ---------------------------------------------------------------- numbers and lists


def _babel_locale() -> str:
    lang = _current.get()
    return ENGLISH if lang == PSEUDO else lang


def number(value: int | float) -> str:
    """A number written the current language's way (``1,234`` / ``1234`` / ``12.345``)."""
    return _format_decimal(value, _babel_locale())


@lru_cache(maxsize=4096)
def _format_decimal(value: int | float, locale: str) -> str:
    return format_decimal(value, locale=locale)


def language_name(code: str) -> str:
    """A language's name as a sentence in the current language says it ("in Spanish",
    "en inglés", "en español": Spanish writes language names in lower case), from
    Babel's data; the code itself for one it does not know. ``LANGUAGE_NAMES`` holds
    each language's name in its own language, for lists of choices."""
    return _locale_object(_babel_locale()).languages.get(code, code)


def join(items: Iterable[str], style: str = "standard") -> str:
    """``a, b and c`` in the current language (``style="or"`` for ``a, b or c``)."""
    items = list(items)
    if not items:
        return ""
    if _current.get() == PSEUDO and len(items) > 1:
        return ", ".join(items[:-1]) + f" {_pseudo('or' if style == 'or' else 'and')} " + items[-1]
    return format_list(items, style=style, locale=_locale_object(_babel_locale()))


def and_list(items: Iterable[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: a list as it is said, in the current language
    (English without the serial comma, as Deckhand has always written it)."""
    items = [item for item in items if item]
    if _current.get() == ENGLISH and len(items) > 1:
        return ", ".join(items[:-1]) + " and " + items[-1]
    return join(items) if len(items) > 1 else "".join(items)


@lru_cache(maxsize=None)
def _locale_object(lang: str) -> Locale:
    return Locale.parse(lang)


# ---------------------------------------------------------------- the pseudo-language

_ACCENTED = str.maketrans(
    "AaBbCcDdEeFfGgHhIiJjKkLlMmNnOoPpRrSsTtUuWwYyZz",
    "ÅåƁƀÇçÐðÉéƑƒĜĝĤĥÎîĴĵĶķĻļṀṁÑñÖöÞþŔŕŠšŢţÛûŴŵÝýŽž",
)
# Kept as they are: {placeholders}, <@mentions> and <:emoji:ids>, `code`, URLs, and
# Markdown markers, so the pseudo text still works where the real one does.
_UNTOUCHED = re.compile(r"(\{[^{}]*\}|<[^<>]*>|`[^`]*`|https?://\S+|\*\*|__|~~|\|\||^#+ |\n)", re.M)
PSEUDO_OPEN, PSEUDO_CLOSE = "⟦", "⟧"


@lru_cache(maxsize=8192)
def _pseudo(msgid: str) -> str:
    if not msgid:
        return msgid
    parts = _UNTOUCHED.split(msgid)
    out = []
    letters = 0
    for index, part in enumerate(parts):
        if index % 2:  # a kept token
            out.append(part)
        else:
            out.append(part.translate(_ACCENTED))
            letters += sum(ch.isalpha() for ch in part)
    # A third longer, as many languages are than English.
    return f"{PSEUDO_OPEN}{''.join(out)}{'·' * ((letters + 2) // 3)}{PSEUDO_CLOSE}"
