"""Forged interactions: what a modified client can send. SimCord's actors only
press what a message shows and keep to declared option types and ranges; these
helpers build the INTERACTION_CREATE payload themselves, through SimCord's own
dispatch, so the bot receives exactly what Discord would forward."""

from __future__ import annotations

import copy
from typing import Any

from simcord.actors import _dispatch_actor_interaction, _visible_message
from simcord.backend import serializers
from simcord.builders import ChannelHandle
from simcord.enums import ComponentType, InteractionType


async def forge_component(actor: Any, message: Any, custom_id: str, *, values: list[str] | None = None) -> Any:
    """Press a control with ``custom_id`` on ``message`` (a message ``actor`` can see),
    as if the message had shown such a control."""
    stored = _visible_message(actor, message)
    backend = actor._env.backend
    payload = copy.deepcopy(dict(serializers.message_payload(backend, stored)))
    kind = ComponentType.STRING_SELECT if values is not None else ComponentType.BUTTON
    component: dict[str, Any] = {"type": int(kind), "custom_id": custom_id}
    if values is not None:
        component["options"] = [{"label": v[:100] or "x", "value": v} for v in values]
    else:
        component.update(style=2, label="forged")
    payload["components"] = [{"type": 1, "components": [component]}]
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": int(kind)}
    if values is not None:
        data["values"] = values
    channel = ChannelHandle(actor._env, getattr(actor, "guild", None), backend.get_channel(stored.channel_id))
    return await _dispatch_actor_interaction(
        actor, InteractionType.MESSAGE_COMPONENT, channel, data, extra={"message": payload}, source_message_id=stored.id
    )


async def forge_slash(actor: Any, channel: Any, name: str, **options: Any) -> Any:
    """Run ``/name`` with raw option values (no check against declared choices or ranges)."""
    backend = actor._env.backend
    parts = name.split()
    root = backend.find_command(parts[0], actor.guild.id)
    assert root is not None, f"no command {parts[0]}"
    declared = root.get("options") or []
    leaf_options = None
    if len(parts) > 1:
        sub = next(o for o in declared if o["name"] == parts[1])
        declared = sub.get("options") or []
    built = []
    for key, value in options.items():
        option = next(o for o in declared if o["name"] == key)
        built.append({"name": key, "type": option["type"], "value": value})
    if len(parts) > 1:
        leaf_options = [{"name": parts[1], "type": 1, "options": built}]
    data = {"id": root["id"], "name": root["name"], "type": 1, "options": leaf_options if leaf_options is not None else built}
    if root.get("guild_id"):
        data["guild_id"] = root["guild_id"]
    return await _dispatch_actor_interaction(actor, InteractionType.APPLICATION_COMMAND, channel, data)


def text_of(result: Any) -> str:
    """Everything the user was told: the response and any follow-ups."""
    from tests.e2e.ui import text  # content, embeds and a Components V2 message's text

    parts = []
    if result.response is not None:
        parts.append(text(result.response))
    parts.extend(text(f) for f in result.followups)
    return "\n".join(parts)


async def forge_modal(actor: Any, channel: Any, custom_id: str, fields: dict[str, str]) -> Any:
    """Submit a modal with ``custom_id`` and text ``fields`` that the bot never showed
    (a modal submit names nothing but its custom_id and its fields' values)."""
    data = {
        "custom_id": custom_id,
        "components": [{"type": 1, "components": [{"type": 4, "custom_id": key, "value": value}]} for key, value in fields.items()],
    }
    return await _dispatch_actor_interaction(actor, InteractionType.MODAL_SUBMIT, channel, data)
