#!/usr/bin/env python3
"""Time gcnemu's MFMA execution per instruction (pack -> execute -> unpack excluded).

Why: the simulator calls ``execute`` once per MFMA issued, so its cost bounds
how fast MFMA-heavy kernels can be stepped.  Prints milliseconds per call.

    python benchmarks/bench_mfma.py [--arch gfx942] [--repeat 20]
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from gcnemu.isa import mfma as M
from gcnemu.sim.mfma_exec import execute


def operands(info: M.MfmaInfo, rng: np.random.Generator) -> tuple[list[np.ndarray], dict]:
    regs = []
    for op in ("A", "B", "C"):
        et = info.element_type(op)
        if et.is_int:
            vals = rng.integers(-100, 100, size=info.shape(op))
        else:
            vals = rng.uniform(-2, 2, size=info.shape(op))
        regs.append(M.pack(info, op, vals))
    kw = {"sparse_index": M.pack_sparse_index(info, np.tile([0, 2], info.m * info.a_k // 2)
                                              .reshape(info.shape("A")))} if info.sparse else {}
    return regs, kw


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", default=None, help="one target (default: all)")
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    targets = [M.normalize_target(args.arch)] if args.arch else list(M.TARGETS)
    for t in targets:
        for info in M.catalog(t):
            regs, kw = operands(info, rng)
            execute(info, *regs, **kw)
            t0 = time.perf_counter()
            for _ in range(args.repeat):
                execute(info, *regs, **kw)
            ms = 1e3 * (time.perf_counter() - t0) / args.repeat
            print(f"{t:7s} {info.name:38s} {ms:7.3f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
