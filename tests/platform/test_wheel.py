"""A plain install works: the wheel carries every file Deckhand reads at run time.

The test builds the wheel from a copy of the checkout (offline, with this
environment's setuptools), installs it into a new virtual environment and, from an
empty folder, loads every game's rules text the way ``/rules`` does, applies the
storage migrations, draws a card picture and asks ``deckhand`` and ``python -m bot``
for their help.

The new venv installs no dependencies (that would mean PyPI and minutes): a ``.pth``
file lends it this environment's site-packages *after* its own, for discord.py and
the rest. Paths named in a ``.pth`` file are added as they are, their own ``.pth``
files unread, so an editable install of Deckhand there stays switched off; and the
probe checks that ``bot``, ``cogs`` and ``storage`` come from the new venv and that no
checkout is on ``sys.path``.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(p.parent.name for p in ROOT.glob("cogs/*/rules.py"))
MIGRATIONS = sorted(p.relative_to(ROOT).as_posix() for p in ROOT.glob("storage/migrations/*/*.sql"))

# Not needed to build the wheel, and some are large or private.
_NOT_COPIED = {".git", ".venv", "venv", ".ci", "build", "dist", "data", ".env", "tests", "bench"}

# Runs inside the new venv, from an empty folder, with -I (no checkout, no PYTHONPATH).
PROBE = r"""
import asyncio, importlib, inspect, json, sys, tempfile
from pathlib import Path

import bot, cogs, storage
from bot.pictures import cardart
from bot.discord_front.app import game_extensions
from bot.discord_front.gamecog import GameCog
from bot.core.games import GameRegistry
from storage import open_storage

registry = GameRegistry()
for name in game_extensions():  # found the way the bot finds its cogs
    module = importlib.import_module(name)
    for cls in vars(module).values():
        if inspect.isclass(cls) and issubclass(cls, GameCog) and cls is not GameCog:
            registry.add(cls.spec)
rules = {spec.key: spec.rules_text() for spec in registry}  # what /rules <game> shows

async def tables():
    with tempfile.TemporaryDirectory() as data:
        store = open_storage(Path(data))
        try:
            async with store.transaction(1) as connection:
                cursor = await connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                return sorted(row[0] for row in await cursor.fetchall())
        finally:
            await store.close()

picture = cardart.render_rows([cardart.CardRow("Hand", ("As", "Td"), 2)], title="Wheel")
print(json.dumps({
    "files": {m.__name__: m.__file__ for m in (bot, cogs, storage)},
    "path": sys.path,
    "rules": rules,
    "tables": asyncio.run(tables()),
    "font": str(cardart._font_file()),
    "png": picture[:8].hex(),
}))
"""


def _not_copied(folder: str, names: list[str]) -> list[str]:
    """Leave out the top level's environments, caches and build output (a package's own
    folder of one of these names is copied: the wheel may need it)."""
    skip = [n for n in names if n in ("__pycache__", ".pytest_cache", ".hypothesis") or n.endswith(".egg-info")]
    return skip + [n for n in names if n in _NOT_COPIED] if Path(folder) == ROOT else skip


def _clean_env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON") and k != "VIRTUAL_ENV"}
    env.update(PYTHONNOUSERSITE="1", PYTHONDONTWRITEBYTECODE="1", PIP_NO_INPUT="1",
               PIP_DISABLE_PIP_VERSION_CHECK="1", HOME=str(tmp))
    return env


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{args} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(venv folder, empty working folder, wheel, environment) with the wheel installed."""
    tmp = tmp_path_factory.mktemp("wheel")
    env = _clean_env(tmp)
    source = tmp / "source"
    # symlinks=True: the build sees the checkout as it is (cogs/<game>/rules.md are links).
    shutil.copytree(ROOT, source, ignore=_not_copied, symlinks=True)
    # Offline: setuptools from this environment (the test extra pins it), no build isolation.
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
          "-w", str(tmp / "dist"), str(source)], tmp, env)
    (wheel,) = (tmp / "dist").glob("deckhand-*.whl")

    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp, env)
    python = venv / "bin" / "python"
    purelib = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], tmp, env).stdout.strip())
    lent = [p for p in dict.fromkeys([*site.getsitepackages(), sysconfig.get_path("purelib")]) if Path(p).is_dir()]
    (purelib / "zz_lent_site_packages.pth").write_text("".join(f"{p}\n" for p in lent))
    # This environment's pip installs into the new venv (it has none of its own).
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", str(wheel)], tmp, env)

    work = tmp / "elsewhere"
    work.mkdir()
    return venv, work, wheel, env


def test_the_wheel_holds_every_rules_text_and_migration(installed):
    _, _, wheel, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    assert len(GAMES) == 5
    missing = [f"cogs/{g}/rules.md" for g in GAMES if f"cogs/{g}/rules.md" not in names]
    missing += [m for m in MIGRATIONS if m not in names]
    assert not missing, f"not in the wheel: {missing}"
    assert "bot/__init__.py" in names


def test_rules_storage_and_pictures_work_from_the_installed_wheel(installed):
    venv, work, _, env = installed
    done = _run([str(venv / "bin" / "python"), "-I", "-c", PROBE], work, env)
    probe = json.loads(done.stdout.splitlines()[-1])

    prefix = str(venv.resolve())
    for name, file in probe["files"].items():
        assert file and str(Path(file).resolve()).startswith(prefix), f"{name} came from {file}, not the new venv"
    assert not any(Path(p or ".").resolve() in (ROOT, work.resolve()) for p in probe["path"] if p), probe["path"]

    assert sorted(probe["rules"]) == GAMES
    for key, text in probe["rules"].items():
        assert text == (ROOT / "docs" / "rules" / f"{key}.md").read_text(encoding="utf-8"), f"/rules {key} differs from docs/rules/{key}.md"
    assert {"game_tables", "actions", "results"} <= set(probe["tables"]), probe["tables"]
    assert probe["font"].endswith(".ttf"), probe["font"]
    assert probe["png"] == b"\x89PNG\r\n\x1a\n".hex()


def test_console_script_and_module_print_their_help(installed):
    venv, work, _, env = installed
    for args in ([str(venv / "bin" / "deckhand"), "--help"], [str(venv / "bin" / "python"), "-I", "-m", "bot", "--help"]):
        done = _run(args, work, env)
        assert done.stdout.startswith("Usage: deckhand"), done.stdout
        assert "quarantine" in done.stdout and "migrate" in done.stdout


def test_deckhand_play_help_needs_no_token_and_no_discord(installed):
    """``deckhand play --help`` from the wheel: no DISCORD_TOKEN, no .env, and discord.py
    never imported (the command line is read before the table core and the games load)."""
    venv, work, _, env = installed
    env = {k: v for k, v in env.items() if k != "DISCORD_TOKEN"}
    done = _run([str(venv / "bin" / "deckhand"), "play", "--help"], work, env)
    assert done.stdout.startswith("usage: deckhand play"), done.stdout
    assert "--computers" in done.stdout and "deckhand play idiot" in done.stdout
    probe = ("import runpy, sys; sys.argv = ['deckhand', 'play', '--help']\n"
             "try:\n    runpy.run_module('bot', run_name='__main__')\nexcept SystemExit:\n    pass\n"
             "print('discord imported' if 'discord' in sys.modules else 'no discord')")
    done = _run([str(venv / "bin" / "python"), "-I", "-c", probe], work, env)
    assert done.stdout.splitlines()[-1] == "no discord", done.stdout[-500:]
