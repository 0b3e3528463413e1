"""The stand-in's HTTP server: Discord's REST API as the bot's real discord.py reaches it.

A request arrives through aiohttp as discord.py sent it (its headers, its JSON or its
multipart form with the pictures), on a local port. The server then does what Discord
does, in this order:

1. the fault rules that answer instead of the work (``Faults.take_answer``);
2. Discord's limits (:class:`DiscordLimits`): the global bucket, the route's bucket,
   the old-message edit quota, the edge's ban; a refused request is answered 429 with
   Discord's headers and body;
3. the work, by the world behind it (a message create with ``enforce_nonce`` whose
   nonce the author used in the last minutes returns that message instead, as Discord does) (SimCord's router for tests and benches: the same
   routes, the same answers, the same gateway events, and every request still checked
   against Discord's OpenAPI description by tests/discord_conformance.py);
4. the fault rules that answer after the work (a lost answer).

Every answer carries the rate-limit headers of the request's bucket. :attr:`log`
keeps one :class:`Exchange` per request (when, what, how answered) for reports.
"""

from __future__ import annotations

import io
import json
import re
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

import discord
from aiohttp import web

from tests.e2e.standin.faults import Faults, who_sent
from tests.e2e.standin.limits import VIA, Admission, DiscordLimits


class World(Protocol):
    """What does the work behind the limits."""

    def dispatch(self, method: str, path: str, *, json_body: Any, params: dict[str, str], files: list[discord.File],
                 reason: str | None) -> tuple[int, Any]: ...

    def message_created(self, channel_id: int, message_id: int) -> float | None: ...


#: How long Discord remembers a message's nonce ("the past few minutes").
NONCE_SECONDS = 120.0


@dataclass
class Exchange:
    at: float  # the stand-in's clock
    method: str
    path: str
    who: str  # "bot", "interaction", "other"
    status: int
    scope: str | None  # of a 429
    faulted: bool
    body: Any = None  # the request's JSON (observers see it; the log keeps it only with ``keep_bodies``)


class SimcordWorld:
    """SimCord's router doing the work (``router.dispatch`` through its module, so the
    conformance checks and the fault injection of SimCord itself still apply)."""

    def __init__(self, env: Any) -> None:
        self.env = env
        #: Requests SimCord does not model (a parity gap): listed, answered 501.
        self.gaps: list[str] = []

    def dispatch(self, method: str, path: str, *, json_body: Any, params: dict[str, str], files: list[discord.File],
                 reason: str | None) -> tuple[int, Any]:
        from simcord.backend.errors import BackendError
        from simcord.http import router

        env = self.env
        access = env.approved_intents is None or env.approved_intents.message_content
        try:
            with env._bot_scope():  # as SimCord's own transport runs it: what the route emits is the bot's to handle
                answer = router.dispatch(env.backend, method, path, json=json_body, params=params, files=files, reason=reason,
                                         message_content_access=access)
        except (router.RouteNotImplemented, router.UnsupportedField) as gap:
            self.gaps.append(f"{method} {path}: {gap}")
            return 501, {"message": str(gap), "code": 0}
        except BackendError as error:
            return error.status, error.to_json()
        return (204, None) if answer is None else (200, answer)

    def message_created(self, channel_id: int, message_id: int) -> float | None:
        message = self.env.backend.messages.get(channel_id, {}).get(message_id)
        stamp = getattr(message, "timestamp", "") if message is not None else ""
        if not stamp:
            return None
        return datetime.fromisoformat(stamp).timestamp()


class StandInServer:
    """Discord's REST API on a local port, in the running event loop."""

    def __init__(self, world: World, limits: DiscordLimits, faults: Faults, *, keep_bodies: bool = False,
                 observers: list[Callable[[Exchange], None]] | None = None) -> None:
        self.world = world
        self.limits = limits
        self.faults = faults
        self.keep_bodies = keep_bodies
        self.log: list[Exchange] = []
        #: (author, channel, nonce) -> (when, the message made): Discord's enforce_nonce.
        self.nonces: dict[tuple[str, str, str], tuple[float, Any]] = {}
        #: Called with each exchange as it is answered (benches time things from here).
        self.observers = observers if observers is not None else []
        #: CPU seconds (this thread) the server spent, so benches can leave it out of the bot's.
        self.cpu = 0.0
        self._runner: web.AppRunner | None = None
        self.port = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 2**20)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ------------------------------------------------------------------ one request

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        raw = await request.read()
        began = time.thread_time()
        try:
            return self.work(request, raw)
        finally:
            self.cpu += time.thread_time() - began

    def work(self, request: web.Request, raw: bytes) -> web.StreamResponse:
        """Everything the stand-in does for one request once its bytes are in (reading
        its form, the limits, the world's work, the answer), in one call: a bench may
        wrap it to charge it apart from the bot's work."""
        body, files = _read_body(request.headers.get("Content-Type", ""), raw)
        return self._answer(request, body, files)

    def _answer(self, request: web.Request, body: Any, files: list[discord.File]) -> web.StreamResponse:
        path = request.path.split("/api/v10", 1)[-1]
        method = request.method
        who = who_sent(path, "Authorization" in request.headers)
        fault = self.faults.take_answer(method, path, who, after_work=False)
        if fault is not None:
            admission = Admission(who, {}, fault.status, fault.body, (fault.headers or {}).get("X-RateLimit-Scope"))
            return self._reply(admission, method, path, who, fault.status or 500, fault.body, fault.headers or {"Via": VIA}, True, body)
        admission = self.limits.admit(method, path, bot_token=who == "bot", message_age=self._age(method, path))
        if admission.status is not None:
            return self._reply(admission, method, path, who, admission.status, admission.body, admission.headers, False, body)
        reason = request.headers.get("X-Audit-Log-Reason")
        once = self._nonce_key(method, path, who, body)
        earlier = self.nonces.get(once) if once is not None else None
        if earlier is not None and self.limits.clock() - earlier[0] < NONCE_SECONDS:
            # Discord's enforce_nonce: the message this author made with this nonce, not a second one.
            status, answer = 200, earlier[1]
        else:
            status, answer = self.world.dispatch(method, path, json_body=body, params=dict(request.query), files=files,
                                                 reason=urllib.parse.unquote(reason) if reason else None)
            if once is not None and status == 200:
                self.nonces[once] = (self.limits.clock(), answer)
        fault = self.faults.take_answer(method, path, who, after_work=True)
        if fault is not None:
            return self._reply(admission, method, path, who, fault.status or 500, fault.body, {**admission.headers, **(fault.headers or {})}, True, body)
        return self._reply(admission, method, path, who, status, answer, admission.headers, False, body)

    @staticmethod
    def _nonce_key(method: str, path: str, who: str, body: Any) -> tuple[str, str, str] | None:
        """A message create with ``enforce_nonce`` (Discord: "checked for uniqueness in the
        past few minutes; if another message was created by the same author with the
        same nonce, that message will be returned and no new message will be created")."""
        parts = path.strip("/").split("/")
        if method != "POST" or len(parts) != 3 or parts[0] != "channels" or parts[2] != "messages" or not isinstance(body, dict):
            return None
        if not body.get("enforce_nonce") or body.get("nonce") is None:
            return None
        return (who, parts[1], str(body["nonce"]))

    def _age(self, method: str, path: str) -> float | None:
        parts = path.strip("/").split("/")
        if method != "PATCH" or len(parts) != 4 or parts[0] != "channels" or parts[2] != "messages":
            return None
        try:
            created = self.world.message_created(int(parts[1]), int(parts[3]))
        except ValueError:
            return None
        return None if created is None else self.limits.clock() - created

    def _reply(self, admission: Admission, method: str, path: str, who: str, status: int, answer: Any, headers: dict[str, str],
               faulted: bool, body: Any) -> web.StreamResponse:
        self.limits.answered(admission, status)
        exchange = Exchange(self.limits.clock(), method, path, who, status, admission.scope if status == 429 else None, faulted, body)
        for observer in self.observers:
            observer(exchange)
        if not self.keep_bodies:
            exchange.body = None
        self.log.append(exchange)
        if status == 204 or answer is None:
            return web.Response(status=status if status != 200 else 204, headers=headers)
        if isinstance(answer, str):
            return web.Response(status=status, text=answer, headers=headers)
        # Discord's Content-Type exactly: discord.py parses an answer as JSON only then.
        return web.Response(status=status, body=json.dumps(answer).encode(), content_type="application/json", headers=headers)


def _read_body(content_type: str, raw: bytes) -> tuple[Any, list[discord.File]]:
    """The request's JSON, and its files as discord.File objects (as SimCord's own
    transport hands them to its routes).

    The form is split here rather than by aiohttp's ``MultipartReader`` and
    ``request.content_type``: those parse each header through the standard library's
    email package and rebuild a 128-character regular expression on every
    Content-Disposition they read, which made the stand-in's reading of a request cost
    more than SimCord's work behind it (bench/README.md, rate_limits.py). What is read is
    the same: the ``payload_json`` part, and each file's part with its name and filename."""
    kind, params = _header_params(content_type)
    if kind == "multipart/form-data" and params.get("boundary"):
        payload: Any = None
        parts: list[tuple[str, str | None, bytes]] = []
        for headers, data in _form_parts(raw, params["boundary"].encode("latin-1")):
            _, disposition = _header_params(headers.get("content-disposition", ""))
            if disposition.get("name") == "payload_json":
                payload = json.loads(data)
            else:
                parts.append((disposition.get("name", ""), disposition.get("filename"), data))
        described = {str(a.get("id")): a.get("description") for a in (payload or {}).get("attachments", []) or [] if isinstance(a, dict)}
        files = []
        for name, filename, data in parts:
            index = name[len("files["):-1] if name.startswith("files[") else name
            files.append(discord.File(io.BytesIO(data), filename=filename or "file", description=described.get(index)))
        return payload, files
    if not raw:
        return None, []
    if kind == "application/json":
        return json.loads(raw), []
    return None, []


_PARAM = re.compile(r';\s*([\w*-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))')


def _header_params(value: str) -> tuple[str, dict[str, str]]:
    """A Content-Type or Content-Disposition header: its lower-cased first word and its
    parameters (quoted values unescaped)."""
    head, _, rest = value.partition(";")
    params = {}
    for match in _PARAM.finditer(";" + rest):
        quoted, bare = match.group(2), match.group(3)
        params[match.group(1).lower()] = re.sub(r"\\(.)", r"\1", quoted) if quoted is not None else bare
    return head.strip().lower(), params


def _form_parts(raw: bytes, boundary: bytes) -> list[tuple[dict[str, str], bytes]]:
    """A multipart/form-data body's parts: (headers by lower-cased name, data)."""
    out = []
    delimiter = b"--" + boundary
    for chunk in raw.split(delimiter)[1:]:
        if chunk.startswith(b"--"):  # the closing delimiter
            break
        head, _, data = chunk.partition(b"\r\n\r\n")
        headers = {}
        for line in head.decode("utf-8", "replace").split("\r\n"):
            name, colon, text = line.partition(":")
            if colon:
                headers[name.strip().lower()] = text.strip()
        out.append((headers, data[:-2] if data.endswith(b"\r\n") else data))
    return out
