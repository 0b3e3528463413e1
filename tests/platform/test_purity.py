"""The rules engines stay pure: no Discord, asyncio, sqlite or clock in any
cogs/<game>/rules.py (or the Onion evaluator), and they import without discord.py."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.platform.imports import import_blocked

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = {"discord", "asyncio", "sqlite3", "aiosqlite", "time", "datetime"}
PURE_MODULES = sorted([*ROOT.glob("cogs/*/rules.py"), *ROOT.glob("cogs/*/scoring.py"), *ROOT.glob("bot/rules/*.py"),
                       *ROOT.glob("bot/pictures/cardart*.py")])  # pictures are drawn off the event loop


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_there_are_rules_modules_to_check():
    assert {p.parent.name for p in PURE_MODULES} >= {"blackjack", "idiot", "engines", "onion", "rules"}
    assert {p.name for p in PURE_MODULES} >= {"cardart.py", "cardart_pips.py"}


def test_no_rules_module_imports_discord_asyncio_sqlite_or_a_clock():
    offenders = {str(p.relative_to(ROOT)): sorted(imported_roots(p) & FORBIDDEN) for p in PURE_MODULES}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_checker_notices_a_forbidden_import(tmp_path):
    bad = tmp_path / "rules.py"
    bad.write_text("import os\nfrom discord import Embed\nimport asyncio.tasks\n")
    assert imported_roots(bad) & FORBIDDEN == {"discord", "asyncio"}


def test_rules_import_without_discord_installed():
    """Block discord at import time in a fresh interpreter and import every rules module."""
    modules = [".".join(p.relative_to(ROOT).with_suffix("").parts) for p in PURE_MODULES]
    result = import_blocked(modules, {"discord", "aiosqlite", "sqlite3"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
