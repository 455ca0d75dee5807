"""Cross-lane ops, bit counts, AGPR moves, 64-bit moves and DPP lane permutations."""
from __future__ import annotations

import numpy as np
import pytest

from semhelpers import RNG, lanes_mask, run, with_edges_u32

U32, U64 = np.uint32, np.uint64
LANES = np.arange(64)
A = with_edges_u32()


def popcount(x) -> np.ndarray:
    return np.array([bin(int(v)).count("1") for v in np.asarray(x)], dtype=np.int64)


def test_lane_id_idiom_and_partial_masks():
    m = RNG.integers(0, 2**64, dtype=np.uint64)
    lo, hi = int(m) & 0xFFFFFFFF, int(m) >> 32
    r = run("""v_mbcnt_lo_u32_b32 v0, -1, 0
v_mbcnt_hi_u32_b32 v0, -1, v0
v_mbcnt_lo_u32_b32 v1, s4, 60
v_mbcnt_hi_u32_b32 v1, s5, v1""", s={4: lo, 5: hi})
    assert (r.v(0) == LANES).all()
    below = [int(m) & ((1 << int(lane)) - 1) for lane in LANES]
    assert (r.v(1) == popcount(below) + 60).all()


def test_mbcnt_counts_active_lanes_below():
    """v_mbcnt with exec as the mask gives each active lane its rank among active lanes (stream compaction)."""
    ex = LANES % 3 == 0
    r = run("v_mbcnt_lo_u32_b32 v0, exec_lo, 0\nv_mbcnt_hi_u32_b32 v0, exec_hi, v0", exec=ex, v={0: 0})
    assert (r.v(0)[ex] == np.arange(ex.sum())).all()


def test_readfirstlane_readlane_writelane():
    ex = (LANES >= 5) & (LANES % 2 == 1)
    r = run("""v_readfirstlane_b32 s0, v0
v_readlane_b32 s1, v0, 62
v_readlane_b32 s2, v0, s10
v_writelane_b32 v1, s3, 7
v_writelane_b32 v1, 12, s11""", v={0: A, 1: 0}, s={10: 70, 3: 0xCAFE, 11: 2}, exec=ex)
    assert r.s(0) == A[5], "the first lane EXEC enables"
    assert r.s(1) == A[62], "readlane ignores EXEC"
    assert r.s(2) == A[70 & 63], "the lane is S1[5:0]"
    want = np.zeros(64, U32)
    want[7], want[2] = 0xCAFE, 12
    assert (r.v(1) == want).all(), "writelane writes one lane whatever EXEC says"


def test_readfirstlane_with_exec_zero_reads_lane_0():
    r = run("v_readfirstlane_b32 s0, v0", v={0: A}, exec=0)
    assert r.s(0) == A[0]


def test_bit_counting():
    x = A.copy()
    x[:4] = [0, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF]
    r = run("""v_bcnt_u32_b32 v1, v0, 3
v_ffbh_u32 v2, v0
v_ffbl_b32 v3, v0
v_ffbh_i32 v4, v0
v_bfrev_b32 v5, v0""", v={0: x})
    assert (r.v(1) == popcount(x) + 3).all()
    clz = np.array([32 - int(v).bit_length() if v else -1 for v in x]) & 0xFFFFFFFF
    assert (r.v(2) == clz).all()
    ctz = np.array([(int(v) & -int(v)).bit_length() - 1 if v else -1 for v in x]) & 0xFFFFFFFF
    assert (r.v(3) == ctz).all()
    flip = np.where(x >> 31, ~x, x)
    assert (r.v(4) == np.array([32 - int(v).bit_length() if v else -1 for v in flip]) & 0xFFFFFFFF).all()
    assert (r.v(5) == np.array([int(f"{int(v):032b}"[::-1], 2) for v in x])).all()


@pytest.mark.parametrize("target", ["gfx908", "gfx90a", "gfx942", "gfx950"])
def test_accvgpr_moves(target):
    mov = "v_accvgpr_mov_b32 a3, a1\n" if target != "gfx908" else ""
    r = run(f"""v_accvgpr_write_b32 a1, v0
v_accvgpr_write_b32 a2, 7
{mov}v_accvgpr_read_b32 v1, a1""", v={0: A, 1: 0}, target=target, exec=LANES < 40)
    assert (r.a(1)[:40] == A[:40]).all() and (r.a(2)[:40] == 7).all()
    assert (r.v(1) == np.where(LANES < 40, A, 0)).all()
    if mov:
        assert (r.a(3)[:40] == A[:40]).all()


def test_swap_b32_is_exec_masked():
    b = A[::-1].copy()
    ex = LANES % 2 == 0
    r = run("v_swap_b32 v0, v1", v={0: A, 1: b}, exec=ex)
    assert (r.v(0) == np.where(ex, b, A)).all() and (r.v(1) == np.where(ex, A, b)).all()


@pytest.mark.parametrize("target", ["gfx942", "gfx950"])
def test_mov_b64(target):
    x = RNG.integers(0, 2**64, 64, dtype=np.uint64)
    r = run("v_mov_b64 v[2:3], v[0:1]\nv_mov_b64 v[4:5], 1.0\nv_mov_b64 v[6:7], -1", v={"v[0:1]": x},
            target=target)
    assert (r.v64(2) == x).all()
    assert (r.v64(4) == 0x3FF0000000000000).all()
    assert (r.v64(6) == 2**64 - 1).all()


def test_pk_mov_b32_op_sel():
    x = RNG.integers(0, 2**64, 64, dtype=np.uint64)
    y = RNG.integers(0, 2**64, 64, dtype=np.uint64)
    r = run("v_pk_mov_b32 v[4:5], v[0:1], v[2:3] op_sel:[1,0]\nv_pk_mov_b32 v[6:7], v[0:1], s[8:9] op_sel:[0,1]",
            v={"v[0:1]": x, "v[2:3]": y}, s={"s[8:9]": 0x1111_2222_3333_4444})
    lo32 = np.uint64(0xFFFFFFFF)
    assert (r.v64(4) == (x >> np.uint64(32)) | ((y & lo32) << np.uint64(32))).all()
    assert (r.v64(6) == (x & lo32) | (np.uint64(0x11112222) << np.uint64(32))).all()


# ---------------------------------------------------------------- DPP


def dpp_ref(src: np.ndarray, ctrl, old: np.ndarray, exec_=None, row_mask=0xF, bank_mask=0xF, bound_ctrl=False):
    """Reference lane permutation: lane i reads lane src_lane(i); invalid sources: 0 (bound_ctrl) or no write."""
    exec_ = np.ones(64, bool) if exec_ is None else exec_
    out = old.copy()
    for i in range(64):
        row, pos = i // 16, i % 16
        j = ctrl(i, row, pos)
        enabled = exec_[i] and (row_mask >> row) & 1 and (bank_mask >> (pos // 4)) & 1
        if not enabled:
            continue
        if j is None or not exec_[j]:
            if bound_ctrl:
                out[i] = 0
            continue
        out[i] = src[j]
    return out


DPP_CASES = {
    "quad_perm:[3,2,1,0]": lambda i, r, p: (i & ~3) + [3, 2, 1, 0][i & 3],
    "row_shl:1": lambda i, r, p: i + 1 if p + 1 < 16 else None,
    "row_shr:3": lambda i, r, p: i - 3 if p >= 3 else None,
    "row_ror:5": lambda i, r, p: r * 16 + (p - 5) % 16,
    "wave_shl:1": lambda i, r, p: i + 1 if i < 63 else None,
    "wave_shr:1": lambda i, r, p: i - 1 if i > 0 else None,
    "wave_rol:1": lambda i, r, p: (i + 1) % 64,
    "wave_ror:1": lambda i, r, p: (i - 1) % 64,
    "row_mirror": lambda i, r, p: r * 16 + 15 - p,
    "row_half_mirror": lambda i, r, p: (i & ~7) + 7 - (i & 7),
    "row_bcast:15": lambda i, r, p: r * 16 - 1 if r >= 1 else None,
    "row_bcast:31": lambda i, r, p: 31 if r >= 2 else None,
}


@pytest.mark.parametrize("ctrl", sorted(DPP_CASES))
def test_dpp_controls(ctrl):
    old = np.full(64, 0xEEEEEEEE, U32)
    r = run(f"v_mov_b32_dpp v1, v0 {ctrl} row_mask:0xf bank_mask:0xf", v={0: A, 1: old})
    assert (r.v(1) == dpp_ref(A, DPP_CASES[ctrl], old)).all()


def test_dpp_masks_bound_ctrl_and_exec():
    old = np.full(64, 0xEEEEEEEE, U32)
    ex = LANES % 7 != 3
    r = run("""v_add_u32_dpp v1, v0, v2 row_shr:1 row_mask:0xa bank_mask:0x5
v_mov_b32_dpp v3, v0 row_shr:2 row_mask:0xf bank_mask:0xf bound_ctrl:0""",
            v={0: A, 1: old, 2: 1000, 3: old}, exec=ex)
    shifted = dpp_ref(A, lambda i, r, p: i - 1 if p >= 1 else None, old, ex, 0xA, 0x5)
    want = np.where(shifted != old, (shifted.astype(np.uint64) + 1000).astype(U32), old)
    # lanes whose permuted source happened to equal `old` cannot occur: A has no 0xEEEEEEEE lanes
    assert (r.v(1) == want).all()
    want3 = dpp_ref(A, lambda i, r, p: i - 2 if p >= 2 else None, old, ex, bound_ctrl=True)
    assert (r.v(3) == want3).all(), "bound_ctrl: invalid sources read 0"


def test_dpp_row_prefix_sum_idiom():
    """Inclusive prefix sum within rows of 16 (Hillis-Steele with row_shr 1, 2, 4, 8): lanes without a source
    are not written, so they keep their already complete partial sums."""
    x = RNG.integers(0, 1000, 64).astype(U32)
    r = run("""v_add_u32_dpp v0, v0, v0 row_shr:1
v_add_u32_dpp v0, v0, v0 row_shr:2
v_add_u32_dpp v0, v0, v0 row_shr:4
v_add_u32_dpp v0, v0, v0 row_shr:8""", v={0: x})
    assert (r.v(0) == np.cumsum(x.reshape(4, 16), axis=1).reshape(-1)).all()


@pytest.mark.parametrize("target", ["gfx90a", "gfx942"])
def test_dpp_row_newbcast_64bit(target):
    x = RNG.integers(0, 2**64, 64, dtype=np.uint64)
    asm = "v_mov_b64_dpp v[2:3], v[0:1] row_newbcast:5" if target == "gfx942" else \
        "v_mov_b32_dpp v2, v0 row_newbcast:5"
    r = run(asm, v={"v[0:1]": x, "v[2:3]": np.uint64(0)}, target=target)
    src = (LANES & ~15) + 5
    if target == "gfx942":
        assert (r.v64(2) == x[src]).all()
    else:
        assert (r.v(2) == (x & np.uint64(0xFFFFFFFF)).astype(U32)[src]).all()


def test_exec_lanes_mask_helper_roundtrip():
    bits = RNG.integers(0, 2, 64).astype(bool)
    r = run("s_mov_b64 s[0:1], exec", exec=bits)
    assert r.s64(0) == lanes_mask(bits)
