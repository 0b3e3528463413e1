"""A request with files sent as one body (bot/discord_front/wire.py): the same bytes as
aiohttp's own multipart writer, the same request at a real HTTP server as discord.py
sends it without the change, in one write, and discord.py's retries, rate limits and
errors as they were. SimCord takes requests above aiohttp, so these run discord.py's
real clients against a local aiohttp server."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from asyncio import selector_events
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web
from aiohttp.multipart import MultipartWriter
from discord.http import HTTPClient, Route, handle_message_parameters
from discord.webhook.async_ import AsyncWebhookAdapter, interaction_message_response_params
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord_front import wire
from tests.conftest import make_bot
from tests.e2e.world import TOY
from bot.discord_front.wire import OneBodyRequest, multipart_body, send_forms_in_one_write

PICTURE = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40 + b"\r\n--not a boundary--\r\n"


def discord_form(files: list[tuple[str, bytes]], payload_json: str) -> aiohttp.FormData:
    """A form as discord.py builds one (discord/http.py, handle_message_parameters)."""
    form = aiohttp.FormData(quote_fields=False)
    for index, (filename, data) in enumerate(files):
        form.add_field(name=f"files[{index}]", value=io.BytesIO(data), filename=filename, content_type="application/octet-stream")
    form.add_field(name="payload_json", value=payload_json)
    return form


async def aiohttp_bytes(form: aiohttp.FormData) -> tuple[bytes, str]:
    writer = form()
    return await writer.as_bytes(), writer.headers["Content-Type"]


# ------------------------------------------------------------------ the bytes


header_text = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=20)  # FormData refuses control characters


@settings(max_examples=150, deadline=None)
@given(files=st.lists(st.tuples(header_text, st.binary(max_size=300)), min_size=1, max_size=3), payload_json=st.text(max_size=60))
async def test_a_discord_form_is_built_byte_for_byte_as_aiohttp_writes_it(files, payload_json):
    form = discord_form(files, payload_json)
    built = multipart_body(form)
    assert built is not None
    assert built == await aiohttp_bytes(form)
    assert built[0].endswith(b"--\r\n") and f'name="payload_json"'.encode() in built[0]


async def test_a_file_is_read_from_its_position_and_put_back():
    form = aiohttp.FormData(quote_fields=False)
    picture = io.BytesIO(b"skipped" + PICTURE)
    picture.seek(7)  # discord.File remembers where the file stood and seeks back there for a retry
    form.add_field(name="files[0]", value=picture, filename="board.png", content_type="application/octet-stream")
    form.add_field(name="payload_json", value="{}")
    built = multipart_body(form)
    assert built is not None and b"skipped" not in built[0] and PICTURE in built[0]
    assert picture.tell() == 7
    assert multipart_body(form) == built  # again: the form is left as it was
    assert built == await aiohttp_bytes(form)


def _bytes_field(tmp_path) -> aiohttp.FormData:
    form = aiohttp.FormData(quote_fields=False)
    form.add_field(name="file", value=b"raw", filename="raw.bin", content_type="application/octet-stream")
    return form


def _quoted(tmp_path) -> aiohttp.FormData:
    return aiohttp.FormData([("payload_json", io.BytesIO(b"{}"))])


def _charset(tmp_path) -> aiohttp.FormData:
    form = aiohttp.FormData(quote_fields=False, charset="latin-1")
    form.add_field(name="files[0]", value=io.BytesIO(PICTURE), filename="a.png", content_type="application/octet-stream")
    return form


def _typed_text(tmp_path) -> aiohttp.FormData:
    form = discord_form([("a.png", PICTURE)], "{}")
    form.add_field(name="extra", value="x", content_type="application/json")
    return form


def _file_on_disk(tmp_path) -> aiohttp.FormData:
    path = tmp_path / "a.png"
    path.write_bytes(PICTURE)
    form = aiohttp.FormData(quote_fields=False)
    form.add_field(name="files[0]", value=open(path, "rb"), filename="a.png", content_type="application/octet-stream")
    return form


def _too_big(tmp_path) -> aiohttp.FormData:
    return discord_form([("big.png", b"x" * (2**20 + 1))], "{}")


def _no_files(tmp_path) -> aiohttp.FormData:
    form = aiohttp.FormData(quote_fields=False)
    form.add_field(name="payload_json", value="{}")
    return form  # plain text fields only: aiohttp sends it url-encoded, not as multipart


@pytest.mark.parametrize("make", [_bytes_field, _quoted, _charset, _typed_text, _file_on_disk, _too_big, _no_files])
async def test_a_form_it_does_not_know_to_the_byte_goes_aiohttps_way(make, tmp_path):
    form = make(tmp_path)
    assert multipart_body(form) is None
    request = OneBodyRequest("POST", aiohttp.client.URL("http://127.0.0.1/x"), data=form, loop=asyncio.get_running_loop())
    if make is _no_files:
        assert request.headers["Content-Type"] == "application/x-www-form-urlencoded"
    else:
        assert type(request.body) is MultipartWriter  # aiohttp's own writer
    await request.body.close()  # the file on disk closed


@pytest.mark.parametrize("request_class", [aiohttp.ClientRequest, OneBodyRequest])
async def test_text_that_cannot_be_utf_8_fails_as_aiohttp_fails_it(request_class):
    form = discord_form([("a.png", PICTURE)], '{"content": "\ud800"}')  # a lone surrogate
    assert multipart_body(form) is None
    with pytest.raises(TypeError, match="Can not serialize value"):
        request_class("POST", aiohttp.client.URL("http://127.0.0.1/x"), data=form, loop=asyncio.get_running_loop())


async def test_a_form_aiohttp_already_turned_into_its_writer_goes_aiohttps_way():
    form = discord_form([("a.png", PICTURE)], "{}")
    writer = form()
    assert multipart_body(form) is None
    request = OneBodyRequest("POST", aiohttp.client.URL("http://127.0.0.1/x"), data=form, loop=asyncio.get_running_loop())
    assert request.body is writer


# ------------------------------------------------------------------ over the wire


USER = {"id": "1", "username": "deckhand", "discriminator": "0", "avatar": None, "bot": True}
APPLICATION = {"id": "1", "name": "Deckhand", "description": "", "icon": None, "bot_public": True, "bot_require_code_grant": False,
               "owner": USER, "verify_key": "0" * 64, "flags": 0}


@dataclass
class Received:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str | None]
    parts: list[tuple[str | None, str | None, str | None, bytes]] | None  # name, filename, type, bytes


@dataclass
class StandIn:
    """A local stand-in for Discord's REST API: records each request, answers from a script."""

    received: list[Received] = field(default_factory=list)
    answers: list[tuple[int, Any, dict[str, str]]] = field(default_factory=list)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        parts = None
        if request.content_type == "multipart/form-data":
            reader = await request.multipart()
            parts = []
            while (part := await reader.next()) is not None:
                parts.append((part.name, part.filename, part.headers.get("Content-Type"), bytes(await part.read())))
        self.received.append(Received(
            request.method, request.path, dict(request.query),
            {name: request.headers.get(name) for name in ("Authorization", "User-Agent", "X-Audit-Log-Reason", "Content-Length")}
            | {"Content-Type": request.headers.get("Content-Type", "").split(";")[0]},
            parts))
        if request.path.endswith("/users/@me"):
            status, answer, headers = 200, USER, {}
        elif request.path.endswith("/oauth2/applications/@me"):
            status, answer, headers = 200, APPLICATION, {}
        elif request.path.endswith("/commands"):
            status, answer, headers = 200, [], {}
        else:
            status, answer, headers = self.answers.pop(0) if self.answers else (200, {"id": "5"}, {})
        if answer is None:
            return web.Response(status=status, headers=headers)
        # Exactly this Content-Type, as Discord's: discord.py parses no other as JSON.
        return web.Response(body=json.dumps(answer).encode(), status=status, headers={"Content-Type": "application/json", **headers})


@pytest.fixture
async def stand_in(monkeypatch):
    server = StandIn()
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", server.handle)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    yield server
    await runner.cleanup()


async def logged_in(one_body: bool) -> HTTPClient:
    http = HTTPClient(asyncio.get_running_loop())
    await http.static_login("not-a-real-token")
    if one_body:
        assert await send_forms_in_one_write(http) is True
    return http


def _session(http: HTTPClient) -> aiohttp.ClientSession:
    return http._HTTPClient__session  # type: ignore[attr-defined]


async def send_what_the_bot_sends(http: HTTPClient) -> None:
    """A board posted with its picture, edited with a new one, a click answered with a
    picture, a hand edited through its token, a message deleted with a reason, and a
    JSON edit: each the way discord.py makes it."""
    def picture(name: str) -> discord.File:
        return discord.File(io.BytesIO(PICTURE + name.encode()), filename=name, description="the table")

    with handle_message_parameters(content="Table 1 — your turn, <@2>", file=picture("board.png")) as params:
        await http.send_message(10, params=params)
    with handle_message_parameters(content="Table 1", attachments=[picture("board.png"), picture("hand é\".png")]) as params:
        await http.edit_message(10, 11, params=params)
    hooks = AsyncWebhookAdapter()
    params = interaction_message_response_params(type=7, content="Your hand", file=picture("hand.png"))
    await hooks.create_interaction_response(20, "click-token", session=_session(http), params=params)
    with handle_message_parameters(content="Your hand", file=picture("hand.png")) as params:
        await hooks.edit_webhook_message(30, "hand-token", 31, session=_session(http), multipart=params.multipart, files=params.files)
    await http.delete_message(10, 12, reason="Table 1 posted anew: the ping / its turn")
    with handle_message_parameters(content="Table 1, finished") as params:
        await http.edit_message(10, 11, params=params)


def count_client_writes(monkeypatch) -> list[int]:
    """The size of every write of a plain TCP transport in this process but the stand-in's."""
    writes: list[int] = []
    server_port = int(Route.BASE.split(":")[2].split("/")[0])
    stock = selector_events._SelectorSocketTransport.write

    def write(transport: Any, data: Any) -> None:
        if transport.get_extra_info("sockname")[1] != server_port:
            writes.append(len(data))
        stock(transport, data)

    monkeypatch.setattr(selector_events._SelectorSocketTransport, "write", write)
    return writes


async def test_discord_receives_the_same_requests_sent_as_one_body_in_one_write_each(stand_in, monkeypatch):
    writes = count_client_writes(monkeypatch)
    sent = {}
    for one_body in (False, True):
        http = await logged_in(one_body)
        stand_in.received.clear()
        writes.clear()
        await send_what_the_bot_sends(http)
        await http.close()
        sent[one_body] = (list(stand_in.received), len(writes))
    (stock, stock_writes), (one, one_writes) = sent[False], sent[True]
    # Parsed, the requests mean the same: method, path, query, the headers that matter, each part's name,
    # filename, type and bytes (the raw bodies differ only in their random boundaries).
    assert [(r.method, r.path, r.query, r.headers, r.parts) for r in one] == [(r.method, r.path, r.query, r.headers, r.parts) for r in stock]
    assert [r.method for r in one] == ["POST", "PATCH", "POST", "PATCH", "DELETE", "PATCH"]
    with_files = [r for r in one if r.parts is not None]
    assert len(with_files) == 4 and all(r.headers["Content-Type"] == "multipart/form-data" for r in with_files)
    payload_json, picture = with_files[0].parts  # discord.py puts payload_json first
    assert picture == ("files[0]", "board.png", "application/octet-stream", PICTURE + b"board.png")
    assert payload_json[:3] == ("payload_json", None, "text/plain; charset=utf-8")
    assert json.loads(payload_json[3])["content"] == "Table 1 — your turn, <@2>"
    assert [part[1] for part in with_files[1].parts] == [None, "board.png", 'hand é".png']
    assert one[4].headers["X-Audit-Log-Reason"] == "Table 1 posted anew: the ping / its turn".replace(":", "%3A")
    assert one[0].headers["Authorization"] == "Bot not-a-real-token" and one[0].headers["User-Agent"].startswith("DiscordBot ")
    # One write a request, against several a part before.
    assert one_writes == len(one)
    assert stock_writes > one_writes + 4 * 4


@pytest.mark.parametrize("one_body", [False, True], ids=["aiohttp's form", "one body"])
async def test_a_429_is_waited_out_and_the_same_form_sent_again(stand_in, caplog, one_body):
    http = await logged_in(one_body)
    rate_limited = {"message": "You are being rate limited.", "retry_after": 0.01, "global": False}
    stand_in.answers += [(429, rate_limited, {"Via": "1.1 google", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "0.01",
                                              "X-RateLimit-Limit": "5", "X-RateLimit-Bucket": "abc"}),
                         (200, {"id": "99"}, {})]
    stand_in.received.clear()
    caplog.set_level(logging.WARNING)
    with handle_message_parameters(content="Table 1", file=discord.File(io.BytesIO(PICTURE), filename="board.png")) as params:
        answer = await http.edit_message(10, 11, params=params)
    await http.close()
    assert answer == {"id": "99"}
    assert len(stand_in.received) == 2
    first, again = stand_in.received
    assert first.parts == again.parts and first.parts[1][3] == PICTURE  # the picture whole on the retry too
    assert any("We are being rate limited" in record.getMessage() for record in caplog.records)


@pytest.mark.parametrize("status, error", [(403, discord.Forbidden), (404, discord.NotFound), (400, discord.HTTPException)])
async def test_discords_refusals_are_discord_pys_errors_as_before(stand_in, status, error):
    http = await logged_in(True)
    stand_in.answers.append((status, {"message": "no", "code": 10008}, {}))
    try:
        with handle_message_parameters(content="x", file=discord.File(io.BytesIO(PICTURE), filename="board.png")) as params:
            with pytest.raises(error) as raised:
                await http.edit_message(10, 11, params=params)
    finally:
        await http.close()
    assert type(raised.value) is error and raised.value.status == status and raised.value.code == 10008


# ------------------------------------------------------------------ where it is put


async def test_it_is_put_on_discord_pys_session_only(stand_in):
    http = HTTPClient(asyncio.get_running_loop())
    assert await send_forms_in_one_write(http) is False  # not logged in: no session yet
    await http.static_login("not-a-real-token")
    try:
        assert await send_forms_in_one_write(http) is True
        assert _session(http)._request_class is OneBodyRequest
        assert await send_forms_in_one_write(http) is False  # already: a session with another request class is left alone
    finally:
        await http.close()


async def test_simcords_client_is_left_alone(simcord_env):
    assert await send_forms_in_one_write(simcord_env.bot.http) is False


async def test_an_aiohttp_that_writes_forms_otherwise_keeps_its_own_way(stand_in, monkeypatch, caplog):
    real = wire.multipart_body

    def other(form: aiohttp.FormData) -> tuple[bytes, str] | None:
        built = real(form)
        return None if built is None else (built[0].replace(b"Content-Type: text/plain", b"Content-type: text/plain"), built[1])

    monkeypatch.setattr(wire, "multipart_body", other)
    http = await logged_in(False)
    try:
        assert await send_forms_in_one_write(http) is False
        assert _session(http)._request_class is aiohttp.ClientRequest
    finally:
        await http.close()
    assert "writes multipart forms differently" in caplog.text
    assert await wire.writes_as_aiohttp() is False
    monkeypatch.undo()
    assert await wire.writes_as_aiohttp() is True


@pytest.mark.extensions(*TOY)
async def test_the_bot_sends_forms_as_one_body_once_logged_in(stand_in, data_dir):
    bot = make_bot(data_dir, TOY)
    try:
        await bot.login("not-a-real-token")  # its setup_hook runs: the command sync reaches the stand-in too
        assert _session(bot.http)._request_class is OneBodyRequest
        assert any(r.path.endswith("/commands") for r in stand_in.received)
    finally:
        await bot.close()
