"""Card pictures drawn in a worker process (bot/pictures/picture_pool.py): the same bytes as drawn
here, kept here once drawn, and a worker that dies is replaced without losing a picture."""

from __future__ import annotations

import asyncio
import os
import signal
import threading

import pytest

from bot.pictures import cardart
from bot.pictures.cardart import CardRow
from bot.config import Settings
from bot.pictures.picture_pool import DRAWING_THREAD_NAME, PictureDrawer, uses_process

ROWS = (CardRow("Pile", ("9h", "Tc")), CardRow("Ann", ("As",), face_down=2))


def test_auto_draws_in_a_process_only_with_a_second_core():
    assert uses_process("auto", cpus=2) and uses_process("auto", cpus=8)
    assert not uses_process("auto", cpus=1)
    assert uses_process("on", cpus=1) and not uses_process("off", cpus=8)


def test_the_setting_is_read_from_the_environment_and_checked():
    from bot.config import ConfigError

    base = {"DISCORD_TOKEN": "x"}
    assert Settings.from_env(base, load_dotenv_file=False).picture_process == "off"
    assert Settings.from_env({**base, "PICTURE_PROCESS": "auto"}, load_dotenv_file=False).picture_process == "auto"
    assert Settings.from_env({**base, "PICTURE_PROCESS": "OFF"}, load_dotenv_file=False).picture_process == "off"
    with pytest.raises(ConfigError, match="PICTURE_PROCESS 'sometimes' must be auto, on or off"):
        Settings.from_env({**base, "PICTURE_PROCESS": "sometimes"}, load_dotenv_file=False)


async def test_a_worker_draws_the_same_bytes_and_they_are_kept_here():
    rows = [CardRow("Pile", ("Kd", "2s")), CardRow("Bob", ("7c",), face_down=1)]
    expected = cardart.render_rows(rows, title="Idiot #1")  # drawn here, then forgotten
    cardart._PNG_CACHE.clear()
    drawer = PictureDrawer("on")
    try:
        png = await drawer.draw(rows, title="Idiot #1")
        assert drawer.worker_pids(), "drawn in a worker process"
        assert png == expected
        assert cardart.cached_png(rows, title="Idiot #1") == expected, "kept here: shown again without a trip"
    finally:
        drawer.close()


async def test_a_worker_that_dies_is_replaced_and_no_picture_is_lost():
    drawer = PictureDrawer("on")
    try:
        await drawer.draw(list(ROWS))
        (pid,) = drawer.worker_pids()
        os.kill(pid, signal.SIGKILL)
        await asyncio.sleep(0.2)
        rows = [CardRow("Pile", ("3c",))]
        cardart._PNG_CACHE.clear()
        assert await drawer.draw(rows) == cardart.render_rows(rows), "drawn in a thread meanwhile"
        other = [CardRow("Pile", ("4c",))]
        cardart._PNG_CACHE.clear()
        assert await drawer.draw(other) == cardart.render_rows(other)
        assert drawer.worker_pids() and pid not in drawer.worker_pids(), "a new worker drew the next"
    finally:
        drawer.close()


async def test_off_draws_in_a_thread():
    drawer = PictureDrawer("off")
    cardart._PNG_CACHE.clear()
    assert await drawer.draw(list(ROWS)) == cardart.render_rows(list(ROWS))
    assert drawer.worker_pids() == []


def _drawn_where(monkeypatch) -> list[str]:
    """The names of the threads ``render_rows`` is called on from now on."""
    threads: list[str] = []
    render_rows = cardart.render_rows

    def recorded(rows, **layout):
        threads.append(threading.current_thread().name)
        return render_rows(rows, **layout)

    monkeypatch.setattr(cardart, "render_rows", recorded)
    return threads


async def test_pictures_asked_for_together_are_drawn_by_the_drawing_thread(monkeypatch):
    drawer = PictureDrawer("off")
    threads = _drawn_where(monkeypatch)
    cardart._PNG_CACHE.clear()
    many = [[CardRow("Pile", (card,)), CardRow("Ann", (), face_down=n)] for n, card in enumerate(("2c", "3d", "4h", "5s", "6c"))]
    pngs = await asyncio.gather(*(drawer.draw(rows, title=f"Idiot #{n}") for n, rows in enumerate(many)))
    assert threads == [DRAWING_THREAD_NAME] * len(many), "each drawn once, in the drawing thread"
    cardart._PNG_CACHE.clear()
    assert pngs == [cardart.render_rows(rows, title=f"Idiot #{n}") for n, rows in enumerate(many)], "each waiter got its own picture"


async def test_a_picture_that_cannot_be_drawn_fails_its_waiter_only():
    drawer = PictureDrawer("off")
    cardart._PNG_CACHE.clear()
    bad = drawer.draw([CardRow("Pile", ("Zz",))])
    good = drawer.draw([CardRow("Pile", ("7d",))])
    results = await asyncio.gather(bad, good, return_exceptions=True)
    assert isinstance(results[0], ValueError), "the bad card code is raised where the picture was awaited"
    assert results[1] == cardart.render_rows([CardRow("Pile", ("7d",))])
    assert await drawer.draw([CardRow("Pile", ("8d",))]) == cardart.render_rows([CardRow("Pile", ("8d",))]), "the thread draws on"


async def test_a_waiter_that_gave_up_does_not_stop_the_others():
    drawer = PictureDrawer("off")
    cardart._PNG_CACHE.clear()
    given_up = asyncio.ensure_future(drawer.draw([CardRow("Pile", ("9s",))]))
    await asyncio.sleep(0)  # handed to the thread
    given_up.cancel()
    rows = [CardRow("Pile", ("Ts",))]
    assert await drawer.draw(rows) == cardart.render_rows(rows)
    assert given_up.cancelled()


def test_pictures_are_drawn_for_each_event_loop_of_the_process(monkeypatch):
    """Tests (and tools) run loops one after another in one process: the one drawing
    thread serves each, and a loop closed before its picture came back is no harm."""
    rows, abandoned_rows = [CardRow("Pile", ("Jd",))], [CardRow("Pile", ("Qd",))]
    render_rows, loop_closed = cardart.render_rows, threading.Event()

    def held(rows, **layout):
        if rows == abandoned_rows:
            loop_closed.wait(5)  # handed back only once its loop is closed
        return render_rows(rows, **layout)

    monkeypatch.setattr(cardart, "render_rows", held)
    cardart._PNG_CACHE.clear()
    loop = asyncio.new_event_loop()
    abandoned = loop.create_task(PictureDrawer("off").draw(abandoned_rows))
    loop.run_until_complete(asyncio.sleep(0))
    loop.close()
    loop_closed.set()
    assert not abandoned.done()
    assert asyncio.run(PictureDrawer("off").draw(rows)) == render_rows(rows), "drawn after the closed loop's picture"
    assert cardart.cached_png(abandoned_rows) is not None, "the abandoned picture was drawn and kept all the same"


# ------------------------------------------------------------------ a whole bot, pictures in a process

@pytest.fixture
def simcord_bot(data_dir):
    """This module's bot draws its pictures in a worker process (PICTURE_PROCESS=on)."""
    import dataclasses

    from bot.discord_front.app import DeckhandBot
    from tests.conftest import make_settings

    return DeckhandBot(dataclasses.replace(make_settings(data_dir), picture_process="on"), extensions=("bot.discord_front.commands", "cogs.idiot.cog"))


async def test_a_game_shows_the_worker_s_pictures(simcord_env, monkeypatch):
    import io

    from PIL import Image

    from tests.e2e.ui import board
    from tests.e2e.world import world

    def not_here(*args, **kwargs):
        raise AssertionError("a picture was drawn in the bot's own process")

    # The worker has its own copy of the module: only a picture drawn here would fail.
    monkeypatch.setattr(cardart, "render_rows", not_here)
    cardart._PNG_CACHE.clear()
    env = simcord_env
    assert env.bot.tables.pictures is env.bot.pictures, "the tables draw with the bot's drawer"
    guild, channel, members = world(env, 2)
    lobby = (await members[0].slash(channel, "idiot new")).response.message
    await members[1].click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    shown = board(channel)
    assert env.bot.pictures.in_process and env.bot.pictures.worker_pids()
    (attachment,) = shown.attachments
    picture = Image.open(io.BytesIO(env.backend.cdn.get(attachment.url)))
    assert picture.format == "PNG" and picture.width > 100
    hand = (await members[0].click(shown, label="Show hand")).response.message
    assert hand.attachments, "the hand's picture too"


# ------------------------------------------------------------------ the worker's life beside the bot's


def _gone(pid: int) -> bool:
    """No such process, or one that has exited and waits to be reaped (a zombie)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


async def test_ctrl_c_or_systemds_sigint_does_not_kill_the_worker():
    """Ctrl-C, and systemd's KillSignal=SIGINT (deploy/deckhand.service), reach every
    process of the group: the bot stops its worker itself (``close``), so the worker
    must not die of it first (a KeyboardInterrupt traceback at every stop, and the
    pictures drawn while the bot closes falling back to threads)."""
    drawer = PictureDrawer("on")
    try:
        cardart._PNG_CACHE.clear()
        await drawer.draw(list(ROWS))
        (pid,) = drawer.worker_pids()
        os.kill(pid, signal.SIGINT)
        await asyncio.sleep(0.5)
        rows = [CardRow("Pile", ("5d",))]
        cardart._PNG_CACHE.clear()
        assert await drawer.draw(rows) == cardart.render_rows(rows)
        assert drawer.worker_pids() == [pid], "the same worker drew it"
    finally:
        drawer.close()


def test_the_worker_does_not_outlive_a_bot_that_was_killed(tmp_path):
    """A bot process killed without closing (SIGKILL, the OOM killer, os._exit) leaves
    no worker behind: it exits when its parent is gone (~100 MB otherwise kept forever)."""
    import subprocess
    import sys
    import textwrap
    import time
    from pathlib import Path

    script = tmp_path / "killed_bot.py"
    script.write_text(textwrap.dedent("""
        import asyncio, os
        from bot.pictures.cardart import CardRow
        from bot.pictures.picture_pool import PictureDrawer

        async def main():
            drawer = PictureDrawer("on")
            await drawer.draw([CardRow("Pile", ("9h",))])
            print(*drawer.worker_pids(), flush=True)
            os._exit(0)  # as a kill: nothing closed

        if __name__ == "__main__":
            asyncio.run(main())
    """))
    root = Path(__file__).resolve().parents[2]
    printed = tmp_path / "worker_pid"
    with printed.open("w") as out:  # a file, not a pipe: a surviving worker would hold a pipe open
        subprocess.run([sys.executable, str(script)], check=True, cwd=root, timeout=120, stdout=out)
    (pid,) = [int(word) for word in printed.read_text().split()]
    try:
        for _ in range(300):  # up to 30 s on a loaded machine; gone within a moment normally
            if _gone(pid):
                break
            time.sleep(0.1)
        assert _gone(pid), "the worker outlived its bot"
    finally:
        if not _gone(pid):
            os.kill(pid, signal.SIGKILL)


def test_a_failed_warm_up_does_not_stop_the_worker(monkeypatch, caplog):
    """The one warm-up of the worker and of the bot's thread (``warm_decks``): a warm-up that
    fails is logged and the worker goes on; in the worker's initializer an exception
    would end the worker, and then every picture would start (and lose) a new one."""
    from bot.pictures import picture_pool

    def broken(deck):
        raise OSError("no such font file")

    monkeypatch.setattr(cardart, "warm_up", broken)
    picture_pool.warm_decks()
    assert "Warming up the french card pictures failed" in caplog.text


async def test_a_worker_that_cannot_start_leaves_the_pictures_to_threads(monkeypatch):
    """No process can be started (no /dev/shm for its queues, a process limit): the
    pictures are drawn in threads, as with PICTURE_PROCESS=off, not lost."""
    from bot.pictures import picture_pool

    def no_process(*args, **kwargs):
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(picture_pool, "WorkerPool", no_process)
    drawer = PictureDrawer("on")
    rows = [CardRow("Pile", ("6s",))]
    cardart._PNG_CACHE.clear()
    assert await drawer.draw(rows) == cardart.render_rows(rows)
    assert not drawer.in_process and drawer.worker_pids() == []
    drawer.start()  # what the bot's start does: nothing more now
    drawer.close()


async def test_a_late_news_of_the_dead_worker_does_not_drop_its_replacement(monkeypatch):
    """Every picture queued for a worker that died hears of it, one after another; a
    picture that started a new worker meanwhile is not undone by a later one (which
    would leave that worker to finish unowned and start yet another)."""
    from concurrent.futures.process import BrokenProcessPool

    from bot.pictures import picture_pool

    class Pool:
        made: list = []

        def __init__(self, *args, **kwargs):
            self.futures: list[asyncio.Future] = []
            Pool.made.append(self)

        def submit(self, function, *args):
            future = asyncio.get_running_loop().create_future()
            self.futures.append(future)
            return future

        def shutdown(self, **kwargs):
            pass

    monkeypatch.setattr(picture_pool, "WorkerPool", Pool)
    cardart._PNG_CACHE.clear()
    drawer = PictureDrawer("on")
    first = asyncio.create_task(drawer.draw([CardRow("Pile", ("2c",))]))
    second = asyncio.create_task(drawer.draw([CardRow("Pile", ("2d",))]))
    await asyncio.sleep(0)
    (dead,) = Pool.made
    dead.futures[0].set_exception(BrokenProcessPool("died"))
    await first  # drawn in a thread
    third = asyncio.create_task(drawer.draw([CardRow("Pile", ("2h",))]))
    await asyncio.sleep(0)
    replacement = Pool.made[-1]
    assert replacement is not dead and drawer._pool is replacement
    dead.futures[1].set_exception(BrokenProcessPool("died"))
    await second
    assert drawer._pool is replacement, "the new worker is still the drawer's"
    replacement.futures[0].set_result(b"png")
    assert await third == b"png"


def _stuck_draw(rows, layout):  # runs in the worker (imported there by name)
    import time

    time.sleep(60)


async def test_a_stuck_worker_is_replaced_and_the_picture_drawn_in_a_thread(monkeypatch):
    from bot.pictures import picture_pool

    drawer = PictureDrawer("on")
    try:
        await drawer.draw([CardRow("Pile", ("5c",))])  # a worker that draws
        (pid,) = drawer.worker_pids()
        monkeypatch.setattr(picture_pool, "_draw", _stuck_draw)
        monkeypatch.setattr(picture_pool, "WORKER_TIMEOUT", 0.5)
        rows = [CardRow("Pile", ("6c",))]
        cardart._PNG_CACHE.clear()
        assert await drawer.draw(rows) == cardart.render_rows(rows), "drawn in a thread instead"
        assert drawer.worker_pids() == [], "the stuck worker was let go"
        await asyncio.sleep(0.3)
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)  # and killed
    finally:
        drawer.close()


def test_auto_counts_the_cores_this_process_may_use(monkeypatch):
    from bot.pictures import picture_pool

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert picture_pool.usable_cpus() == 1 and not uses_process("auto")


async def test_a_worker_that_stopped_reading_never_blocks_the_loop_on_its_pipe(monkeypatch):
    """The rows go to the worker through a pipe written on the event loop's thread: once
    a worker has ``PIPE_BUDGET`` bytes of requests unread (stuck on one picture), the
    next pictures are drawn in a thread instead of waiting for room in the pipe."""
    from bot.pictures import picture_pool

    drawer = PictureDrawer("on")
    try:
        await drawer.draw([CardRow("Pile", ("5d",))])  # a worker that draws
        monkeypatch.setattr(picture_pool, "_draw", _stuck_draw)
        monkeypatch.setattr(picture_pool, "PIPE_BUDGET", 1)
        cardart._PNG_CACHE.clear()
        stuck = asyncio.create_task(drawer.draw([CardRow("Pile", ("6d",))]))
        await asyncio.sleep(0.05)
        rows = [CardRow("Pile", ("7d",))]
        expected = cardart.render_rows(rows)
        cardart._PNG_CACHE.clear()
        assert await asyncio.wait_for(drawer.draw(rows), 2) == expected, "drawn in a thread while the worker is stuck"
        assert not stuck.done()
        stuck.cancel()
    finally:
        drawer.close()


async def test_a_picture_the_worker_cannot_draw_fails_its_waiter_with_the_workers_error():
    drawer = PictureDrawer("on")
    try:
        with pytest.raises(ValueError, match="not a card code"):
            await drawer.draw([CardRow("Pile", ("Xx",))])
        rows = [CardRow("Pile", ("8d",))]
        cardart._PNG_CACHE.clear()
        assert await drawer.draw(rows) == cardart.render_rows(rows)
        assert drawer.worker_pids(), "the same worker goes on"
    finally:
        drawer.close()


def _wait_for_file(path):  # runs in the worker
    import time
    from pathlib import Path

    for _ in range(600):
        if Path(path).exists():
            return "gate"
        time.sleep(0.05)
    return "gate never opened"


def _touch(path):  # runs in the worker
    from pathlib import Path

    Path(path).touch()
    return "touched"


async def test_answers_read_together_are_handed_back_to_the_loop_in_one_call(monkeypatch, tmp_path):
    """The worker's reader hands every answer it finds in the pipe back in one
    ``call_soon_threadsafe``: one wake of the loop for all, each to its own waiter."""
    import time

    from bot.pictures import picture_pool

    batches: list[int] = []
    hand_back = picture_pool._hand_back

    def counted(done):
        batches.append(len(done))
        hand_back(done)

    monkeypatch.setattr(picture_pool, "_hand_back", counted)
    drawer = PictureDrawer("on")
    try:
        pool = drawer._worker()
        gate, touched = tmp_path / "gate", tmp_path / "touched"
        waiters = [pool.submit(_wait_for_file, str(gate))]
        waiters += [pool.submit(abs, -n) for n in range(1, 5)]
        waiters.append(pool.submit(_touch, str(touched)))
        with pool._lock:  # the reader cannot take an answer meanwhile
            gate.touch()
            for _ in range(600):  # the worker answers in order: the first five are in the pipe
                if touched.exists():
                    break
                time.sleep(0.05)
            assert touched.exists(), "the worker answered"
        assert await asyncio.gather(*waiters) == ["gate", 1, 2, 3, 4, "touched"], "each waiter its own answer"
        assert batches[0] >= 5, f"the answers found together came back together: {batches}"
    finally:
        drawer.close()


async def test_the_watchdog_kills_a_stuck_worker_once_for_all_its_pictures(monkeypatch, caplog):
    """Several pictures waiting on a stuck worker: one warning, one kill, every one of
    them drawn in a thread, and the next picture starts a new worker."""
    import logging

    from bot.pictures import picture_pool

    drawer = PictureDrawer("on")
    try:
        await drawer.draw([CardRow("Pile", ("5h",))])  # a worker that draws
        (pid,) = drawer.worker_pids()
        draw, timeout = picture_pool._draw, picture_pool.WORKER_TIMEOUT
        monkeypatch.setattr(picture_pool, "_draw", _stuck_draw)
        monkeypatch.setattr(picture_pool, "WORKER_TIMEOUT", 0.5)
        many = [[CardRow("Pile", (card,))] for card in ("6h", "7h", "8h")]
        expected = [cardart.render_rows(rows) for rows in many]
        cardart._PNG_CACHE.clear()
        caplog.set_level(logging.WARNING, logger="bot.picture_pool")
        assert await asyncio.gather(*(drawer.draw(rows) for rows in many)) == expected, "drawn in a thread instead"
        stuck_warnings = [r for r in caplog.records if "drew nothing in" in r.getMessage()]
        assert len(stuck_warnings) == 1 and "its 3 pictures" in stuck_warnings[0].getMessage()
        assert "stopped" not in caplog.text, "no picture took the stuck worker for a dead one"
        assert drawer.worker_pids() == [], "the stuck worker was let go"
        monkeypatch.setattr(picture_pool, "_draw", draw)
        # The new worker's start (a process importing the bot) may take longer than the
        # half second above on a busy machine: the production bound again.
        monkeypatch.setattr(picture_pool, "WORKER_TIMEOUT", timeout)
        rows = [CardRow("Pile", ("9h",))]
        assert await drawer.draw(rows) == cardart.render_rows(rows)
        assert drawer.worker_pids() and pid not in drawer.worker_pids(), "a new worker drew the next"
    finally:
        drawer.close()


def _slow_answer(seconds):  # runs in the worker
    import time

    time.sleep(seconds)
    return "slow"


async def test_the_watchdog_measures_real_time_while_the_loops_clock_is_virtual(monkeypatch):
    """SimCord's clock makes time.monotonic (and the loop's time) virtual on the loop's
    thread: the watchdog, in the reader thread, must not take a picture sent at virtual
    time 0 for one overdue by hours (it would kill every worker after its first second)."""
    import time

    real_monotonic = time.monotonic
    loop_thread = threading.get_ident()
    monkeypatch.setattr(time, "monotonic", lambda: 0.0 if threading.get_ident() == loop_thread else real_monotonic())
    drawer = PictureDrawer("on")
    try:
        pool = drawer._worker()
        assert await pool.submit(_slow_answer, 1.5) == "slow", "answered, not given up as stuck"
        rows = [CardRow("Pile", ("Jh",))]
        cardart._PNG_CACHE.clear()
        expected = cardart.render_rows(rows)
        cardart._PNG_CACHE.clear()
        assert await drawer.draw(rows) == expected and drawer._pool is pool, "the same worker draws on"
    finally:
        drawer.close()
