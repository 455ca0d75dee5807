"""VGPR indexing mode (gfx9's "GPR index mode"): s_set_gpr_idx_on/_off/_mode/_idx, and the VALU
operands it relocates.

Sources. AMD's CDNA3 and CDNA4 Instruction Set Architecture guides describe the four
instructions (SOPC S_SET_GPR_IDX_ON, SOPP S_SET_GPR_IDX_OFF and S_SET_GPR_IDX_MODE, SOP1
S_SET_GPR_IDX_IDX); their pseudocode, as the CDNA4 guide gives it (and tinygrad's
runtime/autogen/amd/cdna/str_pcode.py carries it, which tools/pcode_diff.py reads):

- S_SET_GPR_IDX_ON:   MODE.GPR_IDX_EN = 1; M0[7:0] = S0[7:0]; M0[15:12] = SIMM[3:0] (the raw
  second operand); "remaining bits of M0 are unmodified";
- S_SET_GPR_IDX_OFF:  MODE.GPR_IDX_EN = 0;
- S_SET_GPR_IDX_MODE: M0[15:12] = SIMM16[3:0];
- S_SET_GPR_IDX_IDX:  M0[7:0] = S0[7:0].

While MODE.GPR_IDX_EN is set (MODE bit 27), the vector operands M0[15:12] selects are addressed
at their register number plus M0[7:0]; bit 0 selects src0, 1 src1, 2 src2, 3 the destination
(the `gpr_idx(SRC0,SRC1,SRC2,DST)` operand, LLVM's AMDGPU operand docs `gfx9_imask`). The clang
output this models is `s_set_gpr_idx_on sN, gpr_idx(SRC0)` + `v_mov_b32 vD, vBASE` (read element
N of a private array kept in VGPRs) and the same with gpr_idx(DST) (write it).

What the sources do not define stops the run with an error at the instruction, never a guess:
an indexed register past the kernel's VGPRs, a selected operand that is not a VGPR, and a
non-VALU instruction (memory, MFMA) with VGPR operands while indexing is on.

The v_movrels/v_movreld/v_movrelsd/v_movrelsd_2 family exists on none of gfx908..gfx950 (llvm-mc
22 rejects it there, and so does `gcnemu check`), so it has no semantics here.
"""
from __future__ import annotations

from dataclasses import replace

from ...asm.program import Call, Instruction, Modified, Reg
from ..context import M32, Ctx, SimError
from . import semantic

GPR_IDX_EN = 1 << 27  # MODE.GPR_IDX_EN
MODE_HWREG = 1  # HW_REG_MODE
M0_SLOT = 124
INDEX_MASK = 0xFF  # M0[7:0]
MODE_SHIFT, MODE_MASK = 12, 0xF << 12  # M0[15:12]
# mode bit -> the operand it selects: (name, is it the destination, source number)
MODE_BITS: tuple[tuple[int, str, bool, int], ...] = (
    (0, "SRC0", False, 0), (1, "SRC1", False, 1), (2, "SRC2", False, 2), (3, "DST", True, 0))


def _mode_operand(ctx: Ctx, operand) -> int:
    """The 4-bit mode of `gpr_idx(SRC0,...,DST)` or of a number (the assembler checked both)."""
    if type(operand) is Call and operand.name == "gpr_idx":
        names = {name: bit for bit, name, _, _ in MODE_BITS}
        bits = 0
        for arg in operand.args:
            bit = names.get(getattr(arg, "name", "").upper())
            if bit is None:
                raise SimError(f"{ctx.ins.mnemonic}: '{arg.text()}' is not a VGPR index mode (SRC0, SRC1, SRC2, DST)")
            bits |= 1 << bit
        return bits
    value = ctx.const(operand)
    if not 0 <= value <= 15:
        raise SimError(f"{ctx.ins.mnemonic}: the VGPR index mode must be 0..15, got {value}")
    return value


def _m0_now(ctx: Ctx) -> int:
    """M0 as the wave holds it, for the read-modify-write of the fields above. The read is
    recorded (a pending write to M0 holds the instruction) but not reported when M0 was never
    written: the pseudocode keeps the other bits whatever they are."""
    ctx.reads.append(("s", M0_SLOT))
    return int(ctx.wave.sgpr[M0_SLOT])


def _set_enable(ctx: Ctx, on: bool) -> None:
    mode = ctx.hwreg(MODE_HWREG)
    ctx.set_hwreg(MODE_HWREG, (mode | GPR_IDX_EN) if on else (mode & ~GPR_IDX_EN & M32))


@semantic("s_set_gpr_idx_on")
def s_set_gpr_idx_on(ctx: Ctx, ins) -> None:
    index = ctx.s_read(0) & INDEX_MASK
    mode = _mode_operand(ctx, ctx.op(1))
    m0 = _m0_now(ctx)
    ctx.write_slot(M0_SLOT, (m0 & ~(INDEX_MASK | MODE_MASK) & M32) | index | (mode << MODE_SHIFT))
    _set_enable(ctx, True)


@semantic("s_set_gpr_idx_off")
def s_set_gpr_idx_off(ctx: Ctx, ins) -> None:
    _set_enable(ctx, False)


@semantic("s_set_gpr_idx_mode")
def s_set_gpr_idx_mode(ctx: Ctx, ins) -> None:
    mode = _mode_operand(ctx, ctx.op(0))
    ctx.write_slot(M0_SLOT, (_m0_now(ctx) & ~MODE_MASK & M32) | (mode << MODE_SHIFT))


@semantic("s_set_gpr_idx_idx")
def s_set_gpr_idx_idx(ctx: Ctx, ins) -> None:
    index = ctx.s_read(0) & INDEX_MASK
    ctx.write_slot(M0_SLOT, (_m0_now(ctx) & ~INDEX_MASK & M32) | index)


def indexing_on(mode_register: int) -> bool:
    return bool(mode_register & GPR_IDX_EN)


def indexed_instruction(ins: Instruction, n_dst: int, m0: int, is_valu: bool, vgpr_limit: int) -> Instruction:
    """`ins` with the VGPR operands that M0's mode selects moved up by M0's index (the
    instruction itself when the mode selects none of its operands). SimError for what the ISA
    guides leave undefined (see the module docstring)."""
    index, mode = m0 & INDEX_MASK, (m0 & MODE_MASK) >> MODE_SHIFT
    if not mode:
        return ins
    ops = list(ins.operands)
    if not is_valu:
        if any(type(getattr(o, "inner", o)) is Reg and getattr(o, "inner", o).file == "v" for o in ops):
            raise SimError(f"{ins.mnemonic} uses VGPRs while VGPR indexing is on (s_set_gpr_idx_on, M0 mode "
                           f"0x{mode:x}): the ISA guides define the indexing of VALU operands only; turn it off "
                           f"with s_set_gpr_idx_off first")
        return ins
    changed = False
    for bit, name, is_dst, src in MODE_BITS:
        if not mode >> bit & 1:
            continue
        pos = 0 if is_dst else n_dst + src
        if (is_dst and n_dst == 0) or pos >= len(ops):
            continue  # the instruction has no such operand: nothing to relocate
        op = ops[pos]
        reg = op.inner if type(op) is Modified else op
        if type(reg) is not Reg or reg.file != "v":
            raise SimError(f"{ins.mnemonic}: VGPR indexing ({name} in the M0 mode 0x{mode:x}) selects "
                           f"'{reg.text()}', which is not a VGPR; the ISA guides define indexing of VGPR operands only")
        moved = reg.index + index
        if moved + reg.count > vgpr_limit:
            shown = f"v{moved}" if reg.count == 1 else f"v[{moved}:{moved + reg.count - 1}]"
            raise SimError(f"{ins.mnemonic}: {reg.text()} indexed by M0[7:0] = {index} is {shown}, beyond the "
                           f"{vgpr_limit} VGPRs of the wave; the ISA guides do not define an out-of-range index")
        new = replace(reg, index=moved)
        ops[pos] = replace(op, inner=new) if type(op) is Modified else new
        changed = True
    return replace(ins, operands=tuple(ops)) if changed else ins
