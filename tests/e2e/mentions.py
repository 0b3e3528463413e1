"""Every message the bot creates or edits says whom it may ping (issue 20).

:func:`problems` reads SimCord's record of the bot's requests: each body that
creates or edits a message (a channel message, an interaction's message or update,
a follow-up, a webhook edit) must carry an explicit ``allowed_mentions`` that allows
neither @everyone nor roles nor users at large, and names users only on a new message
(where a mention notifies) that mentions them. :func:`mentions_are_explicit` runs it
after every test that used ``simcord_env`` (imported into ``tests/conftest.py``), so a
violation fails the test that caused it, naming the route and the field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

import pytest

#: Interaction callbacks that carry a message: CHANNEL_MESSAGE_WITH_SOURCE, UPDATE_MESSAGE.
MESSAGE_CALLBACKS = (4, 7)
#: Tests that plant raw bodies through ``bot.http.request`` on purpose (to test the
#: conformance checker), not what the bot sends: not checked here.
RAW_BODIES = "test_discord_conformance"
_ID = r"[^/]+"
_NEW = (re.compile(rf"/channels/{_ID}/messages"), re.compile(rf"/webhooks/{_ID}/{_ID}"))
_EDIT = (re.compile(rf"/channels/{_ID}/messages/{_ID}"), re.compile(rf"/webhooks/{_ID}/{_ID}/messages/{_ID}"))
_CALLBACK = re.compile(rf"/interactions/{_ID}/{_ID}/callback")


def message_body(method: str, path: str, body: Any) -> tuple[dict[str, Any], bool] | None:
    """The message a request creates or edits, and whether it is new; None if it is
    not such a request."""
    if not isinstance(body, dict):
        body = {}
    if method == "POST" and any(p.fullmatch(path) for p in _NEW):
        return body, True
    if method == "PATCH" and any(p.fullmatch(path) for p in _EDIT):
        return body, False
    if method == "POST" and _CALLBACK.fullmatch(path) and body.get("type") in MESSAGE_CALLBACKS:
        return body.get("data") or {}, body.get("type") == 4
    return None


def problems(requests: Iterable[Any]) -> list[str]:
    found = []
    for request in requests:
        shown = message_body(request.method, request.path, request.json)
        if shown is None:
            continue
        body, new = shown
        where = f"{request.method} {request.path}"
        allowed = body.get("allowed_mentions")
        if not isinstance(allowed, dict):
            found.append(f"{where}: no allowed_mentions (Discord would parse @everyone, roles and users)")
            continue
        parse = allowed.get("parse") or []
        for kind in ("everyone", "roles", "users"):
            if kind in parse:
                found.append(f"{where}: allowed_mentions.parse allows {kind}")
        if allowed.get("roles"):
            found.append(f"{where}: allowed_mentions.roles {allowed['roles']}")
        users = {str(u) for u in allowed.get("users") or []}
        if users:
            words = (body.get("content") or "") + json.dumps(body.get("components") or [])
            named = set(re.findall(r"<@!?(\d+)>", words))
            if not new:
                found.append(f"{where}: allowed_mentions.users {sorted(users)} on an edit (an edit notifies nobody)")
            elif not users <= named:
                found.append(f"{where}: allowed_mentions.users {sorted(users - named)} not mentioned in the message")
    return found


@pytest.fixture(autouse=True)
def mentions_are_explicit(request: pytest.FixtureRequest):
    yield
    env = request.node.funcargs.get("simcord_env") if hasattr(request.node, "funcargs") else None
    if env is None or request.node.module.__name__.endswith(RAW_BODIES):
        return
    found = problems(env.http_requests)
    assert not found, "Messages that do not say whom they may ping:\n" + "\n".join(found[:20])
