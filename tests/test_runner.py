"""The runner and the executor option: any concurrent.futures.Executor, errors, cancellation."""

from __future__ import annotations

import _thread
import queue
import random
import threading
import time
from concurrent.futures import Executor, Future, ThreadPoolExecutor

import pytest

import cpqueens
from cpqueens.execution.runner import run


class OneThread(Executor):
    """A one-thread executor that keeps the futures it hands out.

    Its thread is a daemon: a task stuck on a future's lock fails the test
    instead of keeping the interpreter from exiting.
    """

    def __init__(self):
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.futures = []
        threading.Thread(target=self.work, daemon=True).start()

    def submit(self, fn, /, *args, **kwargs):
        future = Future()
        self.futures.append(future)
        self.queue.put((future, fn, args))
        return future

    def work(self):
        while True:
            future, fn, args = self.queue.get()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = fn(*args)
            except BaseException as error:
                future.set_exception(error)
            else:
                future.set_result(result)


def test_results_come_back_by_key():
    found = {}
    with ThreadPoolExecutor(2) as pool:
        run(pool, divmod, {n: (n, 3) for n in range(10)}, found.update)
    assert found == {n: divmod(n, 3) for n in range(10)}


def test_a_failing_task_cancels_the_rest():
    gate = threading.Event()

    def task(i):
        if i == 0:
            raise ArithmeticError("task 0 failed")
        gate.wait(5)
        return i

    recorded = {}
    with OneThread() as executor:
        with pytest.raises(ArithmeticError, match=r"^task 0 failed$"):
            run(executor, task, {i: (i,) for i in range(6)}, recorded.update)
        gate.set()
    # One thread: task 0 failed, task 1 may have started, the queued rest were cancelled.
    assert sum(f.cancelled() for f in executor.futures) >= 4
    assert recorded == {} or set(recorded) == {1}


def look_at_each(futures):
    """Ask each future whether it is done (which takes its lock)."""
    for future in futures:
        future.done()


@pytest.mark.slow
def test_ctrl_c_at_any_moment_leaves_every_future_free(ctrl_c_in_process):
    # Ctrl-C may land anywhere in the waiting loop. concurrent.futures.wait takes the locks
    # of all pending futures one by one in Python code: interrupted there (two trials
    # in three here), it kept some, and the thread finishing the futures (Dask's event
    # loop) hung on them (CI, stop 8).
    rng = random.Random(5)
    for _ in range(8):
        executor = OneThread()
        timers = []

        def record(_, timers=timers):  # once all the tasks are submitted, Ctrl-C soon
            if not timers:
                timers.append(threading.Timer(rng.uniform(0, 0.02), _thread.interrupt_main))
                timers[0].start()

        with pytest.raises(KeyboardInterrupt):
            run(executor, time.sleep, {i: (0.0001,) for i in range(10000)}, record)
        timers[0].join()
        futures = executor.futures
        looking = threading.Thread(target=look_at_each, args=(futures,), daemon=True)
        looking.start()
        looking.join(5)
        assert not looking.is_alive(), "a future's lock is still held after Ctrl-C"
        assert futures[-1].cancelled()  # the pending rest was cancelled


def test_any_executor_counts_exactly():
    with ThreadPoolExecutor(3) as pool:
        assert cpqueens.model(8, blocked=[(1, 1)], colours=2).count("bitmask", executor=pool) == (
            cpqueens.model(8, blocked=[(1, 1)], colours=2).count("bitmask", workers=1)
        )


def test_bad_executor():
    expected = r"^executor must be a concurrent.futures.Executor, got 'tcp://127.0.0.1:8786'$"
    with pytest.raises(TypeError, match=expected):
        cpqueens.model(6).count("bitmask", executor="tcp://127.0.0.1:8786")


def test_workers_and_executor_exclude_each_other():
    with ThreadPoolExecutor(1) as pool:
        with pytest.raises(ValueError, match=r"^pass workers or executor, not both: got workers=2"):
            cpqueens.model(6).count("bitmask", workers=2, executor=pool)


class Counting(ThreadPoolExecutor):
    """A thread pool that notes the most tasks submitted and unfinished at once.

    Its tasks wait at ``gate``, which opens once ``target`` tasks are unfinished
    together: the runner must reach its window before any task ends.
    """

    def __init__(self, workers, target):
        super().__init__(workers)
        self.lock = threading.Lock()
        self.unfinished = self.most = 0
        self.target = target
        self.gate = threading.Event()

    def submit(self, fn, /, *args, **kwargs):
        with self.lock:
            self.unfinished += 1
            self.most = max(self.most, self.unfinished)
            if self.unfinished == self.target:
                self.gate.set()
        future = super().submit(fn, *args, **kwargs)
        future.add_done_callback(self.finished)
        return future

    def finished(self, future):
        with self.lock:
            self.unfinished -= 1


@pytest.mark.parametrize("ahead", [1, 3, 64])
def test_at_most_ahead_tasks_are_submitted_and_unfinished_at_a_time(ahead):
    found = {}
    with Counting(4, target=min(ahead, 50)) as pool:

        def task(n):
            assert pool.gate.wait(60), "the runner never had its window's tasks out at once"
            return divmod(n, 7)

        run(pool, task, {n: (n,) for n in range(50)}, found.update, ahead=ahead)
    assert found == {n: divmod(n, 7) for n in range(50)}
    assert pool.most == min(ahead, 50)


def test_ahead_must_be_at_least_one():
    with ThreadPoolExecutor(1) as pool:
        with pytest.raises(ValueError, match=r"^ahead must be at least 1, not 0$"):
            run(pool, divmod, {0: (1, 1)}, print, ahead=0)
