"""Running jobs on the local machine: ``--jobs N`` solver processes at once, each waited for
by a thread of a pool."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

from .run import CANCELLED, Done, Job, cancel, close_warm_parent, run_job


def run_local(jobs: Sequence[Job], workers: int) -> Generator[tuple[Job, Done], None, None]:
    """Yield each job with what it gave, as they finish.

    When the consumer stops early (Ctrl-C, SIGTERM, or closing the generator), no
    further job starts and the children still running are killed before this returns.
    The warm parent ends with the run, its time counted in this process's children's.
    """
    if not jobs:
        return
    run_id = jobs[0].run_id
    pool = ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="bench")
    pending: dict[Future[Done], Job] = {pool.submit(run_job, job): job for job in jobs}
    finished = False
    try:
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                job = pending.pop(future)
                result = future.result()
                if result.returncode != CANCELLED:
                    yield job, result
        finished = True
    finally:
        if not finished:
            cancel(run_id)
        pool.shutdown(wait=True, cancel_futures=True)
        close_warm_parent()
