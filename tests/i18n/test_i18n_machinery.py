"""bot/words/i18n.py: lookups, plural forms, fallbacks, the pseudo-language, and the check
that every marked sentence is translated."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from bot.words import i18n, i18n_tools
from bot.words.i18n import _, ngettext, pgettext


@pytest.fixture
def spanish_catalog(tmp_path, monkeypatch):
    """A small Spanish catalog in place of the shipped ones."""
    po = tmp_path / "test.po"
    po.write_text(textwrap.dedent('''\
        msgid ""
        msgstr ""
        "Content-Type: text/plain; charset=UTF-8\\n"
        "Plural-Forms: nplurals=2; plural=(n != 1);\\n"

        msgid "Your move."
        msgstr "Te toca."

        msgid "{player} played {card}."
        msgstr "{player} jugó {card}."

        msgid "{n} card"
        msgid_plural "{n} cards"
        msgstr[0] "{n} carta"
        msgstr[1] "{n} cartas"

        msgctxt "button"
        msgid "Pass"
        msgstr "Pasar"

        #, fuzzy
        msgid "Draw"
        msgstr "Robar mal"

        msgid "{who} leaves."
        msgstr "{quien} se va."

        msgid "Untranslated."
        msgstr ""
        '''), encoding="utf-8")
    monkeypatch.setattr(i18n, "catalog_files", lambda lang: [po] if lang == "es" else [])
    i18n.reload_catalogs()
    yield po
    i18n.reload_catalogs()


def test_english_is_the_code_text_with_its_fields_filled():
    assert i18n.language() == "en"
    assert _("Your move.") == "Your move."
    assert _("{player} played {card}.", player="Ana", card="the ace") == "Ana played the ace."
    assert ngettext("{n} card", "{n} cards", 1) == "1 card"
    assert ngettext("{n} card", "{n} cards", 3) == "3 cards"


def test_spanish_from_the_catalog_with_plurals_and_contexts(spanish_catalog):
    with i18n.using("es-ES"):
        assert i18n.language() == "es"
        assert _("Your move.") == "Te toca."
        assert _("{player} played {card}.", player="Ana", card="el as") == "Ana jugó el as."
        assert ngettext("{n} card", "{n} cards", 1) == "1 carta"
        assert ngettext("{n} card", "{n} cards", 5) == "5 cartas"
        assert pgettext("button", "Pass") == "Pasar"
    assert _("Your move.") == "Your move."  # the block ends, English again


def test_what_is_missing_fuzzy_or_broken_falls_back_to_english(spanish_catalog):
    with i18n.using("es-419"):
        assert _("Untranslated.") == "Untranslated."
        assert _("Not in any catalog.") == "Not in any catalog."
        assert _("Draw") == "Draw"  # fuzzy entries are not used
        # The translation names a placeholder the code does not give: English, no crash.
        assert _("{who} leaves.", who="Bob") == "Bob leaves."


def test_a_text_kept_per_language_is_written_again_in_another_language_and_after_a_reload(spanish_catalog):
    calls = []

    @i18n.per_language(maxsize=8)
    def move_line(player: str) -> str:
        calls.append(player)
        return _("{player} played {card}.", player=player, card="10")

    assert move_line("Ana") == "Ana played 10." and move_line("Ana") == "Ana played 10."
    with i18n.using("es"):
        assert move_line("Ana") == "Ana jugó 10."
    assert calls == ["Ana", "Ana"]  # kept once per language
    spanish_catalog.write_text(spanish_catalog.read_text(encoding="utf-8").replace("jugó", "tiró"), encoding="utf-8")
    i18n.reload_catalogs()
    with i18n.using("es"):
        assert move_line("Ana") == "Ana tiró 10."  # a reload forgets what was kept
    assert len(calls) == 3


def test_locale_tags_map_to_the_languages_spoken():
    assert i18n.pick("es-ES") == "es"
    assert i18n.pick("es-419") == "es"
    assert i18n.pick("en-GB") == "en"
    assert i18n.pick("fr", "es-ES") == "es"
    assert i18n.pick("ja", None) == "en"
    assert i18n.supported("de") is None
    assert i18n.pick(i18n.PSEUDO) == i18n.PSEUDO


def test_numbers_and_lists_follow_the_language():
    assert i18n.number(12345) == "12,345"
    assert i18n.join(["Ana", "Bob", "Cy"]) == "Ana, Bob, and Cy"
    with i18n.using("es"):
        assert i18n.number(12345) == "12.345"
        assert i18n.join(["Ana", "Bob", "Cy"]) == "Ana, Bob y Cy"
        assert i18n.join(["Ana", "Bob"], style="or") == "Ana o Bob"


def test_the_pseudo_language_wraps_lengthens_and_keeps_what_must_work():
    with i18n.using(i18n.PSEUDO):
        text = _("**{player}** played <@{user}> a card: `A♠` <:pip:123>", player="Ana", user=42)
    assert text.startswith("⟦") and text.endswith("⟧")
    assert "**Ana**" in text and "<@42>" in text and "`A♠`" in text and "<:pip:123>" in text
    assert "played" not in text and "ƥ" not in text
    plain = "Every word must be accented"
    with i18n.using(i18n.PSEUDO):
        pseudo = _(plain)
    assert len(pseudo) >= len(plain) * 4 // 3
    assert not any(word in pseudo for word in plain.split())


def test_the_current_language_belongs_to_each_task():
    import asyncio

    async def speak(lang: str) -> str:
        with i18n.using(lang):
            await asyncio.sleep(0)
            return i18n.language()

    async def both():
        return await asyncio.gather(speak("es"), speak("en"), speak(i18n.PSEUDO))

    assert asyncio.run(both()) == ["es", "en", i18n.PSEUDO]


def test_the_check_finds_a_marked_sentence_no_catalog_translates(tmp_path):
    game = tmp_path / "cogs" / "toy"
    game.mkdir(parents=True)
    (game / "render.py").write_text(
        "from bot.words.i18n import _, ngettext, N_\n"
        "TITLE = N_('A constant')\n"
        "def line(n):\n"
        "    return _('Hello {name}', name='x') + ngettext('{n} card', '{n} cards', n)\n",
        encoding="utf-8",
    )
    areas = i18n_tools.extract(tmp_path)
    assert set(areas) == {"toy"}
    assert {m.id if isinstance(m.id, str) else m.id[0] for m in areas["toy"] if m.id} == {"A constant", "Hello {name}", "{n} card"}
    gaps = i18n_tools.missing("es", tmp_path)
    assert {text for _where, text in gaps} >= {"A constant", "Hello {name}", "{n} card"}


@pytest.mark.parametrize("lang", i18n.CATALOG_LANGUAGES)
def test_every_marked_sentence_is_translated(lang):
    gaps = i18n_tools.missing(lang)
    assert gaps == [], f"{len(gaps)} untranslated in {lang}; run python -m bot.words.i18n_tools update, then translate: {gaps[:20]}"


def test_the_catalogs_ship_with_the_package():
    for lang in i18n.CATALOG_LANGUAGES:
        files = i18n.catalog_files(lang)
        assert all(Path(str(f)).suffix == ".po" for f in files)
