#!/usr/bin/env python3
"""Emulation speed on the flagship GEMM kernels, timing on (issue 9's proof).

Runs programs/gemm_lds_dma_gfx942.s and programs/gemm_lds_dma_gfx90a.s (and, for
comparison, the FMA kernel sgemm_vector.s) on the setup their headers bundle, the way
`gcnemu run` does, and reports:

  wave-instr/s   wave-instructions executed per second of wall time (the engine's issue
                 loop with semantics, the memory system, MFMA numerics and the dynamic
                 hazard monitor all on)
  cycles/s       simulated clock cycles per second
  setup          parse + resolve + header evaluation, once per file (not in the rates)

plus the kernel's own figures (cycles, MFMA utilisation), so a speed change can be told
apart from a change in what was simulated. The result is checked after every run: a fast
wrong run is not a measurement.

    python benchmarks/bench_gemm.py [--repeat 5] [--only gfx942] [--profile]

Figures are printed, never asserted.
"""
from __future__ import annotations

import argparse
import cProfile
import importlib.util
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if importlib.util.find_spec("gcnemu") is None:  # not installed: run from the checkout
    sys.path.insert(0, str(ROOT))
KERNELS = ["gemm_lds_dma_gfx942", "gemm_lds_dma_gfx90a", "sgemm_vector"]


def measure(name: str, repeat: int) -> dict:
    from gcnemu.sim.engine import kernel_stats
    from gcnemu.snippets.expectations import check
    from gcnemu.snippets.runner import load_snippet

    t0 = time.perf_counter()
    snippet = load_snippet(str(ROOT / "programs" / f"{name}.s"))
    kernel = snippet.kernel()
    setup_s = time.perf_counter() - t0
    times, sim = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        sim = snippet.simulate(kernel)
        times.append(time.perf_counter() - t0)
        failures = check(snippet, sim)
        if sim.error is not None or failures:
            raise SystemExit(f"{name}: the run is wrong ({sim.error or failures[0].message}); not a measurement")
    st = kernel_stats(sim.engine)
    best = min(times)
    return {"name": name, "target": snippet.target, "instructions": st["instructions"], "cycles": st["cycles"],
            "mfma_util": st["mfma_utilisation"], "best_s": best, "median_s": statistics.median(times),
            "wave_instr_per_s": st["instructions"] / best, "cycles_per_s": st["cycles"] / best, "setup_s": setup_s}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs per kernel (the best one is reported)")
    ap.add_argument("--only", default="", help="only kernels whose name contains this")
    ap.add_argument("--profile", action="store_true", help="cProfile one run of the first kernel")
    args = ap.parse_args(argv)
    names = [n for n in KERNELS if args.only in n]
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        measure(names[0], 1)
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
        return 0
    print(f"{'kernel':<22} {'target':<7} {'wave-instr':>10} {'cycles':>7} {'mfma util':>9} "
          f"{'best s':>7} {'median s':>8} {'wave-instr/s':>12} {'cycles/s':>10} {'setup s':>7}")
    for n in names:
        r = measure(n, args.repeat)
        print(f"{r['name']:<22} {r['target']:<7} {r['instructions']:>10} {r['cycles']:>7} {r['mfma_util']:>9.3f} "
              f"{r['best_s']:>7.3f} {r['median_s']:>8.3f} {r['wave_instr_per_s']:>12,.0f} "
              f"{r['cycles_per_s']:>10,.0f} {r['setup_s']:>7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
