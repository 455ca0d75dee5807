"""Hardware registers of `hwreg(...)` (s_getreg/s_setreg), their ids and the targets that have them.

Source: LLVM AMDGPU `AMDGPUAsmUtils.cpp` (the HwReg id/name table and each entry's subtarget
predicate) and `SIDefines.h` (HwReg::Id), checked against llvm-mc 22: on gfx908 and gfx90a the
gfx940 registers are "invalid hardware register: not supported on this GPU".
"""
from __future__ import annotations

ALL = frozenset({"gfx908", "gfx90a", "gfx942", "gfx950"})
GFX940_PLUS = frozenset({"gfx942", "gfx950"})

HWREGS: dict[str, tuple[int, frozenset[str]]] = {
    "HW_REG_MODE": (1, ALL),
    "HW_REG_STATUS": (2, ALL),
    "HW_REG_TRAPSTS": (3, ALL),
    "HW_REG_HW_ID": (4, ALL),
    "HW_REG_GPR_ALLOC": (5, ALL),
    "HW_REG_LDS_ALLOC": (6, ALL),
    "HW_REG_IB_STS": (7, ALL),
    "HW_REG_SH_MEM_BASES": (15, ALL),
    "HW_REG_TBA_LO": (16, ALL),
    "HW_REG_TBA_HI": (17, ALL),
    "HW_REG_TMA_LO": (18, ALL),
    "HW_REG_TMA_HI": (19, ALL),
    "HW_REG_XCC_ID": (20, GFX940_PLUS),
    "HW_REG_SQ_PERF_SNAPSHOT_DATA": (21, GFX940_PLUS),
    "HW_REG_SQ_PERF_SNAPSHOT_DATA1": (22, GFX940_PLUS),
    "HW_REG_SQ_PERF_SNAPSHOT_PC_LO": (23, GFX940_PLUS),
    "HW_REG_SQ_PERF_SNAPSHOT_PC_HI": (24, GFX940_PLUS),
}


# names llvm-mc knows from other generations (GFX10-12): "not supported on this GPU" on CDNA
NONE: frozenset[str] = frozenset()
for _name in ("FLAT_SCR_LO FLAT_SCR_HI XNACK_MASK HW_ID1 HW_ID2 POPS_PACKER PERF_SNAPSHOT_DATA "
              "PERF_SNAPSHOT_DATA1 PERF_SNAPSHOT_DATA2 PERF_SNAPSHOT_PC_LO PERF_SNAPSHOT_PC_HI SHADER_CYCLES "
              "SHADER_CYCLES_HI TRAP_CTRL SCRATCH_BASE_LO SCRATCH_BASE_HI EXCP_FLAG_PRIV EXCP_FLAG_USER "
              "STATE_PRIV DVGPR_ALLOC_LO DVGPR_ALLOC_HI").split():
    HWREGS[f"HW_REG_{_name}"] = (-1, NONE)


def available(name: str, target: str) -> bool:
    entry = HWREGS.get(name)
    return entry is not None and target in entry[1]
