"""Cost of LDS race detection (issue 22: at most 1.5x the run time without it).

    python benchmarks/bench_races.py [--repeat 3]

Runs the flagship GEMM tile and the MIOpen iGEMM program with race detection on and off, in
one process, alternating, and prints the best time of each and their ratio. Quote the ratio:
the machines are shared and absolute times are noisy.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gcnemu.snippets.runner import load_snippet  # noqa: E402

PROGRAMS = ["programs/gemm_lds_dma_gfx942.s", "programs/miopen_igemm/conv1x1_fwd_nhwc_fp16.s"]


def _time(snippet, kernel, race_check: bool) -> tuple[float, int]:
    t0 = time.perf_counter()
    sim = snippet.simulate(kernel, race_check=race_check)
    return time.perf_counter() - t0, sum(1 for h in sim.hazards if h.rule == "lds-race")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"{'program':50} {'off (s)':>8} {'on (s)':>8} {'ratio':>6} races")
    for name in PROGRAMS:
        snippet = load_snippet(str(ROOT / name))
        kernel = snippet.kernel()
        off, on, races = [], [], 0
        for _ in range(args.repeat):
            off.append(_time(snippet, kernel, False)[0])
            t, races = _time(snippet, kernel, True)
            on.append(t)
        print(f"{name:50} {min(off):8.2f} {min(on):8.2f} {min(on) / min(off):6.2f} {races}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
