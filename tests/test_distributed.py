"""Counting on a real Dask cluster: a LocalCluster of two worker processes on the loopback."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import cpqueens
from cpqueens.strategies.split import subproblems
from cpqueens.strategies.symmetry import split_depth
from cpqueens.tasks.count import executor_workers
from tests import oracle
from tests.processes import OUTSIDE, environment, finished

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "cpqueens"]

# (n, blocked, placed, colours): free, blocked (symmetric or not), placed, two colours.
CASES = [
    (8, [], [], 1),
    (7, [(0, 1), (3, 4), (5, 5)], [], 1),
    (8, [(0, 2), (0, 5), (4, 1), (4, 6)], [], 1),
    (7, [], [(2, 3)], 1),
    (6, [(0, 1), (3, 4)], [], 2),
    (8, [], [], 2),
]


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    ) as local:
        yield local


@pytest.fixture(scope="module")
def executor(cluster):
    with distributed.Client(cluster) as client:
        yield client.get_executor()


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"n{c[0]}-b{len(c[1])}-p{len(c[2])}-k{c[3]}")
@pytest.mark.slow
def test_dask_counts_match_the_reference_and_the_oracle(executor, case):
    n, blocked, placed, colours = case
    model = cpqueens.model(n, blocked, colours=colours, placed=placed)
    expected = len(oracle.solutions(n, blocked, placed, colours))
    assert model.count("bitmask", workers=1) == expected
    assert model.count("bitmask", executor=executor) == expected
    assert model.count("cpsat", executor=executor) == expected


@pytest.mark.slow
def test_the_split_adapts_to_the_cluster(executor):
    assert executor_workers(executor) == 2
    from cpqueens.strategies.class_count import depth_for, pieces

    model = cpqueens.model(12, placed=[(1, 3)])  # a placed queen: weighted subproblems
    seen = []
    expected = model.count("bitmask", workers=1)
    assert model.count("bitmask", executor=executor, progress=lambda *p: seen.append(p)) == expected
    columns = model.columns()
    total = len(subproblems(columns, split_depth(columns, 2)))
    assert total >= 16 * 2  # many subproblems per worker
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    # A free board: the symmetry kernels' pieces, as many per worker.
    seen.clear()
    assert cpqueens.model(12).count(executor=executor, progress=lambda *p: seen.append(p)) == 14200
    total = len(pieces(12, depth_for(12, 2, 16)))
    assert total >= 16 * 2
    assert seen[0] == (0, total) and seen[-1] == (total, total)


@pytest.mark.slow
def test_dask_with_a_checkpoint(executor, tmp_path):
    path = tmp_path / "dask.json"
    model = cpqueens.model(9, colours=2)
    expected = len(oracle.solutions(9, colours=2))
    assert model.count("bitmask", executor=executor, checkpoint=path) == expected
    done = finished(path)
    assert sum(done.values()) == expected
    # Resumed from the finished file on the local pool: the same total, nothing recounted.
    assert model.count("bitmask", workers=2, checkpoint=path) == expected
    assert finished(path) == done


@pytest.mark.slow
def test_a_failing_task_is_reported(executor):
    # An unsupported constraint fails inside a worker; the error comes back to the caller.
    class Strange:
        pass

    model = cpqueens.model(6).with_constraints(Strange())
    with pytest.raises(cpqueens.NotSupportedError, match="does not support the constraint"):
        model.count("bitmask", executor=executor)


@pytest.mark.slow
def test_the_cli_counts_on_the_scheduler(cluster):
    address = cluster.scheduler_address
    assert address.startswith("tcp://127.0.0.1:")
    run = subprocess.run(
        [*CLI, "count", "7", "--colours", "2", "--backend", "bitmask", "--scheduler", address],
        capture_output=True,
        text=True,
        cwd=OUTSIDE,
        env=environment(),
        timeout=120,
    )
    assert (run.returncode, run.stdout, run.stderr) == (0, "496\n", "")


@pytest.mark.slow
def test_the_cli_refuses_workers_with_a_scheduler(cluster):
    run = subprocess.run(
        [*CLI, "count", "7", "--workers", "2", "--scheduler", cluster.scheduler_address],
        capture_output=True,
        text=True,
        cwd=OUTSIDE,
        timeout=120,
    )
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr == "cpqueens: error: --workers and --scheduler exclude each other\n"


LEAVE_MID_TRANSFER = """
import sys, time
from cpqueens.cli.counting import dask_client
from cpqueens.execution.runner import run

class SlowToSend:  # a result that takes a while to leave its worker
    def __reduce__(self):
        time.sleep(1.5)
        return (int, ())

def task(i):
    if i == 0:
        time.sleep(0.3)
        return 0
    return SlowToSend()

def interrupt(results):
    raise KeyboardInterrupt

try:
    with dask_client(sys.argv[1]) as client:
        run(client.get_executor(), task, {0: (0,), 1: (1,)}, interrupt)
except KeyboardInterrupt:
    print("interrupted", file=sys.stderr)
"""


@pytest.mark.slow
def test_the_cli_leaves_the_cluster_quietly_while_a_result_is_in_transit(cluster):
    # Ctrl-C came while task 1's result was on its way: closing the client cut that
    # transfer and Dask logged the loss on stderr (seen once in CI-like runs).
    run = subprocess.run(
        [sys.executable, "-c", LEAVE_MID_TRANSFER, cluster.scheduler_address],
        capture_output=True,
        text=True,
        cwd=OUTSIDE,
        env=environment(),
        timeout=120,
    )
    assert (run.returncode, run.stdout, run.stderr) == (0, "", "interrupted\n")


@pytest.mark.slow
def test_ctrl_c_cancels_the_clusters_tasks_and_the_same_command_resumes(cluster, tmp_path):
    import json
    import signal

    from tests.processes import wait_for

    def keys(client) -> set[str]:
        return set(client.run_on_scheduler(lambda dask_scheduler: list(dask_scheduler.tasks)))

    with distributed.Client(cluster) as client:
        before = keys(client)  # what earlier tests left (futures kept alive by tracebacks)
    path = tmp_path / "q14.json"
    command = [*CLI, "count", "14", "--placed", "7,3", "--backend", "cpsat"]
    command += ["--checkpoint", str(path)]
    command += ["--scheduler", cluster.scheduler_address]
    job = subprocess.Popen(
        command, cwd=OUTSIDE, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    if not wait_for(lambda: len(finished(path)) >= 2, timeout=120):
        job.kill()
        pytest.fail(f"no progress: {job.communicate()}")
    job.send_signal(signal.SIGINT)
    out, err = job.communicate(timeout=60)
    saved = finished(path)
    total = json.loads(path.read_text())["subproblems"]
    assert (job.returncode, out) == (130, b"")
    assert err.decode() == (
        f"cpqueens: interrupted: {len(saved)} of {total} subproblems are saved in {path}; "
        "run the same command again to resume\n"
    )
    with distributed.Client(cluster) as client:
        # nothing of the interrupted count is left (the scheduler forgets the keys soon after)
        assert wait_for(lambda: keys(client) - before == set(), timeout=120), keys(client) - before

    resumed = subprocess.run(
        command, cwd=OUTSIDE, env=environment(), capture_output=True, text=True
    )
    expected = cpqueens.model(14, placed=[(7, 3)]).count("bitmask", workers=1)
    assert (resumed.returncode, resumed.stdout, resumed.stderr) == (0, f"{expected}\n", "")
    done = finished(path)
    assert {key: done[key] for key in saved} == saved and len(done) == total


@pytest.mark.slow
def test_the_symmetry_kernels_count_on_the_cluster_and_resume_from_a_checkpoint(executor, tmp_path):
    from cpqueens.strategies.class_count import pieces

    path = tmp_path / "q14.json"
    model = cpqueens.model(14)
    assert model.engine() == "bitmask"
    assert model.count(executor=executor) == 365596  # OEIS A000170
    assert model.count(executor=executor, unique=True) == 45752  # OEIS A002562
    assert model.count(executor=executor, checkpoint=path) == 365596
    done = finished(path)
    data = json.loads(path.read_text())
    assert len(done) == data["subproblems"] == len(pieces(14, data["split_depth"]))
    # The same checkpoint answers the unique count too, counting nothing again.
    assert model.count(executor=executor, checkpoint=path, unique=True) == 45752


#: The kernels a count of a board with a few holes runs: (module, kernel).
HOLE_SUMS_KERNELS = (
    ("cpqueens.kernels.classes", "_weighed_hits"),  # the free board less the holes, in pieces
    ("cpqueens.kernels.placements", "count_placements_in"),  # the completions on 2+ holes
)


class TaskStarts(distributed.WorkerPlugin):
    """Notes, as each task starts executing on a worker, which of those kernels are loaded.

    A kernel is loaded when its module is imported and its dispatcher holds machine code
    (a signature compiled, or read from numba's cache).
    """

    name = "cpqueens-test-task-starts"

    def __init__(self):
        self.seen = []

    def transition(self, key, start, finish, **kwargs):
        if finish == "executing":
            self.seen.append(
                [
                    module in sys.modules and bool(getattr(sys.modules[module], kernel).signatures)
                    for module, kernel in HOLE_SUMS_KERNELS
                ]
            )


@pytest.mark.slow
def test_fresh_workers_load_the_kernels_before_their_first_task():
    from cpqueens.execution.cluster import PLUGIN_NAME
    from cpqueens.strategies.hole_sums import HoleSums

    model = cpqueens.model(14, blocked=[(0, 1), (3, 5), (9, 2)])
    expected = model.count(workers=1)
    parts = HoleSums().plan(model.columns(), "bitmask", 2)[1]  # the split for 2 workers
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=":0",  # any free port
        ) as fresh,
        distributed.Client(fresh) as client,
    ):
        assert set(client.run(lambda: "numba" in sys.modules).values()) == {False}
        client.register_plugin(TaskStarts())
        assert model.count(executor=client.get_executor()) == expected

        def report(dask_worker):
            warm = dask_worker.plugins[PLUGIN_NAME]
            return warm.done, warm.error, dask_worker.plugins[TaskStarts.name].seen

        states = list(client.run(report).values())
    assert [(done, error) for done, error, _ in states] == [(True, None)] * 2
    starts = [loaded for _, _, seen in states for loaded in seen]
    assert len(starts) == len(parts) > 2  # every task, each started with both kernels loaded
    assert starts == [[True, True]] * len(parts)


@pytest.mark.slow
def test_a_killed_scheduler_ends_the_count_in_one_line_with_its_parts_saved(tmp_path):
    import signal

    from tests.processes import wait_for

    bin_folder = Path(sys.executable).parent
    address_file = tmp_path / "scheduler.json"
    processes = []

    def start(*words: str) -> subprocess.Popen:
        job = subprocess.Popen(
            [str(bin_folder / "dask"), *words, "--no-dashboard"],
            cwd=OUTSIDE,
            env=environment(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        processes.append(job)
        return job

    try:
        scheduler = start(
            "scheduler", "--host", "127.0.0.1", "--port", "0",
            "--scheduler-file", str(address_file),
        )  # fmt: skip

        def read_address() -> str:
            """The scheduler's address, once its file is whole (it is not written at once)."""
            try:
                return json.loads(address_file.read_text())["address"]
            except (OSError, ValueError, KeyError):
                return ""

        assert wait_for(read_address, timeout=120), "the scheduler never started"
        address = read_address()
        start("worker", address, "--nworkers", "1", "--nthreads", "1")
        path = tmp_path / "q19.json"
        command = [*CLI, "count", "19", "--scheduler", address, "--checkpoint", str(path)]
        job = subprocess.Popen(
            command, cwd=OUTSIDE, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        processes.append(job)
        if not wait_for(path.exists, timeout=120):  # the count has split and bound its parts
            job.kill()
            pytest.fail(f"the count never started: {job.communicate()}")
        scheduler.send_signal(signal.SIGKILL)
        out, err = job.communicate(timeout=120)
    finally:
        for process in processes:
            process.kill()
            process.wait()
    total = json.loads(path.read_text())["subproblems"]
    assert (job.returncode, out) == (1, b"")
    assert re.fullmatch(
        r"cpqueens: error: the connection to the Dask scheduler was lost \([^\n]+\); "
        rf"{len(finished(path))} of {total} subproblems were counted and are saved in "
        rf"{re.escape(str(path))}: run the same command to resume\n",
        err.decode(),
    ), err.decode()


@pytest.mark.slow
def test_an_error_raised_once_the_scheduler_is_gone_reads_as_the_lost_connection():
    # Dask's reconnection once raced the thread submitting tasks and raised
    # "RuntimeError: dictionary changed size during iteration", which the command line
    # reported as its own internal error (A250000(18) on a starved LocalCluster).
    from cpqueens.execution.runner import scheduler_lost
    from tests.processes import wait_for

    local = distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None)
    client = distributed.Client(local)
    executor = client.get_executor()
    race = RuntimeError("dictionary changed size during iteration")
    try:
        assert scheduler_lost(executor, race) is None  # connected: a task's own error
        local.close()
        assert wait_for(lambda: client.status != "running", timeout=120), client.status
        lost = scheduler_lost(executor, race)
    finally:
        client.close()
        local.close()
    assert isinstance(lost, ConnectionError)
    assert str(lost) == (
        "the connection to the Dask scheduler was lost "
        "(RuntimeError: dictionary changed size during iteration)"
    )
    assert scheduler_lost(None, race) is None  # no executor: a local pool's error stays as it is
