"""Does real Discord accept what the bot sends? SimCord accepts more than Discord does, so every
HTTP request the bot makes during a SimCord test is checked here against Discord's own OpenAPI
description of API v10 (vendored in tests/discord_api/, see its README), and against the limits
Discord documents in prose but the schema does not carry.

``check(method, path, body)`` returns the violations of one request, each naming the route, the
rule and the offending field. tests/conftest.py wraps SimCord's router with :func:`recording` for
every test, and a test that made a non-conforming request fails (see :func:`pytest_runtest_call`
and the ``_discord_conformance`` fixture below), even if the bot swallowed the request's error.

Validators are compiled once per route per process; nothing here reads the network.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_PATH = Path(__file__).parent / "discord_api" / "openapi.json"
_SPEC_URI = "urn:discord-api:openapi"
_METHODS = ("get", "put", "post", "patch", "delete")

# Component types (discord.com/developers/docs/components/reference#component-object-component-types).
TEXT_DISPLAY = 10
V2_TOP_LEVEL = {9, 10, 11, 12, 13, 14, 17}  # section, text display, thumbnail, gallery, file, separator, container
IS_COMPONENTS_V2 = 1 << 15  # message flag (docs: resources/message#message-object-message-flags)


@dataclass(frozen=True)
class Violation:
    method: str
    route: str  # the OpenAPI path template, or the concrete path when no template matches
    field: str  # "body[12].options[3].description"
    problem: str  # "102 characters, Discord allows at most 100"

    def __str__(self) -> str:
        return f"{self.method} {self.route}: {self.field}: {self.problem}"


# ------------------------------------------------------------------ the OpenAPI document


@cache
def _spec() -> dict[str, Any]:
    spec = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
    schemas = spec["components"]["schemas"]
    # The document types a snowflake as a decimal string only; Discord also accepts the integer
    # (discord.py sends ids as ints throughout, e.g. allowed_mentions.users), so allow both.
    schemas["SnowflakeType"] = {"anyOf": [schemas["SnowflakeType"], {"type": "integer", "minimum": 0, "maximum": 2**64 - 1}]}
    _dispatch_unions(spec, schemas)
    _inline_refs(spec, schemas)
    return spec


def _inline_refs(spec: dict[str, Any], schemas: dict[str, Any]) -> None:
    """Speed, same meaning: every bare ``{"$ref": "#/components/schemas/X"}`` is replaced by X
    itself (the same object), as referencing resolves a pointer afresh on every use (~80 us)."""
    prefix = "#/components/schemas/"
    seen: set[int] = set()
    stack: list[Any] = [spec]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in list(items):
            if isinstance(value, dict) and set(value) == {"$ref"} and value["$ref"].startswith(prefix):
                target = schemas.get(value["$ref"][len(prefix):])
                if target is not None:
                    node[key] = value = target
            if isinstance(value, (dict, list)):
                stack.append(value)


def _discriminator(schemas: dict[str, Any], branch: Any) -> tuple[Any, ...] | None:
    """The ``type`` values a union branch (a $ref to an object schema) stands for, if it says."""
    if not isinstance(branch, dict) or set(branch) != {"$ref"} or not branch["$ref"].startswith("#/components/schemas/"):
        return None
    target = schemas.get(branch["$ref"].rsplit("/", 1)[1], {})
    kind = target.get("properties", {}).get("type", {})
    if "type" not in target.get("required", ()):
        return None
    values = kind.get("enum", [kind["const"]] if "const" in kind else None)
    return tuple(values) if values else None


def _dispatch_unions(node: Any, schemas: dict[str, Any]) -> None:
    """Speed, same meaning. jsonschema validates an instance against every branch of a oneOf, at
    every level of nesting: a board message took tens of milliseconds. So, in memory (now a
    request takes about half a millisecond on average):

    - a oneOf/anyOf of objects told apart by their ``type`` (message components, command
      options, interaction callbacks) becomes ``x-dispatch``: the branch whose ``type`` it is
      (its errors then point into the branch the payload meant);
    - ``oneOf: [{type: null}, X]`` (400-odd nullable fields) becomes ``x-or-null: X``;
    - a ``type`` property's ``allOf: [$ref to the enum of all types]`` beside its own narrower
      ``enum`` is dropped (the enum already says it, without a $ref lookup)."""
    if isinstance(node, list):
        for item in node:
            _dispatch_unions(item, schemas)
        return
    if not isinstance(node, dict):
        return
    for value in node.values():
        _dispatch_unions(value, schemas)
    if "enum" in node and isinstance(node.get("allOf"), list) and all(set(b) == {"$ref"} for b in node["allOf"]):
        del node["allOf"]
    for key in ("oneOf", "anyOf"):
        branches = node.get(key)
        if not isinstance(branches, list):
            continue
        nullable = {"type": "null"} in branches
        typed = [b for b in branches if b != {"type": "null"}]
        if nullable and len(typed) == 1 and key == "oneOf":
            del node[key]
            node["x-or-null"] = typed[0]
            continue
        tags = [_discriminator(schemas, b) for b in typed]
        values = [v for t in tags if t for v in t]
        if len(typed) < 2 or not all(tags) or len(values) != len(set(values)):
            continue
        del node[key]
        node["x-dispatch"] = {"nullable": nullable, "branches": {v: b for t, b in zip(tags, typed) for v in t}}


def _x_or_null(validator, branch, instance, schema):
    if instance is not None:
        yield from validator.descend(instance, branch)


def _x_dispatch(validator, spec, instance, schema):
    if instance is None and spec["nullable"]:
        return
    if not isinstance(instance, dict):
        yield jsonschema.ValidationError(f"{instance!r} is not an object")
        return
    kind = instance.get("type")
    branch = spec["branches"].get(kind) if isinstance(kind, int) and not isinstance(kind, bool) else None
    if branch is None:
        allowed = sorted(spec["branches"])
        yield jsonschema.ValidationError(f"type {kind!r} is not one of {allowed}", validator="enum", path=["type"])
        return
    # A component a message sends again (the same button, select or text in the next edit) was
    # valid last time: remembered by its content, only when valid (errors carry paths).
    try:
        key = (id(branch), json.dumps(instance, sort_keys=True))
    except (TypeError, ValueError):
        key = None
    if key is not None and key in _VALID_PARTS:
        return
    errors = list(validator.descend(instance, branch))
    if errors:
        yield from errors
    elif key is not None:
        if len(_VALID_PARTS) >= 16384:
            _VALID_PARTS.clear()
        _VALID_PARTS.add(key)


_VALID_PARTS: set[tuple[int, str]] = set()


_Validator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator, {"x-dispatch": _x_dispatch, "x-or-null": _x_or_null}
)


@cache
def _registry() -> Registry:
    return Registry().with_resource(_SPEC_URI, Resource(contents=_spec(), specification=DRAFT202012))


@cache
def _routes() -> dict[str, list[tuple[tuple[str, ...], str]]]:
    """method -> [(template segments, template)] for every operation in the document."""
    table: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for template, item in _spec()["paths"].items():
        for method in _METHODS:
            if method in item:
                table.setdefault(method.upper(), []).append((tuple(template.strip("/").split("/")), template))
    return table


@cache
def match_route(method: str, path: str) -> str | None:
    """The OpenAPI path template a concrete path belongs to, preferring the most literal match
    (``/channels/1/messages/bulk-delete`` is not ``/channels/{channel_id}/messages/{message_id}``)."""
    segments = path.split("?", 1)[0].strip("/").split("/")
    best: tuple[int, str] | None = None
    for template_segments, template in _routes().get(method, ()):
        if len(template_segments) != len(segments):
            continue
        literals = 0
        for tpl, seg in zip(template_segments, segments):
            if tpl.startswith("{") and tpl.endswith("}"):
                continue
            if tpl != seg:
                break
            literals += 1
        else:
            if best is None or literals > best[0]:
                best = (literals, template)
    return best[1] if best else None


def _pointer(*parts: str) -> str:
    return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in parts)


@cache
def _validator(method: str, template: str) -> jsonschema.protocols.Validator | None:
    """The request-body validator of one route, compiled once (None: the route takes no body)."""
    body = _spec()["paths"][template][method.lower()].get("requestBody")
    if body is None or "application/json" not in body["content"]:
        return None
    # A multipart request's payload_json is the JSON body; its schema is the application/json one.
    ref = _SPEC_URI + "#" + _pointer("paths", template, method.lower(), "requestBody", "content", "application/json", "schema")
    return _Validator({"$ref": ref}, registry=_registry())


def _body_required(method: str, template: str) -> bool:
    return bool(_spec()["paths"][template][method.lower()].get("requestBody", {}).get("required"))


# ------------------------------------------------------------------ schema errors, made readable


def field_name(path: Any, root: str = "body") -> str:
    out = root
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _is_mismatch(error: jsonschema.ValidationError) -> bool:
    """Does this error only say the instance is another kind of thing (another branch of a union)?
    A wrong ``type`` discriminator, or a null-only/other-type branch."""
    relative = list(error.relative_path)
    if relative == ["type"] and error.validator in ("enum", "const"):
        return True
    return not relative and error.validator == "type"


def _leaves(error: jsonschema.ValidationError) -> list[jsonschema.ValidationError]:
    """Descend into a failed oneOf/anyOf to the branch the payload meant (the one whose ``type``
    matches), so the message names the real field instead of "not valid under any schema"."""
    if error.validator not in ("oneOf", "anyOf") or not error.context:
        return [error]
    branches: dict[Any, list[jsonschema.ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    meant = [errs for errs in branches.values() if not any(_is_mismatch(e) for e in errs)]
    if not meant:
        return [error]
    chosen = min(meant, key=len)
    return [leaf for sub in chosen for leaf in _leaves(sub)]


def _describe(error: jsonschema.ValidationError) -> str:
    value, limit = error.instance, error.validator_value
    match error.validator:
        case "maxLength":
            return f"{len(value)} characters, Discord allows at most {limit}"
        case "minLength":
            return f"{len(value)} characters, Discord needs at least {limit}"
        case "maxItems":
            return f"{len(value)} items, Discord allows at most {limit}"
        case "minItems":
            return f"{len(value)} items, Discord needs at least {limit}"
        case "maximum":
            return f"{value}, Discord allows at most {limit}"
        case "minimum":
            return f"{value}, Discord needs at least {limit}"
    message = error.message
    return message if len(message) <= 300 else message[:300] + "..."


def _schema_violations(method: str, template: str, body: Any) -> list[Violation]:
    validator = _validator(method, template)
    if validator is None:
        return []
    found = []
    for error in validator.iter_errors(body):
        for leaf in _leaves(error):
            found.append(Violation(method, template, field_name(leaf.absolute_path), _describe(leaf)))
    return found


# ------------------------------------------------------------------ limits the schema does not carry
#
# Each rule names the page of discord.com/developers/docs it comes from. Limits the schema already
# has (embed title 256, description 4096, 25 fields, field name 256 / value 1024, footer 2048,
# author 256, 10 embeds, custom_id 100, button label 80, 1-25 select options and their 100-character
# label/value/description, attachment descriptions 1,024, thread names 1-100, modal title and
# labels 45, option descriptions 1-100, choice names 1-100, names 1-32) are left to the schema.

_NAME_CHARS = re.compile(r"[-_'\w]+")  # docs: \p{L}\p{N} plus -_' ; Python's \w is letters, digits, _


def _command_name(name: Any, field: str) -> Iterator[tuple[str, str]]:
    # interactions/application-commands#application-command-object-application-command-naming:
    # CHAT_INPUT command and option names match ^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$ and
    # use the lowercase variant of any letter that has one. (The length is in the schema.)
    if not isinstance(name, str) or not name:
        return
    if not _NAME_CHARS.fullmatch(name):
        yield field, f"{name!r}: Discord allows only letters, digits, '-', '_' and \"'\" in a slash-command name"
    elif name != name.lower():
        yield field, f"{name!r}: Discord requires slash-command names in lowercase"


def _command_options(options: Any, field: str) -> Iterator[tuple[str, str]]:
    for i, option in enumerate(options or ()):
        if not isinstance(option, dict):
            continue
        here = f"{field}[{i}]"
        yield from _command_name(option.get("name"), f"{here}.name")
        if option.get("type") in (1, 2):  # SUB_COMMAND, SUB_COMMAND_GROUP
            yield from _command_options(option.get("options"), f"{here}.options")


def _command(command: Any, field: str) -> Iterator[tuple[str, str]]:
    if not isinstance(command, dict) or command.get("type", 1) not in (1, None):
        return  # user/message context-menu commands: any case and spaces, no description
    yield from _command_name(command.get("name"), f"{field}.name")
    # application-commands#application-command-object: a CHAT_INPUT description is 1-100
    # characters (the schema has the 100 but lets an empty one through).
    if not command.get("description"):
        yield f"{field}.description", "empty: Discord requires a 1-100 character description on a slash command"
    yield from _command_options(command.get("options"), f"{field}.options")


def _walk_components(components: Any, field: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every component in a message, nested ones included, with its field path."""
    for i, component in enumerate(components or ()):
        if not isinstance(component, dict):
            continue
        here = f"{field}[{i}]"
        yield here, component
        yield from _walk_components(component.get("components"), f"{here}.components")
        for key in ("accessory", "component"):  # a section's accessory, a modal label's component
            if isinstance(component.get(key), dict):
                yield f"{here}.{key}", component[key]
                yield from _walk_components(component[key].get("components"), f"{here}.{key}.components")


def _embed_total(embed: dict[str, Any]) -> int:
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    for f in embed.get("fields") or ():
        total += len(f.get("name") or "") + len(f.get("value") or "")
    total += len((embed.get("footer") or {}).get("text") or "") + len((embed.get("author") or {}).get("name") or "")
    return total


def _unique_custom_ids(components: Any, field: str, where_kind: str) -> Iterator[tuple[str, str]]:
    # components/reference#anatomy-of-a-component (custom_id): unique among the components of a
    # message (or of a modal).
    seen: Counter[str] = Counter()
    for where, component in _walk_components(components, field):
        custom_id = component.get("custom_id")
        if isinstance(custom_id, str):
            seen[custom_id] += 1
            if seen[custom_id] == 2:
                yield f"{where}.custom_id", f"{custom_id!r} is used twice, Discord requires custom_ids unique per {where_kind}"


def _message(message: Any, field: str, edits_v2: bool = False) -> Iterator[tuple[str, str]]:
    """A message body: a channel message, a webhook/follow-up, an interaction callback's data.
    ``edits_v2``: the body edits a message already sent as Components V2 (the flag stays)."""
    if not isinstance(message, dict):
        return
    content = message.get("content")
    components = message.get("components") or []
    embeds = message.get("embeds") or []
    v2 = edits_v2 or bool((message.get("flags") or 0) & IS_COMPONENTS_V2) or any(
        isinstance(c, dict) and c.get("type") in V2_TOP_LEVEL for c in components
    )
    # resources/message#create-message: content up to 2,000 characters (the schema says 4,000 on
    # some routes, which is not what a bot may send).
    if isinstance(content, str) and len(content) > 2000:
        yield f"{field}.content", f"{len(content)} characters, Discord allows at most 2000"
    # resources/message#embed-object-embed-limits: all embeds' title, description, field names and
    # values, footer text and author name together at most 6,000 characters.
    total = sum(_embed_total(e) for e in embeds if isinstance(e, dict))
    if total > 6000:
        yield f"{field}.embeds", f"{total} characters of embed text, Discord allows at most 6000 in one message"
    yield from _unique_custom_ids(components, f"{field}.components", "message")
    if not v2:
        # components/reference#action-row: a message has at most 5 action rows.
        if len(components) > 5:
            yield f"{field}.components", f"{len(components)} action rows, Discord allows at most 5"
        return
    # components/using-message-components#using-components-v2 (IS_COMPONENTS_V2): no content,
    # embeds, poll or stickers; at most 40 components in all, nested ones counted; at most 4,000
    # characters of text across all text displays.
    if content:
        yield f"{field}.content", "set on a Components V2 message (flags 1<<15), which Discord rejects"
    if embeds:
        yield f"{field}.embeds", "set on a Components V2 message (flags 1<<15), which Discord rejects"
    for key in ("poll", "sticker_ids"):
        if message.get(key):
            yield f"{field}.{key}", "set on a Components V2 message (flags 1<<15), which Discord rejects"
    walked = list(_walk_components(components, f"{field}.components"))
    if len(walked) > 40:
        yield f"{field}.components", f"{len(walked)} components counted nested, Discord allows at most 40 in a Components V2 message"
    text = sum(len(c.get("content") or "") for _, c in walked if c.get("type") == TEXT_DISPLAY)
    if text > 4000:
        yield f"{field}.components", f"{text} characters of text display content, Discord allows at most 4000 in a Components V2 message"


_MESSAGE_ROUTES = {
    ("POST", "/channels/{channel_id}/messages"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
}
_COMMAND_LIST_ROUTES = {
    ("PUT", "/applications/{application_id}/commands"),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"),
}
_COMMAND_ROUTES = {
    ("POST", "/applications/{application_id}/commands"),
    ("PATCH", "/applications/{application_id}/commands/{command_id}"),
    ("POST", "/applications/{application_id}/guilds/{guild_id}/commands"),
    ("PATCH", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}"),
}


def _documented_limits(method: str, template: str, body: Any, edits_v2: bool) -> Iterator[tuple[str, str]]:
    key = (method, template)
    if key in _MESSAGE_ROUTES:
        yield from _message(body, "body", edits_v2)
    elif key == ("POST", "/interactions/{interaction_id}/{interaction_token}/callback"):
        if isinstance(body, dict) and body.get("type") in (4, 7):  # CHANNEL_MESSAGE_WITH_SOURCE, UPDATE_MESSAGE
            yield from _message(body.get("data"), "body.data", edits_v2 and body.get("type") == 7)
        elif isinstance(body, dict) and body.get("type") == 9 and isinstance(body.get("data"), dict):  # MODAL
            yield from _unique_custom_ids(body["data"].get("components"), "body.data.components", "modal")
    elif key == ("POST", "/channels/{channel_id}/threads") and isinstance(body, dict):
        yield from _message(body.get("message"), "body.message")  # a forum post's first message
    elif key in _COMMAND_LIST_ROUTES:
        for i, command in enumerate(body or ()):
            yield from _command(command, f"body[{i}]")
    elif key in _COMMAND_ROUTES:
        yield from _command(body, "body")


# ------------------------------------------------------------------ the check


def check(method: str, path: str, body: Any, *, edits_v2: bool = False) -> list[Violation]:
    """Every way Discord would refuse this request's body (an empty list: it conforms).
    ``edits_v2``: the request edits a message that is Components V2 already."""
    method = method.upper()
    template = match_route(method, path)
    if template is None:
        return [Violation(method, path, "route", "not a route of Discord's HTTP API v10")]
    if body is None:
        if _body_required(method, template) and _validator(method, template) is not None:
            return [Violation(method, template, "body", "missing: Discord requires a JSON body on this route")]
        return []
    try:
        # The same body is often sent again (the command sync of every test, a board edited
        # twice the same way): its verdict is remembered.
        key = (method, template, edits_v2, json.dumps(body, sort_keys=True))
    except (TypeError, ValueError):
        return _check_body(method, template, body, edits_v2)
    found = _VERDICTS.get(key)
    if found is None:
        found = _check_body(method, template, body, edits_v2)
        if len(_VERDICTS) >= 4096:
            _VERDICTS.clear()
        _VERDICTS[key] = found
    return list(found)


_VERDICTS: dict[tuple[str, str, bool, str], list[Violation]] = {}


def _check_body(method: str, template: str, body: Any, edits_v2: bool) -> list[Violation]:
    found = _schema_violations(method, template, body)
    named = {v.field for v in found}
    for field, problem in _documented_limits(method, template, body, edits_v2):
        if field not in named:  # the schema already said it
            found.append(Violation(method, template, field, problem))
    return found


def check_commands(payloads: list[dict[str, Any]]) -> list[Violation]:
    """A command tree's payloads (``[c.to_dict(tree) for c in tree.get_commands()]``), checked as
    the start-up sync sends them."""
    return check("PUT", "/applications/0/commands", payloads)


# ------------------------------------------------------------------ wiring into SimCord tests

#: Violations recorded since the current test began (see the fixture in tests/conftest.py).
RECORDED: list[Violation] = []
#: Requests checked in this session, and the seconds spent checking them.
STATS = {"requests": 0, "seconds": 0.0}


@contextlib.contextmanager
def recording() -> Iterator[list[Violation]]:
    """Check every request the bot sends through SimCord's router while the test runs.

    Both of SimCord's transports (the fake ``HTTPClient.request`` and the fake webhook adapter
    that carries interaction responses and follow-ups) call ``simcord.http.router.dispatch``
    through the module attribute with the route's method, the concrete path and the JSON body
    (a multipart request's ``payload_json`` already parsed), so this one wrapper sees every bot
    request. The simulated users' own actions call the router by another name and are not checked.
    """
    from simcord.http import router

    original = router.dispatch

    def checked_dispatch(backend, method, path, *, json=None, **kwargs):
        started = time.perf_counter()
        RECORDED.extend(check(method, path, json, edits_v2=_edits_v2(backend, method, path, json)))
        STATS["requests"] += 1
        STATS["seconds"] += time.perf_counter() - started
        return original(backend, method, path, json=json, **kwargs)

    RECORDED.clear()
    router.dispatch = checked_dispatch  # not monkeypatch: a test's monkeypatch.undo() must not unhook it
    try:
        yield RECORDED
    finally:
        router.dispatch = original


def _edits_v2(backend: Any, method: str, path: str, body: Any) -> bool:
    """Does this request edit a message SimCord holds as Components V2? An edit need not repeat
    the flag, and content or embeds on such a message are refused all the same."""
    parts = path.strip("/").split("/")
    try:
        if method == "PATCH" and parts[0] == "channels" and len(parts) == 4:
            message = backend.get_message(int(parts[1]), int(parts[3]))
        elif method == "PATCH" and parts[0] == "webhooks" and len(parts) == 5:
            record = backend.interaction_by_token(parts[2])
            message_id = record.message_id if parts[4] == "@original" else int(parts[4])
            message = backend.get_message(record.channel_id, message_id)
        elif parts[0] == "interactions" and isinstance(body, dict) and body.get("type") == 7:
            record = backend.interaction_by_token(parts[2])
            message = backend.get_message(record.channel_id, record.source_message_id or record.message_id)
        else:
            return False
    except Exception:  # not a message SimCord knows (SimCord itself answers that request)
        return False
    return bool(message.flags & IS_COMPONENTS_V2)


def report(violations: list[Violation]) -> str:
    unique = list(dict.fromkeys(str(v) for v in violations))
    shown = unique[:20]
    more = f"\n  ... and {len(unique) - len(shown)} more" if len(unique) > len(shown) else ""
    return (
        f"The bot sent {len(unique)} request(s) real Discord would refuse (HTTP 400):\n  "
        + "\n  ".join(shown) + more
    )


@pytest.fixture(autouse=True)
def _discord_conformance():
    """Autouse (tests/conftest.py imports it): checks every test's requests; fails at teardown on
    a violation the call phase did not already report (one sent while the fixtures wound down)."""
    with recording() as violations:
        yield
        if violations:
            found = list(violations)
            violations.clear()
            pytest.fail(report(found), pytrace=False)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """Fail the test itself (not only its teardown) when it made a non-conforming request."""
    result = yield
    if RECORDED:
        found = list(RECORDED)
        RECORDED.clear()
        pytest.fail(report(found), pytrace=False)
    return result


def pytest_terminal_summary(terminalreporter):
    if STATS["requests"]:
        terminalreporter.write_line(
            f"Discord conformance: {STATS['requests']} requests checked against Discord's API in {STATS['seconds']:.1f} s"
        )
