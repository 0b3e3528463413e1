"""The layers (docs/developers/architecture.md): the table core knows nothing of
Discord, only the Discord front end's package and the games' cogs import discord.py,
and bot/, cogs/ and storage/ have no import circle, type-only imports (under
``if TYPE_CHECKING:``) counted: a module that names another's types cannot be
understood without it."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.platform.imports import ROOT, chain_to, circles, graph, import_blocked, modules_under

CORE = sorted(name for name in modules_under(ROOT, ["bot"]) if name == "bot.core" or name.startswith("bot.core."))


def test_there_is_a_core_to_check():
    assert {"bot.core.facade", "bot.core.moves", "bot.core.timers", "bot.core.lobby", "bot.core.computer", "bot.core.table"} <= set(CORE)


def test_no_core_module_reaches_discord_through_any_import_chain():
    own, outside = graph()
    chains = {name: chain_to(own, outside, name, "discord") for name in CORE}
    assert {name: " -> ".join(chain) for name, chain in chains.items() if chain} == {}


def test_the_chain_finder_sees_discord_two_steps_away(tmp_path):
    package = tmp_path / "bot"
    (package / "core").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "core" / "__init__.py").write_text("")
    (package / "core" / "moves.py").write_text("def f():\n    from bot import show\n")
    (package / "show.py").write_text("import discord.ui\n")
    (package / "typed.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import discord\n")
    own, outside = graph(tmp_path, ["bot"])
    assert chain_to(own, outside, "bot.core.moves", "discord") == ["bot.core.moves", "bot.show", "discord"]
    assert chain_to(own, outside, "bot.typed", "discord") is None  # under TYPE_CHECKING: never runs


def test_bot_cogs_and_storage_have_no_import_circle_type_only_imports_counted():
    own, _ = graph(types=True)
    assert circles(own) == []


def test_the_circle_finder_catches_a_planted_circle(tmp_path):
    package = tmp_path / "bot"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from bot import b\n")
    (package / "b.py").write_text("def late():\n    from bot.c import x\n")
    (package / "c.py").write_text("import bot.a\nx = 1\n")
    (package / "d.py").write_text("from bot import a\n")  # imports into the circle: not part of it
    own, _ = graph(tmp_path, ["bot"])
    assert circles(own) == [["bot.a", "bot.b", "bot.c"]]


def test_the_circle_finder_catches_a_circle_closed_by_a_type_only_import(tmp_path):
    package = tmp_path / "bot"
    (package / "core").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "core" / "__init__.py").write_text("")
    (package / "core" / "table.py").write_text("from bot.core import seats\n")
    (package / "core" / "seats.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.core.table import Table\n")
    own, _ = graph(tmp_path, ["bot"], types=True)
    assert circles(own) == [["bot.core.seats", "bot.core.table"]]
    own, _ = graph(tmp_path, ["bot"])  # only the imports that run: no circle
    assert circles(own) == []


def test_every_core_module_imports_with_discord_blocked():
    result = import_blocked(CORE, {"discord"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


#: Modules that still import discord.py outside its room, each until named work lands.
#: bot.__main__ starts the bot inside functions: branch ``public`` moves that code into
#: bot/discord_front/run.py (the lead removes this entry when merging it).
NOT_YET_MOVED = frozenset({"bot.__main__"})


def in_the_discord_room(name: str) -> bool:
    """Where discord.py may be imported (issue 38, item 2): the Discord front end's package
    and each game's cog (``cogs.<game>.cog``); nowhere else, not even for types."""
    parts = name.split(".")
    return (parts[:2] == ["bot", "discord_front"] or (len(parts) == 3 and parts[0] == "cogs" and parts[2] == "cog")
            or name in NOT_YET_MOVED)


def discord_outside_its_room(root=ROOT) -> list[str]:
    """Modules of bot/, cogs/ and storage/ that import discord (at the top, in a function
    or under TYPE_CHECKING) outside :func:`in_the_discord_room`."""
    _, outside = graph(root, types=True)
    return sorted(name for name, roots in outside.items() if "discord" in roots and not in_the_discord_room(name))


def test_only_the_discord_front_end_and_the_games_cogs_import_discord():
    assert discord_outside_its_room() == []


def test_the_room_check_catches_discord_imported_elsewhere_types_and_functions_included(tmp_path):
    files = {
        "bot/__init__.py": "", "bot/discord_front/__init__.py": "import discord\n",
        "bot/discord_front/tables/moves.py": "from discord import ui\n",  # the front end's own: allowed
        "bot/words/__init__.py": "", "bot/words/board.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import discord\n",
        "bot/words/plain.py": "import re\n",
        "cogs/__init__.py": "", "cogs/toy/__init__.py": "", "cogs/toy/cog.py": "import discord\n",  # a game's cog: allowed
        "cogs/toy/render.py": "def board():\n    import discord.ui\n",
        "cogs/toy/cog_helpers.py": "import discord\n",  # not the cog itself
        "storage/__init__.py": "", "storage/repos.py": "from discord.utils import utcnow\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert discord_outside_its_room(tmp_path) == ["bot.words.board", "cogs.toy.cog_helpers", "cogs.toy.render", "storage.repos"]


def mixin_classes(root: Path = ROOT) -> list[str]:
    """Classes in bot/ and cogs/ that are mixins or are assembled from them (by name:
    ``...Mixin`` as the class or as a base)."""
    found = []
    for name, path in modules_under(root, ["bot", "cogs"]).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = [ast.unparse(base) for base in node.bases]
                if node.name.endswith("Mixin") or any(base.endswith("Mixin") for base in bases):
                    found.append(f"{name}.{node.name}")
    return found


def test_no_class_is_a_mixin_or_assembled_from_mixins():
    """The Discord front end is collaborators handed what they use, as the core is."""
    assert mixin_classes() == []


def test_the_mixin_finder_sees_a_class_assembled_from_mixins(tmp_path):
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "__init__.py").write_text("")
    (tmp_path / "bot" / "m.py").write_text("class LobbyMixin:\n    pass\n\nclass Manager(LobbyMixin, object):\n    pass\n")
    (tmp_path / "cogs").mkdir()
    assert mixin_classes(tmp_path) == ["bot.m.LobbyMixin", "bot.m.Manager"]
