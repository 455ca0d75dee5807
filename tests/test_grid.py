"""Whole grids (`gcnemu run --grid`): every workgroup runs against one global memory, in worker
processes or on a Dask cluster, with per-workgroup cycles, race reports and atomics kept exact."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import numpy as np
import pytest

from gcnemu.asm.diagnostics import GcnemuError
from gcnemu.cli import main
from gcnemu.grid import GridJob, parse_grid, run_grid
from gcnemu.snippets.runner import load_snippet

# Each workgroup doubles its own 64 floats: C[64*wg + lane] = 2 * A[64*wg + lane], and spins
# wg times in a loop first, so workgroups take different numbers of cycles.
SCALE = """\
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer A: f32[{n}] = arange({n}) -> s[4:5]
//   buffer C: f32[{n}] = zeros({n}) -> s[6:7]
{extra}
  s_mov_b32 s10, s2
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


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(text))
    return p


def scale_kernel(tmp_path: Path, workgroups: int, extra: str = "") -> Path:
    return write(tmp_path, "scale.s", SCALE.format(n=64 * workgroups, extra=extra))


def grid_of(path: Path, grid, jobs=None, executor=None):
    snippet = load_snippet(str(path))
    kernel = snippet.kernel()
    return run_grid(snippet, kernel, grid, GridJob(str(path), None), executor=executor, jobs=jobs)


def test_every_workgroup_writes_its_part_of_one_memory(tmp_path):
    path = scale_kernel(tmp_path, 8)
    sim, run = grid_of(path, (8, 1, 1), jobs=2)
    c = sim.memory.buffer("C").data.view(np.float32)
    np.testing.assert_array_equal(c, np.arange(512, dtype=np.float32) * 2)
    assert [r.id for r in run.results] == [(x, 0, 0) for x in range(8)]
    assert not run.races and not run.sequential and run.workers == 2


def test_cycles_are_per_workgroup(tmp_path):
    path = scale_kernel(tmp_path, 4)
    _, run = grid_of(path, (4, 1, 1), jobs=1)
    cyc = run.cycles
    assert cyc == sorted(cyc) and len(set(cyc)) == 4  # workgroup k spins k times
    assert len(run.histogram()) > 1


def test_processes_and_one_process_give_the_same_memory(tmp_path):
    path = scale_kernel(tmp_path, 6)
    one, _ = grid_of(path, (3, 2, 1), jobs=1)
    two, _ = grid_of(path, (3, 2, 1), jobs=2)
    for name in ("A", "C"):
        assert np.array_equal(one.memory.buffer(name).data, two.memory.buffer(name).data)


def test_the_cli_checks_header_expectations_against_the_whole_grid(tmp_path, capsys):
    path = scale_kernel(tmp_path, 8, "//   grid: 8\n//   expect C = arange(512) * 2")
    assert main(["run", str(path)]) == 0
    out = capsys.readouterr().out
    assert "grid 8x1x1: 8 workgroups" in out and "check: passed (1 expectation)" in out
    assert main(["run", str(path), "--grid", "4"]) == 1  # half the grid: half of C stays 0
    assert "check: FAILED" in capsys.readouterr().out


def test_a_grid_larger_than_its_buffers_stops_those_workgroups_naming_the_buffer(tmp_path, capsys):
    """Buffers sized for 4 workgroups, a grid of 6: workgroups 4 and 5 read past buffer A; each
    says where its address lies, and the run fails even though C's expectation holds."""
    path = scale_kernel(tmp_path, 4, "//   expect C = arange(256) * 2")
    assert main(["run", str(path), "--grid", "6"]) == 1
    captured = capsys.readouterr()
    text = captured.out + captured.err
    for wg in (4, 5):
        assert f"workgroup ({wg}, 0, 0)" in text
    assert "bytes past the end of buffer 'A', 1024 bytes" in text
    assert "workgroup (3, 0, 0): " not in text


def test_two_workgroups_writing_the_same_bytes_is_a_race(tmp_path, capsys):
    path = scale_kernel(tmp_path, 4)
    path.write_text(path.read_text().replace("  s_lshl_b32 s9, s2, 6\n", "  s_mov_b32 s9, 0\n"))
    _, run = grid_of(path, (4, 1, 1), jobs=2)
    (race,) = run.races
    assert race.buffer == "C" and race.bytes == 256 and (race.first_byte, race.last_byte) == (0, 255)
    assert race.workgroups == [(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)]
    main(["run", str(path), "--grid", "4", "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert out["grid"]["races"][0]["buffer"] == "C"
    assert any(d["rule"] == "grid-global-race" for d in out["diagnostics"])


def test_global_atomics_run_workgroup_after_workgroup(tmp_path):
    path = write(tmp_path, "atom.s", """\
        // gcnemu:
        //   arch: gfx90a
        //   workgroup: 64
        //   buffer C: u32[64] = zeros(64) -> s[6:7]
          v_lshlrev_b32 v1, 2, v0
          v_add_u32 v2, s2, 1
          global_atomic_add v1, v2, s[6:7]
          s_waitcnt vmcnt(0)
          s_endpgm
    """)
    sim, run = grid_of(path, (4, 2, 1), jobs=2)
    assert run.sequential and not run.races
    # each of the 8 workgroups adds (its x id + 1): 2 * (1 + 2 + 3 + 4)
    assert np.all(sim.memory.buffer("C").data.view(np.uint32) == 20)


@pytest.mark.parametrize("text", ["0", "a", "1,2,3,4", "-2", "2048,1024"])
def test_a_bad_grid_is_a_clear_error(text):
    with pytest.raises(GcnemuError):
        parse_grid(text)


def test_the_grid_runs_on_a_local_dask_cluster(tmp_path, capsys):
    distributed = pytest.importorskip("distributed")
    path = scale_kernel(tmp_path, 8, "//   expect C = arange(512) * 2")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1") as cluster:
        assert main(["run", str(path), "--grid", "8", "--scheduler", cluster.scheduler_address]) == 0
    assert "check: passed (1 expectation)" in capsys.readouterr().out


def test_an_unreachable_scheduler_is_a_clear_error(tmp_path, capsys):
    pytest.importorskip("distributed")
    path = scale_kernel(tmp_path, 2)
    assert main(["run", str(path), "--grid", "2", "--scheduler", "tcp://127.0.0.1:9"]) == 1
    assert "cannot reach the Dask scheduler" in capsys.readouterr().err
