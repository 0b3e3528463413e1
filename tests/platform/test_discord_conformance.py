"""The Discord conformance check (tests/discord_conformance.py): the bot's slash commands conform
without running a bot, the checker catches what real Discord refuses (and passes what it accepts),
and a SimCord test whose bot sends a refused request fails, naming the route, rule and field."""

from __future__ import annotations

import contextlib
import re
import textwrap
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.http import Route

from bot.discord_front.app import EXTENSIONS
from tests import discord_conformance
from tests.conftest import make_bot
from tests.discord_conformance import check, check_commands

V2 = 1 << 15
MESSAGES = "/channels/1/messages"


def command_name(payloads: list[dict[str, Any]], field: str) -> str:
    """'/settings pictures' for the field 'body[10].options[8].description' of a sync payload."""
    index = [int(i) for i in re.findall(r"\[(\d+)\]", field.split(".", 1)[0])][0]
    node, names = payloads[index], [payloads[index]["name"]]
    for i in re.findall(r"options\[(\d+)\]", field):
        node = node["options"][int(i)]
        names.append(node["name"])
    return "/" + " ".join(names)


async def sync_payload(data_dir, extensions=EXTENSIONS) -> list[dict[str, Any]]:
    """What the start-up sync sends, built the way CommandTree.sync builds it, without a bot running."""
    bot = make_bot(data_dir, extensions)
    try:
        for name in extensions:
            await bot.load_extension(name)
        return [command.to_dict(bot.tree) for command in bot.tree._get_all_commands(guild=None)]
    finally:
        await bot.close()  # unloads the cogs: no task of theirs left to fail unseen


def walk(commands) -> list[app_commands.Command | app_commands.Group]:
    out = []
    for command in commands:
        out.append(command)
        if isinstance(command, app_commands.Group):
            out += walk(command.commands)
    return out


# ------------------------------------------------------------------ the bot's command tree


async def test_every_slash_command_conforms_without_running_a_bot(data_dir):
    payloads = await sync_payload(data_dir)
    problems = [f"{command_name(payloads, v.field)}: {v}" for v in check_commands(payloads)]
    assert not problems, "\n".join(problems)


async def test_the_walk_reaches_every_command_option_and_choice(data_dir):
    """The payload checked above holds the whole tree: every group, subcommand, option and choice
    tree.get_commands() has, so nothing escapes the check."""
    bot = make_bot(data_dir)
    for name in EXTENSIONS:
        await bot.load_extension(name)
    payloads = [c.to_dict(bot.tree) for c in bot.tree.get_commands()]
    commands = walk(bot.tree.get_commands())
    await bot.close()

    def names(node, prefix=""):
        name = f"{prefix} {node['name']}".strip()
        return {name}.union(*(names(o, name) for o in node.get("options") or () if o.get("type") in (1, 2)))

    in_payload = set().union(*(names(p) for p in payloads))
    assert {c.qualified_name for c in commands} <= in_payload
    options = [p for c in commands if isinstance(c, app_commands.Command) for p in c.parameters]

    def leaves(node):  # the options and choices of a payload, subcommands walked into
        inner = node.get("options") or ()
        own = [o for o in inner if o.get("type") not in (1, 2)]
        return own + [leaf for o in inner if o.get("type") in (1, 2) for leaf in leaves(o)]

    in_payload_options = [o for p in payloads for o in leaves(p)]
    assert len(in_payload_options) == len(options) > 0
    assert sum(len(o.get("choices") or ()) for o in in_payload_options) == sum(len(p.choices) for p in options) > 0


async def test_the_old_102_character_description_is_caught(data_dir):
    payloads = await sync_payload(data_dir, ("bot.discord_front.commands",))
    settings = next(p for p in payloads if p["name"] == "settings")
    pictures = next(o for o in settings["options"] if o["name"] == "pictures")
    pictures["description"] = "Card pictures on the board (on), or text only for screen readers and slow links (off) (Manage Server)."
    (violation,) = check_commands(payloads)
    assert command_name(payloads, violation.field) == "/settings pictures"
    assert re.fullmatch(
        r"PUT /applications/\{application_id\}/commands: body\[\d+\]\.options\[\d+\]\.description: "
        r"102 characters, Discord allows at most 100",
        str(violation),
    )


def test_planted_command_mistakes_are_each_named():
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))

    async def callback(interaction: discord.Interaction, level: str) -> None:
        pass

    command = app_commands.Command(name="plant", description="x" * 101, callback=callback)
    command._params["level"].description = "y" * 101
    command._params["level"].choices = [app_commands.Choice(name="z" * 101, value="z")]
    payloads = [command.to_dict(tree)]
    payloads.append({"name": "Shout", "description": "Upper case", "type": 1})
    payloads.append({"name": "quiet", "description": "", "type": 1})
    found = {str(v) for v in check_commands(payloads)}
    route = "PUT /applications/{application_id}/commands"
    assert found == {
        f"{route}: body[0].description: 101 characters, Discord allows at most 100",
        f"{route}: body[0].options[0].description: 101 characters, Discord allows at most 100",
        f"{route}: body[0].options[0].choices[0].name: 101 characters, Discord allows at most 100",
        f"{route}: body[1].name: 'Shout': Discord requires slash-command names in lowercase",
        f"{route}: body[2].description: empty: Discord requires a 1-100 character description on a slash command",
    }


# ------------------------------------------------------------------ messages


def text_display(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def button(custom_id: str, label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def select(n: int, custom_id: str = "pick") -> dict[str, Any]:
    options = [{"label": f"Option {i}", "value": str(i)} for i in range(n)]
    return {"type": 3, "custom_id": custom_id, "options": options, "min_values": 1, "max_values": 1}


def row(*components) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def test_a_components_v2_message_with_content_is_refused():
    body = {"flags": V2, "content": "hello", "components": [text_display("A board")]}
    assert [str(v) for v in check("POST", MESSAGES, body)] == [
        "POST /channels/{channel_id}/messages: body.content: set on a Components V2 message (flags 1<<15), which Discord rejects"
    ]
    with_embed = {"flags": V2, "embeds": [{"title": "x"}], "components": [text_display("A board")]}
    assert [v.field for v in check("POST", MESSAGES, with_embed)] == ["body.embeds"]


def test_a_26_option_select_is_refused():
    body = {"content": "Pick one", "components": [row(select(26))]}
    assert [str(v) for v in check("POST", MESSAGES, body)] == [
        "POST /channels/{channel_id}/messages: body.components[0].components[0].options: 26 items, Discord allows at most 25"
    ]
    assert check("POST", MESSAGES, {"content": "Pick one", "components": [row(select(25))]}) == []


def test_the_documented_message_limits_are_caught():
    callback = "/interactions/1/tok/callback"
    too_long = {"type": 4, "data": {"content": "x" * 2001}}
    assert [(v.field, v.problem) for v in check("POST", callback, too_long)] == [
        ("body.data.content", "2001 characters, Discord allows at most 2000")
    ]
    twice = {"content": "Buttons", "components": [row(button("a"), button("a"))]}
    assert [v.field for v in check("POST", MESSAGES, twice)] == ["body.components[0].components[1].custom_id"]
    six_rows = {"content": "Rows", "components": [row(button(f"b{i}")) for i in range(6)]}
    assert [v.problem for v in check("POST", MESSAGES, six_rows)] == ["6 action rows, Discord allows at most 5"]
    big_v2 = {"flags": V2, "components": [{"type": 17, "components": [text_display("t") for _ in range(40)]}]}
    assert [v.problem for v in check("PATCH", "/channels/1/messages/2", big_v2)] == [
        "41 components counted nested, Discord allows at most 40 in a Components V2 message"
    ]
    wordy_v2 = {"flags": V2, "components": [text_display("w" * 2500), text_display("w" * 2500)]}
    assert [v.problem for v in check("POST", MESSAGES, wordy_v2)] == [
        "5000 characters of text display content, Discord allows at most 4000 in a Components V2 message"
    ]
    fields = [{"name": "n" * 256, "value": "v" * 1024} for _ in range(5)]
    heavy = {"embeds": [{"title": "t", "fields": fields}]}
    assert [v.problem for v in check("POST", MESSAGES, heavy)] == [
        "6401 characters of embed text, Discord allows at most 6000 in one message"
    ]
    long_label = {"content": "x", "components": [row(button("c", "L" * 81))]}
    assert [v.field for v in check("POST", MESSAGES, long_label)] == ["body.components[0].components[0].label"]
    modal = {"type": 9, "data": {"custom_id": "m", "title": "T" * 46, "components": [
        {"type": 18, "label": "Amount", "component": {"type": 4, "custom_id": "a", "style": 1}}]}}
    assert [str(v) for v in check("POST", callback, modal)] == [
        "POST /interactions/{interaction_id}/{interaction_token}/callback: body.data.title: 46 characters, Discord allows at most 45"
    ]
    twice_in_modal = {"type": 9, "data": {"custom_id": "m", "title": "Amount", "components": [
        row({"type": 4, "custom_id": "a", "style": 1, "label": "One"}), row({"type": 4, "custom_id": "a", "style": 1, "label": "Two"})]}}
    assert [v.problem for v in check("POST", callback, twice_in_modal)] == [
        "'a' is used twice, Discord requires custom_ids unique per modal"
    ]
    thread = {"name": "n" * 101}
    assert [v.problem for v in check("POST", "/channels/1/messages/2/threads", thread)] == [
        "101 characters, Discord allows at most 100"
    ]
    attachment = {"content": "x", "attachments": [{"id": 0, "filename": "a.png", "description": "d" * 1025}]}
    assert [v.field for v in check("POST", MESSAGES, attachment)] == ["body.attachments[0].description"]
    assert [v.problem for v in check("GET", "/no/such/route", None)] == ["not a route of Discord's HTTP API v10"]


def test_valid_payloads_pass():
    v2_board = {
        "flags": V2,
        "allowed_mentions": {"parse": [], "users": [123456789012345678]},
        "components": [
            {"type": 17, "accent_color": None, "spoiler": False, "components": [
                text_display("**Your move.**"),
                {"type": 14, "divider": True, "spacing": 1},
                {"type": 12, "items": [{"media": {"url": "attachment://board.png"}}]},
            ]},
            row(button("play"), button("pass", "Pass")),
            row(select(25)),
        ],
        "attachments": [{"id": 0, "filename": "board.png", "description": "The board"}],
    }
    classic = {
        "content": "x" * 2000,
        "embeds": [{"title": "Lobby", "description": "d" * 4096, "fields": [{"name": "Players", "value": "<@1>"}]}],
        "components": [row(button(f"r{i}")) for i in range(5)],
    }
    callbacks = [
        {"type": 4, "data": {"content": "Hi", "flags": 64}},
        {"type": 7, "data": v2_board},
        {"type": 6},
        {"type": 5, "data": {"flags": 64}},
        {"type": 9, "data": {"custom_id": "amount", "title": "T" * 45, "components": [
            row({"type": 4, "custom_id": "a", "style": 1, "label": "L" * 45})]}},
        {"type": 8, "data": {"choices": [{"name": "Enid", "value": "enid"}]}},
    ]
    assert check("POST", MESSAGES, v2_board) == []
    assert check("POST", MESSAGES, classic) == []
    assert check("PATCH", "/webhooks/1/tok/messages/@original", v2_board) == []
    for body in callbacks:
        assert check("POST", "/interactions/1/tok/callback", body) == [], body
    assert check("POST", "/channels/1/messages/2/threads", {"name": "n" * 100, "auto_archive_duration": 60}) == []
    assert check("PUT", "/channels/1/messages/2/reactions/%F0%9F%91%8D/@me", None) == []


# ------------------------------------------------------------------ wired into every SimCord test


pytestmark = pytest.mark.extensions("bot.discord_front.commands")  # the SimCord tests below: commands only


async def test_a_simcord_test_records_what_the_bot_sends_even_if_the_bot_swallows_the_error(simcord_env):
    env = simcord_env
    channel = env.create_guild().create_text_channel("cards")
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
    with contextlib.suppress(discord.HTTPException):  # as a bot that swallows the error would
        await env.bot.http.request(route, json={"flags": V2, "content": "hi", "components": [text_display("x")]})
    assert [str(v) for v in discord_conformance.RECORDED] == [
        "POST /channels/{channel_id}/messages: body.content: set on a Components V2 message (flags 1<<15), which Discord rejects"
    ]
    discord_conformance.RECORDED.clear()  # this test planted it on purpose


def test_a_violation_fails_the_test_that_caused_it(pytester):
    """Run a SimCord test whose bot syncs a 101-character description, with the conformance
    plugin as tests/conftest.py loads it: the test fails and says why."""
    pytester.makeconftest("from tests.discord_conformance import _discord_conformance, pytest_runtest_call")
    pytester.makepyfile(textwrap.dedent('''
        import discord, pytest
        from discord import app_commands
        from discord.ext import commands

        class Bot(commands.Bot):
            async def setup_hook(self):
                @app_commands.command(name="plant", description="x" * 101)
                async def plant(interaction: discord.Interaction) -> None:
                    await interaction.response.send_message("hi")
                self.tree.add_command(plant)
                try:
                    await self.tree.sync()
                except discord.HTTPException:
                    pass  # swallowed, as a careless bot would

        @pytest.fixture
        def simcord_bot():
            return Bot(command_prefix="!", intents=discord.Intents.default())

        async def test_planted(simcord_env):
            simcord_env.create_guild()
    '''))
    pytester.makeini("[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n")
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)  # in the test's call, not only at its teardown
    result.stdout.fnmatch_lines([
        "*PUT /applications/{application_id}/commands: body[[]0[]].description: 101 characters, Discord allows at most 100*",
        "*FAILED test_a_violation_fails_the_test_that_caused_it.py::test_planted*",
    ])


def test_the_fast_schema_means_what_discords_document_says():
    """The checker rewrites the document in memory for speed (type-dispatched unions, inlined
    refs): on these payloads it agrees with plain jsonschema over the document as published."""
    import json

    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    spec = json.loads(discord_conformance.SPEC_PATH.read_text(encoding="utf-8"))
    registry = Registry().with_resource("urn:raw", Resource(contents=spec, specification=DRAFT202012))

    def raw_valid(method: str, template: str, body: Any) -> bool:
        pointer = discord_conformance._pointer("paths", template, method.lower(), "requestBody", "content", "application/json", "schema")
        return discord_conformance.jsonschema.Draft202012Validator({"$ref": "urn:raw#" + pointer}, registry=registry).is_valid(body)

    board = {"flags": V2, "allowed_mentions": {"parse": [], "users": ["123"]}, "components": [
        {"type": 17, "components": [text_display("Board"), {"type": 14, "divider": True}]},
        row(button("a"), button("b")), row(select(3))]}
    cases = [
        ("POST", "/channels/{channel_id}/messages", board),
        ("POST", "/channels/{channel_id}/messages", {"content": "x", "components": [row(select(26))]}),
        ("POST", "/channels/{channel_id}/messages", {"content": "x", "components": [row(button("c", "L" * 81))]}),
        ("POST", "/channels/{channel_id}/messages", {"content": "x", "components": [{"type": 99}]}),
        ("POST", "/channels/{channel_id}/messages", {"components": [{"type": 17, "components": [row({"type": 2})]}]}),
        ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original", board),
        ("POST", "/interactions/{interaction_id}/{interaction_token}/callback", {"type": 7, "data": board}),
        ("POST", "/interactions/{interaction_id}/{interaction_token}/callback", {"type": 4, "data": {"content": "x" * 2001}}),
        ("POST", "/interactions/{interaction_id}/{interaction_token}/callback", {"type": 42}),
        ("POST", "/interactions/{interaction_id}/{interaction_token}/callback",
         {"type": 9, "data": {"custom_id": "m", "title": "T" * 46, "components": [row({"type": 4, "custom_id": "a", "style": 1})]}}),
        ("PUT", "/applications/{application_id}/commands", [{"name": "a", "description": "b", "options": [
            {"type": 3, "name": "c", "description": "d", "choices": [{"name": "e", "value": "f"}]}]}]),
        ("PUT", "/applications/{application_id}/commands", [{"name": "a", "description": "b", "options": [
            {"type": 3, "name": "c", "description": "d" * 101}]}]),
    ]
    verdicts = [(raw_valid(m, t, b), not discord_conformance._schema_violations(m, t, b)) for m, t, b in cases]
    assert [raw for raw, _ in verdicts] == [True, False, False, False, False, True, True, False, False, False, True, False]
    assert [raw for raw, _ in verdicts] == [fast for _, fast in verdicts]


async def test_an_edit_putting_content_on_a_components_v2_message_is_caught(simcord_env):
    """An edit need not repeat the V2 flag: the checker asks SimCord what the message is."""
    env = simcord_env
    channel = env.create_guild().create_text_channel("cards")
    sent = await env.bot.http.request(
        Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id),
        json={"flags": V2, "components": [text_display("A board")]},
    )
    edit = Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=channel.id, message_id=sent["id"])
    await env.bot.http.request(edit, json={"components": [row(button("a"))]})
    assert discord_conformance.RECORDED == []
    with contextlib.suppress(discord.HTTPException):
        await env.bot.http.request(edit, json={"content": "The game is over."})
    assert [str(v) for v in discord_conformance.RECORDED] == [
        "PATCH /channels/{channel_id}/messages/{message_id}: body.content: set on a Components V2 message (flags 1<<15), which Discord rejects"
    ]
    discord_conformance.RECORDED.clear()  # planted on purpose
