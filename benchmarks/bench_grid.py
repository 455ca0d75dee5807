"""Grid throughput, measured in one run on this machine:

1. the functional engine (`gcnemu run --grid N --functional`): wave-instructions per second on
   grids of 64, 256 and 1024 waves of the flagship GEMM (programs/gemm_lds_dma_gfx942.s) and of
   programs/sgemm_vector.s (4 waves per workgroup: 16, 64 and 256 workgroups; the wall time
   includes the launch of every wave), and how many wave-instructions ran as one execution
   per group of waves;
2. process scaling of the timed grid runner (`gcnemu run --grid`): the same grid with 1 and 2
   worker processes, and the ratio.

    python benchmarks/bench_grid.py [--waves 64,256,1024] [--workers 1,2] [--workgroups 64]
                                    [--profile] [--baseline DIR [--baseline-waves 64,256]]

With numba installed (gcnemu[fast]) each functional grid also runs with the numba kernels off
(the numpy numerics), alternating with the numba runs, best of --repeat (3) each; the table shows
both rates and the ratio.

`--baseline DIR` also runs the functional grids with the gcnemu checked out in DIR (e.g.
`git archive <commit> | tar -x -C DIR`), in a subprocess, and prints the speedup over it.

The issue's target is 20M wave-instructions/s at 1024 waves. `--profile` prints where the
1024-wave runs spend their time (cProfile, top functions). Where the distance comes from
(measured on this 2-core machine, numba on): sgemm's 1024 v_fmac_f32 per wave are one
float32 fused multiply-add pass each over the grid's lanes, written in place, ~50 us, bound
by memory (three 256 KB register rows in, one out, from a 23 MB register file); its LDS reads
and the launch (~30 ms: every wave's registers stacked) take most of the rest. The flagship's
time is its MFMAs (~9 ms each over 1024 waves): the error-free float64 sum of 8 products per
element (~3 ms), gathering and scattering the operands of 32 waves at a time (~5 ms).
"""
from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import pstats
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

from gcnemu.grid import GridJob, run_functional, run_grid  # noqa: E402
from gcnemu.sim import accel  # noqa: E402
from gcnemu.snippets.runner import load_snippet  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = [ROOT / "programs" / "gemm_lds_dma_gfx942.s", ROOT / "programs" / "sgemm_vector.s"]

from grid_kernel import SCALING_KERNEL  # noqa: E402  (shared with report.py)


@contextlib.contextmanager
def numpy_numerics():
    """The numba kernels switched off (as GCNEMU_NO_NUMBA does) inside the block."""
    saved = accel._STATE.get("kernels")
    accel._STATE["kernels"] = None
    try:
        yield
    finally:
        accel._STATE["kernels"] = saved


def functional_rows(waves_list: list[int], profile: bool, numpy_too: bool = False, repeat: int = 1):
    rows, profiles = [], []
    for path in PROGRAMS:
        snippet = load_snippet(str(path))
        kernel = snippet.kernel()
        job = GridJob(str(path), None)
        per_wg = snippet.setup.num_waves
        run_functional(snippet, kernel, (1, 1, 1), job)  # warm up (imports, decode caches)
        for waves in waves_list:
            wgs = max(1, waves // per_wg)
            # best of `repeat` runs, numba and numpy numerics alternating (the machine is shared:
            # interleaving keeps a burst of load from landing on one side only)
            dt = slow = float("inf")
            for _ in range(repeat):
                t = time.perf_counter()
                sim, run = run_functional(snippet, kernel, (wgs, 1, 1), job)
                dt = min(dt, time.perf_counter() - t)
                assert sim.error is None, sim.error.message
                if numpy_too:
                    with numpy_numerics():
                        t = time.perf_counter()
                        run_functional(snippet, kernel, (wgs, 1, 1), job)
                        slow = min(slow, time.perf_counter() - t)
            if profile and waves == max(waves_list):  # a second run, profiled (the timing above is not)
                prof = cProfile.Profile()
                prof.enable()
                run_functional(snippet, kernel, (wgs, 1, 1), job)
                prof.disable()
                out = io.StringIO()
                pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(12)
                profiles.append((path.name, waves, out.getvalue()))
            rows.append((path.name, run.waves, run.instructions, dt, run.instructions / dt,
                         100.0 * run.batched / max(1, run.instructions),
                         run.instructions / slow if numpy_too else None))
    return rows, profiles


BASELINE_SCRIPT = """
import sys, time
from gcnemu.grid import GridJob, run_functional
from gcnemu.sim import accel
from gcnemu.snippets.runner import load_snippet
path, wgs, repeat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
accel.load()  # as main() does: numba's import is not part of the timing
snippet = load_snippet(path)
kernel = snippet.kernel()
run_functional(snippet, kernel, (1, 1, 1), GridJob(path, None))
best = float("inf")
for _ in range(repeat):
    t = time.perf_counter()
    sim, run = run_functional(snippet, kernel, (wgs, 1, 1), GridJob(path, None))
    best = min(best, time.perf_counter() - t)
print(run.instructions, best)
"""


def baseline_rows(directory: str, waves_list: list[int], repeat: int = 1, **env_extra: str) -> dict:
    """(program, waves) -> wave-instr/s (best of `repeat`, numba loaded first) of the functional
    engine checked out in `directory` (run with the environment variables `env_extra` added)."""
    import os
    import subprocess
    out = {}
    env = dict(os.environ, PYTHONPATH=directory, **env_extra)
    for path in PROGRAMS:
        per_wg = load_snippet(str(path)).setup.num_waves
        for waves in waves_list:
            r = subprocess.run([sys.executable, "-c", BASELINE_SCRIPT, str(path), str(max(1, waves // per_wg)),
                                str(repeat)],
                               capture_output=True, text=True, env=env, cwd=directory)
            if r.returncode == 0:
                instr, dt = r.stdout.split()[-2:]
                out[(path.name, waves)] = int(instr) / float(dt)
    return out


def scaling_rows(workers: list[int], workgroups: int, iterations: int):
    n = 64 * workgroups
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "grid.s"
        path.write_text(SCALING_KERNEL.format(n=n, iters=iterations))
        snippet = load_snippet(str(path))
        kernel = snippet.kernel()
        job = GridJob(str(path), None)
        reference = None
        for w in workers:
            t = time.perf_counter()
            sim, run = run_grid(snippet, kernel, (workgroups, 1, 1), job, jobs=w)
            dt = time.perf_counter() - t
            out = sim.memory.buffer("C").data.copy()
            if reference is None:
                reference = out
            assert np.array_equal(out, reference), "results differ between worker counts"
            instr = sum(r.instructions for r in run.results)
            rows.append((w, dt, workgroups / dt, instr / dt))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--waves", default="64,256,1024")
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--workgroups", type=int, default=64, help="workgroups of the process-scaling grid")
    ap.add_argument("--iterations", type=int, default=64)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--baseline", help="a gcnemu checkout to compare the functional engine with")
    ap.add_argument("--baseline-waves", default="64,256")
    ap.add_argument("--no-numba-column", action="store_true",
                    help="skip the same grids with the numba kernels off (the numpy numerics)")
    ap.add_argument("--repeat", type=int, default=3, help="functional runs per row (best of)")
    args = ap.parse_args()
    waves_list = [int(x) for x in args.waves.split(",")]
    numba_on = accel.load() is not None  # loaded now: the timings below are the steady state
    numpy_too = numba_on and not args.no_numba_column
    frows, profiles = functional_rows(waves_list, args.profile, numpy_too, args.repeat)
    base = baseline_rows(args.baseline, [int(x) for x in args.baseline_waves.split(",")], args.repeat) \
        if args.baseline else {}
    srows = scaling_rows([int(x) for x in args.workers.split(",")], args.workgroups, args.iterations)

    print("functional engine (gcnemu run --grid N --functional), same run, same machine, numba "
          + ("on" if numba_on else "off (not installed or GCNEMU_NO_NUMBA set)"))
    extra = f" {'no numba/s':>11} {'numba':>7}" if numpy_too else ""
    extra += f" {'baseline/s':>11} {'speedup':>8}" if base else ""
    print(f"{'program':<26} {'waves':>6} {'wave-instr':>11} {'wall':>8} {'wave-instr/s':>13} {'batched':>8}{extra}")
    for name, waves, instr, dt, rate, share, slow in frows:
        line = f"{name:<26} {waves:>6} {instr:>11,} {dt:>7.2f}s {rate:>13,.0f} {share:>7.0f}%"
        if slow:
            line += f" {slow:>11,.0f} {rate / slow:>6.1f}x"
        if (name, waves) in base:
            line += f" {base[(name, waves)]:>11,.0f} {rate / base[(name, waves)]:>7.1f}x"
        print(line)
    print()
    print(f"timed grid runner (gcnemu run --grid {args.workgroups}), process scaling: {args.workgroups} workgroups x "
          f"1 wave, {srows[0][3] * srows[0][1] / args.workgroups:.0f} wave-instructions each")
    print(f"{'workers':>8} {'wall':>8} {'workgroups/s':>13} {'wave-instr/s':>13} {'speedup':>8}")
    first = srows[0][1]
    for w, dt, wgs, ips in srows:
        print(f"{w:>8} {dt:>7.2f}s {wgs:>13.1f} {ips:>13,.0f} {first / dt:>7.2f}x")
    for name, waves, text in profiles:
        print(f"\nprofile: {name}, {waves} waves")
        print("\n".join(line for line in text.splitlines()[5:] if line.strip()))


if __name__ == "__main__":
    main()
