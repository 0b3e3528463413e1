"""Client languages in SimCord. Discord sends each interaction with the user's client
language (``locale``) and the server's (``guild_locale``); SimCord always says en-US.
``client_locales`` makes the simulated interactions carry the languages a test names."""

from __future__ import annotations

from typing import Any

from simcord import interactions as sim_interactions


def client_locales(monkeypatch, locales: dict[int, str]) -> None:
    """From now on in this test, user id -> their client language (others: en-US), and
    every server interaction carries its server's preferred locale."""
    original = sim_interactions.base_payload

    def with_locales(backend: Any, **fields: Any) -> Any:
        record, payload = original(backend, **fields)
        payload["locale"] = locales.get(fields["user_id"], "en-US")
        if fields.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(fields["guild_id"]).preferred_locale
        return record, payload

    monkeypatch.setattr(sim_interactions, "base_payload", with_locales)


def component(message: Any, prefix: str) -> str:
    """The custom_id of the first component of ``message`` starting with ``prefix``
    (clicking by id, since labels change with the language)."""
    from tests.e2e.ui import _items

    for item in _items(message):
        custom_id = item.get("custom_id") or ""
        if custom_id.startswith(prefix):
            return custom_id
    raise AssertionError(f"no component {prefix}… on the message")
