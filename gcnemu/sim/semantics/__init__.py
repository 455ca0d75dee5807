"""Semantic functions: one small pure function per instruction (family).

A function takes the `Ctx` of one instruction at issue, reads operands through
it and describes results as effects (`ctx.write_v`, `ctx.write_s`, `ctx.defer`).
It never touches state directly and never knows about cycles.

Register with `@semantic("name", ...)`; names are base mnemonics (no `_e32`/
`_e64` suffix: the operand syntax, not the encoding, decides the behaviour).
"""
from __future__ import annotations

from typing import Callable

SEMANTICS: dict[str, Callable] = {}

# Instructions the engine handles itself (timing-only or control of the wave).
ENGINE_HANDLED = frozenset({"s_nop", "s_waitcnt", "s_barrier", "s_sleep", "s_setprio", "s_endpgm"})


def semantic(*names: str):
    def register(fn: Callable) -> Callable:
        for n in names:
            if n in SEMANTICS:
                raise ValueError(f"duplicate semantic for {n}")
            SEMANTICS[n] = fn
        return fn
    return register


PREFIXES: list[tuple[str, Callable]] = []
# mnemonics a prefix family does not cover (v_mfma_ld_scale_b32 is no MFMA: it loads the block
# scales of the next scaled MFMA, a wave state gcnemu does not model)
PREFIX_EXCLUDED: set[str] = set()

# Simple instructions as tables, so that the engine can compile one issue "plan" per static
# instruction (gcnemu.sim.plans) from the same lane functions the semantic functions call:
# a fix to a lane function fixes both paths. Only instructions whose semantic function is
# exactly "read the sources in order, apply the function, write the destination" belong here.

# base mnemonic -> (source kinds, in read order; lanes function of those sources -> uint32[64])
VECTOR_LANE_OPS: dict[str, tuple[tuple[str, ...], Callable]] = {}
# base mnemonic -> the positions of its sources (0-based) in the order its semantic function
# reads them, where that is not left to right (v_lshlrev_b32 reads the shifted value first): the
# order of the reads decides the order of the notes and hazards they raise
VECTOR_READ_ORDER: dict[str, tuple[int, ...]] = {}
# base mnemonic -> (source count, reads SCC, fn(*sources, scc) -> (result, new SCC or None))
SCALAR_OPS: dict[str, tuple[int, bool, Callable]] = {}
# base mnemonic -> the SCC value that takes the branch
SCC_BRANCHES: dict[str, int] = {}
# base mnemonic -> (source count, reads its destination as one more source, fn(*float32 sources)
# -> float32[64] before output denormals): f32 VALU ops D = fn(S0, ..., [D]) under EXEC
VECTOR_F32_OPS: dict[str, tuple[int, bool, Callable]] = {}


def vector_lane_op(name: str, kinds: tuple[str, ...], fn: Callable,
                   read_order: tuple[int, ...] | None = None) -> None:
    """Declare `name` as D = fn(src1, ..., srcN) with sources typed `kinds` (32-bit integer
    kinds) and a uint32[64] result written under EXEC: its semantic function does just that,
    reading the sources left to right or in `read_order` (0-based source positions)."""
    VECTOR_LANE_OPS[name] = (tuple(kinds), fn)
    if read_order is not None:
        VECTOR_READ_ORDER[name] = tuple(read_order)


def vector_f32_op(name: str, nsrc: int, accumulates: bool, fn: Callable) -> None:
    """Declare `name` as D.f32 = fn(src1, ..., srcN[, D]) (sources read as f32 with MODE's input
    denormals, `accumulates`: the destination's old value is read last, as v_fmac does), the
    result written with MODE's output denormals under EXEC: its semantic function does just
    that, calling `fn` (so the float rules, NaN payloads included, live in `fn` alone)."""
    VECTOR_F32_OPS[name] = (nsrc, accumulates, fn)


def scalar_op(name: str, nsrc: int, reads_scc: bool, fn: Callable) -> None:
    """Declare `name` as (D, SCC) = fn(src1, ..., srcN, scc) over 32-bit scalars (new SCC None:
    SCC unchanged): its semantic function does just that."""
    SCALAR_OPS[name] = (nsrc, reads_scc, fn)


def register_prefix(*prefixes: str, exclude: tuple[str, ...] = ()):
    """Register one function for a whole family named by prefix (e.g. every `v_mfma_*`),
    except the mnemonics in `exclude`.

    Used where an instruction catalog, not the function, knows the members (MFMA).
    """
    def register(fn: Callable) -> Callable:
        for p in prefixes:
            PREFIXES.append((p, fn))
        PREFIX_EXCLUDED.update(exclude)
        return fn
    return register


_loaded = False  # every module imported (SEMANTICS non-empty only says that some module was)


def load_all() -> dict[str, Callable]:
    """Import every semantics module once (they register themselves)."""
    global _loaded
    import importlib
    import pkgutil
    for mod in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{mod.name}")
    _loaded = True
    return SEMANTICS


def lookup(mnemonic: str) -> Callable | None:
    from ...isa.opcodes import ALIASES, base_mnemonic
    if not _loaded:  # not `if not SEMANTICS`: importing one module (valu) fills it partly
        load_all()
    m = mnemonic.lower()
    fn = SEMANTICS.get(m)
    if fn is None:
        base, _ = base_mnemonic(m)
        fn = SEMANTICS.get(ALIASES.get(base, base))  # llvm-mc's alias spellings (v_accvgpr_read)
    if fn is None and m not in PREFIX_EXCLUDED:
        for prefix, f in PREFIXES:
            if m.startswith(prefix):
                return f
    return fn
