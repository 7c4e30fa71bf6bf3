"""Grid points on a Dask cluster, for when one machine is not enough.

``explorer build --scheduler ADDRESS`` hands the batches of grid points that are
not cached yet to an existing Dask scheduler (``dask scheduler`` on one machine,
``dask worker ADDRESS`` on each of the others); ``--scheduler local`` starts a
``LocalCluster`` of ``--jobs`` worker processes on this machine. The scheduling
is Dask's: this module only connects, submits the tasks and collects their
outcomes in order. Results come back to the build, which checks them and stores
them in the same content-addressed cache as a local build
(:mod:`privacy_explorer.runner`), so the site is the same byte for byte.

A worker imports the lesson module from the path the build gives it, so every
worker needs the same project checkout at the same path and the same Python
packages (the lock file, ``constraints.txt``); :func:`privacy_explorer.runner.run_grid`
checks both on the worker before it computes. dask.distributed is an optional
dependency: ``pip install .[cluster]``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import Any

from privacy_explorer.errors import ClusterError

LOCAL = "local"
"""The ``--scheduler`` value that starts a ``LocalCluster`` on this machine."""
CONNECT_TIMEOUT = 20.0
"""Seconds to wait for a scheduler to answer before giving up."""
INSTALL = "pip install .[cluster]"


class TaskLost(Exception):
    """The cluster could not finish task ``index`` (a worker died, or left, every time)."""

    def __init__(self, index: int, how: str) -> None:
        super().__init__(how)
        self.index = index
        self.how = how


def _distributed() -> Any:
    """The ``distributed`` package, or a :class:`ClusterError` saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise ClusterError(
            f"--scheduler needs dask.distributed, which is not installed here; install it "
            f"with: {INSTALL} (in the explorer's checkout), or build without --scheduler"
        ) from None
    return distributed


class Cluster:
    """A Dask client for one build, connected when the first task needs it.

    Use it as a context manager: leaving closes the client and, for
    ``local``, stops the cluster it started. Whether dask.distributed is
    installed is checked at once, so that a missing package fails before any
    work is done.
    """

    def __init__(self, address: str, jobs: int = 1) -> None:
        self.address = address
        """``local`` or the scheduler's address (``tcp://HOST:8786``)."""
        self.jobs = jobs
        """Worker processes of a ``local`` cluster."""
        self._distributed = _distributed()
        self._client: Any = None
        self._local: Any = None

    def __enter__(self) -> Cluster:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the client, and stop the local cluster if this build started one."""
        for resource in (self._client, self._local):
            if resource is not None:
                with contextlib.suppress(Exception):  # it may be gone already
                    resource.close()
        self._client = self._local = None

    def client(self) -> Any:
        """The connected ``distributed.Client``; raise :class:`ClusterError` if unreachable."""
        if self._client is not None:
            return self._client
        distributed = self._distributed
        if self.address == LOCAL:
            self._local = distributed.LocalCluster(
                n_workers=self.jobs,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",  # any free port: 8787 may be taken
            )
            self._client = distributed.Client(self._local)
            return self._client
        try:
            self._client = distributed.Client(self.address, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            raise ClusterError(
                f"--scheduler {self.address}: cannot reach a Dask scheduler there "
                f"({type(exc).__name__}: {exc}); start one with 'dask scheduler' and pass the "
                "address it prints (tcp://HOST:8786), or use --scheduler local; "
                "nothing was written"
            ) from None
        return self._client

    def run(self, function: Callable[..., Any], tasks: Sequence[Sequence[Any]]) -> Iterator[Any]:
        """``function(*task)`` for each task on the cluster's workers, yielded in task order.

        Closing the iterator early cancels the tasks not yet done. Raises
        :class:`TaskLost` when Dask gives up on a task (its workers kept dying).
        """
        client = self.client()
        futures = [client.submit(function, *task, pure=False) for task in tasks]
        try:
            for index, future in enumerate(futures):
                try:
                    yield future.result()
                except Exception as exc:  # KilledWorker, a lost connection, ...
                    raise TaskLost(index, f"{type(exc).__name__}: {exc}") from None
        finally:
            with contextlib.suppress(Exception):
                client.cancel(futures)
