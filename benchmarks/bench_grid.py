"""Grid throughput of `gcnemu run --grid`: workgroups per second with 1, 2, ... worker processes,
measured in one run, and the speedup over one worker.

    python benchmarks/bench_grid.py [--workgroups 128] [--workers 1,2] [--iterations 64]

The kernel is a vector kernel with a compute loop (each workgroup reads its 64 floats, runs
`--iterations` fused multiply-adds on them and writes them back), so a workgroup is a few
hundred wave-instructions, like a small real tile. Work shared between processes should scale
near-linearly on this 2-core machine; the table says how near.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from gcnemu.grid import GridJob, run_grid  # noqa: E402
from gcnemu.snippets.runner import load_snippet  # noqa: E402

KERNEL = """\
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer A: f32[{n}] = arange({n}) -> s[4:5]
//   buffer C: f32[{n}] = zeros({n}) -> s[6:7]
  s_lshl_b32 s9, s2, 6
  v_add_u32 v1, s9, v0
  v_lshlrev_b32 v1, 2, v1
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  s_mov_b32 s10, {iters}
  v_mov_b32 v3, 0
loop:
  v_fmac_f32 v3, v2, v2
  s_sub_u32 s10, s10, 1
  s_cmp_lg_u32 s10, 0
  s_cbranch_scc1 loop
  global_store_dword v1, v3, s[6:7]
  s_endpgm
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workgroups", type=int, default=128)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--iterations", type=int, default=64)
    args = ap.parse_args()
    n = 64 * args.workgroups
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "grid.s"
        path.write_text(KERNEL.format(n=n, iters=args.iterations))
        snippet = load_snippet(str(path))
        kernel = snippet.kernel()
        job = GridJob(str(path), None)
        rows = []
        reference = None
        for w in [int(x) for x in args.workers.split(",")]:
            t = time.perf_counter()
            sim, run = run_grid(snippet, kernel, (args.workgroups, 1, 1), job, jobs=w)
            dt = time.perf_counter() - t
            out = sim.memory.buffer("C").data.copy()
            if reference is None:
                reference = out
            assert np.array_equal(out, reference), "results differ between worker counts"
            instr = sum(r.instructions for r in run.results)
            rows.append((w, dt, args.workgroups / dt, instr / dt))
    base = rows[0][1]
    print(f"grid of {args.workgroups} workgroups x 1 wave, {rows[0][3] * rows[0][1] / args.workgroups:.0f} "
          f"wave-instructions each (same run, same machine)")
    print(f"{'workers':>8} {'wall':>8} {'workgroups/s':>13} {'wave-instr/s':>13} {'speedup':>8}")
    for w, dt, wgs, ips in rows:
        print(f"{w:>8} {dt:>7.2f}s {wgs:>13.1f} {ips:>13,.0f} {base / dt:>7.2f}x")


if __name__ == "__main__":
    main()
