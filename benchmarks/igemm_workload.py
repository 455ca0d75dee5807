"""One workgroup of a real MIOpen implicit-GEMM convolution kernel, runnable for timing.

Why: the engine's speed target is stated on real generated code, not on our own examples.
The kernel is tests/corpus/miopen/igemm_gfx90a/igemm_fwd_gtcx2_nhwc_fp16_...: forward
convolution, NHWC fp16, a 32x64x32 macro tile on MFMA, 128 threads (2 waves). MIOpen's host
code passes the problem sizes and, for every division the kernel does, a "magic" multiplier
and shift (q = (mulhi(n, magic) + n) >> shift, `.mdiv_u32_*` in the kernel's utils.inc);
`magic_div` computes them the way the kernel's macros consume them.

The sizes are small but valid (1x8x8 input of C channels, K filters of 1x1, stride 1, no
padding), so the loads, the LDS traffic and the MFMA main loop all run; the results are not
checked here (a sibling example checks the convolution end to end).
"""
from __future__ import annotations

import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL = os.path.join(HERE, "..", "tests", "corpus", "miopen", "igemm_gfx90a",
                      "igemm_fwd_gtcx2_nhwc_fp16_bx0_ex0_bt32x64x32_wt16x64x4_ws1x1_wr1x1_ta1x8x1x1_1x4x1x32_"
                      "tb1x8x2x1_1x4x1x32.s")


def magic_div(d: int) -> tuple[int, int]:
    """(magic, shift) with (mulhi32(n, magic) + n) >> shift == n // d for 32-bit n < 2^31."""
    shift = 0
    while (1 << shift) < d:
        shift += 1
    magic = ((1 << 32) * ((1 << shift) - d)) // d + 1
    assert magic <= 0xFFFFFFFF
    return magic, shift


def igemm_kernel():
    """The kernel, parsed and resolved for gfx90a (xnack-), as the corpus test opens it."""
    from gcnemu.asm import parse as parse_mod
    from gcnemu.asm import resolve as resolve_mod
    from gcnemu.asm.resolve import resolve
    parse_mod.DEFSYMS.clear()
    parse_mod.DEFSYMS["ROCM_METADATA_VERSION"] = 5
    resolve_mod.TARGET_FEATURES["xnack"] = False
    try:
        with open(KERNEL, "rb") as f:
            prog = parse_mod.parse(f.read(), KERNEL, target="gfx90a")
        return resolve(prog, "gfx90a")
    finally:
        parse_mod.DEFSYMS.clear()
        resolve_mod.TARGET_FEATURES.clear()


def igemm_simulation(kernel=None, c: int = 256, k: int = 64, hi: int = 8, wi: int = 8, n: int = 1, **kw):
    """A Simulation of workgroup 0 of the forward convolution n x hi x wi x c (*) k x 1 x 1 x c.
    `c` sets the GEMM's K loop: c / 32 iterations of the main loop."""
    from gcnemu.setup import BufferSpec, Setup
    from gcnemu.simulation import Simulation
    kernel = kernel or igemm_kernel()
    rng = np.random.default_rng(1)
    x = rng.integers(-4, 5, size=n * hi * wi * c).astype(np.float16)
    w = rng.integers(-4, 5, size=k * c).astype(np.float16)
    out = np.zeros(n * hi * wi * k, dtype=np.float16)
    dim_mp = -(-(n * hi * wi) // 32) * 32
    dim_np = -(-k // 64) * 64
    blocks = (dim_mp // 32) * (dim_np // 64)
    m0, s0 = magic_div(dim_np // 64)  # block index -> (m block, n block)
    m1, s1 = magic_div(hi * wi)  # gemm m index -> (batch, pixel)
    m2, s2 = magic_div(wi)  # pixel -> (row, column)
    m3, s3 = magic_div(blocks)  # block index -> (group, block in group)
    setup = Setup(workgroup_size=(128, 1, 1))
    setup.buffers += [BufferSpec("in", x), BufferSpec("wei", w), BufferSpec("out", out)]
    setup.args = [("p_in", "in"), ("p_wei", "wei"), ("p_out", "out"),
                  ("hi", hi), ("wi", wi), ("n_", n), ("k", k), ("c", c), ("ho", hi), ("wo", wi),
                  ("stride_h", 1), ("stride_w", 1), ("dilation_h", 1), ("dilation_w", 1), ("pad_h", 0), ("pad_w", 0),
                  ("y_", 1), ("x", 1), ("group", 1), ("magic_0", m0), ("magic_1", m1), ("magic_2", m2),
                  ("magic_3", m3), ("magic_4", 0), ("magic_5", 0),
                  ("shift_pack_0", s0 | s1 << 8 | s2 << 16 | s3 << 24), ("shift_pack_1", 0),
                  ("gemm_k_split", 0), ("__pack_0", 0)]
    return Simulation(kernel, setup, **kw)
