"""MFMA / SMFMAC numerics: D = A x B + C computed from register files.

:func:`execute` takes the A, B, C operands as the wave holds them (uint32
arrays shaped (nregs, 64)), applies the modifiers exactly as the ISA routes
data (cbsz/abid broadcast one A block to a run of 2**cbsz blocks, blgp
shuffles B lanes, gfx942+ DGEMM ``neg`` negates A/B/C, SMFMAC ``abid`` picks
the index set, gfx950 f8f6f4 ``cbsz``/``blgp`` pick the A/B formats) and
returns D in the same register form.  Layouts come from
:mod:`gcnemu.isa.mfma`; this module only does arithmetic.

What the model computes, and how close that is to the hardware:

* fp32, xf32, fp16, bf16, fp8/bf8 (FNUZ on gfx942, OCP on gfx950), fp6, fp4:
  each product is exact (two significands of at most 24 bits multiply exactly
  in float64), the products and C are summed with error-free transformations
  (as accurate as a 106-bit sum) and the total is rounded once to fp32
  (nearest even).  So the model returns the exact D rounded to fp32, within
  1 ulp (the float64 -> fp32 double rounding can only matter at an exact
  fp32 midpoint); the tests check that bound against math.fsum.  The result
  does not depend on the order of K.  fp16/bf16/fp8 products are also exact
  in fp32 (at most 16 significant bits), so the hardware's only freedom is
  its accumulation order: it adds in fp32, pass by pass, which can differ
  from this model by about an fp32 ulp of the largest partial sum (more
  under heavy cancellation).
* xf32 (gfx942): fp32 inputs are first rounded to 10 fraction bits (nearest
  even), then multiplied exactly.  Whether the hardware rounds or truncates
  is not confirmed by a public source.
* int8 -> int32: exact products summed modulo 2**32 (wraparound).  Any order
  gives the same result, so this is bit-exact.
* fp64 (DGEMM): a chain of correctly rounded fused multiply-adds in k order
  starting from C, ``d = fma(a[k], b[k], d)``.
* gfx950 block-scaled forms: ``D = C + sum_kb 2**(ea-127) * 2**(eb-127) *
  sum_{k in block kb} a*b`` with one E8M0 exponent per 32-wide K block
  (255 = NaN), scales applied after each block's dot product.
* Denormals are kept on input and output (IEEE gradual underflow); the
  FP32 flush-to-zero denorm mode is not modelled.  NaN and Inf propagate
  as in IEEE arithmetic (inf * 0 = NaN).
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from gcnemu.isa import mfma as M
from gcnemu.isa.mfma import MfmaInfo
from gcnemu.sim import accel

__all__ = ["execute", "compute", "round_to_xf32"]


def round_to_xf32(x) -> np.ndarray:
    """fp32 values rounded to XF32 precision (10 fraction bits, nearest even)."""
    u = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    special = (u & np.uint64(0x7F800000)) == np.uint64(0x7F800000)
    lsb = (u >> np.uint64(13)) & np.uint64(1)
    r = (u + np.uint64(0xFFF) + lsb) & np.uint64(0xFFFFE000)
    r = np.where(special, u, r)
    return (r & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.float32)


def _fma(x: float, y: float, z: float) -> float:
    """Correctly rounded x*y + z for finite floats (exact rational arithmetic).

    Every finite double is n/d with d a power of two, so the exact value is an
    integer over a power of two and CPython's int true division rounds it
    correctly (to nearest even, subnormals included).
    """
    if x == 0.0 or y == 0.0:
        return x * y + z  # product is an exact (signed) zero
    n1, d1 = x.as_integer_ratio()
    n2, d2 = y.as_integer_ratio()
    n3, d3 = z.as_integer_ratio()
    dp = d1 * d2
    if dp >= d3:
        num, den = n1 * n2 + n3 * (dp // d3), dp
    else:
        num, den = n1 * n2 * (d3 // dp), d3
    if num == 0:
        return x * y + z  # exact cancellation: IEEE gives +0 here too
    try:
        return num / den
    except OverflowError:
        return math.inf if num > 0 else -math.inf


def _fma_chain(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """fp64 D = C + sum_k a*b as correctly rounded FMAs in k order."""
    nb, m, kk = a.shape
    n = b.shape[2]
    out = np.empty((nb, m, n), dtype=np.float64)
    al, bl, cl = a.tolist(), np.swapaxes(b, 1, 2).tolist(), c.tolist()
    finite = math.isfinite
    for blk in range(nb):
        for i in range(m):
            arow = al[blk][i]
            for j in range(n):
                bcol = bl[blk][j]
                acc = cl[blk][i][j]
                for x, y in zip(arow, bcol):
                    if finite(x) and finite(y) and finite(acc):
                        acc = _fma(x, y, acc)
                    else:
                        acc = x * y + acc  # IEEE special-value propagation
                out[blk, i, j] = acc
    return out


def _scale_values(exponents: np.ndarray) -> np.ndarray:
    e = np.asarray(exponents, dtype=np.int64)
    v = np.ldexp(1.0, e - 127)
    return np.where(e == 255, np.nan, v)


def _accurate_sum(terms: np.ndarray, c: np.ndarray) -> np.ndarray:
    """c + sum(terms, axis=-1) as if computed exactly, then rounded to float64.

    Every addition is an error-free TwoSum; the exact rounding errors are
    accumulated separately and added at the end (Ogita-Rump-Oishi Sum2), which
    is as accurate as summing with twice float64's precision.  Non-finite
    sums fall back to plain IEEE addition so NaN/Inf propagate normally.
    """
    s = c.copy()
    err = np.zeros_like(s)
    for k in range(terms.shape[-1]):
        p = terms[..., k]
        t = s + p
        bp = t - s
        err += (s - (t - bp)) + (p - bp)
        s = t
    out = s + err
    bad = ~np.isfinite(out)
    if bad.any():
        out[bad] = (terms.sum(axis=-1) + c)[bad]
    return out


def _precision(et) -> int:
    """Significant bits of a float element format (24 when unknown: every value of a format of
    at most 32 bits is a multiple of 2**(exponent - 24))."""
    try:
        import ml_dtypes
        return int(ml_dtypes.finfo(et.dtype).nmant) + 1
    except (ValueError, TypeError, AttributeError, ImportError):
        return 24


def _row_ulp_exponent(x: np.ndarray, axis: int, precision: int) -> np.ndarray:
    """Per row (reduced over `axis`): e - precision for the smallest nonzero |x| = f * 2**e, a
    lower bound of the lowest set bit of every element of the row (all-zero rows: 600)."""
    m = np.where(x != 0, np.abs(x), np.inf).min(axis=axis)
    e = np.frexp(np.where(np.isinf(m), 1.0, m))[1] - precision
    return np.where(np.isinf(m), 600, e)


def _exact_by_matmul(a64: np.ndarray, b64: np.ndarray, c64: np.ndarray, pa: int = 24, pb: int = 24
                     ) -> np.ndarray | None:
    """C + A @ B in float64, each element rounded as `_accurate_sum` rounds it (C float32 values;
    A and B values of formats with `pa`/`pb` significant bits).

    Row i of A holds multiples of 2**qa_i (the ulp of its smallest nonzero magnitude), column j
    of B multiples of 2**qb_j, row i of C multiples of 2**qc_i (float32 ulps), so every product
    and C[i, j] are multiples of 2**q, q = min(qa_i + qb_j, qc_i). When |A| @ |B| + |C| stays
    below 2**(q + 53), every partial sum in any order is a representable multiple of 2**q: a
    BLAS matmul (any order, fused or not) is exact, the exact sum `_accurate_sum` rounds. Its
    zero is +0 (an exact zero sum plus its +0 error term), so is ours. Elements that fail the
    bound (a wide exponent spread) go through `_accurate_sum`; an Inf or NaN anywhere (a
    non-finite bound) returns None: the caller then sums everything the error-free way, whose
    NaN propagation this does not reproduce. Only float ops on the (.., M, N) arrays: the
    exponents are taken per row and column.
    """
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        bound = np.matmul(np.abs(a64), np.abs(b64))
        bound += np.abs(c64)
        bound *= 1 + 2.0 ** -40  # (the bound itself was rounded)
        if not np.isfinite(bound).all():
            return None
        ta = np.ldexp(1.0, _row_ulp_exponent(a64, -1, pa) + 53)  # (.., M)
        tb = np.ldexp(1.0, np.minimum(_row_ulp_exponent(b64, -2, pb), 600))  # (.., N)
        tc = np.ldexp(1.0, np.minimum(_row_ulp_exponent(c64, -1, 24) + 53, 1023))  # (.., M)
        limit = np.minimum(ta[..., :, None] * tb[..., None, :], tc[..., :, None])
        d = np.matmul(a64, b64)
        d += c64
        ok = bound < limit
        if not ok.all():
            bi, ii, jj = np.nonzero(~ok)
            terms = a64[bi, ii, :] * b64[bi, :, jj]
            d[bi, ii, jj] = _accurate_sum(terms, c64[bi, ii, jj])
    d += 0.0
    return d


def compute(info: MfmaInfo, a, b, c, *, neg: Sequence[bool] = (False, False, False),
            scale_a=None, scale_b=None) -> np.ndarray:
    """D (in the C/D element dtype) from dense matrices A (blocks,M,K), B (blocks,K,N), C.

    ``a``/``b`` are the values the matrix core multiplies (after modifiers and
    after expanding sparse A).  ``scale_a``/``scale_b`` are E8M0 exponents
    shaped (M, K/32) / (N, K/32) for the block-scaled forms.
    """
    cd = info.element_type("D")
    if cd.is_int:
        a64, b64, c64 = (np.asarray(x).astype(np.int64) for x in (a, b, c))
        d = np.einsum("bik,bkj->bij", a64, b64) + c64
        d = (d + (1 << 31)) % (1 << 32) - (1 << 31)
        return d.astype(np.int32)
    # (no copy of float64 operands: nothing below writes into them)
    a64, b64, c64 = (np.asarray(x, dtype=np.float64) for x in (a, b, c))
    if info.a_type == "xf32":
        a64 = round_to_xf32(a64.astype(np.float32)).astype(np.float64)
        b64 = round_to_xf32(b64.astype(np.float32)).astype(np.float64)
    if neg[0]:
        a64 = -a64
    if neg[1]:
        b64 = -b64
    if neg[2]:
        c64 = -c64
    if cd.bits == 64:
        return _fma_chain(a64, b64, c64)
    if not info.scaled and cd.bits == 32:
        fast = accel.exact_sum(a64, b64, c64)  # numba: the Sum2 loop compiled, same result
        if fast is not None:
            return fast.astype(np.float32)
        quick = _exact_by_matmul(a64, b64, c64, _precision(info.element_type("A")),
                                 _precision(info.element_type("B")))
        if quick is not None:
            return quick.astype(np.float32)
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        # exact products, laid out (blocks, M, N, K)
        terms = a64[:, :, None, :] * np.swapaxes(b64, 1, 2)[:, None, :, :]
        if info.scaled and (scale_a is not None or scale_b is not None):
            kb = info.k // info.scale_block
            sa = _scale_values(scale_a) if scale_a is not None else np.ones((info.m, kb))
            sb = _scale_values(scale_b) if scale_b is not None else np.ones((info.n, kb))
            # powers of two: scaling each product is exact, so this equals
            # scaling each block's dot product after the fact
            sa_k = np.repeat(sa, info.scale_block, axis=1)  # (M, K)
            sb_k = np.repeat(sb, info.scale_block, axis=1)  # (N, K)
            terms = terms * sa_k[None, :, None, :] * sb_k[None, None, :, :]
        return _accurate_sum(terms, c64).astype(np.float32)


def execute(info: MfmaInfo, a_regs, b_regs, c_regs, *, cbsz: int = 0, abid: int = 0,
            blgp: int = 0, neg: Sequence[bool] = (False, False, False), sparse_index=None,
            scale_a=None, scale_b=None, scale_a_byte: int = 0, scale_b_byte: int = 0
            ) -> np.ndarray:
    """Execute one MFMA/SMFMAC on register operands; returns D as uint32 (cd_regs, 64).

    * ``a_regs``/``b_regs``/``c_regs``: uint32 arrays shaped (nregs, 64) with the
      operand's register count (for f8f6f4, the count of the selected format).
      For SMFMAC, ``c_regs`` is the accumulator (the instruction's vdst).
    * ``sparse_index``: SMFMAC index VGPR, uint32 (64,).
    * ``scale_a``/``scale_b``: gfx950 v_mfma_scale_* scale VGPRs, uint32 (64,),
      with ``scale_*_byte`` selecting the E8M0 byte (the op_sel/op_sel_hi field).
    * ``neg``: gfx942+/gfx950 DGEMM negate flags for (A, B, C).

    Raises ValueError for modifier values the instruction cannot take.
    """
    if not (cbsz or abid or blgp or sparse_index is not None or scale_a is not None or scale_b is not None):
        key = (info, tuple(neg))
        fast = _FAST.get(key, False)
        if fast is False:
            fast = _FAST[key] = _fast_plan(info, tuple(bool(x) for x in neg))
        if fast is not None:
            d = fast(a_regs, b_regs, c_regs)
            if d is not None:
                return d
    M.check_modifiers(info, cbsz=cbsz, abid=abid, blgp=blgp)
    if any(neg) and "neg" not in info.modifiers:
        raise ValueError(f"{info.name} on {info.target} does not take neg")
    if info.sparse and sparse_index is None:
        raise ValueError(f"{info.name} needs the sparse index operand")
    if (scale_a is not None or scale_b is not None) and not info.scaled:
        raise ValueError(f"{info.name} takes no block scales")
    run = M.resolve(info, cbsz=cbsz, blgp=blgp)

    a = M.unpack(run, "A", a_regs)
    if not run.format_select and not run.sparse and run.blocks > 1 and (cbsz or abid):
        a = a[M.cbsz_source_blocks(run.blocks, cbsz, abid)]
    b_in = np.asarray(b_regs, dtype=np.uint32)
    if blgp and not run.format_select:
        b_in = b_in[:, M.blgp_source_lanes(blgp)]
    b = M.unpack(run, "B", b_in)
    c = M.unpack(run, "C", c_regs)
    if run.sparse:
        pos = M.unpack_sparse_index(run, sparse_index, index_set=M.sparse_index_set(run, cbsz, abid))
        a = M.sparse_expand(run, a, pos)
    sa = M.unpack_scales(run, "A", scale_a, byte=scale_a_byte) if scale_a is not None else None
    sb = M.unpack_scales(run, "B", scale_b, byte=scale_b_byte) if scale_b is not None else None
    d = compute(run, a, b, c, neg=neg, scale_a=sa, scale_b=sb)
    return _pack_d(run, d)


_D_SCATTER: dict = {}  # MfmaInfo -> (reg, lane) of each D element, or None (use M.pack)


def _pack_d(run: MfmaInfo, d: np.ndarray) -> np.ndarray:
    """M.pack(run, "D", d), without its general bit-merging for the usual 32-bit D.

    When every D element is 32 bits wide, starts at bit 0 and has a (register, lane) of
    its own, packing is one scatter of the raw bits: the OR into zeros that M.pack does
    gives the same registers.
    """
    scatter = _D_SCATTER.get(run, False)
    if scatter is False:
        scatter = None
        et = run.element_type("D")
        if et.bits == 32 and np.dtype(et.dtype).itemsize == 4:
            reg, lane, bit = (x.ravel() for x in M._layout(run, "D"))
            slots = np.sort(reg * 64 + lane)  # (not np.unique: numpy 2 imports numpy.ma for it, ~10 ms)
            if not bit.any() and (slots[1:] != slots[:-1]).all():
                scatter = (reg, lane, tuple(run.shape("D")), run.operand_regs("D"))
        _D_SCATTER[run] = scatter
    if scatter is None:
        return M.pack(run, "D", d)
    reg, lane, shape, nregs = scatter
    mat = np.asarray(d)
    if mat.ndim == 2 and shape[0] == 1:
        mat = mat[None]
    if mat.shape != shape:
        return M.pack(run, "D", d)  # (M.pack says what is wrong)
    bits = M._to_bits(mat, run.element_type("D")).ravel()
    out = np.zeros((nregs, 64), dtype=np.uint32)
    out[reg, lane] = bits
    return out


# ---------------------------------------------------------------- the common case, planned once
_FAST: dict = {}  # (MfmaInfo, neg) -> the fast executor of that instruction (None: the general path)


def _gather(info: MfmaInfo, op: str):
    """(flat register*64+lane index, bit shift or None, mask, unsigned dtype, element dtype) of an
    operand whose elements each sit in one register (no element spans two): unpack as one gather."""
    et = info.element_type(op)
    if et.bits > 32 or et.is_int:
        return None
    reg, lane, bit = M._layout(info, op)
    if (bit + et.bits > 32).any():
        return None
    dt = np.dtype(et.dtype)
    u = {1: np.uint8, 2: np.uint16, 4: np.uint32}.get(dt.itemsize)
    if u is None:
        return None
    flat = (reg.astype(np.intp) * 64 + lane).ravel()
    shift = bit.ravel().astype(np.uint32) if bit.any() else None
    mask = np.uint32((1 << et.bits) - 1) if et.bits < 32 else None
    return flat, shift, mask, u, dt, info.shape(op)


_BOUND_TRIES = 8  # consecutive failures of the exponent bound before it is tried only ...
_BOUND_RETRY = 64  # ... once in this many calls (the data may come back to a coarse grid)


def _exact_by_exponents(info: MfmaInfo, K: int):
    """A function `exact(a, b, c) -> C + A @ B | None` over the float64 operands of `info`
    (shapes (blocks, M, K), (blocks, K, N), (blocks, M, N)): the sum `_accurate_sum` returns,
    computed as one matmul when a bound from the operands' float64 bit fields proves that no
    partial sum rounds; None (the caller sums the error-free way) when the bound does not hold
    or a value is not finite.

    Why: the fast plan's TwoSum loop costs K passes of seven numpy calls (~110 us for a 32x32x8
    MFMA, measured), the bound eight calls over all three operands and the matmul ~5 us. The
    argument is `_exact_by_matmul`'s, over whole operands instead of rows and columns, with the
    significands' trailing zeros in place of a format's precision: a nonzero float64 with
    biased exponent e and significand S (the hidden bit included) is S * 2**(e-1075), so every
    element of an operand is a multiple of 2**(lowest e - 1075 + trailing zeros of the OR of
    its significands). Every product and every C element is then a multiple of 2**q,
    q = min(qa + qb, qc), and every partial sum, in any order, is below
    K * 2**(ea+eb-2044) + 2**(ec-1022) from the highest exponents. Below 2**(q+53) they are all
    exactly representable: any summation order, BLAS's included, gives the exact sum, which the
    TwoSum loop returns too (its error terms all +0, so a zero sum is +0: `d += 0.0` turns the
    matmul's -0 into that). The operands are values of formats of at most 32 bits: no float64
    subnormals."""
    na = int(np.prod(info.shape("A")))
    nb = int(np.prod(info.shape("B")))
    starts = np.array([0, na, na + nb])
    kbits = (K - 1).bit_length()  # K <= 2**kbits
    shift, field, one = np.uint64(52), np.uint64(0x7FF), np.uint64(1)
    fraction = np.uint64((1 << 52) - 1)
    hidden = 1 << 52

    def exact(a, b, c):
        bits = np.concatenate((a.ravel(), b.ravel(), c.ravel())).view(np.uint64)
        e = bits >> shift
        e &= field  # the biased exponent of each element (0: a zero)
        ea, eb, ec = np.maximum.reduceat(e, starts).tolist()
        if ea == 0x7FF or eb == 0x7FF or ec == 0x7FF:  # Inf or NaN: the IEEE fallback decides
            return None
        e -= one  # zeros wrap to the largest value: the minima are over nonzero elements
        la, lb, lc = np.minimum.reduceat(e, starts).tolist()
        bits &= fraction
        # the trailing zeros of each operand's significands, ORed (the hidden bit caps them at 52)
        ta, tb, tc = (((x | hidden) & -(x | hidden)).bit_length() - 1
                      for x in np.bitwise_or.reduceat(bits, starts).tolist())
        q = 1 << 20  # no nonzero term: no constraint
        top = -q
        if ea and eb:
            q = (la + 1 - 1075 + ta) + (lb + 1 - 1075 + tb)
            top = ea + eb - 2044 + kbits
        if ec:
            q = min(q, lc + 1 - 1075 + tc)
            top = max(top, ec - 1022)
        if top + 1 > q + 53:
            return None
        d = np.matmul(a, b)
        d += c
        d += 0.0
        return d
    return exact


def flat_layout(info: MfmaInfo):
    """(gather of A, of B, of C (see `_gather`), D's flat register*64+lane positions) of a dense
    float MFMA whose operands each unpack as one gather and whose fp32 D (the shape of C) packs
    as one scatter; None for any other instruction (they take `execute`'s general path)."""
    cd = info.element_type("D")
    if cd.is_int or cd.bits != 32 or np.dtype(cd.dtype) != np.float32:
        return None
    ga, gb, gc = _gather(info, "A"), _gather(info, "B"), _gather(info, "C")
    if ga is None or gb is None or gc is None or gc[1] is not None or gc[4] != np.float32:
        return None
    scatter = _D_SCATTER.get(info, False)
    if scatter is False:
        _pack_d(info, np.zeros(info.shape("D"), dtype=np.float32))  # fills _D_SCATTER
        scatter = _D_SCATTER.get(info)
    if scatter is None:
        return None
    dreg, dlane, dshape, _dregs = scatter
    if dshape != info.shape("C"):
        return None
    return ga, gb, gc, (dreg.astype(np.intp) * 64 + dlane).ravel()


def _fast_plan(info: MfmaInfo, neg: tuple):
    """A closure computing exactly what `execute` computes for a dense, unscaled float MFMA with
    fp32 C/D and no cbsz/abid/blgp: the layouts turned into flat gather/scatter indices once per
    instruction (measured: unpack, resolve and the checks were over half an MFMA's cost), the
    products formed per k and summed with the same error-free TwoSum sequence as
    `_accurate_sum`, in place. None when the instruction is not of that kind. The closure returns
    None (the caller takes the general path) when a sum is not finite: the general path owns the
    IEEE special-value fallback."""
    if info.sparse or info.scaled or info.format_select or info.a_type == "xf32":
        return None
    if any(neg) and "neg" not in info.modifiers:
        return None
    layout = flat_layout(info)
    if layout is None:
        return None
    ga, gb, gc, dflat = layout
    dregs = info.operand_regs("D")
    need = (info.operand_regs("A"), info.operand_regs("B"), info.operand_regs("C"))
    sa, sb, sc = (-1.0 if n else 1.0 for n in neg)
    K = info.shape("A")[2]
    exact = _exact_by_exponents(info, K)
    misses = [0]  # consecutive calls whose operands failed the exponent bound

    def values(regs, g, n):
        flat, shift, mask, u, dt, shape = g
        r = np.asarray(regs, dtype=np.uint32)
        if r.shape != (n, 64):
            return None
        raw = r.ravel()[flat]
        if shift is not None:
            raw >>= shift
        if mask is not None:
            raw &= mask
        return raw.astype(u, copy=False).view(dt).astype(np.float64).reshape(shape)

    def run(a_regs, b_regs, c_regs):
        a = values(a_regs, ga, need[0])
        b = values(b_regs, gb, need[1])
        c = values(c_regs, gc, need[2])
        if a is None or b is None or c is None:
            return None
        if sa < 0:
            a = -a
        if sb < 0:
            b = -b
        if sc < 0:
            c = -c
        fast = accel.exact_sum(a, b, c)  # numba: the same Sum2 loop, compiled
        if fast is None:
            # a matmul, when its sums provably need no rounding. Data whose exponents spread too
            # far keeps failing the bound (~15 us each time): after a run of failures it is only
            # tried again now and then. Either route gives the same bits, so this only saves time.
            failed = misses[0]
            if failed < _BOUND_TRIES or failed % _BOUND_RETRY == 0:
                fast = exact(a, b, c)
                misses[0] = 0 if fast is not None else failed + 1
            else:
                misses[0] = failed + 1
        if fast is not None:
            d = fast.astype(np.float32)
            out = np.zeros((dregs, 64), dtype=np.uint32)
            out.ravel()[dflat] = d.view(np.uint32).ravel()
            return out
        with np.errstate(over="ignore", invalid="ignore", under="ignore"):
            s = c.copy()
            err = np.zeros_like(s)
            t = np.empty_like(s)
            bp = np.empty_like(s)
            x = np.empty_like(s)
            y = np.empty_like(s)
            p = np.empty_like(s)
            bt = np.swapaxes(b, 1, 2)  # (blocks, N, K)
            for k in range(K):
                np.multiply(a[:, :, None, k], bt[:, None, :, k], out=p)  # terms[..., k], exact
                np.add(s, p, out=t)
                np.subtract(t, s, out=bp)
                np.subtract(t, bp, out=x)
                np.subtract(s, x, out=x)
                np.subtract(p, bp, out=y)
                x += y
                err += x
                s, t = t, s
            s += err
            if not np.isfinite(s).all():
                return None
            d = s.astype(np.float32)
        out = np.zeros((dregs, 64), dtype=np.uint32)
        out.ravel()[dflat] = d.view(np.uint32).ravel()
        return out
    return run
