"""The Discord stand-in (tests/e2e/standin): Discord's limits as a model, and behind it
discord.py's real request path in a SimCord world, on SimCord's clock.

The model is checked on its own with a clock the test moves; the rest end to end: the
bot's own discord.py sends through aiohttp to the stand-in's server, which answers
with Discord's headers and lets SimCord do the work."""

from __future__ import annotations

import discord
import pytest
from discord.http import Route

from tests.e2e.standin.limits import VIA, DiscordLimits, Limits
from tests.e2e.ui import board, game_place
from tests.platform.test_table_e2e import TOY, mover_of, now, play_code, start, world

pytestmark = pytest.mark.extensions(*TOY)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def model(**fields) -> tuple[DiscordLimits, Clock]:
    clock = Clock()
    return DiscordLimits(Limits(**fields), clock=clock), clock


# ------------------------------------------------------------------ the model


def test_the_global_bucket_lets_its_size_through_then_answers_429_global_until_a_token_is_back():
    limits, clock = model(global_per_second=50)
    admitted = [limits.admit("POST", f"/channels/{n}/messages", bot_token=True) for n in range(50)]
    assert all(a.status is None for a in admitted)
    refused = limits.admit("POST", "/channels/99/messages", bot_token=True)
    assert refused.status == 429 and refused.scope == "global"
    assert refused.body == {"message": "You are being rate limited.", "retry_after": 0.02, "global": True, "code": 0}
    assert refused.headers["X-RateLimit-Global"] == "true" and refused.headers["X-RateLimit-Scope"] == "global"
    assert refused.headers["Via"] == VIA and refused.headers["Retry-After"] == "1"
    clock.now += 0.02
    assert limits.admit("POST", "/channels/99/messages", bot_token=True).status is None
    assert limits.admit("POST", "/channels/98/messages", bot_token=True).status == 429
    assert limits.tally.global_429 == 2


def test_interaction_routes_are_exempt_from_the_global_limit():
    limits, _ = model(global_per_second=2)
    for n in range(2):
        assert limits.admit("POST", f"/channels/{n}/messages", bot_token=True).status is None
    assert limits.admit("POST", "/channels/5/messages", bot_token=True).status == 429
    callback = limits.admit("POST", "/interactions/1/tok/callback", bot_token=False)
    hand = limits.admit("PATCH", "/webhooks/7/tok/messages/@original", bot_token=False)
    assert callback.status is None and callback.kind == "interaction"
    assert hand.status is None and hand.kind == "interaction"


def test_a_channels_message_writes_have_a_bucket_of_five_per_five_seconds_with_discords_headers():
    limits, clock = model()
    answers = [limits.admit("POST", "/channels/1/messages", bot_token=True) for _ in range(5)]
    assert [a.headers["X-RateLimit-Remaining"] for a in answers] == ["4", "3", "2", "1", "0"]
    first = answers[0].headers
    assert first["X-RateLimit-Limit"] == "5" and first["X-RateLimit-Reset-After"] == "5.000"
    assert float(first["X-RateLimit-Reset"]) == pytest.approx(clock.now + 5) and first["X-RateLimit-Bucket"]
    clock.now += 2
    refused = limits.admit("POST", "/channels/1/messages", bot_token=True)
    assert refused.status == 429 and refused.scope == "user" and refused.body["retry_after"] == pytest.approx(3.0)
    assert refused.headers["X-RateLimit-Scope"] == "user" and refused.headers["X-RateLimit-Remaining"] == "0"
    assert limits.admit("POST", "/channels/2/messages", bot_token=True).status is None  # another channel: its own bucket
    clock.now += 3
    assert limits.admit("POST", "/channels/1/messages", bot_token=True).headers["X-RateLimit-Remaining"] == "4"
    assert limits.tally.route_429 == 1


def test_edits_of_messages_older_than_an_hour_have_their_own_quota_30046():
    limits, clock = model(old_edits=2, old_edits_per=60.0)
    young = [limits.admit("PATCH", f"/channels/1/messages/{n}", bot_token=True, message_age=60) for n in range(3)]
    assert all(a.status is None for a in young)
    clock.now += 5  # the route's own bucket (5 per 5 s) has reset
    old = [limits.admit("PATCH", f"/channels/1/messages/{n}", bot_token=True, message_age=4000) for n in range(3)]
    assert [a.status for a in old] == [None, None, 429]
    assert old[2].body["code"] == 30046 and "older than 1 hour" in old[2].body["message"]
    assert limits.admit("PATCH", "/channels/2/messages/9", bot_token=True, message_age=4000).status is None  # per channel


def test_invalid_requests_are_counted_over_ten_minutes_and_the_ban_is_said_or_enforced():
    limits, clock = model(global_per_second=1, invalid_limit=3, enforce_ban=True)
    assert limits.admit("GET", "/channels/1", bot_token=True).status is None
    for _ in range(2):
        refused = limits.admit("GET", "/channels/1", bot_token=True)
        limits.answered(refused, refused.status)
    shared = limits.admit("GET", "/channels/1", bot_token=True)
    limits.answered(shared.__class__(shared.kind, {}, 429, None, "shared"), 429)  # a shared-scope 429 is not invalid
    assert limits.invalid_in_window() == 2 and limits.tally.ban_began is None
    clock.now += 601
    assert limits.invalid_in_window() == 0  # the window slid past them
    for _ in range(3):
        limits.answered(limits.admit("GET", "/channels/1", bot_token=True), 403)
    assert limits.tally.ban_began == clock.now
    edge = limits.admit("GET", "/users/@me", bot_token=True)
    assert edge.status == 429 and edge.scope == "edge" and "Via" not in edge.headers and isinstance(edge.body, str)


# ------------------------------------------------------------------ discord.py's real path


async def test_a_whole_game_goes_through_discord_pys_real_path_and_the_stand_in(discord_standin):
    standin = discord_standin
    env = standin.env
    guild, channel, members = world(env, 3)
    await start(channel, members)
    first, table = mover_of(env, members)
    hand = (await first.click(board(channel), label="Show hand")).response.message
    await first.select(now(env, hand), [play_code(table, first)])
    assert table.record.version == 1
    assert standin.tally.requests["bot"] >= 2 and standin.tally.requests["interaction"] >= 5
    thread = game_place(channel)
    writes = [e for e in standin.log if e.who == "bot" and e.path.startswith(f"/channels/{thread.id}/messages")]
    assert writes and all(200 <= e.status < 300 for e in writes)
    assert standin.session is not None and env.bot.http._HTTPClient__session is standin.session


async def test_pictures_reach_simcord_through_the_stand_ins_form_with_their_names_and_descriptions(discord_standin):
    """discord.py's multipart form (payload_json and each file, as aiohttp writes it),
    read by the stand-in's own splitter, arrives whole: the bytes, the filename (quoted,
    with a quote and a backslash in it), the description."""
    standin = discord_standin
    env = standin.env
    guild, channel, members = world(env, 1)
    picture = bytes(range(256)) * 40 + b"\r\n--not-the-boundary\r\n"
    files = [discord.File(__import__("io").BytesIO(picture), filename='board "1"\\.png', description="The board"),
             discord.File(__import__("io").BytesIO(b"second"), filename="hand.png")]
    task = standin.as_bot(env.bot.get_channel(channel.id).send("with pictures", files=files))
    await env.settle()
    assert task.done() and task.exception() is None
    stored = env.backend.messages[channel.id][task.result().id]
    assert stored.content == "with pictures"
    assert [(a["filename"], a.get("description")) for a in stored.attachments] == [('board "1"\\.png', "The board"), ("hand.png", None)]
    assert [env.backend.cdn.get(a["url"]) for a in stored.attachments] == [picture, b"second"]


@pytest.mark.limits(global_per_second=100)
async def test_discord_py_follows_a_channels_bucket_from_the_headers_and_waits_on_the_stand_ins_clock(discord_standin):
    """One request after another, as a table's board goes: the fifth empties the
    channel's bucket (the headers say so) and discord.py sleeps until it resets. (Several
    requests queued on one bucket at once wait on futures SimCord cannot tell from work in
    progress, so its settling would time out: tests keep a bucket's requests in line.)"""
    standin = discord_standin
    env = standin.env
    guild, channel, members = world(env, 1)
    http = env.bot.http

    async def seven():
        for n in range(7):
            await http.request(Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id), json={"content": f"n{n}", "allowed_mentions": {"parse": []}})

    task = standin.as_bot(seven())
    await env.settle()
    assert not task.done() and len(standin.log) == 5  # the bucket's five; discord.py waits for its reset
    await env.advance_time(5.1)
    assert task.done() and task.exception() is None
    assert [m.content for m in channel.history()] == [f"n{n}" for n in range(7)]
    assert standin.tally.route_429 == 0  # what the headers said was enough


async def test_a_429_makes_discord_py_sleep_retry_after_on_the_stand_ins_clock_then_try_again(discord_standin):
    standin = discord_standin
    env = standin.env
    guild, channel, members = world(env, 1)
    standin.faults.rate_limited(30, "POST", f"/channels/{channel.id}/messages", scope="global")
    task = standin.as_bot(env.bot.http.request(Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id), json={"content": "hi", "allowed_mentions": {"parse": []}}))
    await env.settle()
    assert not task.done() and [e.status for e in standin.log] == [429]
    await env.advance_time(29)
    assert not task.done()
    await env.advance_time(1.5)
    assert task.done() and task.result()["content"] == "hi"
    assert [e.status for e in standin.log] == [429, 200]


async def test_faults_latency_runs_on_the_clock_and_a_lost_answer_leaves_the_work_done(discord_standin):
    standin = discord_standin
    env = standin.env
    guild, channel, members = world(env, 1)
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
    standin.faults.latency(10, "POST", "/channels/*/messages", times=1)
    slow = standin.as_bot(env.bot.http.request(route, json={"content": "slow", "allowed_mentions": {"parse": []}}))
    await env.settle()
    assert not slow.done() and standin.log == []  # not at Discord yet
    await env.advance_time(10.5)
    assert slow.done() and [e.status for e in standin.log] == [200]
    standin.faults.lost_answer("POST", "/channels/*/messages", status=502)
    lost = standin.as_bot(env.bot.http.request(route, json={"content": "lost", "allowed_mentions": {"parse": []}}))
    await env.advance_time(1.5)  # discord.py tries again after 1 s: the message is posted twice
    assert lost.done() and lost.result()["content"] == "lost"
    assert [m.content for m in channel.history()].count("lost") == 2
    assert [e.status for e in standin.log][1:] == [502, 200]


async def test_server_errors_and_refusals_reach_discord_py_as_discords_errors(discord_standin):
    standin = discord_standin
    env = standin.env
    guild, channel, members = world(env, 1)
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
    standin.faults.forbidden("POST", "/channels/*/messages", times=1)
    forbidden = standin.as_bot(env.bot.http.request(route, json={"content": "x", "allowed_mentions": {"parse": []}}))
    await env.settle()
    with pytest.raises(discord.Forbidden) as refused:
        forbidden.result()
    assert refused.value.code == 50001 and standin.invalid_in_window() == 1
    standin.faults.server_errors("POST", "/channels/*/messages", times=5)
    task = standin.as_bot(env.bot.http.request(route, json={"content": "y", "allowed_mentions": {"parse": []}}))
    await env.advance_time(1 + 3 + 5 + 7 + 9 + 1)  # discord.py sleeps 1, 3, 5, 7, 9 s after its tries' 5xx, then gives up
    with pytest.raises(discord.DiscordServerError):
        task.result()
    assert [e.status for e in standin.log][1:] == [502] * 5


async def test_a_restarted_bot_gets_the_real_path_again(discord_standin, data_dir):
    from tests.conftest import restart

    standin = discord_standin
    env = standin.env
    guild, channel, members = world(env, 2)
    old_session = standin.session
    await restart(env, data_dir)
    assert standin.session is not old_session and old_session.closed
    await start(channel, members)
    assert any(e.path.endswith("/threads") for e in standin.log)
