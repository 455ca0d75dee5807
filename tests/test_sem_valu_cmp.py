"""Vector compares: every relation and type, VCC vs SGPR-pair destinations, v_cmpx writing EXEC, v_cmp_class."""
from __future__ import annotations

import numpy as np
import pytest

from semhelpers import RNG, f32_specials, lanes_mask, run, with_edges_u32

F32, F16, U32 = np.float32, np.float16, np.uint32
EXEC = np.arange(64) % 5 != 2

FLOAT_REL = {
    "f": lambda a, b: np.zeros(a.shape, bool), "lt": lambda a, b: a < b, "eq": lambda a, b: a == b,
    "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "lg": lambda a, b: (a < b) | (a > b),
    "ge": lambda a, b: a >= b, "o": lambda a, b: ~np.isnan(a) & ~np.isnan(b),
    "u": lambda a, b: np.isnan(a) | np.isnan(b), "nge": lambda a, b: ~(a >= b), "nlg": lambda a, b: ~((a < b) | (a > b)),
    "ngt": lambda a, b: ~(a > b), "nle": lambda a, b: ~(a <= b), "neq": lambda a, b: ~(a == b),
    "nlt": lambda a, b: ~(a < b), "tru": lambda a, b: np.ones(a.shape, bool),
}
INT_REL = {"f": FLOAT_REL["f"], "lt": FLOAT_REL["lt"], "eq": FLOAT_REL["eq"], "le": FLOAT_REL["le"],
           "gt": FLOAT_REL["gt"], "ne": lambda a, b: a != b, "ge": FLOAT_REL["ge"], "t": FLOAT_REL["tru"]}

X = f32_specials()
Y = np.roll(X, 7)
Y[40:50] = X[40:50]  # some equal pairs


@pytest.mark.parametrize("rel", sorted(FLOAT_REL))
def test_float_relations_f32_e32_and_e64(rel):
    r = run(f"v_cmp_{rel}_f32 vcc, v0, v1\nv_cmp_{rel}_f32_e64 s[10:11], v1, v0", v={0: X, 1: Y}, exec=EXEC)
    with np.errstate(invalid="ignore"):
        assert (r.mask(106) == (FLOAT_REL[rel](X, Y) & EXEC)).all()
        assert (r.mask(10) == (FLOAT_REL[rel](Y, X) & EXEC)).all(), "disabled lanes read 0"


@pytest.mark.parametrize("t", ["f16", "f64"])
def test_float_relations_other_widths(t):
    if t == "f16":
        with np.errstate(all="ignore"):
            a, b = X.astype(F16), Y.astype(F16)
        regs = {0: a.view(np.uint16).astype(U32), 1: b.view(np.uint16).astype(U32)}
        srcs = "v0, v1"
    else:
        with np.errstate(all="ignore"):
            a, b = X.astype(np.float64), Y.astype(np.float64)
        regs = {"v[0:1]": a, "v[2:3]": b}
        srcs = "v[0:1], v[2:3]"
    lines = [f"v_cmp_{rel}_{t}_e64 s[{2 * k}:{2 * k + 1}], {srcs}" for k, rel in enumerate(sorted(FLOAT_REL))]
    r = run("\n".join(lines), v=regs)
    with np.errstate(invalid="ignore"):
        for k, rel in enumerate(sorted(FLOAT_REL)):
            assert (r.mask(2 * k) == FLOAT_REL[rel](a, b)).all(), rel


@pytest.mark.parametrize("t", ["i32", "u32", "i16", "u16", "i64", "u64"])
def test_integer_relations(t):
    a, b = with_edges_u32(), np.roll(with_edges_u32(), 3)
    b[50:55] = a[50:55]
    if t.endswith("64"):
        hi = RNG.integers(0, 2**32, 64, dtype=np.uint64)
        wa = (hi << np.uint64(32)) | a.astype(np.uint64)
        wb = (np.roll(hi, 1) << np.uint64(32)) | b.astype(np.uint64)
        wb[50:55] = wa[50:55]
        regs, srcs = {"v[0:1]": wa, "v[2:3]": wb}, "v[0:1], v[2:3]"
        ra, rb = (wa.view(np.int64), wb.view(np.int64)) if t == "i64" else (wa, wb)
    else:
        regs, srcs = {0: a, 1: b}, "v0, v1"
        if t == "i32":
            ra, rb = a.view(np.int32), b.view(np.int32)
        elif t == "u32":
            ra, rb = a, b
        elif t == "u16":
            ra, rb = a & 0xFFFF, b & 0xFFFF
        else:
            ra, rb = (a & 0xFFFF).astype(np.uint16).view(np.int16), (b & 0xFFFF).astype(np.uint16).view(np.int16)
    lines = [f"v_cmp_{rel}_{t}_e64 s[{2 * k}:{2 * k + 1}], {srcs}" for k, rel in enumerate(sorted(INT_REL))]
    r = run("\n".join(lines), v=regs)
    for k, rel in enumerate(sorted(INT_REL)):
        assert (r.mask(2 * k) == INT_REL[rel](ra, rb)).all(), rel


def test_cmp_with_constants_and_sgpr():
    a = with_edges_u32()
    r = run("v_cmp_gt_u32 vcc, 64, v0\nv_cmp_lt_i32_e64 s[4:5], v0, s8\nv_cmp_eq_f32 s[6:7], 1.0, v1",
            v={0: a, 1: np.where(np.arange(64) % 2 == 0, 1.0, 2.0).astype(F32)}, s={8: 0xFFFFFFF0})
    assert (r.mask(106) == (a < 64)).all()
    assert (r.mask(4) == (a.view(np.int32) < -16)).all()
    assert (r.mask(6) == (np.arange(64) % 2 == 0)).all()


def test_cmpx_writes_exec_and_destination():
    a = np.arange(64, dtype=U32)
    r = run("""v_cmpx_gt_u32 vcc, 40, v0
v_mov_b32 v1, 1
v_cmpx_lt_u32_e64 s[4:5], 10, v0
v_mov_b32 v2, 2""", v={0: a, 1: 0, 2: 0}, exec=EXEC)
    first = (a < 40) & EXEC
    second = first & (a > 10)
    assert (r.mask(106) == first).all(), "gfx9 v_cmpx writes its SDST too"
    assert (r.mask(4) == second).all()
    assert r.exec == lanes_mask(second)
    assert (r.v(1) == first).all() and (r.v(2) == 2 * second).all()


CLASS_BITS = {"snan": 0, "qnan": 1, "-inf": 2, "-norm": 3, "-den": 4, "-0": 5, "+0": 6, "+den": 7, "+norm": 8,
              "+inf": 9}


def classify(x: np.ndarray) -> list[int]:
    out = []
    for v in x.view(U32):
        f = np.uint32(v).view(F32)
        if np.isnan(f):
            out.append(CLASS_BITS["qnan" if v & 0x400000 else "snan"])
            continue
        neg = bool(v >> 31)
        mag = v & 0x7FFFFFFF
        if mag == 0x7F800000:
            name = "inf"
        elif mag == 0:
            name = "0"
        elif mag < 0x00800000:
            name = "den"
        else:
            name = "norm"
        out.append(CLASS_BITS[("-" if neg else "+") + name])
    return out


def test_cmp_class_f32_every_class():
    x = f32_specials()
    x[30] = np.uint32(0xFF800001).view(F32)
    masks = RNG.integers(0, 1024, 64).astype(U32)
    masks[:31] = 0x3FF
    r = run("v_cmp_class_f32 vcc, v0, v1\nv_cmp_class_f32_e64 s[4:5], v0, s6", v={0: x, 1: masks}, s={6: 0x60})
    cls = np.array(classify(x))
    assert (r.mask(106) == ((masks >> cls) & 1).astype(bool)).all()
    assert (r.mask(4) == np.isin(cls, [5, 6])).all(), "0x60 selects -0 and +0"
    assert (r.mask(106)[:31]).all()


def test_cmp_class_f16_and_cmpx_class():
    h = np.array([0x0001, 0x8400, 0x7C00, 0xFE00, 0x7C01, 0x0000, 0x8000, 0x3C00] * 8, dtype=U32)
    r = run("v_cmpx_class_f16 vcc, v0, v1", v={0: h, 1: 1 << 7})  # +denormal only
    assert r.exec == lanes_mask(h == 0x0001)


def test_sdwa_compare():
    a = np.arange(64, dtype=U32) << 8
    r = run("v_cmp_eq_u32_sdwa s[4:5], v0, v1 src0_sel:BYTE_1 src1_sel:DWORD", v={0: a, 1: 5})
    assert (r.mask(4) == (np.arange(64) == 5)).all()
