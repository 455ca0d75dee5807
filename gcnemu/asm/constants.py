"""Inline constant or literal: how llvm-mc classifies a constant token for an operand type.

A leaf module (the rules need nothing else of gcnemu) so that both operand validation
(`validate`) and instruction sizes (`sizes`) can use it without importing each other.
Source: AMDGPUAsmParser isInlinableImm / isLiteralImm (llvm-project, AMDGPU), gfx9 rules.
"""
from __future__ import annotations

import math
import struct
from functools import lru_cache

_FP32_INLINE = {0x3F000000, 0xBF000000, 0x3F800000, 0xBF800000, 0x40000000, 0xC0000000, 0x40800000, 0xC0800000,
                0x3E22F983}
_FP16_INLINE = {0x3800, 0xB800, 0x3C00, 0xBC00, 0x4000, 0xC000, 0x4400, 0xC400, 0x3118}
_BF16_INLINE = {0x3F00, 0xBF00, 0x3F80, 0xBF80, 0x4000, 0xC000, 0x4080, 0xC080, 0x3E22}
_FP64_INLINE = {0x3FE0000000000000, 0xBFE0000000000000, 0x3FF0000000000000, 0xBFF0000000000000,
                0x4000000000000000, 0xC000000000000000, 0x4010000000000000, 0xC010000000000000,
                0x3FC45F306DC9C882}
_FP_VALUES = (0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0)

INLINE, LITERAL, INVALID = "inline", "literal", "invalid"


def _is_int(v: int, bits: int) -> bool:
    return -(1 << (bits - 1)) <= v < (1 << (bits - 1))


def _is_uint(v: int, bits: int) -> bool:
    return 0 <= v < (1 << bits)


def _f32_bits(x: float) -> int | None:
    try:
        return struct.unpack("<I", struct.pack("<f", x))[0]
    except (OverflowError, struct.error):
        return None


def _f16_bits(x: float) -> int | None:
    try:
        return struct.unpack("<H", struct.pack("<e", x))[0]
    except (OverflowError, struct.error):
        return None


def _bf16_bits(x: float) -> int | None:
    b = _f32_bits(x)
    if b is None:
        return None
    # round to nearest even
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF


def _f64_bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def _sext(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


_T32 = frozenset({"", "b32", "i32", "u32", "f32"})
_T16 = frozenset({"f16", "bf16", "i16", "u16", "b16"})
_TPK16 = frozenset({"v2f16", "v2i16", "v2bf16"})
_T64 = frozenset({"f64", "b64", "i64", "u64"})
_TPK32 = frozenset({"v2f32", "v2b32"})


def _float_class(value: float, fmt: str, fp_set) -> str:
    """Inline/literal/invalid for a floating-point token converted to `fmt` (f32/f16/bf16)."""
    if not math.isfinite(value):
        return INVALID
    if fmt == "f32":
        bits, inf = _f32_bits(value), 0x7F800000
    elif fmt == "bf16":
        bits, inf = _bf16_bits(value), 0x7F80
    else:
        bits, inf = _f16_bits(value), 0x7C00
    if bits is None or (bits & inf) == inf:
        return INVALID
    # 0.0 converts to the bits of the integer inline constant 0 (llvm-mc 22 takes it inline;
    # -0.0, with its sign bit, stays a literal)
    return INLINE if bits in fp_set or bits == 0 else LITERAL


def classify_constant(value, is_float: bool, typ: str) -> str:
    """INLINE, LITERAL or INVALID for a constant token used as an operand of type `typ` (see
    `_classify_constant`; -0.0 is a key of its own: the cache would take it for 0.0, which is
    equal and hashes alike, but one is a literal and the other inline)."""
    return _classify_constant(value, is_float, typ, is_float and math.copysign(1.0, value) < 0)


@lru_cache(maxsize=8192)
def _classify_constant(value, is_float: bool, typ: str, _negative_zero_key: bool = False) -> str:
    """INLINE, LITERAL or INVALID for a constant token used as an operand of type `typ`.

    llvm-mc's rules (AMDGPUAsmParser isInlinableImm/isLiteralImm), gfx9: integer
    tokens are truncated to the operand size before the inline test (0xffffffff
    is -1 for a 32-bit operand); floating-point tokens are converted to the
    operand's format; a 1/(2*pi) inline constant exists; packed 16-bit operands
    take 32-bit patterns (f16 patterns for float ops, f32 patterns for integer ops).
    """
    if typ in _T32:
        if is_float:
            return _float_class(value, "f32", _FP32_INLINE)
        v = value
        if not (_is_int(v, 32) or _is_uint(v, 32)):
            return INVALID
        if -16 <= _sext(v, 32) <= 64 or (v & 0xFFFFFFFF) in _FP32_INLINE:
            return INLINE
        return LITERAL
    if typ in _T16:
        fmt = "bf16" if typ == "bf16" else "f16"
        fp_set = _BF16_INLINE if typ == "bf16" else _FP16_INLINE
        if is_float:
            return _float_class(value, fmt, fp_set)
        v = value
        if not (_is_int(v, 16) or _is_uint(v, 16)):
            return INVALID
        if typ in ("f16", "bf16"):  # fp16 operands truncate integer tokens to 16 bits first
            if -16 <= _sext(v, 16) <= 64 or (v & 0xFFFF) in fp_set:
                return INLINE
        elif -16 <= v <= 64:
            return INLINE
        return LITERAL
    if typ in _TPK16:
        is_fp = typ != "v2i16"
        fp_set = (_BF16_INLINE if typ == "v2bf16" else _FP16_INLINE) if is_fp else _FP32_INLINE
        if is_float:
            return _float_class(value, ("bf16" if typ == "v2bf16" else "f16") if is_fp else "f32", fp_set)
        v = value
        if not (_is_int(v, 32) or _is_uint(v, 32)):
            return INVALID
        if -16 <= _sext(v, 32) <= 64 or (v & 0xFFFFFFFF) in fp_set:
            return INLINE
        return LITERAL
    if typ in _TPK32:
        if is_float:
            return _float_class(value, "f32", _FP32_INLINE)
        v = value
        if classify_constant(v, False, "b64") == INLINE:
            return INLINE
        if not (_is_int(v, 32) or _is_uint(v, 32)):
            return INVALID
        if -16 <= _sext(v, 32) <= 64 or (v & 0xFFFFFFFF) in _FP32_INLINE:
            return INLINE
        return LITERAL
    if typ in _T64:
        if is_float:
            if not math.isfinite(value):
                return INVALID
            if value in _FP_VALUES or _f64_bits(value) in (0x3FC45F306DC9C882, 0):
                return INLINE
            return LITERAL if typ == "f64" else INVALID
        v = value
        if not _is_int(v, 64) and not _is_uint(v, 64):
            return INVALID
        if -16 <= v <= 64 or (v & 0xFFFFFFFFFFFFFFFF) in _FP64_INLINE:
            return INLINE
        if typ == "f64" and _is_uint(v, 32) and ((v << 32) & 0xFFFFFFFFFFFFFFFF) in _FP64_INLINE:
            return INLINE
        if _is_int(v, 32) or _is_uint(v, 32):
            return LITERAL
        return INVALID
    return LITERAL
