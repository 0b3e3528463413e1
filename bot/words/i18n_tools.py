"""Translators' tools: ``python -m bot.words.i18n_tools update|check [LANG ...]``.

- ``update`` extracts every marked sentence (``_``, ``ngettext``, ``pgettext``, ``N_``)
  from ``bot/`` and ``cogs/`` with Babel and brings each language's catalogs up to date:
  one file per area (a game's folder, or a part of the platform), new sentences added
  untranslated, translations kept, sentences no longer in the code dropped.
- ``check`` lists the sentences a language's catalogs lack or leave untranslated, and
  exits 1 if there are any (a test runs it for every shipped language).

``babel.cfg`` at the top of the repository says the same to ``pybabel extract``.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections import defaultdict
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

from bot.words.i18n import CATALOG_LANGUAGES, new_catalog

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "bot" / "words" / "locales"
SOURCES = ("bot", "cogs")
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None}
#: Not part of what players read.
_SKIP_PARTS = {"locales", "__pycache__"}


def area_of(path: str) -> str:
    """Which catalog file a sentence found in ``path`` (relative, with /) belongs to."""
    parts = path.split("/")
    if parts[-1] in {"cog.py", "gamecog.py", "commands.py"} or parts[-1].endswith("_commands.py") or parts[-1] == "translator.py":
        return "commands"  # slash commands' descriptions and choices (bot/discord_front/translator.py)
    if parts[0] == "cogs" and len(parts) > 2:
        return parts[1]
    if parts[0] == "bot" and len(parts) > 2 and parts[1] in {"core", "discord_front", "terminal", "replay"}:
        return {"core": "core", "discord_front": "discord", "terminal": "terminal", "replay": "replay"}[parts[1]]
    return "platform"


def extract(root: Path = ROOT) -> dict[str, Catalog]:
    """Every marked sentence in the code, grouped by area (each sentence in the area of
    the first place it is used)."""
    found: dict[tuple[str, str | None], tuple[str, list, list[str], str | tuple[str, ...]]] = {}
    for source in SOURCES:
        if not (root / source).is_dir():
            continue
        # Babel warns of every f-string passed as a field's value (``host=f"<@{id}>"``);
        # those are values, not sentences, so its warnings are not shown.
        messages = extract_from_dir(
            root / source,
            method_map=[("**.py", "python")],
            keywords=KEYWORDS,
            comment_tags=("Translators:",),
            strip_comment_tags=True,
        )
        with contextlib.redirect_stderr(io.StringIO()):
            messages = list(messages)
        for filename, lineno, message, comments, context in messages:
            rel = f"{source}/{Path(filename).as_posix()}"
            if _SKIP_PARTS & set(rel.split("/")):
                continue
            msgid = message if isinstance(message, str) else tuple(message)
            key_id = msgid if isinstance(msgid, str) else msgid[0]
            if not key_id:
                continue
            key = (key_id, context)
            if key in found:
                found[key][1].append((rel, lineno))
                continue
            found[key] = (area_of(rel), [(rel, lineno)], list(comments), msgid)
    by_area: dict[str, Catalog] = defaultdict(lambda: Catalog(domain="deckhand"))
    for (key_id, context), (area, locations, comments, msgid) in sorted(found.items(), key=lambda kv: (kv[1][1][0], kv[0][0])):
        by_area[area].add(msgid, locations=locations, auto_comments=comments, context=context)
    return dict(by_area)


def _po_path(lang: str, area: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{area}.po"


def update(langs: list[str]) -> None:
    areas = extract()
    for lang in langs:
        old: dict[tuple[str, str | None], object] = {}
        for path in sorted((LOCALES / lang / "LC_MESSAGES").glob("*.po")):
            with path.open("rb") as handle:
                for message in read_po(handle, locale=lang):
                    if message.id and message.string:
                        old.setdefault((_key(message.id), message.context), message)
        for area, template in areas.items():
            catalog = new_catalog(lang, project="Deckhand", header_comment=f"# Deckhand, {area}: {lang}")
            for message in template:
                if not message.id:
                    continue
                previous = old.get((_key(message.id), message.context))
                string = getattr(previous, "string", "") if previous is not None else ""
                if isinstance(message.id, (tuple, list)) and not isinstance(string, (tuple, list)):
                    string = ("",) * catalog.num_plurals
                catalog.add(message.id, string=string, locations=message.locations, auto_comments=message.auto_comments,
                            context=message.context, flags=getattr(previous, "flags", ()) if previous is not None else ())
            path = _po_path(lang, area)
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as handle:
                write_po(handle, catalog, width=100, sort_output=False, omit_header=False)
        for path in (LOCALES / lang / "LC_MESSAGES").glob("*.po"):
            if path.stem not in areas:
                path.unlink()


def _key(msgid: str | tuple[str, ...]) -> str:
    return msgid if isinstance(msgid, str) else msgid[0]


def missing(lang: str, root: Path = ROOT) -> list[tuple[str, str]]:
    """(where, sentence) for every marked sentence ``lang``'s catalogs do not translate."""
    from bot.words.i18n import read_catalog

    catalog = read_catalog(lang)
    gaps = []
    for area, template in sorted(extract(root).items()):
        for message in template:
            if not message.id:
                continue
            found = catalog.get(message.id, message.context)
            strings = found.string if found is not None else ""
            if not found or not (all(strings) if isinstance(strings, (tuple, list)) else strings):
                where = f"{message.locations[0][0]}:{message.locations[0][1]}" if message.locations else area
                gaps.append((where, _key(message.id)))
    return gaps


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in {"update", "check"}:
        print("usage: python -m bot.words.i18n_tools update|check [LANG ...]", file=sys.stderr)
        return 2
    command, langs = args[0], args[1:] or list(CATALOG_LANGUAGES)
    if command == "update":
        update(langs)
        return 0
    failed = False
    for lang in langs:
        gaps = missing(lang)
        for where, text in gaps:
            print(f"{lang}: {where}: {text!r}")
        print(f"{lang}: {len(gaps)} sentence(s) untranslated")
        failed = failed or bool(gaps)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
