"""Computer players are pure like the rules: no Discord, asyncio, sqlite or clock in
bot/ai or any cogs/<game>/ai.py (the platform passes the clock in)."""

from __future__ import annotations

from pathlib import Path

from tests.platform.test_purity import FORBIDDEN, imported_roots

ROOT = Path(__file__).resolve().parents[2]
AI_MODULES = sorted([*ROOT.glob("bot/ai/*.py"), *ROOT.glob("cogs/*/ai.py")])


def test_there_are_ai_modules_to_check():
    assert {p.parent.name for p in AI_MODULES} >= {"ai", "blackjack", "idiot", "engines"}


def test_no_ai_module_imports_discord_asyncio_sqlite_or_a_clock():
    offenders = {str(p.relative_to(ROOT)): sorted(imported_roots(p) & FORBIDDEN) for p in AI_MODULES}
    assert {k: v for k, v in offenders.items() if v} == {}
