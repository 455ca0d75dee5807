"""Vector integer ALU semantics against numpy references: EXEC masking, carries, clamp, e32/e64 forms."""
from __future__ import annotations

import numpy as np
import pytest

from semhelpers import RNG, lanes_mask, rand_u32, run, with_edges_u32

U32, U64, I64 = np.uint32, np.uint64, np.int64
M32 = 0xFFFFFFFF
LANES = np.arange(64)
OLD = np.full(64, 0xA5A5A5A5, dtype=U32)  # destination before the instruction
EXEC_HALF = (LANES % 3 != 0)  # an irregular EXEC


def i32(x):
    return np.asarray(x, dtype=U32).view(np.int32).astype(I64)


def masked(want, exec_=EXEC_HALF, old=OLD):
    return np.where(exec_, np.asarray(want, dtype=I64) & M32, old).astype(U32)


A = with_edges_u32()
B = with_edges_u32()[::-1].copy()
C = rand_u32()

BINARY = {
    "v_add_u32": lambda a, b: a.astype(I64) + b,
    "v_sub_u32": lambda a, b: a.astype(I64) - b,
    "v_subrev_u32": lambda a, b: b.astype(I64) - a,
    "v_mul_lo_u32": lambda a, b: (a.astype(U64) * b.astype(U64)) & U64(M32),
    "v_mul_hi_u32": lambda a, b: (a.astype(U64) * b.astype(U64)) >> U64(32),
    "v_mul_hi_i32": lambda a, b: (i32(a) * i32(b)) >> 32,
    "v_mul_u32_u24": lambda a, b: ((a & 0xFFFFFF).astype(U64) * (b & 0xFFFFFF).astype(U64)) & U64(M32),
    "v_mul_hi_u32_u24": lambda a, b: ((a & 0xFFFFFF).astype(U64) * (b & 0xFFFFFF).astype(U64)) >> U64(32),
    "v_mul_i32_i24": lambda a, b: sext24(a) * sext24(b),
    "v_and_b32": lambda a, b: a & b, "v_or_b32": lambda a, b: a | b, "v_xor_b32": lambda a, b: a ^ b,
    "v_xnor_b32": lambda a, b: ~(a ^ b),
    "v_lshlrev_b32": lambda a, b: b.astype(U64) << (a & 31).astype(U64),
    "v_lshrrev_b32": lambda a, b: b >> (a & 31),
    "v_ashrrev_i32": lambda a, b: i32(b) >> (a & 31).astype(I64),
    "v_min_u32": np.minimum, "v_max_u32": np.maximum,
    "v_min_i32": lambda a, b: np.minimum(i32(a), i32(b)), "v_max_i32": lambda a, b: np.maximum(i32(a), i32(b)),
    "v_bfm_b32": lambda a, b: ((U64(1) << (a & 31).astype(U64)) - U64(1)) << (b & 31).astype(U64),
}


def sext24(x):
    v = (x & 0xFFFFFF).astype(I64)
    return np.where(v >= 1 << 23, v - (1 << 24), v)


@pytest.mark.parametrize("op", sorted(BINARY))
def test_vop2_binary_exec_masked(op):
    """VGPR sources, EXEC with holes: disabled lanes keep the destination's old value."""
    r = run(f"{op} v2, v0, v1", v={0: A, 1: B, 2: OLD}, exec=EXEC_HALF)
    assert (r.v(2) == masked(BINARY[op](A, B))).all()


@pytest.mark.parametrize("op", ["v_add_u32", "v_sub_u32", "v_lshlrev_b32", "v_and_b32", "v_max_i32"])
def test_e64_form_with_sgpr_and_constant(op):
    """The VOP3 form takes an SGPR in src1 and the same results follow."""
    r = run(f"{op}_e64 v2, v0, s4\n{op} v3, -7, v1\n{op}_e32 v4, s5, v1",
            v={0: A, 1: B}, s={4: 0x80000001, 5: 33})
    full = np.ones(64, dtype=bool)
    assert (r.v(2) == masked(BINARY[op](A, np.full(64, 0x80000001, U32)), full)).all()
    assert (r.v(3) == masked(BINARY[op](np.full(64, 0xFFFFFFF9, U32), B), full)).all()
    assert (r.v(4) == masked(BINARY[op](np.full(64, 33, U32), B), full)).all()


def test_clamp_saturates_unsigned_and_signed():
    r = run("""v_add_u32_e64 v2, v0, v1 clamp
v_sub_u32_e64 v3, v0, v1 clamp
v_add_i32 v4, v0, v1 clamp
v_sub_i32 v5, v0, v1 clamp""", v={0: A, 1: B})
    assert (r.v(2) == np.minimum(A.astype(I64) + B, M32)).all()
    assert (r.v(3) == np.maximum(A.astype(I64) - B, 0)).all()
    assert (r.v(4) == np.clip(i32(A) + i32(B), -2**31, 2**31 - 1).astype(np.int32).view(U32)).all()
    assert (r.v(5) == np.clip(i32(A) - i32(B), -2**31, 2**31 - 1).astype(np.int32).view(U32)).all()


def bits_of(mask_value: int) -> np.ndarray:
    return ((np.uint64(mask_value) >> LANES.astype(U64)) & U64(1)).astype(bool)


@pytest.mark.parametrize("form", ["vcc", "sgpr"])
def test_add_co_and_addc_64bit_add(form):
    """v_add_co_u32 / v_addc_co_u32 add 64-bit lanes; carries go to VCC or an SGPR pair; disabled lanes read 0."""
    x = RNG.integers(0, 2**64, 64, dtype=np.uint64)
    y = RNG.integers(0, 2**64, 64, dtype=np.uint64)
    x[:4] = [2**64 - 1, 2**32 - 1, 0, 2**63]
    y[:4] = [1, 1, 0, 2**63]
    if form == "vcc":
        asm = "v_add_co_u32 v4, vcc, v0, v2\nv_addc_co_u32 v5, vcc, v1, v3, vcc"
        slot = 106
    else:
        asm = "v_add_co_u32_e64 v4, s[10:11], v0, v2\nv_addc_co_u32_e64 v5, s[12:13], v1, v3, s[10:11]"
        slot = 12
    r = run(asm, v={"v[0:1]": x, "v[2:3]": y}, exec=EXEC_HALF)
    got = r.v64(4)
    assert (got[EXEC_HALF] == (x + y)[EXEC_HALF]).all()
    carry = ((x >> U64(32)) + (y >> U64(32)) + (((x & U64(M32)) + (y & U64(M32))) >> U64(32))) >> U64(32)
    assert (r.mask(slot) == (carry.astype(bool) & EXEC_HALF)).all()


def test_sub_co_family_borrows():
    cin = RNG.integers(0, 2, 64).astype(bool)
    r = run("""v_sub_co_u32 v2, vcc, v0, v1
v_subrev_co_u32_e64 v3, s[10:11], v0, v1
v_subb_co_u32_e64 v4, s[12:13], v0, v1, s[20:21]
v_subbrev_co_u32_e64 v5, s[14:15], v0, v1, s[20:21]""", v={0: A, 1: B}, s={"s[20:21]": lanes_mask(cin)})
    a, b, c = A.astype(I64), B.astype(I64), cin.astype(I64)
    assert (r.v(2) == ((a - b) & M32)).all() and (r.mask(106) == (a < b)).all()
    assert (r.v(3) == ((b - a) & M32)).all() and (r.mask(10) == (b < a)).all()
    assert (r.v(4) == ((a - b - c) & M32)).all() and (r.mask(12) == (a < b + c)).all()
    assert (r.v(5) == ((b - a - c) & M32)).all() and (r.mask(14) == (b < a + c)).all()


def test_three_source_integer_ops():
    r = run("""v_add3_u32 v3, v0, v1, v2
v_xad_u32 v4, v0, v1, v2
v_lshl_add_u32 v5, v0, 5, v2
v_add_lshl_u32 v6, v0, v1, 3
v_lshl_or_b32 v7, v0, 7, v2
v_and_or_b32 v8, v0, v1, v2
v_or3_b32 v9, v0, v1, v2
v_bfi_b32 v10, v0, v1, v2
v_mad_u32_u24 v11, v0, v1, v2
v_mad_i32_i24 v12, v0, v1, v2""", v={0: A, 1: B, 2: C})
    a, b, c = A.astype(U64), B.astype(U64), C.astype(U64)
    m = U64(M32)
    assert (r.v(3) == ((a + b + c) & m)).all()
    assert (r.v(4) == (((a ^ b) + c) & m)).all()
    assert (r.v(5) == (((a << U64(5)) + c) & m)).all()
    assert (r.v(6) == (((a + b) << U64(3)) & m)).all()
    assert (r.v(7) == (((a << U64(7)) | c) & m)).all()
    assert (r.v(8) == ((a & b) | c)).all()
    assert (r.v(9) == (a | b | c)).all()
    assert (r.v(10) == ((a & b) | (~a & c)) & m).all()
    assert (r.v(11) == (((a & U64(0xFFFFFF)) * (b & U64(0xFFFFFF)) + c) & m)).all()
    assert (r.v(12) == ((sext24(A) * sext24(B) + C.astype(I64)) & M32)).all()


def test_mad_u64_u32_and_i64_i32():
    c64 = RNG.integers(0, 2**64, 64, dtype=np.uint64)
    c64[0] = 2**64 - 1
    r = run("""v_mad_u64_u32 v[4:5], s[10:11], v0, v1, v[2:3]
v_mad_i64_i32 v[6:7], s[12:13], v0, v1, v[2:3]""", v={0: A, 1: B, "v[2:3]": c64})
    exact = [int(a) * int(b) + int(c) for a, b, c in zip(A, B, c64)]
    assert [int(v) for v in r.v64(4)] == [e & (2**64 - 1) for e in exact]
    assert (r.mask(10) == np.array([e >= 2**64 for e in exact])).all()
    c_signed = [int(c) - 2**64 if int(c) >= 2**63 else int(c) for c in c64]
    exact_s = [int(x) * int(y) + c for x, y, c in zip(i32(A), i32(B), c_signed)]
    assert [int(v) for v in r.v64(6)] == [e & (2**64 - 1) for e in exact_s]
    assert (r.mask(12) == np.array([not -2**63 <= e < 2**63 for e in exact_s])).all()


def test_64bit_shifts():
    x = RNG.integers(0, 2**64, 64, dtype=np.uint64)
    n = np.arange(64, dtype=U32) + 3  # includes amounts >= 64 (masked to 6 bits)
    r = run("""v_lshlrev_b64 v[2:3], v4, v[0:1]
v_lshrrev_b64 v[6:7], v4, v[0:1]
v_ashrrev_i64 v[8:9], v4, v[0:1]""", v={"v[0:1]": x, 4: n})
    s = (n & 63).astype(U64)
    assert (r.v64(2) == x << s).all()
    assert (r.v64(6) == x >> s).all()
    assert (r.v64(8).view(np.int64) == x.view(np.int64) >> s.astype(I64)).all()


@pytest.mark.parametrize("target", ["gfx942", "gfx950"])
def test_lshl_add_u64(target):
    x = RNG.integers(0, 2**62, 64, dtype=np.uint64)
    y = RNG.integers(0, 2**63, 64, dtype=np.uint64)
    r = run("v_lshl_add_u64 v[4:5], v[0:1], 3, v[2:3]", target=target, v={"v[0:1]": x, "v[2:3]": y})
    assert (r.v64(4) == (x << U64(3)) + y).all()


def test_bfe_alignbit_alignbyte():
    off = RNG.integers(0, 32, 64).astype(U32)
    width = RNG.integers(0, 32, 64).astype(U32)
    r = run("""v_bfe_u32 v4, v0, v2, v3
v_bfe_i32 v5, v0, v2, v3
v_alignbit_b32 v6, v0, v1, v2
v_alignbyte_b32 v7, v0, v1, v2""", v={0: A, 1: B, 2: off, 3: width})
    field = (A >> off) & ((U64(1) << width.astype(U64)) - U64(1)).astype(U32)
    assert (r.v(4) == field).all()
    sfield = (i32(A) >> off.astype(I64)) & ((1 << width.astype(I64)) - 1)
    sfield = np.where((width > 0) & (sfield >> np.maximum(width.astype(I64) - 1, 0) & 1 == 1),
                      sfield - (1 << width.astype(I64)), sfield)
    assert (r.v(5) == (np.where(width == 0, 0, sfield) & M32)).all()
    wide = (A.astype(U64) << U64(32)) | B.astype(U64)
    assert (r.v(6) == ((wide >> off.astype(U64)) & U64(M32))).all()
    assert (r.v(7) == ((wide >> (U64(8) * (off & 3).astype(U64))) & U64(M32))).all()


def perm_ref(s0: int, s1: int, sel: int) -> int:
    data = (s0 << 32) | s1
    out = 0
    for k in range(4):
        b = (sel >> (8 * k)) & 0xFF
        if b >= 13:
            v = 0xFF
        elif b == 12:
            v = 0
        elif b >= 8:
            v = 0xFF * ((data >> {8: 15, 9: 31, 10: 47, 11: 63}[b]) & 1)
        else:
            v = (data >> (8 * b)) & 0xFF
        out |= v << (8 * k)
    return out


def test_perm_b32_all_selectors():
    sel = np.array([int.from_bytes(bytes(RNG.integers(0, 16, 4).tolist()), "little") for _ in range(64)], U32)
    sel[0] = 0x0C0D0B08
    sel[1] = 0x07060504
    r = run("v_perm_b32 v3, v0, v1, v2", v={0: A, 1: B, 2: sel})
    assert [int(x) for x in r.v(3)] == [perm_ref(int(a), int(b), int(s)) for a, b, s in zip(A, B, sel)]


@pytest.mark.parametrize("t", ["u32", "i32", "u16", "i16"])
def test_min3_max3_med3(t):
    conv = {"u32": lambda x: x.astype(I64), "i32": i32, "u16": lambda x: (x & 0xFFFF).astype(I64),
            "i16": lambda x: (x & 0xFFFF).astype(U32).astype(np.uint16).view(np.int16).astype(I64)}[t]
    r = run(f"v_min3_{t} v3, v0, v1, v2\nv_max3_{t} v4, v0, v1, v2\nv_med3_{t} v5, v0, v1, v2",
            v={0: A, 1: B, 2: C})
    a, b, c = conv(A), conv(B), conv(C)
    bits = 0xFFFF if t.endswith("16") else M32
    assert (r.v(3) == (np.minimum(np.minimum(a, b), c) & bits)).all()
    assert (r.v(4) == (np.maximum(np.maximum(a, b), c) & bits)).all()
    assert (r.v(5) == (np.sort(np.stack([a, b, c]), axis=0)[1] & bits)).all()


def test_sad_family_and_lerp():
    r = run("""v_sad_u32 v3, v0, v1, v2
v_sad_u8 v4, v0, v1, v2
v_sad_hi_u8 v5, v0, v1, v2
v_sad_u16 v6, v0, v1, v2
v_msad_u8 v7, v0, v1, v2
v_lerp_u8 v8, v0, v1, v2""", v={0: A, 1: B, 2: C & 0xFFFF})
    a, b, c = A.astype(I64), B.astype(I64), (C & 0xFFFF).astype(I64)
    byte = lambda x, k: (x >> (8 * k)) & 0xFF  # noqa: E731
    word = lambda x, k: (x >> (16 * k)) & 0xFFFF  # noqa: E731
    sad8 = sum(np.abs(byte(a, k) - byte(b, k)) for k in range(4))
    assert (r.v(3) == ((np.abs(a - b) + c) & M32)).all()
    assert (r.v(4) == sad8 + c).all()
    assert (r.v(5) == (sad8 << 16) + c).all()
    assert (r.v(6) == sum(np.abs(word(a, k) - word(b, k)) for k in range(2)) + c).all()
    assert (r.v(7) == sum(np.where(byte(b, k) == 0, 0, np.abs(byte(a, k) - byte(b, k))) for k in range(4)) + c).all()
    assert (r.v(8) == sum(((byte(a, k) + byte(b, k) + (byte(c, k) & 1)) >> 1) << (8 * k) for k in range(4))).all()


def test_16bit_ops_zero_the_high_half_and_clamp():
    r = run("""v_add_u16 v2, v0, v1
v_sub_u16 v3, v0, v1
v_mul_lo_u16 v4, v0, v1
v_lshlrev_b16 v5, v0, v1
v_ashrrev_i16 v6, v0, v1
v_add_u16_e64 v7, v0, v1 clamp
v_sub_i16 v8, v0, v1 clamp
v_max_i16 v9, v0, v1
v_mad_u16 v10, v0, v1, v2
v_mad_u32_u16 v11, v0, v1, v2""", v={0: A, 1: B, **{k: OLD for k in range(3, 12)}})
    a, b = (A & 0xFFFF).astype(I64), (B & 0xFFFF).astype(I64)
    sa, sb = [(x ^ 0x8000) - 0x8000 for x in (a, b)]
    assert (r.v(2) == ((a + b) & 0xFFFF)).all(), "high half zeroed on gfx9"
    assert (r.v(3) == ((a - b) & 0xFFFF)).all()
    assert (r.v(4) == ((a * b) & 0xFFFF)).all()
    assert (r.v(5) == ((b << (a & 15)) & 0xFFFF)).all()
    assert (r.v(6) == ((sb >> (a & 15)) & 0xFFFF)).all()
    assert (r.v(7) == np.minimum(a + b, 0xFFFF)).all()
    assert (r.v(8) == (np.clip(sa - sb, -2**15, 2**15 - 1) & 0xFFFF)).all()
    assert (r.v(9) == (np.maximum(sa, sb) & 0xFFFF)).all()
    add16 = (a + b) & 0xFFFF
    assert (r.v(10) == ((a * b + add16) & 0xFFFF)).all()
    assert (r.v(11) == ((a * b + add16) & M32)).all()


def test_op_sel_reads_and_writes_high_halves():
    """gfx9 VOP3 op_sel on a 16-bit op: sources from the high halves, result into the high half (low kept)."""
    r = run("v_mad_u16 v3, v0, v1, v2 op_sel:[1,1,0,1]", v={0: A, 1: B, 2: C, 3: OLD})
    want = (((A >> 16) * (B >> 16)).astype(U64) + (C & 0xFFFF)) & U64(0xFFFF)
    assert (r.v(3) == ((want.astype(U32) << U32(16)) | (OLD & 0xFFFF))).all()


def test_cndmask_vcc_sgpr_and_modifiers():
    cond = RNG.integers(0, 2, 64).astype(bool)
    r = run("""v_cndmask_b32 v2, v0, v1, vcc
v_cndmask_b32_e64 v3, v0, 5, s[10:11]
v_cndmask_b32_e64 v4, -v0, |v1|, s[10:11]""", v={0: A, 1: B}, vcc=cond, s={"s[10:11]": lanes_mask(~cond)})
    assert (r.v(2) == np.where(cond, B, A)).all()
    assert (r.v(3) == np.where(~cond, 5, A)).all()
    assert (r.v(4) == np.where(~cond, B & 0x7FFFFFFF, A ^ 0x80000000)).all()


def test_exec_zero_writes_nothing():
    r = run("v_mov_b32 v1, 7\nv_add_co_u32 v2, vcc, v0, v0", v={0: A, 1: OLD, 2: OLD}, exec=0, vcc=-1 & (2**64 - 1))
    assert (r.v(1) == OLD).all() and (r.v(2) == OLD).all()
    assert r.vcc == 0, "a carry-out of a fully disabled wave is all zero"


def test_sdwa_integer_selects_and_sext():
    r = run("""v_add_u32_sdwa v2, v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_2 src1_sel:WORD_0
v_mov_b32_sdwa v3, sext(v0) dst_sel:DWORD src0_sel:BYTE_1
v_and_b32_sdwa v4, v0, v1 dst_sel:BYTE_3 dst_unused:UNUSED_PRESERVE src0_sel:DWORD src1_sel:DWORD
v_mov_b32_sdwa v5, v0 dst_sel:WORD_0 dst_unused:UNUSED_SEXT src0_sel:WORD_1""", v={0: A, 1: B, 4: OLD})
    s = (((A >> 16) & 0xFF) + (B & 0xFFFF)) & 0xFFFF
    assert (r.v(2) == (s.astype(U32) << 16)).all()
    b1 = ((A >> 8) & 0xFF).astype(I64)
    assert (r.v(3) == (np.where(b1 >= 128, b1 - 256, b1) & M32)).all()
    assert (r.v(4) == ((OLD & 0x00FFFFFF) | (((A & B) & 0xFF) << 24))).all()
    hi = (A >> 16).astype(I64)
    assert (r.v(5) == (np.where(hi >= 0x8000, hi - 0x10000, hi) & M32)).all()
