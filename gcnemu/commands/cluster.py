"""`gcnemu run --grid ... --scheduler ADDRESS`: one grid's workgroups on a Dask distributed cluster.

Three things a cluster does that a local process pool does not, each handled here:

- The address is typed by a person. Dask accepts many forms and transports and answers a typo
  with a traceback, so the address is checked where it is typed (a usage error, exit 2) and only
  `tcp://HOST:PORT` (or `HOST:PORT`) is let through: the one transport gcnemu sets up.
- Workers may run on another machine or in another directory, where the FILE path as typed
  means nothing. The loaded launch (program, header, buffers) is pickled once and scattered to
  every worker, so a worker opens no file at all.
- Workers may be missing: none connected yet, or all gone mid-grid (killed, scaled down). Dask
  then waits for ever; gcnemu waits `--scheduler-timeout` seconds and says what was missing.
  A worker that dies while others remain is Dask's business: its tasks run again elsewhere.
"""
from __future__ import annotations

import argparse
import time
from dataclasses import replace

from ..asm.diagnostics import GcnemuError

DEFAULT_TIMEOUT = 30.0  # seconds without any worker before a --scheduler run gives up
POLL = 0.5  # seconds between looks at the scheduler's worker list while a chunk is outstanding

FORM = "tcp://HOST:PORT (or HOST:PORT), e.g. tcp://127.0.0.1:8786"


def scheduler_address(text: str) -> str:
    """argparse type of --scheduler: `tcp://HOST:PORT` or `HOST:PORT`, returned as `tcp://HOST:PORT`.

    inproc:// only reaches a scheduler in this process (never the case for `gcnemu run`); tls://
    and ucx:// need security or transport settings gcnemu has no options for."""
    t = text.strip()
    if not t:
        raise argparse.ArgumentTypeError(f"an empty address; expected {FORM}")
    scheme, sep, rest = t.partition("://")
    if not sep:
        scheme, rest = "tcp", t
    if scheme != "tcp":
        raise argparse.ArgumentTypeError(f"'{text}': the {scheme}:// transport is not supported; expected {FORM}")
    host, colon, port = rest.rpartition(":")
    if not colon or not host or host.endswith(":"):
        raise argparse.ArgumentTypeError(f"'{text}' has no port; expected {FORM}")
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"'{text}': the port must be a number from 1 to 65535; expected {FORM}")
    return f"tcp://{host}:{int(port)}"


def run_on_cluster(address: str, snippet, kernel, grid, job, timeout: float = DEFAULT_TIMEOUT, progress=None):
    """`run_grid` on the Dask scheduler at `address` (already checked by scheduler_address)."""
    from ..grid import run_grid, ship
    try:
        from distributed import Client
    except ImportError:
        raise GcnemuError("--scheduler needs Dask's distributed package: pip install 'gcnemu[cluster]'") from None
    try:
        client = Client(address, timeout="5s")
    except (OSError, ValueError) as e:
        raise GcnemuError(f"--scheduler {address}: cannot reach the Dask scheduler ({e})") from None
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            raise GcnemuError(f"--scheduler {address}: no Dask worker connected to the scheduler within "
                              f"{timeout:g} s; start one with `dask worker {address}` (or raise "
                              "--scheduler-timeout)") from None
        blob, digest = ship(snippet, kernel)
        shipped = client.scatter(blob, broadcast=True)
        threads = sum(client.nthreads().values()) or 1
        return run_grid(snippet, kernel, grid, replace(job, digest=digest), executor=client.get_executor(),
                        jobs=threads, progress=progress, shipped=shipped,
                        result=lambda f: _result(client, address, f, timeout))
    finally:
        client.close()


def _result(client, address: str, future, timeout: float):
    """One chunk's result; an error when the scheduler has had no worker for `timeout` seconds."""
    alone_since = None
    while True:
        try:
            return future.result(timeout=POLL)
        except TimeoutError:
            pass
        except GcnemuError:
            raise
        except Exception as e:
            # Dask cancels the remaining tasks when the last worker holding the scattered program
            # leaves, and gives up on a task that took down too many workers
            if not _workers(client):
                raise GcnemuError(_none_left(address, timeout)) from None
            raise GcnemuError(f"--scheduler {address}: a Dask task failed: {type(e).__name__}: {e}") from None
        if _workers(client):
            alone_since = None
        elif alone_since is None:
            alone_since = time.monotonic()
        elif time.monotonic() - alone_since > timeout:
            raise GcnemuError(_none_left(address, timeout))


def _workers(client) -> int:
    """How many workers the scheduler has now (0 when it cannot even be asked)."""
    try:
        return len(client.nthreads())
    except Exception:
        return 0


def _none_left(address: str, timeout: float) -> str:
    return (f"--scheduler {address}: no Dask worker is left to run the grid's remaining workgroups "
            f"(none for {timeout:g} s, or the last one left with the program); start workers with "
            f"`dask worker {address}` and run again")
