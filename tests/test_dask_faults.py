"""`gcnemu run --grid --scheduler` when the cluster misbehaves (issue 25, items 7, 13 and 14):
a typo in the address, a worker in another directory, a worker killed mid-grid, no worker at
all. Each ends in the right answer or a clear error within a bounded wait, never a traceback
and never a hang. The clusters are local (dask.distributed.LocalCluster), small and short-lived."""
from __future__ import annotations

import os
import signal
import textwrap
from pathlib import Path

import numpy as np
import pytest

from gcnemu.cli import main
from gcnemu.commands.cluster import run_on_cluster, scheduler_address
from gcnemu.grid import GridJob
from gcnemu.snippets.runner import load_snippet

distributed = pytest.importorskip("distributed")
pytestmark = pytest.mark.dask

# Each workgroup doubles its own 64 floats, C[64*wg + lane] = 2 * A[64*wg + lane], after a spin
# of {spin} iterations, so that a grid takes long enough for a worker to die in the middle of it.
SCALE = """\
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer A: f32[{n}] = arange({n}) -> s[4:5]
//   buffer C: f32[{n}] = zeros({n}) -> s[6:7]
//   expect C = arange({n}) * 2
  s_mov_b32 s10, {spin}
spin:
  s_cmp_eq_u32 s10, 0
  s_cbranch_scc1 done
  s_sub_u32 s10, s10, 1
  s_branch spin
done:
  s_lshl_b32 s9, s2, 6
  v_add_u32 v1, s9, v0
  v_lshlrev_b32 v1, 2, v1
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_add_f32 v2, v2, v2
  global_store_dword v1, v2, s[6:7]
  s_endpgm
"""


def scale_kernel(folder: Path, workgroups: int, spin: int = 0) -> Path:
    path = folder / "scale.s"
    path.write_text(textwrap.dedent(SCALE.format(n=64 * workgroups, spin=spin)))
    return path


def local_cluster(workers: int, processes: bool = True):
    return distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes,
                                    dashboard_address=None, host="127.0.0.1", protocol="tcp://")


# ---------------------------------------------------------------- item 13: the address


@pytest.mark.parametrize("address", ["127.0.0.1", "tcp://127.0.0.1", "tcp://127.0.0.1:port", "tcp://host:99999",
                                     "inproc://1.2.3.4/5/6", "tls://127.0.0.1:8786", "ucx://127.0.0.1:8786", "",
                                     "tcp://:8786"])
def test_a_malformed_scheduler_address_is_a_usage_error_saying_the_accepted_form(tmp_path, capsys, address):
    path = scale_kernel(tmp_path, 2)
    with pytest.raises(SystemExit) as stop:
        main(["run", str(path), "--grid", "2", "--scheduler", address])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "argument --scheduler" in err and "tcp://HOST:PORT" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("address, dialled", [("127.0.0.1:8786", "tcp://127.0.0.1:8786"),
                                              (" tcp://node7:8786 ", "tcp://node7:8786"),
                                              ("[::1]:8786", "tcp://[::1]:8786")])
def test_a_scheduler_address_without_a_transport_is_tcp(address, dialled):
    # HOST:PORT is accepted, as Dask accepts it, and dialled over tcp
    assert scheduler_address(address) == dialled


@pytest.mark.parametrize("extra", [[], ["--grid", "2", "--functional"]])
def test_a_scheduler_without_a_timed_grid_is_an_error_rather_than_ignored(tmp_path, capsys, extra):
    path = scale_kernel(tmp_path, 2)
    assert main(["run", str(path), "--scheduler", "tcp://127.0.0.1:8786", *extra]) == 1
    assert "--scheduler spreads a grid's workgroups over a Dask cluster: it needs --grid" in capsys.readouterr().err


# ---------------------------------------------------------------- item 14: workers elsewhere


@pytest.fixture(scope="module")
def two_workers():
    """Two worker processes, shared by the tests that need real processes: a worker's first task
    imports gcnemu and its semantics tables (seconds on a busy machine), paid here once."""
    from gcnemu.sim.semantics import load_all
    with local_cluster(2) as cluster, distributed.Client(cluster) as client:
        client.run(load_all)
        yield cluster


def test_workers_in_another_directory_run_a_relative_file(two_workers, tmp_path, monkeypatch, capsys):
    # the workers started in this directory; the file is typed relative to another one
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    scale_kernel(folder, 2)
    monkeypatch.chdir(folder)
    assert main(["run", "scale.s", "--grid", "2", "--scheduler", two_workers.scheduler_address]) == 0
    out = capsys.readouterr()
    assert "check: passed (1 expectation)" in out.out
    assert "No such file" not in out.out + out.err


# ---------------------------------------------------------------- item 7 and the fault tests


def test_a_scheduler_with_no_worker_is_a_clear_error_after_the_timeout(tmp_path, capsys):
    path = scale_kernel(tmp_path, 2)
    with local_cluster(0, processes=False) as cluster:
        code = main(["run", str(path), "--grid", "2", "--scheduler", cluster.scheduler_address,
                     "--scheduler-timeout", "1"])
        address = cluster.scheduler_address
    err = capsys.readouterr().err
    assert code == 1
    assert f"--scheduler {address}: no Dask worker connected to the scheduler within 1 s" in err
    assert "--scheduler-timeout" in err


def test_the_scheduler_timeout_must_be_a_positive_number(tmp_path, capsys):
    path = scale_kernel(tmp_path, 2)
    with pytest.raises(SystemExit) as stop:
        main(["run", str(path), "--grid", "2", "--scheduler", "tcp://127.0.0.1:8786", "--scheduler-timeout", "0"])
    assert stop.value.code == 2
    assert "--scheduler-timeout" in capsys.readouterr().err


def loaded(path: Path):
    snippet = load_snippet(str(path))
    return snippet, snippet.kernel(), GridJob(str(path), None)


def test_a_worker_killed_mid_grid_still_gives_the_right_memory(two_workers, tmp_path):
    path = scale_kernel(tmp_path, 8, spin=1500)
    snippet, kernel, job = loaded(path)
    killed = []
    with distributed.Client(two_workers) as client:
        def kill_a_busy_worker(done: int, total: int) -> None:
            if killed:
                return
            # the first chunk is back; SIGKILL a worker that is running a workgroup right now
            busy = [w for w, tasks in client.processing().items() if tasks]
            assert busy, "every workgroup had finished: nothing was killed mid-grid"
            pid = client.run(os.getpid, workers=busy[:1])[busy[0]]
            os.kill(pid, signal.SIGKILL)
            killed.append(busy[0])

        sim, run = run_on_cluster(two_workers.scheduler_address, snippet, kernel, (8, 1, 1), job, timeout=20,
                                  progress=kill_a_busy_worker)
    assert killed
    assert not any(r.error for r in run.results) and len(run.results) == 8
    c = sim.memory.buffer("C").data.view(np.float32)
    assert np.array_equal(c, np.arange(64 * 8, dtype=np.float32) * 2)


def test_a_grid_whose_last_worker_leaves_is_a_clear_error_after_the_timeout(tmp_path):
    from gcnemu.asm.diagnostics import GcnemuError
    path = scale_kernel(tmp_path, 12, spin=1000)
    snippet, kernel, job = loaded(path)
    with local_cluster(1, processes=False) as cluster:
        def retire_the_worker(done: int, total: int) -> None:
            cluster.scale(0)  # (no nanny with processes=False: nothing brings it back)

        with pytest.raises(GcnemuError) as error:
            run_on_cluster(cluster.scheduler_address, snippet, kernel, (12, 1, 1), job, timeout=1,
                           progress=retire_the_worker)
    assert "no Dask worker is left to run the grid's remaining workgroups" in str(error.value)
