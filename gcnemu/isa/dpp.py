"""Which DPP, SDWA and ds_swizzle control values exist, per target: the facts llvm-mc checks.

Source: LLVM AMDGPUAsmParser (parseDPPCtrl / isValidDPPCtrl and the row_* / wave_* ranges,
parseSDWASel / parseSDWADstUnused, parseSwizzleOffset and its QUAD_PERM, BITMASK_PERM,
BROADCAST, SWAP, REVERSE macros), checked message by message and column by column against
llvm-mc 22 on gfx908, gfx90a, gfx942 and gfx950 (tests/test_dpp_controls.py). The meaning of
each value is the CDNA ISA guides' "DPP" and "DS_SWIZZLE_B32" sections.

Both the assembler checks (`gcnemu.asm.controls`) and the simulator read these tables: a value
the table does not hold is refused by `check` and never executed by `run`.
"""
from __future__ import annotations

# DPP controls that take a number, and the numbers each takes (gfx9 encodings: row_shl 0x101-0x10f,
# row_shr 0x111-0x11f, row_ror 0x121-0x12f, wave_* 0x130/0x134/0x138/0x13c (one lane only),
# row_bcast 0x142 (15) and 0x143 (31), row_newbcast 0x150-0x15f on gfx90a and later)
DPP_VALUES: dict[str, frozenset[int]] = {
    "row_shl": frozenset(range(1, 16)),
    "row_shr": frozenset(range(1, 16)),
    "row_ror": frozenset(range(1, 16)),
    "wave_shl": frozenset({1}),
    "wave_rol": frozenset({1}),
    "wave_shr": frozenset({1}),
    "wave_ror": frozenset({1}),
    "row_bcast": frozenset({15, 31}),
    "row_newbcast": frozenset(range(16)),
}
DPP_BARE = frozenset({"row_mirror", "row_half_mirror"})  # controls without a value
DPP_CONTROLS = frozenset(DPP_VALUES) | DPP_BARE | {"quad_perm", "row_share", "row_xmask"}
DPP_MASKS = frozenset({"row_mask", "bank_mask", "bound_ctrl", "fi"})  # the other DPP operands
# Opcodes whose VOP3 form has bound_ctrl and fi operands of its own, without being DPP (LLVM 22,
# VOP1Instructions.td: V_PERMLANE16_SWAP_B32 / V_PERMLANE32_SWAP_B32, gfx950)
OWN_BOUND_CTRL_FI = frozenset({"v_permlane16_swap_b32", "v_permlane32_swap_b32"})

# controls and operands that only some targets have: llvm-mc says "not a valid operand." elsewhere
DPP_TARGETS: dict[str, frozenset[str]] = {
    "row_newbcast": frozenset({"gfx90a", "gfx942", "gfx950"}),  # FeatureDPALU_DPP / gfx90a insts
    "row_share": frozenset(),  # GFX10+
    "row_xmask": frozenset(),  # GFX10+
    "fi": frozenset(),  # fetch-inactive: GFX10+
}


# Opcodes without a DPP form on any CDNA target (llvm-mc 22: "not a valid operand." at the control
# of a plain mnemonic, "dpp variant of this instruction is not supported" for a _dpp suffix):
# VOPC (GFX9 has VOPC SDWA, not VOPC DPP), VOP3-only opcodes, and these VOP1/VOP2 ones.
NO_DPP_ENCODINGS = frozenset({"VOPC", "VOP3"})
NO_DPP = frozenset({"v_readfirstlane_b32", "v_swap_b32"})
NO_DPP_GFX90A_PLUS = frozenset({"v_mul_legacy_f32"})
# 64-bit DPP runs on the DP ALU: gfx908 has no 64-bit DPP source; gfx90a+ takes only row_newbcast
# there ("DP ALU dpp only supports row_newbcast"), except v_mov_b64 on gfx90a, which takes any control.
DP_ALU_CONTROL = "row_newbcast"


def dpp_value_ok(name: str, value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value in DPP_VALUES[name]


def quad_perm_ok(values) -> bool:
    return len(values) == 4 and all(isinstance(v, int) and 0 <= v <= 3 for v in values)


def dpp_available(name: str, target: str) -> bool:
    allowed = DPP_TARGETS.get(name)
    return allowed is None or target in allowed


# SDWA selects and the unused-bits policy of the destination
SDWA_SELS = frozenset({"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD"})
SDWA_UNUSED = frozenset({"UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"})
SDWA_FIELDS = {"dst_sel": SDWA_SELS, "src0_sel": SDWA_SELS, "src1_sel": SDWA_SELS, "dst_unused": SDWA_UNUSED}

# ds_swizzle_b32 `offset:swizzle(MODE, ...)` macros: MODE -> number of arguments after it
SWIZZLE_MODES = {"QUAD_PERM": 4, "BITMASK_PERM": 1, "BROADCAST": 2, "SWAP": 1, "REVERSE": 1, "FFT": 1,
                 "ROTATE": 2}
SWIZZLE_EXECUTED = frozenset({"QUAD_PERM", "BITMASK_PERM", "BROADCAST", "SWAP", "REVERSE"})
"""Modes the simulator executes; FFT and ROTATE assemble (llvm-mc 22 encodes them for gfx9) but
their gfx9 meaning is not in the CDNA guides, so `run` stops on them."""


def swizzle_group_error(mode: str, size: int) -> str | None:
    """The group-size rule of BROADCAST/SWAP/REVERSE (a power of two in the mode's interval)."""
    lo, hi = (1, 16) if mode == "SWAP" else (2, 32)
    if not lo <= size <= hi:
        return f"group size must be in the interval [{lo},{hi}]"
    if size & (size - 1):
        return "group size must be a power of two"
    return None


def swizzle_errors(mode: str, args: list) -> tuple[int, str] | None:
    """(argument index, llvm-mc's message) of the first invalid argument of a swizzle macro whose
    argument count is right; None when every argument is valid. Arguments are ints (strings for
    BITMASK_PERM's mask)."""
    if mode == "QUAD_PERM":
        for k, v in enumerate(args):
            if not isinstance(v, int) or not 0 <= v <= 3:
                return k, "expected a 2-bit lane id"
        return None
    if mode == "BITMASK_PERM":
        mask = args[0]
        if not isinstance(mask, str) or len(mask) != 5:
            return 0, "expected a 5-character mask"
        if any(c not in "01pi" for c in mask):
            return 0, "invalid mask"
        return None
    if mode in ("BROADCAST", "SWAP", "REVERSE"):
        err = swizzle_group_error(mode, args[0]) if isinstance(args[0], int) else "expected a group size"
        if err:
            return 0, err
        if mode == "BROADCAST" and not (isinstance(args[1], int) and 0 <= args[1] < args[0]):
            return 1, "lane id must be in the interval [0,group size - 1]"
        return None
    if mode == "FFT":
        return None if isinstance(args[0], int) and 0 <= args[0] <= 31 else (0, "FFT swizzle must be in the interval [0,31]")
    if mode == "ROTATE":
        if args[0] not in (0, 1):
            return 0, "direction must be 0 (left) or 1 (right)"
        if not (isinstance(args[1], int) and 0 <= args[1] <= 31):
            return 1, "number of threads to rotate must be in the interval [0,31]"
    return None


SWIZZLE_OFFSET_MAX = 0xFFFF  # a raw offset is the 16-bit OFFSET field
