"""Peak memory of `gcnemu run` as a run gets longer: it must stay flat (issues 16 and 18).

    python benchmarks/bench_memory.py [--short 250000] [--long 2000000]

Runs a jump-back ALU loop for --short and --long executed instructions, each in a fresh process,
and prints peak RSS of both and their ratio (1.0x is flat), then the same for `gcnemu timeline`,
which keeps the per-issue history on purpose (its table needs it). Quote ratios from one run:
the machines are shared.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LOOP = """\ts_mov_b32 s0, 0
loop:
\tv_add_u32 v1, v1, v1
\ts_add_u32 s0, s0, 1
\ts_cmp_lt_u32 s0, 100000000
\ts_cbranch_scc1 loop
\ts_endpgm
"""


def peak(argv: list[str]) -> tuple[float, float]:
    """(peak RSS in MB, wall seconds) of one gcnemu process."""
    t = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "gcnemu", *argv], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _status, usage = os.wait4(p.pid, 0)
    return usage.ru_maxrss / 1024, time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--short", type=int, default=250_000)
    ap.add_argument("--long", type=int, default=2_000_000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "loop.s"
        f.write_text(LOOP)
        print(f"{'command':<10} {'instructions':>12} {'peak MB':>8} {'seconds':>8}")
        for cmd, lengths in (("run", (args.short, args.long)), ("timeline", (args.short, args.short * 2))):
            rows = []
            for n in lengths:
                mb, s = peak([cmd, str(f), "--max-instructions", str(n)])
                rows.append(mb)
                print(f"{cmd:<10} {n:>12} {mb:>8.0f} {s:>8.1f}")
            print(f"{cmd}: peak memory x{rows[1] / rows[0]:.2f} for x{lengths[1] / lengths[0]:.0f} the instructions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
