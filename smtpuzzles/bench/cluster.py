"""Running jobs on a Dask cluster: ``--cluster tcp://HOST:PORT`` (a running scheduler) or
``--cluster local:N`` (a ``LocalCluster`` of N worker processes on the local machine).

Each job is one task; the worker that takes it runs :func:`.run.run_job`, so the case
is still a solver process of its own, with its own time limit and peak memory, and the
puzzle's text travels inside the job. A worker lost mid-case makes the scheduler run
the task again (on a ``local:N`` cluster once; on a scheduler of your own as often as
its ``distributed.scheduler.allowed-failures`` says), after which the case is reported
lost. A cluster left without workers for :data:`LONELY_S` seconds ends the run with the
cases not done reported lost, so a bench never waits forever.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import time
import warnings
from collections.abc import Generator, Iterator, Sequence
from typing import Any

from ..errors import InputError
from .run import Done, Job, Lost, cancel, run_job

INSTALL = "pip install 'smtpuzzles[cluster]'"
#: Seconds a cluster may have no worker before the cases not done are given up.
LONELY_S = 60.0
#: Seconds to wait for a scheduler to answer.
CONNECT_S = 10.0


def _require_dask() -> Any:
    try:
        import distributed
    except ImportError:
        raise InputError(f"--cluster needs Dask, which is not installed: {INSTALL}") from None
    return distributed


class Connection:
    """A client of a cluster, and the ``LocalCluster`` started for a ``local:N``
    address (``None`` otherwise: that cluster is not ours to close)."""

    def __init__(self, client: Any, cluster: Any) -> None:
        self.client, self.cluster = client, cluster

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def connect(address: str) -> Connection:
    """Reach the scheduler at ``address``, or start ``local:N``'s workers."""
    distributed = _require_dask()
    # A lost scheduler or worker is reported in the rows; Dask's own log of it is a
    # traceback on the bench's stderr.
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    if address.startswith("local:"):
        n = address[len("local:") :]
        if not (n.isascii() and n.isdigit() and int(n) >= 1):
            raise InputError(f"--cluster {address}: expected local:N with N a whole number >= 1")
        if int(n) > local_workers_cap():
            raise InputError(
                f"--cluster {address}: at most {local_workers_cap()} local workers "
                f"(twice the {os.cpu_count() or 1} cores here; more only share them)"
            )
        import dask

        allowed = {"distributed.scheduler.allowed-failures": 1}
        # Dask's note that it is slow to start on a loaded machine is no concern of a bench.
        warnings.filterwarnings("ignore", message="Creating scratch directories")
        with dask.config.set(allowed), _workers_deaf_to_ctrl_c():
            cluster = distributed.LocalCluster(
                n_workers=int(n),
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
                memory_limit=0,
                silence_logs=logging.CRITICAL,
            )
        return Connection(distributed.Client(cluster), cluster)
    try:
        return Connection(distributed.Client(address, timeout=CONNECT_S), None)
    except Exception as exc:  # Dask's errors for addresses vary: tls:// without keys, ...
        why = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"--cluster {address}: cannot reach the Dask scheduler ({why})") from None


def local_workers_cap() -> int:
    """The most workers ``local:N`` starts: each is a process of its own with a warm
    parent, and past a couple a core they only share the cores and fill the memory."""
    return 2 * (os.cpu_count() or 1)


@contextlib.contextmanager
def _workers_deaf_to_ctrl_c() -> Iterator[None]:
    """Start the local workers with Ctrl-C ignored (they inherit that): Ctrl-C at the
    terminal reaches every process of the bench's group, and the bench, not each
    worker, is the one to stop them."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def run_on_worker(job: Job) -> Done:
    """The task: run the job, and say which worker ran it."""
    from dataclasses import replace

    from distributed import get_worker

    done = run_job(job)
    try:
        return replace(done, worker=get_worker().address)
    except ValueError:  # not on a worker (a client running it itself)
        return done


def run_cluster(
    jobs: Sequence[Job], connection: Connection
) -> Generator[tuple[Job, Done | Lost], None, None]:
    """Yield each job with what it gave, as they finish on the connected cluster.

    When the consumer stops early, the tasks not done are cancelled and the workers
    kill the children they still run for this bench.
    """
    distributed = _require_dask()
    if not jobs:
        return
    client = connection.client
    run_id = jobs[0].run_id
    futures: dict[Any, Job] = {}
    finished = False
    try:
        for i, job in enumerate(jobs):
            key = f"smtpuzzles-{run_id}-{i}"
            futures[client.submit(run_on_worker, job, key=key, pure=False)] = job
        waiting = distributed.as_completed(list(futures))
        watch = _Watch(client)
        while not waiting.is_empty():
            batch = waiting.next_batch(block=False)
            if not batch:
                if watch.abandoned():
                    for job in futures.values():
                        yield job, Lost(f"no worker on the cluster for {LONELY_S:.0f} s")
                    futures.clear()
                    break
                time.sleep(0.1)
                continue
            watch.progress()
            for future in batch:
                job = futures.pop(future)
                yield job, _outcome(future)
        finished = True
    finally:
        if not finished and futures:
            _stop(client, list(futures), run_id)


def _outcome(future: Any) -> Done | Lost:
    if future.status == "finished":
        return future.result()
    if future.status == "cancelled":
        return Lost("cancelled by the cluster (scheduler lost?)")
    if future.status != "error":
        return Lost(f"the task ended {future.status} on the cluster")
    exc = future.exception()
    if type(exc).__name__ == "KilledWorker":
        return Lost("the worker running it was lost, and again on the retry")
    return Lost(f"the task failed on the worker: {type(exc).__name__}: {exc}")


class _Watch:
    """Notices a cluster without workers (or whose scheduler no longer answers)."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.checked = self.lonely_since = 0.0
        self.alone = False

    def progress(self) -> None:
        self.alone = False

    def abandoned(self) -> bool:
        now = time.monotonic()
        if now - self.checked < 2.0:
            return self.alone and now - self.lonely_since > LONELY_S
        self.checked = now
        try:
            workers = len(self.client.nthreads(callback_timeout=CONNECT_S))
        except Exception:  # a scheduler that does not answer counts as no worker
            workers = 0
        if workers:
            self.alone = False
        elif not self.alone:
            self.alone, self.lonely_since = True, now
        return self.alone and now - self.lonely_since > LONELY_S


def _stop(client: Any, pending: list[Any], run_id: str) -> None:
    """Cancel the tasks not done and have every worker kill this run's children; never
    longer than a few seconds, even when the scheduler is gone."""

    def stop() -> None:
        try:
            client.cancel(pending)
            client.run(cancel, run_id, on_error="ignore")
        except Exception:  # a lost scheduler: its workers' children end at their limit
            pass

    thread = threading.Thread(target=stop, daemon=True)
    thread.start()
    thread.join(CONNECT_S)
