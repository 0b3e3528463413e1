"""/settings show with every game loaded: the overview fits one message (only the
house rules a server changed), and `game:` lists one game's rules in full."""

from __future__ import annotations

from bot.discord_front.guard import MESSAGE_LIMIT
from tests.e2e.world import admin_world


def world(env):
    _, channel, admin, _ = admin_world(env, 0)
    return channel, admin


async def test_overview_lists_only_changed_rules_and_fits(simcord_env):
    env = simcord_env
    channel, admin = world(env)
    onion = env.bot.games.get("onion")
    rule = onion.house_rules[0]
    other = next(c for c in rule.choices if c != rule.default)
    await admin.slash(channel, "settings house-rule", game="onion", rule=rule.key, value=other)
    shown = (await admin.slash(channel, "settings show")).response.content
    assert len(shown) < MESSAGE_LIMIT and not shown.endswith("…")
    assert f"{onion.title} · {rule.key}:** {other}" in shown
    assert rule.sentence(other) in shown
    # Rules left at their defaults are not listed one by one.
    untouched = onion.house_rules[1]
    assert f"· {untouched.key}:**" not in shown
    assert "/settings show game:" in shown


async def test_one_game_lists_every_rule_with_its_choices(simcord_env):
    env = simcord_env
    channel, admin = world(env)
    reply = await admin.slash(channel, "settings show", game="onion")
    (embed,) = reply.response.embeds
    for rule in env.bot.games.get("onion").house_rules:
        assert f"**{rule.key}:** {rule.default} (default)" in embed.description
    unknown = await admin.slash(channel, "settings show", game="poker")
    assert "I don't know a game called 'poker'" in unknown.response.content
