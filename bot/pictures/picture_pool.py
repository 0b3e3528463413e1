"""Card pictures drawn off the event loop: in a thread (the default), or in a worker
process (``PICTURE_PROCESS=on``, or ``auto`` with a second usable core; see
docs/owners/configuration.md for what each costs, measured).

Drawing a picture is a millisecond or more of Python and Pillow work. In a thread of the
bot's own process it holds the interpreter lock while it runs, so the event loop, which
answers every click, waits for it each time it gives the lock up (any system call). In a
process it runs beside the event loop on the other core. The worker keeps the drawing
caches (kept rows, labels and compressed bands); this process keeps the finished
pictures it is given back (``cardart``'s PNG cache), so a picture shown again costs no
trip at all. The bytes are the same either way: a picture depends only on its rows.

The worker is fed through a pipe (:class:`WorkerPool`): the event loop writes the rows,
one reader thread hands the pictures back (those it finds together in one wake of the
loop) and watches for a stuck worker. ``ProcessPoolExecutor`` did the same with a
manager thread and a queue feeder thread that woke several times a picture, each time
holding the interpreter lock: about 1.2-1.5 ms of this process's CPU a move, more than
drawing in a thread cost. If the worker dies or gets stuck, the pictures in hand are
drawn in a thread and the next one starts a new worker.

In threads, every picture of the process is drawn by one long-lived thread
(:class:`DrawingThread`) fed by a queue: a picture handed over costs the event loop a
future and a queue put, and the pictures finished together are handed back in one call.
``asyncio.to_thread`` cost about twice that on the loop's thread (a context copy, the
executor's bookkeeping, two chained futures and one wake per picture).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import multiprocessing.connection
import os
import pickle
import queue
import select
import signal
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures.process import BrokenProcessPool
from contextlib import suppress
from typing import Any

from bot.pictures import cardart

log = logging.getLogger(__name__)

#: ``PICTURE_PROCESS`` values: ``auto`` draws in a process when there are two cores or more.
MODES = ("auto", "on", "off")


#: A picture the worker has not drawn in this time (a worker stuck for any reason) is
#: drawn in a thread instead, and the worker is replaced: a board waits for its picture.
WORKER_TIMEOUT = 5.0


def usable_cpus() -> int:
    """The cores this process may run on (its affinity: a container's or taskset's
    pinning), else the machine's."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def uses_process(mode: str, cpus: int | None = None) -> bool:
    """Whether ``mode`` draws in a worker process with ``cpus`` usable cores."""
    if mode == "auto":
        return (usable_cpus() if cpus is None else cpus) >= 2
    return mode == "on"


def _start_worker() -> None:
    """The worker's start. It lives and dies with the bot: Ctrl-C and systemd's
    KillSignal=SIGINT reach every process of the group, and the bot stops its worker
    itself (:meth:`PictureDrawer.close`), so SIGINT is ignored here; a bot killed
    without closing (SIGKILL, os._exit) cannot, so the worker exits when its parent
    is gone. Then card faces and fonts are drawn once (:func:`warm_decks`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent.sentinel,), name="deckhand-parent-watch", daemon=True).start()
    warm_decks()


def _exit_with(parent_sentinel: int) -> None:
    multiprocessing.connection.wait([parent_sentinel])  # readable once the parent is gone
    os._exit(0)


#: The decks card pictures are drawn from.
DECKS = ("french", "onion")


def warm_decks(decks: Sequence[str] = DECKS) -> None:
    """Card faces and fonts of both decks drawn once, so the first picture is as quick
    as the rest (bench/card_images.py: cold vs warm): in the worker when it starts, or
    in a thread at the bot's start. A failure is logged, never raised (in the worker it
    would end it, and every picture would start another)."""
    for deck in decks:
        try:
            cardart.warm_up(deck)
        except Exception:
            log.exception("Warming up the %s card pictures failed; the first pictures will be slower", deck)


def _draw(rows: Sequence[tuple[str, tuple[str, ...], int, str]], layout: dict[str, Any]) -> bytes:
    """In the worker: the picture of rows sent as plain ``(label, cards, face_down,
    deck)`` tuples (:func:`_plain`), what a row draws."""
    return cardart.render_rows([cardart.CardRow(*row) for row in rows], **layout)


def _plain(rows: Sequence[cardart.CardRow]) -> list[tuple[str, tuple[str, ...], int, str]]:
    """Rows as :func:`_draw` takes them: plain tuples pickle in C, about four times
    quicker than the rows themselves (a frozen dataclass's state goes through Python)."""
    return [(row.label, row.cards, row.face_down, row.deck) for row in rows]


#: Bytes of requests a worker may have unread in its pipe: past this, the next picture
#: is drawn in a thread rather than written to the pipe, so a worker that stopped
#: reading (stuck) never blocks the event loop on a full pipe (64 KiB on Linux).
PIPE_BUDGET = 32 * 1024


class WorkerStuck(TimeoutError):
    """Raised to the waiters of a worker that answered no picture in ``WORKER_TIMEOUT``
    (the worker was killed: their pictures are to be drawn in a thread)."""


class WorkerPool:
    """One worker process fed through a pipe, without ``ProcessPoolExecutor``'s
    machinery: its manager thread and queue feeder thread woke several times a picture
    and held the interpreter lock each time (about 2 ms of this process's CPU a move).
    Here the event loop's thread writes a request to the pipe, and one reader thread,
    blocked in ``poll`` without the lock, hands the pictures it finds back to the
    waiting loop in one ``call_soon_threadsafe`` per batch it read, straight into
    asyncio futures (as :class:`DrawingThread` does): one wake of the loop for all the
    pictures finished together, no ``concurrent.futures.Future`` and no timer a picture.

    The reader is the watchdog too: when the oldest picture pending is older than
    ``WORKER_TIMEOUT`` (a stuck worker), it kills the worker once and fails every
    picture pending with :class:`WorkerStuck`. A worker that dies or is killed fails
    every picture it had with ``BrokenProcessPool``, as the executor did."""

    def __init__(self, mp_context: Any, initializer: Callable[[], None]) -> None:
        ours, theirs = mp_context.Pipe(duplex=True)
        process = mp_context.Process(target=_serve, args=(theirs, initializer), name="deckhand-pictures-worker", daemon=True)
        try:
            process.start()
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()  # the worker's end, which the worker has (or never will)
        self._conn = ours
        self._processes = {process.pid: process}
        # job -> (its waiter, request bytes, when it was sent): in the order sent, so the
        # first is the oldest (the watchdog's). Real time (perf_counter), as the reader
        # measures it: the loop's clock and time.monotonic may be virtual (SimCord's).
        self._pending: dict[int, tuple[asyncio.Future[Any], int, float]] = {}
        self._unread = 0  # bytes of requests not answered yet
        self._next = 0
        self._broken = ""
        self._lock = threading.Lock()
        self._sending = threading.Lock()
        threading.Thread(target=self._read, name="deckhand-pictures-reader", daemon=True).start()

    def submit(self, function: Callable[..., Any], *args: Any) -> asyncio.Future[Any] | None:
        """``function(*args)`` for the worker, its result to await on the running loop;
        None when its pipe holds too much unread already (``PIPE_BUDGET``: draw this one
        elsewhere). Raises BrokenProcessPool once the worker is gone."""
        request = pickle.dumps((self._next, function, args), protocol=pickle.HIGHEST_PROTOCOL)
        future = asyncio.get_running_loop().create_future()
        with self._lock:
            if self._broken:
                raise BrokenProcessPool(self._broken)
            if self._pending and self._unread + len(request) > PIPE_BUDGET:
                return None
            job, self._next = self._next, self._next + 1
            self._pending[job] = (future, len(request), time.perf_counter())
            self._unread += len(request)
        try:
            with self._sending:  # (one message at a time: loops of other threads may draw too)
                self._conn.send_bytes(request)
        except (OSError, ValueError) as error:  # the worker is gone (or the pipe closed)
            with self._lock:  # (this picture hears it here, not from its future too)
                self._pending.pop(job, None)
            self._fail(f"the picture worker's pipe failed: {error}")
            raise BrokenProcessPool(self._broken) from error
        return future

    def _read(self) -> None:
        """The reader thread: the answers there are, each batch handed back at once,
        until the pipe ends (the worker exited, died or was stopped); then every
        picture still pending fails. Between answers it watches for a stuck worker."""
        poller = select.poll()  # (made once: Connection.poll builds a selector each call)
        poller.register(self._conn.fileno(), select.POLLIN)
        try:
            while True:
                if not poller.poll(self._patience_ms()):
                    if self._stuck():
                        return
                    continue
                finished = [self._answer(self._conn.recv_bytes())]
                while poller.poll(0):  # the answers that came meanwhile: one hand-back for all
                    finished.append(self._answer(self._conn.recv_bytes()))
                _hand_back_to_loops(answer for answer in finished if answer is not None)
        except (EOFError, OSError, ValueError):
            self._fail("the picture worker stopped")
        finally:
            # Closed here, by the only thread that reads it: never under a blocked read.
            with suppress(OSError):
                self._conn.close()
            for process in self._processes.values():  # reaped: no zombie left behind
                with suppress(Exception):
                    process.join(WORKER_TIMEOUT)

    def _answer(self, data: bytes) -> tuple[asyncio.Future[Any], Any, bool] | None:
        """An answer read: its waiter, its result and whether it failed (None: nobody waits)."""
        job, ok, result = pickle.loads(data)
        with self._lock:
            future, size, _ = self._pending.pop(job, (None, 0, 0.0))
            self._unread -= size
        return None if future is None else (future, result, not ok)

    def _patience_ms(self) -> int:
        """How long the reader may wait for an answer before it looks for a stuck
        worker: until the oldest picture pending is due, or (nothing pending) a second
        at most, so a picture sent meanwhile is never watched much later than due."""
        with self._lock:
            oldest = next(iter(self._pending.values()), None)
        if oldest is None:
            return int(min(WORKER_TIMEOUT, 1.0) * 1000)
        return max(0, int((oldest[2] + WORKER_TIMEOUT - time.perf_counter()) * 1000) + 1)

    def _stuck(self) -> bool:
        """The watchdog: when the oldest picture pending is overdue, the worker is
        killed and every picture pending fails with :class:`WorkerStuck`, once."""
        with self._lock:
            oldest = next(iter(self._pending.values()), None)
            if oldest is None or time.perf_counter() - oldest[2] < WORKER_TIMEOUT:
                return False
            # (under the same lock as the check: no answer is taken in between)
            pending = self._broken_with("the picture worker got stuck")
        log.warning(
            "The card picture worker drew nothing in %.0f s; it is killed and replaced, and its %d pictures drawn in threads",
            WORKER_TIMEOUT, len(pending),
        )
        for process in self._processes.values():
            with suppress(OSError, ValueError):
                process.kill()
        stuck = WorkerStuck(self._broken)
        _hand_back_to_loops((future, stuck, True) for future, _, _ in pending.values())
        return True

    def _fail(self, why: str) -> None:
        with self._lock:
            pending = self._broken_with(why)
        _hand_back_to_loops((future, BrokenProcessPool(why), True) for future, _, _ in pending.values())

    def _broken_with(self, why: str) -> dict[int, tuple[asyncio.Future[Any], int, float]]:
        """(Under ``_lock``.) The worker marked broken (its first reason kept), and the
        pictures pending taken: no answer nor submit finds them after this."""
        self._broken = self._broken or why
        pending, self._pending = self._pending, {}
        self._unread = 0
        return pending

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop the worker: pictures not drawn yet are cancelled (``cancel_futures``) or
        failed, and the worker is ended (its pipe then ends, which ends the reader)."""
        with self._lock:
            pending = self._broken_with("the picture worker was shut down")
        for future, _, _ in pending.values():
            # (on the future's loop: shutdown may be called from any thread)
            with suppress(RuntimeError):  # that loop is closed: nobody waits
                if cancel_futures:
                    future.get_loop().call_soon_threadsafe(future.cancel)
                else:
                    _hand_back_to_loops([(future, BrokenProcessPool(self._broken), True)])
        for process in self._processes.values():
            with suppress(OSError, ValueError):
                process.terminate()
            if wait:
                process.join()


def _hand_back_to_loops(finished: Iterable[tuple[asyncio.Future[Any], Any, bool]]) -> None:
    """From any thread: finished pictures to their futures, in one
    ``call_soon_threadsafe`` per waiting loop (:func:`_hand_back`)."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Any, bool]]] = {}
    for answer in finished:
        by_loop.setdefault(answer[0].get_loop(), []).append(answer)
    for loop, done in by_loop.items():
        with suppress(RuntimeError):  # the loop was closed meanwhile: nobody waits
            loop.call_soon_threadsafe(_hand_back, done)


def _serve(conn: multiprocessing.connection.Connection, initializer: Callable[[], None]) -> None:
    """The worker: requests from the pipe, drawn one after another, each answered
    ``(job, True, result)`` or ``(job, False, exception)``; it exits when the pipe ends."""
    initializer()
    while True:
        try:
            job, function, args = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        try:
            answer = (job, True, function(*args))
        except Exception as error:  # handed to the waiter, never the end of the worker
            answer = (job, False, error)
        try:
            data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # an exception that does not pickle: its words do
            data = pickle.dumps((job, False, RuntimeError(repr(answer[2])[:500])), protocol=pickle.HIGHEST_PROTOCOL)
        try:
            conn.send_bytes(data)
        except OSError:
            return


#: The drawing thread's name (the benches count its CPU as the pictures').
DRAWING_THREAD_NAME = "deckhand-pictures"

#: A job for :class:`DrawingThread`: the future that waits (its loop is the waiting
#: loop) and what to draw.
_Job = tuple["asyncio.Future[bytes]", Sequence[cardart.CardRow], dict[str, Any]]


class DrawingThread:
    """The thread that draws the card pictures of this process (every event loop's),
    one after another, from a queue.

    The loop's side of a picture is a future and a queue put (:meth:`draw`); the thread
    takes every picture queued when it looks, draws them, and hands them back in one
    ``call_soon_threadsafe`` per loop, so pictures asked for together wake the loop
    once. One thread is enough: drawing holds the interpreter lock for most of its
    time (``cardart``'s drawing lock besides), so two would not draw faster, and one
    keeps ``cardart``'s per-thread compressor warm."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()

    def draw(self, rows: Sequence[cardart.CardRow], layout: dict[str, Any]) -> asyncio.Future[bytes]:
        """The PNG of ``rows`` (``render_rows``'s keywords in ``layout``), to await on
        the running loop. Raises there what drawing raised (ValueError: a bad card code)."""
        future = asyncio.get_running_loop().create_future()
        if self._thread is None or not self._thread.is_alive():
            self._start()
        self._jobs.put((future, rows, layout))
        return future

    def _start(self) -> None:
        with self._starting:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name=DRAWING_THREAD_NAME, daemon=True)
                self._thread.start()

    def _run(self) -> None:
        jobs = self._jobs
        while True:
            batch = [jobs.get()]
            while not jobs.empty():
                batch.append(jobs.get())
            finished = []
            for future, rows, layout in batch:
                try:
                    result, failed = cardart.render_rows(rows, **layout), False
                except BaseException as error:  # handed to the waiter, never the end of this thread
                    result, failed = error, True
                finished.append((future, result, failed))
            _hand_back_to_loops(finished)


def _hand_back(done: list[tuple[asyncio.Future[Any], Any, bool]]) -> None:
    """On the waiting loop: each finished picture to its future (unless given up on)."""
    for future, result, failed in done:
        if future.cancelled():
            continue
        if failed:
            future.set_exception(result)
        else:
            future.set_result(result)


#: The process's drawing thread (started at the first picture drawn in a thread).
DRAWING_THREAD = DrawingThread()


class PictureDrawer:
    """Draws card pictures (:func:`bot.cardart.render_rows`) for the event loop."""

    def __init__(self, mode: str = "off") -> None:
        self.in_process = uses_process(mode)
        self._pool: WorkerPool | None = None

    def start(self) -> None:
        """Start the worker now (it warms up while the bot connects) rather than at the first picture."""
        self._worker()

    def _worker(self) -> WorkerPool | None:
        """The worker, started if need be. None when the pictures are drawn in threads:
        PICTURE_PROCESS off, or no process could be started (a process limit), from then on."""
        if not self.in_process:
            return None
        if self._pool is None:
            try:
                # "spawn": a fresh interpreter, never a copy of this process's threads and loop.
                self._pool = WorkerPool(multiprocessing.get_context("spawn"), _start_worker)
            except (OSError, RuntimeError) as error:
                log.warning("The card picture worker could not be started (%s); pictures are drawn in threads", error)
                self.in_process = False
                return None
        return self._pool

    def worker_pids(self) -> list[int]:
        """The worker's process id, if one runs (for the benches' CPU accounting)."""
        processes = getattr(self._pool, "_processes", None) or {}
        return list(processes)

    async def draw(self, rows: Sequence[cardart.CardRow], **layout: Any) -> bytes:
        """The PNG of ``rows`` (``layout``: ``render_rows``'s keywords): kept from an
        earlier move, or drawn in the worker (or a thread)."""
        png = cardart.cached_png(rows, **layout)
        if png is None and self.in_process:
            png = await self._from_worker(rows, layout)
        if png is None:  # (drawn here, it is kept here by render_rows itself)
            png = await DRAWING_THREAD.draw(rows, layout)
        return png

    async def _from_worker(self, rows: Sequence[cardart.CardRow], layout: dict[str, Any]) -> bytes | None:
        """The picture drawn by the worker and kept here; None when it is to be drawn in
        a thread: no worker, its pipe full (``PIPE_BUDGET``), or the worker died or got
        stuck (then the next picture starts a new one). The worker's reader watches for
        a stuck worker (:class:`WorkerPool`): no timer here."""
        pool = self._worker()
        if pool is None:
            return None
        try:
            drawing = pool.submit(_draw, _plain(rows), layout)
            if drawing is None:
                return None
            png = await drawing
        except WorkerStuck:  # (logged once, by the watchdog, for all its pictures)
            if self._pool is pool:
                self._stop(kill=True)
            return None
        except BrokenProcessPool:
            log.warning("The card picture worker stopped; this picture is drawn in a thread and the next starts a new worker")
            if self._pool is pool:  # not a new worker another picture started meanwhile
                self._pool = None
            return None
        cardart.keep_png(rows, png, **layout)
        return png

    def close(self) -> None:
        """Stop the worker (pictures still being drawn are dropped)."""
        self._stop()

    def _stop(self, *, kill: bool = False) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if kill:  # a stuck worker would never take the shutdown from its queue
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.kill()
        pool.shutdown(wait=False, cancel_futures=True)
