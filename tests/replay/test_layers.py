"""The replay core is shared by both front ends, so it knows nothing of Discord: no
module of bot/replay/ reaches discord through any import chain, and each imports with
discord.py blocked (as the table core, tests/platform/test_layers.py)."""

from __future__ import annotations

from tests.platform.imports import ROOT, chain_to, graph, import_blocked, modules_under

REPLAY = sorted(name for name in modules_under(ROOT, ["bot"]) if name == "bot.replay" or name.startswith("bot.replay."))


def test_there_is_a_replay_core_to_check():
    assert {"bot.replay", "bot.replay.steps", "bot.replay.opening", "bot.replay.animation"} <= set(REPLAY)


def test_no_replay_module_reaches_discord_through_any_import_chain():
    own, outside = graph()
    chains = {name: chain_to(own, outside, name, "discord") for name in REPLAY}
    assert {name: " -> ".join(chain) for name, chain in chains.items() if chain} == {}


def test_every_replay_module_imports_with_discord_blocked():
    result = import_blocked([*REPLAY, "bot.terminal.replay"], {"discord"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
