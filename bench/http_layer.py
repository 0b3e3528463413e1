"""What a move costs in the HTTP layer that SimCord replaces, measured for real.

bench/load.py drives the bot's whole move path, but SimCord takes each request at
discord.py's ``HTTPClient.request`` (and the webhook adapter's ``request``, which answers
clicks and edits hands through their tokens) and hands the bot its gateway events as
parsed dicts. Production pays what lies beyond: aiohttp building the request (the
multipart form with the card picture), TLS, reading and parsing Discord's answer, and
the gateway's compressed frames decompressed and parsed (each click, and the echo of
each board edit).

This bench records the very requests and gateway events of a bench/load.py run (a few
tables of every game, clicks at random), then replays the requests through discord.py's
real clients, as the bot uses them, to a
stand-in for Discord's REST API on this machine (another process, HTTPS with a
throwaway certificate by default, answering each request with what SimCord answered),
and decodes the events as discord.py decodes the gateway's zlib-stream. It prints the
CPU this process spends per request and per move: the figure production adds to
bench/load.py's "without SimCord" column.

    python bench/http_layer.py [--tables 25] [--rate 15] [--seconds 8] [--repeat 5] [--tls on|off]
                               [--client discord,aiohttp,socket]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import multiprocessing
import os
import ssl
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402
import discord  # noqa: E402
from discord.http import HTTPClient, Route  # noqa: E402
from discord.webhook.async_ import AsyncWebhookAdapter  # noqa: E402
from simcord.backend.ops.base import BackendBase  # noqa: E402
from simcord.http.client import FakeHTTPClient, FakeWebhookAdapter  # noqa: E402

import load  # noqa: E402  (bench/load.py: its set-up and open-loop run)

GATEWAY_EVENTS = ("INTERACTION_CREATE", "MESSAGE_UPDATE", "MESSAGE_CREATE")


# ----------------------------------------------------------------------------- recording


class Recorder:
    """The requests and gateway events of the bench's run (not its set-up)."""

    def __init__(self) -> None:
        self.on = False
        self.requests: list[dict[str, Any]] = []
        self.events: list[tuple[str, Any]] = []
        self.moves = 0

    def install(self) -> None:
        recorder = self
        http_request, hook_request, emit = FakeHTTPClient.request, FakeWebhookAdapter.request, BackendBase.emit

        async def recorded_http(client: Any, route: Route, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
            answer = await http_request(client, route, files=files, form=form, **kwargs)
            if recorder.on:
                recorder.requests.append(_request("http", route, kwargs.get("json"), form, files, kwargs.get("params"), answer))
            return answer

        async def recorded_hook(adapter: Any, route: Any, session: Any, *, payload: Any = None, multipart: Any = None, files: Any = None,
                                params: Any = None, **kwargs: Any) -> Any:
            answer = await hook_request(adapter, route, session, payload=payload, multipart=multipart, files=files, params=params, **kwargs)
            if recorder.on:
                recorder.requests.append(_request("webhook", route, payload, multipart, files, params, answer))
            return answer

        def recorded_emit(backend: Any, event: str, payload: Any) -> None:
            if recorder.on and event in GATEWAY_EVENTS:
                recorder.events.append((event, json.loads(json.dumps(payload, default=str))))
            emit(backend, event, payload)

        FakeHTTPClient.request = recorded_http  # type: ignore[method-assign]
        FakeWebhookAdapter.request = recorded_hook  # type: ignore[method-assign]
        BackendBase.emit = recorded_emit  # type: ignore[method-assign]

    def started(self) -> None:
        self.on = True

    def ended(self, row: Any) -> None:
        self.on = False
        self.moves += len(load.moves_made(row))


def _bytes_of(fp: Any) -> bytes:
    at = fp.tell()
    fp.seek(0)
    data = fp.read()
    fp.seek(at)
    return data


def _request(client: str, route: Any, body: Any, form: Any, files: Any, params: Any, answer: Any) -> dict[str, Any]:
    """One request as replayable data: the form's file fields keep their bytes."""
    fields = []
    for field in form or ():
        value = field.get("value")
        if hasattr(value, "read"):
            fields.append({**field, "value": None, "data": _bytes_of(value)})
        else:
            fields.append(dict(field))
    path = route.url.split("/api/v10", 1)[-1]
    return {"client": client, "method": route.method, "path": path, "json": body, "form": fields, "params": params,
            "files": [(f.filename, f.description, f.spoiler) for f in files or ()], "answer": answer}


def _replayable(request: dict[str, Any]) -> tuple[list[dict[str, Any]] | None, list[discord.File]]:
    """The request's form and files anew (discord.File objects are spent by a send)."""
    if not request["form"]:
        return None, []
    files: list[discord.File] = []
    form = []
    names = iter(request["files"])
    for field in request["form"]:
        if field.get("data") is None:
            form.append(field)
            continue
        filename, description, spoiler = next(names, (field.get("filename"), None, False))
        file = discord.File(io.BytesIO(field["data"]), filename=filename, description=description, spoiler=spoiler)
        files.append(file)
        form.append({k: v for k, v in field.items() if k != "data"} | {"value": file.fp})
    return form, files


def kind_of(method: str, path: str) -> str:
    if path.endswith("/callback"):
        return "click answer (interaction callback)"
    if path.startswith("/webhooks/"):
        return f"{method} hand through its token (webhook)"
    if path.startswith("/channels/") and "/messages" in path:
        return f"{method} board or message (channel)"
    return f"{method} {path.split('/')[1] if '/' in path else path}"


# ----------------------------------------------------------------------------- the stand-in


def _serve(answers: dict[str, Any], cert: str | None, key: str | None, ports: Any) -> None:
    """A stand-in for Discord's REST API: each request answered as SimCord answered its kind."""
    from aiohttp import web

    async def handle(request: web.Request) -> web.StreamResponse:
        if request.content_type == "multipart/form-data":
            # The whole form read part by part, as Discord reads it: a form the floors
            # (below) wrote wrong is refused.
            try:
                form = await request.post()
            except ValueError:
                return web.Response(status=400)
            if "payload_json" not in form:
                return web.Response(status=400)
        else:
            await request.read()  # the whole body, as a server does
        path = request.path.split("/api/v10", 1)[-1]
        if path == "/users/@me":
            answer = {"id": "1", "username": "deckhand", "discriminator": "0", "avatar": None, "bot": True}
        else:
            answer = answers.get(kind_of(request.method, path))
        if answer is None:
            return web.Response(status=204)
        # Discord's Content-Type exactly: discord.py parses an answer as JSON only then
        # (aiohttp's json_response adds "; charset=utf-8", and the answers stayed text).
        return web.Response(body=json.dumps(answer).encode(), content_type="application/json")

    async def main() -> None:
        app = web.Application(client_max_size=64 * 2**20)
        app.router.add_route("*", "/{tail:.*}", handle)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        context = None
        if cert:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(cert, key)
        site = web.TCPSite(runner, "127.0.0.1", 0, ssl_context=context)
        await site.start()
        ports.put(site._server.sockets[0].getsockname()[1])  # type: ignore[union-attr]
        await asyncio.Event().wait()

    asyncio.run(main())


def throwaway_certificate(folder: str) -> tuple[str, str]:
    cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    return cert, key


# ----------------------------------------------------------------------------- replaying


async def replay(requests: list[dict[str, Any]], port: int, cert: str | None, repeat: int) -> tuple[float, Counter[str], dict[str, float]]:
    """Send every request ``repeat`` times through discord.py's real clients; the CPU
    this process spent (its only thread working is the event loop's)."""
    scheme = "https" if cert else "http"
    Route.BASE = f"{scheme}://127.0.0.1:{port}/api/v10"
    context = ssl.create_default_context(cafile=cert) if cert else False
    http = HTTPClient(asyncio.get_running_loop(), connector=aiohttp.TCPConnector(ssl=context))
    await http.static_login("not-a-real-token")
    session = http._HTTPClient__session  # type: ignore[attr-defined]  # the session interactions use too
    hooks = AsyncWebhookAdapter()

    async def send(request: dict[str, Any]) -> float:
        """Send one request; the CPU it took (its form and files made anew beforehand:
        the bench's own work, not production's)."""
        form, files = _replayable(request)
        at = time.process_time()
        route = Route(request["method"], request["path"])
        if request["client"] == "http":
            if form is not None:
                await http.request(route, form=form, files=files, params=request["params"])
            else:
                await http.request(route, json=request["json"], params=request["params"])
        else:
            await hooks.request(route, session, payload=None if form else request["json"], multipart=form, files=files, params=request["params"])
        return time.process_time() - at

    try:
        return await _timed(requests, send, repeat)
    finally:
        await http.close()


async def _timed(requests: list[dict[str, Any]], send: Any, repeat: int) -> tuple[float, Counter[str], dict[str, float]]:
    """Every request sent ``repeat`` times by ``send`` (which returns its CPU), after a
    warm-up; the CPU in all, the count and the CPU of each kind."""
    counts: Counter[str] = Counter()
    by_kind: dict[str, float] = {}
    for request in requests[:20]:  # warm: connections open, code paths taken once
        await send(request)
    for _ in range(repeat):
        for request in requests:
            kind = kind_of(request["method"], request["path"])
            by_kind[kind] = by_kind.get(kind, 0.0) + await send(request)
            counts[kind] += 1
    return sum(by_kind.values()), counts, by_kind


# The floors below send the same requests without discord.py (``--client aiohttp``) or
# without aiohttp either (``--client socket``: the request's bytes written to one kept
# TLS connection, the answer read by its Content-Length). Neither handles rate limits,
# errors or reconnection: they show what discord.py and aiohttp cost above the bare
# transport, to weigh writing requests some other way (bench/README.md).

BOUNDARY = "deckhandfloor0123456789abcdef"


def _body(request: dict[str, Any]) -> tuple[bytes, str | None]:
    """The request's body and Content-Type as a client must build them: the multipart
    form (each picture, then payload_json) or the JSON."""
    if request["form"]:
        chunks: list[bytes] = []
        for field in request["form"]:
            data = field["data"] if field.get("data") is not None else str(field["value"]).encode()
            disposition = f'form-data; name="{field["name"]}"' + (f'; filename="{field["filename"]}"' if field.get("filename") else "")
            kind = field.get("content_type") or "text/plain; charset=utf-8"
            chunks += (f"--{BOUNDARY}\r\nContent-Type: {kind}\r\nContent-Disposition: {disposition}\r\n\r\n".encode(), data, b"\r\n")
        chunks.append(f"--{BOUNDARY}--\r\n".encode())
        return b"".join(chunks), f"multipart/form-data; boundary={BOUNDARY}"
    if request["json"] is not None:
        return discord.utils._to_json(request["json"]).encode(), "application/json"
    return b"", None


def _headers(request: dict[str, Any], content_type: str | None) -> dict[str, str]:
    headers = {"User-Agent": "DiscordBot (floor, 1)"}
    if request["client"] == "http":
        headers["Authorization"] = "Bot not-a-real-token"
    if content_type:
        headers["Content-Type"] = content_type
    return headers


def _answered(status: int, request: dict[str, Any]) -> None:
    """A floor that measured error answers would measure nothing: stop."""
    if not 200 <= status < 300:
        raise SystemExit(f"the stand-in answered {status} to {request['method']} {request['path']}")


def _parsed(data: bytes, content_type: str) -> Any:
    return discord.utils._from_json(data) if content_type == "application/json" else data


async def replay_aiohttp(requests: list[dict[str, Any]], port: int, cert: str | None, repeat: int) -> tuple[float, Counter[str], dict[str, float]]:
    """The same requests through one aiohttp session, without discord.py."""
    scheme = "https" if cert else "http"
    base = f"{scheme}://127.0.0.1:{port}/api/v10"
    context = ssl.create_default_context(cafile=cert) if cert else False
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=context), cookie_jar=aiohttp.DummyCookieJar()) as session:

        async def send(request: dict[str, Any]) -> float:
            at = time.process_time()
            body, content_type = _body(request)
            async with session.request(request["method"], base + request["path"], data=body or None, params=request["params"],
                                       headers=_headers(request, content_type)) as answer:
                _parsed(await answer.read(), answer.headers.get("Content-Type", ""))
            _answered(answer.status, request)
            return time.process_time() - at

        return await _timed(requests, send, repeat)


async def replay_socket(requests: list[dict[str, Any]], port: int, cert: str | None, repeat: int) -> tuple[float, Counter[str], dict[str, float]]:
    """The same requests as bytes on one kept connection (asyncio's streams and TLS)."""
    context = ssl.create_default_context(cafile=cert) if cert else None
    reader, writer = await asyncio.open_connection("127.0.0.1", port, ssl=context)

    async def send(request: dict[str, Any]) -> float:
        at = time.process_time()
        body, content_type = _body(request)
        path = "/api/v10" + request["path"]
        if request["params"]:
            path += "?" + "&".join(f"{k}={v}" for k, v in request["params"].items())
        headers = _headers(request, content_type) | {"Host": f"127.0.0.1:{port}", "Content-Length": str(len(body))}
        writer.write(b"".join((f"{request['method']} {path} HTTP/1.1\r\n".encode(),
                               "".join(f"{k}: {v}\r\n" for k, v in headers.items()).encode(), b"\r\n", body)))
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        fields = {line.split(":", 1)[0].lower(): line.split(":", 1)[1].strip() for line in head[1:] if ":" in line}
        _parsed(await reader.readexactly(int(fields.get("content-length", "0"))), fields.get("content-type", ""))
        _answered(int(head[0].split()[1]), request)
        return time.process_time() - at

    try:
        return await _timed(requests, send, repeat)
    finally:
        writer.close()


def gateway_cpu(events: list[tuple[str, Any]], repeat: int) -> tuple[float, Counter[str]]:
    """The CPU of decoding these events as discord.py reads the gateway: one zlib stream
    per connection, each frame ending in a sync flush (``zlib-stream``), then JSON."""
    decompressor_type = discord.utils._ActiveDecompressionContext
    if decompressor_type.COMPRESSION_TYPE != "zlib-stream":
        raise SystemExit(f"discord.py reads the gateway as {decompressor_type.COMPRESSION_TYPE}; this bench encodes zlib-stream only")
    packer = zlib.compressobj()
    frames = []
    for number, (event, payload) in enumerate(events):
        text = json.dumps({"op": 0, "t": event, "s": number, "d": payload}, separators=(",", ":"))
        frames.append(packer.compress(text.encode()) + packer.flush(zlib.Z_SYNC_FLUSH))
    counts = Counter(event for event, _ in events)
    began = time.process_time()
    for _ in range(repeat):
        decompressor = decompressor_type()
        for frame in frames:
            discord.utils._from_json(decompressor.decompress(frame))
    return time.process_time() - began, counts


# ----------------------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=25)
    parser.add_argument("--rate", type=float, default=15.0, help="offered moves per second while recording")
    parser.add_argument("--seconds", type=float, default=8.0, help="seconds of recording")
    parser.add_argument("--repeat", type=int, default=5, help="times each recorded request is replayed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tls", choices=("on", "off"), default="on")
    parser.add_argument("--pictures", choices=("on", "off"), default="on")
    parser.add_argument("--client", default="discord",
                        help="comma-separated, each replayed in turn: discord (through discord.py's clients, what the "
                             "bot pays), or the floors aiohttp (aiohttp alone) and socket (the bare bytes on one TLS connection)")
    parser.add_argument("--profile-out", help="write a cProfile of the replay here")
    args = parser.parse_args()
    print(f"bench/http_layer.py: load average {load.load_average()}, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}, "
          f"discord.py {discord.__version__}, aiohttp {aiohttp.__version__}", flush=True)

    recorder = Recorder()
    recorder.install()
    load.main_recording(["--tables", str(args.tables), "--rates", str(args.rate), "--seconds", str(args.seconds),
                         "--seed", str(args.seed), "--pictures", args.pictures], recorder.started, recorder.ended)
    if not recorder.moves or not recorder.requests:
        raise SystemExit("the recorded run made no move")
    print(f"recorded: {recorder.moves} moves, {len(recorder.requests)} requests "
          f"({len(recorder.requests) / recorder.moves:.2f} a move; {sum(len(r['files']) for r in recorder.requests) / recorder.moves:.2f} "
          f"pictures a move), {len(recorder.events)} gateway events", flush=True)

    answers: dict[str, Any] = {}
    for request in recorder.requests:
        answers.setdefault(kind_of(request["method"], request["path"]), request["answer"])
    replayers = {"discord": replay, "aiohttp": replay_aiohttp, "socket": replay_socket}
    clients = args.client.split(",")
    if not clients or set(clients) - set(replayers):
        parser.error(f"--client: a comma-separated list of {', '.join(replayers)}")
    moves = recorder.moves * args.repeat
    results = {}
    with tempfile.TemporaryDirectory(prefix="deckhand-http-") as folder:
        cert, key = throwaway_certificate(folder) if args.tls == "on" else (None, None)
        context = multiprocessing.get_context("spawn")
        ports = context.Queue()
        server = context.Process(target=_serve, args=(answers, cert, key, ports), daemon=True)
        server.start()
        try:
            port = ports.get(timeout=30)
            for client in clients:
                profile = cProfile.Profile(time.process_time) if args.profile_out else None
                if profile is not None:
                    profile.enable()
                results[client] = asyncio.run(replayers[client](recorder.requests, port, cert, args.repeat))
                if profile is not None:
                    profile.disable()
                    profile.dump_stats(args.profile_out if len(clients) == 1 else f"{args.profile_out}.{client}")
        finally:
            server.kill()
    through = {"discord": "discord.py and aiohttp", "aiohttp": "aiohttp alone (a floor)", "socket": "bare bytes (a floor)"}
    for client, (cpu, counts, by_kind) in results.items():
        print(f"requests through {through[client]} ({'HTTPS' if cert else 'plain HTTP'} to 127.0.0.1, the answer parsed), "
              f"CPU of this process:")
        for kind, n in counts.most_common():
            print(f"    {kind:<42} {n / moves:5.2f} a move  {by_kind[kind] / n * 1000:6.3f} ms each  {by_kind[kind] / moves * 1000:6.3f} ms a move")
        print(f"    {'all requests':<42} {sum(counts.values()) / moves:5.2f} a move  {'':>16}  {cpu / moves * 1000:6.3f} ms a move")
    gateway, events = gateway_cpu(recorder.events, args.repeat)
    print(f"gateway events decompressed and parsed: {', '.join(f'{n / recorder.moves:.2f} {e}' for e, n in events.most_common())} a move; "
          f"{gateway / moves * 1000:.3f} ms a move")
    for client, (cpu, _, _) in results.items():
        print(f"the HTTP layer SimCord replaces, through {through[client]}: {(cpu + gateway) / moves * 1000:.2f} ms of CPU a move, "
              f"on top of bench/load.py's figure")
    print(f"load average {load.load_average()}")


if __name__ == "__main__":
    main()
