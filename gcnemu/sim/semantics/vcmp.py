"""Vector compares (VOPC and their VOP3 forms): v_cmp_*, v_cmpx_*, v_cmp_class_*.

Every relation of the mnemonic tables is generated from two small tables, one
for integers (f lt eq le gt ne ge t) and one for floats (the 16 IEEE
predicates: ordered ones are false on NaN, the n* negations and `u` are true
on NaN). The result is a 64-bit lane mask written to VCC (e32 form: `vcc` is
the explicit first operand) or an SGPR pair (e64); lanes EXEC disables read 0.
v_cmpx_* also writes the mask to EXEC: on gfx9 it writes both EXEC and the
destination operand.

v_cmp_class_*: S1 is a mask of classes (bit 0 signalling NaN, 1 quiet NaN,
2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf);
a lane is true when S0's class bit is set. The class is taken from the bits
as written (denormals are not flushed before classification).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from .. import fp
from ..context import Ctx
from ..state import SPECIAL_SLOTS
from ..fp import semantic_silent as semantic

EXEC_SLOT = SPECIAL_SLOTS["exec"][0]

INT_RELATIONS: dict[str, Callable] = {
    "f": lambda a, b: np.zeros(a.shape, dtype=bool), "lt": np.less, "eq": np.equal, "le": np.less_equal,
    "gt": np.greater, "ne": np.not_equal, "ge": np.greater_equal, "t": lambda a, b: np.ones(a.shape, dtype=bool),
}
FLOAT_RELATIONS: dict[str, Callable] = {
    "f": lambda a, b: np.zeros(a.shape, dtype=bool), "lt": np.less, "eq": np.equal, "le": np.less_equal,
    "gt": np.greater, "lg": lambda a, b: np.less(a, b) | np.greater(a, b), "ge": np.greater_equal,
    "o": lambda a, b: ~(np.isnan(a) | np.isnan(b)), "u": lambda a, b: np.isnan(a) | np.isnan(b),
    "nge": lambda a, b: ~np.greater_equal(a, b), "nlg": lambda a, b: ~(np.less(a, b) | np.greater(a, b)),
    "ngt": lambda a, b: ~np.greater(a, b), "nle": lambda a, b: ~np.less_equal(a, b),
    "neq": lambda a, b: ~np.equal(a, b), "nlt": lambda a, b: ~np.less(a, b),
    "tru": lambda a, b: np.ones(a.shape, dtype=bool),
}
INT_TYPES = ("i16", "u16", "i32", "u32", "i64", "u64")
FLOAT_TYPES = ("f16", "f32", "f64")


def write_compare(ctx: Ctx, result: np.ndarray, to_exec: bool) -> None:
    """Mask (disabled lanes 0) to the destination operand, and to EXEC for v_cmpx."""
    bits = np.asarray(result, dtype=bool) & ctx.lanes_written()
    ctx.write_lane_mask(0, bits)
    if to_exec:
        value = int(np.packbits(bits.astype(np.uint8), bitorder="little").view(np.uint64)[0])
        ctx.write_slot(EXEC_SLOT, value, 2)


# name -> (source kind, relation, writes EXEC): what each generated compare does, so that the
# timed engine's issue plans (gcnemu.sim.plans) apply the same relation
COMPARE_OPS: dict[str, tuple[str, Callable, bool]] = {}


def _make_cmp(name: str, kind: str, rel: Callable, to_exec: bool) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        a, b = ctx.src(1, kind), ctx.src(2, kind)
        with np.errstate(invalid="ignore"):
            write_compare(ctx, rel(a, b), to_exec)

    COMPARE_OPS[name] = (kind, rel, to_exec)


for _x, _to_exec in (("", False), ("x", True)):
    for _t in INT_TYPES:
        for _r, _f in INT_RELATIONS.items():
            _make_cmp(f"v_cmp{_x}_{_r}_{_t}", _t, _f, _to_exec)
    for _t in FLOAT_TYPES:
        for _r, _f in FLOAT_RELATIONS.items():
            _make_cmp(f"v_cmp{_x}_{_r}_{_t}", _t, _f, _to_exec)


def float_class(x: np.ndarray) -> np.ndarray:
    """Class bit index (0..9) of each value, per the v_cmp_class mask layout."""
    neg = np.signbit(x)
    tiny = {np.dtype(np.float16): fp.F16_MIN_NORMAL, np.dtype(np.float32): fp.F32_MIN_NORMAL,
            np.dtype(np.float64): fp.F64_MIN_NORMAL}[x.dtype]
    mag = np.abs(x.astype(np.float64))
    cls = np.where(np.isinf(x), np.where(neg, 2, 9),
                   np.where(x == 0, np.where(neg, 5, 6),
                            np.where(mag < float(tiny), np.where(neg, 4, 7), np.where(neg, 3, 8))))
    quiet = ~fp._is_snan(x)
    return np.where(np.isnan(x), np.where(quiet, 1, 0), cls)


def _make_class(name: str, kind: str, to_exec: bool) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        x = ctx.src(1, kind, flush=False)
        mask = ctx.src(2, "u32")
        write_compare(ctx, ((mask >> float_class(x).astype(np.uint32)) & np.uint32(1)) == 1, to_exec)


for _t in FLOAT_TYPES:
    _make_class(f"v_cmp_class_{_t}", _t, False)
    _make_class(f"v_cmpx_class_{_t}", _t, True)
