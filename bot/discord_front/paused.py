"""A paused table's sentences (issue 27): its thread archived or locked by a moderator,
or a permission taken from the bot in its place. Read by the hands' status line, the
lookups' refusals and the core's move refusal; set and cleared by
``bot/discord_front/tables/threads.py``."""

from __future__ import annotations

from bot.core.table import Table
from bot.words.i18n import N_, _

PAUSED_SENTENCE = N_("This game is paused: its thread {where} was archived or locked by a moderator. It goes on when the thread is reopened.")
ACCESS_SENTENCE = N_("This game is paused: I lost the {permission} permission in {where}, so I cannot show the game there. "
                     "It goes on when the permission is given back.")


def is_paused(table: Table) -> bool:
    return bool(table.record.publish.get("paused"))


def access_paused(table: Table) -> bool:
    """Paused because Discord refused the bot its place (403), not for a closed thread."""
    paused = table.record.publish.get("paused")
    return isinstance(paused, dict) and bool(paused.get("access"))


def paused_sentence(table: Table) -> str:
    where = f"<#{table.record.thread_id or table.record.channel_id}>"
    if access_paused(table):
        return _(ACCESS_SENTENCE, permission=_(table.record.publish["paused"]["access"]), where=where)
    return _(PAUSED_SENTENCE, where=f"<#{table.record.thread_id}>" if table.record.thread_id else "")


def paused_refusal(table: Table) -> str | None:
    """A table whose thread a moderator closed takes no moves (the core's ``paused`` hook)."""
    if not is_paused(table):
        return None
    return paused_sentence(table)
