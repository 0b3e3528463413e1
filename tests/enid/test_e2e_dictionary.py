"""Issue 23 item 2: the pronouncing dictionary (the limerick hint's, about a second to
read) is read at start-up in a worker thread, never by the first limerick on the event
loop, where it froze every table of the process. (How long the first judgement takes is
measured by bench/enid_limerick.py; tests assert no timings.)"""

from __future__ import annotations

import asyncio
import threading

import pronouncing
import pytest

from cogs.enid import limerick
from tests.conftest import make_bot
from tests.enid.test_e2e_issue23 import reach_a_limerick_vote
from tests.enid.test_e2e_enid import setup_world


@pytest.fixture
def reads(monkeypatch):
    """The dictionary as in a fresh process (not read yet), and the threads that read it."""
    seen: list[str] = []
    real = pronouncing.init_cmu

    def init_cmu(*args, **kwargs):
        if pronouncing.pronunciations is None:
            seen.append(threading.current_thread().name)
        return real(*args, **kwargs)

    for name in ("pronunciations", "lookup", "rhyme_lookup"):
        monkeypatch.setattr(pronouncing, name, None)
    monkeypatch.setattr(pronouncing, "init_cmu", init_cmu)
    monkeypatch.setattr(limerick, "_loaded", False, raising=False)
    limerick._phones.cache_clear()
    yield seen
    limerick._phones.cache_clear()


@pytest.fixture
def simcord_bot(data_dir, reads):
    return make_bot(data_dir)  # built after the dictionary was put back to unread


async def test_the_dictionary_is_read_at_start_up_off_the_event_loop(simcord_env, data_dir, deals, reads):
    env = simcord_env
    loop_thread = threading.current_thread().name
    for _ in range(200):  # the worker started with the bot; the test asserts where, not how fast
        if reads:
            break
        await asyncio.sleep(0.05)
    assert len(reads) == 1 and reads[0] != loop_thread
    guild, channel, members = setup_world(env)
    table = await reach_a_limerick_vote(env, channel, members, deals)
    assert table.state.vote["hint"]["rhyme_34"] is True  # "nine" and "fine": the hint came from the dictionary
    assert reads == [reads[0]]  # and the first limerick read nothing more
