#!/usr/bin/env python3
"""Emulated wave-instructions per second with timing on (single wave, 4-wave workgroup).

Why: every `run`, `timeline`, `step` goes through the engine's issue loop, so its
cost per instruction bounds how large a kernel is practical. Target: 200k
wave-instructions/s single-wave on the project's 2-core machine.

Programs:
  alu-loop   a counted loop of SALU/VALU work (semantics + engine)
  mem-loop   the same with a global load, s_waitcnt, ds_read per iteration
  mfma-loop  MFMA + VALU per iteration (the MFMA numerics dominate)
  timing     alu-loop with every semantic function skipped (allow_unmodelled and no
             semantics): the engine's own cost, the floor the semantics add to
  bundled    programs/*.s that run to completion with today's semantics, launched as their
             header says (the flagship gemm_lds_dma_gfx942.s is a 4-wave workgroup)
  igemm      one workgroup (2 waves) of a real MIOpen implicit-GEMM convolution kernel
             (benchmarks/igemm_workload.py; C=256, so 8 iterations of its MFMA main loop)

`--summary` prints only the rows the README's Performance table quotes (flagship GEMM, real
iGEMM, the ALU/memory/MFMA loops). `--baseline DIR` measures those rows for the checkout in DIR
(e.g. `git worktree add /tmp/base v0.3`) and for this one, alternating between the two in
fresh processes (`--rounds` times each, best CPU figure kept), and prints the ratio: on a
shared machine only ratios measured this way mean anything.

Every run has timing on and the dynamic hazard monitor attached, and keeps no per-issue history
(no --trace), as `gcnemu run` does; numba's kernels are loaded first where numba is installed.
Each figure is the best of --repeat runs, after one small untimed run (warm_up). `wave-instr/s` is wall time; `cpu-instr/s`
divides by the process's CPU time, which a shared (loaded) machine disturbs less.

    python benchmarks/bench_engine.py [--iters 2000] [--repeat 3] [--only gemm]
    python benchmarks/bench_engine.py --profile alu-loop [--waves 4] [--sort tottime] [--top 25]
    python benchmarks/bench_engine.py --profile gemm_lds_dma_gfx942.s     # a bundled program
    python benchmarks/bench_engine.py --profile igemm                     # the MIOpen kernel
    python benchmarks/bench_engine.py --summary [--repeat 3]
    python benchmarks/bench_engine.py --baseline /tmp/base [--rounds 3]
    python benchmarks/bench_engine.py --plans     # issues the plans ran, and the fallbacks

`--profile` prints the hot path (cProfile, top functions by own time, then by cumulative
time) of one program instead of the table, after one unprofiled warm run of the same program.
cProfile inflates Python-call-heavy functions: confirm a gain with an in-process A/B or
`--baseline` before trusting a profile's share.

Figures are printed, never asserted: compare them as ratios measured in one run.
"""
from __future__ import annotations

import argparse
import cProfile
import glob
import importlib.util
import os
import pstats
import sys
import time

import numpy as np

if importlib.util.find_spec("gcnemu") is None:  # not installed: run from the checkout
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import gcnemu  # noqa: E402
from gcnemu.asm.resolve import resolve  # noqa: E402
from gcnemu.setup import BufferSpec, Setup  # noqa: E402
from gcnemu.simulation import Simulation  # noqa: E402

LOOP_HEAD = "s_mov_b32 s4, {start}\n.Lloop:\n"
LOOP_TAIL = "s_add_u32 s4, s4, 1\ns_cbranch_scc0 .Lloop\ns_endpgm\n"

BODIES = {
    "alu-loop": """
v_add_u32 v2, v2, v1
v_mov_b32 v3, v2
s_mov_b32 s5, s4
v_add_u32 v4, v3, 1
s_add_u32 s6, s5, 3
v_mov_b32 v5, v4
""",
    "mem-loop": """
global_load_dword v2, v1, s[0:1]
v_add_u32 v3, v3, v1
s_waitcnt vmcnt(0)
ds_read_b32 v4, v1
v_add_u32 v3, v3, v2
s_waitcnt lgkmcnt(0)
v_add_u32 v3, v3, v4
""",
    "mfma-loop": """
v_mfma_f32_16x16x4f32 a[0:3], v1, v2, a[0:3]
v_add_u32 v3, v3, v1
v_mov_b32 v4, v3
s_nop 0
""",
}


def program(body: str, iters: int) -> str:
    start = (1 << 32) - iters  # s_add_u32 carries out after `iters` increments
    return LOOP_HEAD.format(start=start) + body.strip() + "\n" + LOOP_TAIL


def make(src: str, waves: int, strip_semantics: bool = False) -> Simulation:
    kernel = resolve(gcnemu.parse(src), "gfx90a", validate_first=False)
    setup = Setup(workgroup_size=(64 * waves, 1, 1), vgprs={"v1": np.arange(64) * 4, "v2": 1, "v3": 0})
    setup.buffers.append(BufferSpec("A", np.arange(64, dtype=np.uint32), sgpr="s[0:1]"))
    sim = Simulation(kernel, setup, max_instructions=50_000_000, max_cycles=2_000_000_000)
    if strip_semantics:
        sim.engine.allow_unmodelled = True
        for d in sim.engine.decoded:
            if d.mnemonic not in ("s_cbranch_scc0", "s_add_u32", "s_mov_b32"):
                d.sem = None
    return sim


def as_run(sim: Simulation) -> Simulation:
    """The simulation as `gcnemu run` sets it up without --trace: the engine keeps only the newest
    issue records and no pipe log (commands/run.py), so a long run's memory stays flat."""
    sim.engine.keep_history = False
    return sim


def load_kernels() -> None:
    """numba's kernels (gcnemu[fast]) loaded before measuring, as the functional rows have them:
    a process pays that ~1 s once (a long run loads them by itself, see sim/accel.py and
    sim/alu_compiled.py); without numba nothing is loaded and the numpy paths run."""
    try:
        from gcnemu.sim import accel
        accel.load()
    except ImportError:
        return
    # the compiled issue loop's first call loads it from numba's cache (~0.4 s; a tree without
    # it simply runs this small loop)
    sim = make(program(BODIES["alu-loop"], 8), 1)
    sim.engine.compiled_alu = True
    sim.run()


def measure(sim: Simulation) -> tuple[int, float, Simulation, float]:
    """(wave-instructions, wall seconds, the simulation, CPU seconds) of one run."""
    as_run(sim)
    c0 = time.process_time()
    t0 = time.perf_counter()
    sim.run()
    dt = time.perf_counter() - t0
    cpu = time.process_time() - c0
    if sim.error is not None:
        raise RuntimeError(str(sim.error.message))
    return sim.instructions_executed, dt, sim, cpu


def best_of(make_sim, repeat: int) -> tuple[int, float, Simulation, float]:
    """The fastest of `repeat` runs (a fresh simulation each), by wall and by CPU time."""
    best = None
    best_cpu = float("inf")
    for _ in range(max(1, repeat)):
        r = measure(make_sim())
        best_cpu = min(best_cpu, r[3])
        if best is None or r[1] < best[1]:
            best = r
    return best[0], best[1], best[2], best_cpu


def profile(sim: Simulation, sort: str, top: int) -> None:
    """cProfile one run: the hot path's top functions (own time, then cumulative)."""
    as_run(sim)
    prof = cProfile.Profile()
    prof.enable()
    sim.run()
    prof.disable()
    if sim.error is not None:
        print(f"(the run stopped with an error: {sim.error.message})")
    print(f"{sim.instructions_executed} wave-instructions, {sim.cycles} cycles, {len(sim.waves)} wave(s)")
    stats = pstats.Stats(prof)
    stats.sort_stats(sort).print_stats(top)
    if sort != "cumulative":
        stats.sort_stats("cumulative").print_stats(top)


def bundled() -> list[str]:
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "programs")
    return sorted(glob.glob(os.path.join(here, "*.s")))


def make_bundled(path: str) -> Simulation:
    """A bundled program launched with the setup its header declares."""
    from gcnemu.snippets.runner import load_snippet
    return load_snippet(path).simulate(run=False)


def warm_up() -> None:
    """One small run before measuring: the process's module imports and numpy's first calls are
    paid once per process (seen by `gcnemu run`, not per instruction), so no figure includes them;
    numba's kernels too (load_kernels)."""
    load_kernels()
    make_bundled([p for p in bundled() if os.path.basename(p) == "vector_add.s"][0]).run()


def make_igemm() -> Simulation:
    """One workgroup of the MIOpen iGEMM kernel (benchmarks/igemm_workload.py)."""
    here = os.path.dirname(os.path.abspath(__file__))
    if here not in sys.path:
        sys.path.insert(0, here)
    from igemm_workload import igemm_simulation
    return igemm_simulation(max_instructions=50_000_000)


# the README's rows: (label, maker of a fresh simulation)
def summary_cases(iters: int) -> list[tuple[str, object]]:
    flagship = [p for p in bundled() if os.path.basename(p) == "gemm_lds_dma_gfx942.s"][0]
    out = [("flagship gemm_lds_dma_gfx942.s", lambda: make_bundled(flagship)),
           ("MIOpen iGEMM fwd fp16 (1 WG)", make_igemm)]
    for name in ("alu-loop", "mem-loop", "mfma-loop"):
        for waves in (1, 4):
            out.append((f"{name} x{waves} waves", lambda name=name, waves=waves: make(program(BODIES[name], iters), waves)))
    return out


def row(label: str, n: int, dt: float, sim: Simulation, cpu: float) -> str:
    return (f"{label:<32} {len(sim.waves):>5} {n:>10} {sim.cycles:>9} {dt:>8.3f} {n / dt:>13,.0f} "
            f"{n / max(cpu, 1e-9):>12,.0f}")


HEADER = (f"{'program':<32} {'waves':>5} {'wave-instr':>10} {'cycles':>9} {'seconds':>8} {'wave-instr/s':>13} "
          f"{'cpu-instr/s':>12}")


def baseline(base: str, iters: int, rounds: int, repeat: int, only: str = "") -> None:
    """The summary rows measured for the checkout `base` and for this one, alternately, each in a
    fresh process; the best CPU figure of each side and their ratio."""
    import subprocess
    here = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    script = os.path.abspath(__file__)
    print(f"{'program':<32} {'base cpu-instr/s':>17} {'this cpu-instr/s':>17} {'ratio':>6}")
    for label, _ in summary_cases(iters):
        if only not in label:
            continue
        best = {base: 0.0, here: 0.0}
        for _ in range(max(1, rounds)):
            for root in (base, here):
                env = dict(os.environ, PYTHONPATH=root)
                # this script runs the case in both trees (the base may predate --case), importing
                # gcnemu from `root`; the iGEMM workload comes from this checkout's benchmarks/
                out = subprocess.run([sys.executable, script, "--case", label, "--iters", str(iters),
                                      "--repeat", str(repeat)], capture_output=True, text=True, env=env)
                if out.returncode:
                    raise SystemExit(f"{label} under {root}: {out.stderr.strip().splitlines()[-1:]}")
                best[root] = max(best[root], float(out.stdout.split()[-1]))
        print(f"{label:<32} {best[base]:>17,.0f} {best[here]:>17,.0f} {best[here] / best[base]:>6.2f}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--iters", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=1, help="runs per figure; the best is reported")
    ap.add_argument("--only", default="", help="only programs whose name contains this")
    ap.add_argument("--profile", default=None, metavar="PROGRAM",
                    help="cProfile one program: a loop name (alu-loop, mem-loop, mfma-loop, timing) or a "
                         "bundled file name (gemm_lds_dma_gfx942.s)")
    ap.add_argument("--waves", type=int, default=1, help="--profile: waves of a loop program (1 or 4)")
    ap.add_argument("--sort", default="tottime", choices=("tottime", "cumulative", "ncalls"),
                    help="--profile: order of the function table")
    ap.add_argument("--top", type=int, default=25, help="--profile: functions shown")
    ap.add_argument("--summary", action="store_true", help="only the rows the README quotes")
    ap.add_argument("--baseline", default=None, metavar="DIR",
                    help="ratios of the README rows against the checkout in DIR (interleaved runs)")
    ap.add_argument("--rounds", type=int, default=3, help="--baseline: alternations per row")
    ap.add_argument("--plans", action="store_true",
                    help="per README row: issues run by a plan, general-path fallbacks and their mnemonics")
    ap.add_argument("--case", default=None, help=argparse.SUPPRESS)  # one summary row, CPU figure only
    args = ap.parse_args()
    if not args.profile:
        warm_up()
    if args.case:
        make_sim = dict(summary_cases(args.iters))[args.case]
        n, _dt, _sim, cpu = best_of(make_sim, args.repeat)
        print(f"{n / max(cpu, 1e-9):.1f}")
        return 0
    if args.plans:
        print(f"{'program':<32} {'planned':>8} {'fallbacks':>9} {'engine ops':>10} {'in ALU runs':>11} "
              f"{'compiled':>8}  fallbacks by mnemonic")
        for label, make_sim in summary_cases(args.iters):
            if args.only not in label:
                continue
            sim = make_sim()
            sim.run()
            st = sim.engine.plan_stats()
            by = ", ".join(f"{m} {n}" for m, n in list(st["fallbacks_by_mnemonic"].items())[:6])
            runs = st["alu_runs"]
            compiled = st.get("compiled", {}).get("issues", 0)  # (the compiled issue loop: numba loaded)
            print(f"{label:<32} {st['planned']:>8} {st['fallbacks']:>9} {st['engine_ops']:>10} {runs['issues']:>11} "
                  f"{compiled:>8}  {by}", flush=True)
        return 0
    if args.baseline:
        baseline(os.path.abspath(args.baseline), args.iters, args.rounds, args.repeat, args.only)
        return 0
    if args.summary:
        print(HEADER)
        for label, make_sim in summary_cases(args.iters):
            if args.only not in label:
                continue
            n, dt, sim, cpu = best_of(make_sim, args.repeat)
            print(row(label, n, dt, sim, cpu), flush=True)
        return 0
    cases = [(name, program(body, args.iters), False) for name, body in BODIES.items()]
    cases.append(("timing", program(BODIES["alu-loop"], args.iters), True))
    if args.profile:
        loops = {n: (s, strip) for n, s, strip in cases}
        if args.profile in loops:
            src, strip = loops[args.profile]
            maker = lambda: make(src, args.waves, strip)  # noqa: E731
        elif args.profile == "igemm":
            maker = make_igemm
        else:
            paths = [p for p in bundled() if os.path.basename(p) in (args.profile, args.profile + ".s")]
            if not paths:
                ap.error(f"--profile: no loop or bundled program named {args.profile!r}")
            maker = lambda: make_bundled(paths[0])  # noqa: E731
        # one unprofiled run of the same program first, as the table's figures have (best of
        # --repeat): a cold profile charges the process's imports and the first fill of
        # process-wide memos (LDS bank conflicts: np.unique) to the run, which misled a round
        # of this work into optimising costs a real batch of runs pays once
        maker().run()
        profile(maker(), args.sort, args.top)
        return 0
    print(f"{'program':<26} {'waves':>5} {'wave-instr':>10} {'cycles':>9} {'seconds':>8} {'wave-instr/s':>13} "
          f"{'cpu-instr/s':>12}")
    for name, src, strip in cases:
        if args.only not in name:
            continue
        for waves in (1, 4):
            n, dt, sim, cpu = best_of(lambda: make(src, waves, strip), args.repeat)
            print(f"{name:<26} {waves:>5} {n:>10} {sim.cycles:>9} {dt:>8.3f} {n / dt:>13,.0f} "
                  f"{n / max(cpu, 1e-9):>12,.0f}", flush=True)
    for path in bundled():
        name = os.path.basename(path)
        if args.only not in name:
            continue
        try:
            n, dt, sim, cpu = best_of(lambda: make_bundled(path), args.repeat)
        except Exception as e:  # a program that does not run is reported, not hidden
            print(f"{name:<26} {'':>5} failed: {str(e).splitlines()[0][:60]}")
            continue
        print(f"{name:<26} {len(sim.waves):>5} {n:>10} {sim.cycles:>9} {dt:>8.3f} {n / dt:>13,.0f} "
              f"{n / max(cpu, 1e-9):>12,.0f}", flush=True)
    if "igemm".startswith(args.only) or args.only in "igemm":
        n, dt, sim, cpu = best_of(make_igemm, args.repeat)
        print(f"{'igemm (MIOpen, 1 WG)':<26} {len(sim.waves):>5} {n:>10} {sim.cycles:>9} {dt:>8.3f} "
              f"{n / dt:>13,.0f} {n / max(cpu, 1e-9):>12,.0f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
