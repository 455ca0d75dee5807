"""Peak memory stays bounded on inputs that used to blow up (issue 25, items 8-10).

Each case runs the real command line in a child process and reads the child's peak resident
set at exit (VmHWM, which is ru_maxrss without what execve carries over from the parent). The bounds are generous for the fixed behaviour and far below what the
defects took, so a regression fails loudly: a kernarg `.offset` of 9999999999 allocated 19.5 GB;
`step` over a scratch loop kept 34 full copies of scratch; a functional grid grew past its
estimate. Each case takes a few seconds.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_reliability2_b import GRID_KERNEL, kernel_with_metadata, scratch_loop  # noqa: E402

if sys.platform != "linux":
    pytest.skip("the peak is read from /proc/self/status (Linux)", allow_module_level=True)

MB = 1 << 20
# the child: gcnemu's command line, then its own peak RSS as the last line of stderr
# (VmHWM, the process's own high-water mark: ru_maxrss survives execve on Linux, so a child of a
# large pytest process would report its parent's size; the two agree in a fresh process)
_CHILD = ("import atexit, json, runpy, sys\n"
          "def hwm():\n"
          "    return next(int(l.split()[1]) * 1024 for l in open('/proc/self/status') if l.startswith('VmHWM:'))\n"
          "atexit.register(lambda: print(json.dumps({'peak': hwm()}), file=sys.stderr))\n"
          "sys.argv = ['gcnemu'] + sys.argv[1:]\n"
          "runpy.run_module('gcnemu', run_name='__main__')\n")


def peak(*argv, env: dict | None = None, stdin: str | None = None) -> tuple[int, int, str]:
    """(exit status, peak RSS in bytes, output) of `gcnemu ARGV` in a child process."""
    p = subprocess.run([sys.executable, "-c", _CHILD, *map(str, argv)], capture_output=True, text=True,
                       input=stdin, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})
    out = p.stdout + p.stderr
    assert "Traceback" not in out, out
    return p.returncode, json.loads(p.stderr.strip().splitlines()[-1])["peak"], out


def baseline() -> int:
    """The peak of a trivial run: Python, numpy and gcnemu loaded."""
    global _BASELINE
    if _BASELINE is None:
        _BASELINE = peak("--version")[1]
    return _BASELINE


_BASELINE: int | None = None


@pytest.mark.parametrize("sizes", [dict(offset=9999999999), dict(segment_size=9999999999),
                                   dict(kernarg_size=0xFFFFFFFF)])
def test_a_huge_kernarg_is_refused_within_memory(tmp_path, sizes):
    path = tmp_path / "k.s"
    path.write_text(kernel_with_metadata(**sizes))
    rc, rss, out = peak("run", path, "--arg", "x=5")
    assert rc == 1 and "makes the kernarg segment" in out
    assert rss < baseline() + 100 * MB


def test_step_over_a_scratch_loop_keeps_snapshots_within_budget(tmp_path):
    """16 MiB of scratch (64 lanes x 256 KiB) and a snapshot at each of 30 stops: before, 34
    full copies (over 550 MB); now the changed pieces only."""
    path = tmp_path / "k.s"
    path.write_text(scratch_loop(256 << 10))
    cmds = tmp_path / "cmds.txt"
    cmds.write_text("step 1\n" * 30 + "info snapshots\n")
    rc, rss, out = peak("step", path, "--batch", cmds)
    assert rc == 0, out
    assert "snapshots kept:" in out
    assert rss < baseline() + 150 * MB


def test_a_functional_grid_stays_within_its_budget(tmp_path):
    """A grid that fits a 300 MB budget runs and stays under it; one that does not is refused
    up front, before its waves exist."""
    path = tmp_path / "k.s"
    path.write_text(GRID_KERNEL)
    budget = {"GCNEMU_MEMORY_BUDGET": "300M"}
    rc, rss, out = peak("run", path, "--grid", 512, "--functional", env=budget)
    assert rc == 0, out
    assert rss < 300 * MB
    rc, rss, out = peak("run", path, "--grid", 65536, "--functional", env=budget)
    assert rc == 1 and "more than the budget" in out
    assert rss < 300 * MB
