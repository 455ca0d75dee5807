"""Messages of `s_sendmsg sendmsg(MSG, OP, STREAM)` on gfx9 (CDNA): ids, their operations and streams.

Source: LLVM 22 `SIDefines.h` (namespace SendMsg: message ids, GS and SYSMSG operation ids) and
`AMDGPUBaseInfo.cpp` (isValidMsgOp, msgRequiresOp, msgSupportsStream), with the operation-name
table of `AMDGPUAsmUtils.cpp` (SYSMSG_OP_HOST_TRAP_ACK exists only before gfx9), checked against
llvm-mc 22 on gfx908..gfx950 (LLVM's MC test gfx9-asm-err.s).
"""
from __future__ import annotations

MSG_GS, MSG_GS_DONE, MSG_SYSMSG = 2, 3, 15

# name -> id (every target here: the names llvm-mc does not know on gfx9 are refused earlier)
MESSAGES: dict[str, int] = {
    "MSG_INTERRUPT": 1, "MSG_GS": MSG_GS, "MSG_GS_DONE": MSG_GS_DONE, "MSG_SAVEWAVE": 4,
    "MSG_STALL_WAVE_GEN": 5, "MSG_HALT_WAVES": 6, "MSG_ORDERED_PS_DONE": 7, "MSG_EARLY_PRIM_DEALLOC": 8,
    "MSG_GS_ALLOC_REQ": 9, "MSG_GET_DOORBELL": 10, "MSG_GET_DDID": 11, "MSG_SYSMSG": MSG_SYSMSG,
}

GS_OP_NOP = 0
# operation name -> (id, whether gfx9 knows the name)
OPERATIONS: dict[str, tuple[int, bool]] = {
    "GS_OP_NOP": (0, True), "GS_OP_CUT": (1, True), "GS_OP_EMIT": (2, True), "GS_OP_EMIT_CUT": (3, True),
    "SYSMSG_OP_ECC_ERR_INTERRUPT": (1, True), "SYSMSG_OP_REG_RD": (2, True),
    "SYSMSG_OP_HOST_TRAP_ACK": (3, False), "SYSMSG_OP_TTRACE_PC": (4, True),
}
STREAMS = range(4)


def requires_op(msg: int) -> bool:
    return msg in (MSG_GS, MSG_GS_DONE, MSG_SYSMSG)


def valid_op(msg: int, op: int) -> bool:
    """LLVM's isValidMsgOp (strict) for gfx9: SYSMSG takes 1, 2, 4 (HOST_TRAP_ACK, 3, is gone);
    GS takes CUT/EMIT/EMIT_CUT, GS_DONE those or NOP; every other message no operation."""
    if msg == MSG_SYSMSG:
        return op in (1, 2, 4)
    if msg in (MSG_GS, MSG_GS_DONE):
        return msg != MSG_GS if op == GS_OP_NOP else 1 <= op <= 3
    return False


def supports_stream(msg: int, op: int) -> bool:
    return msg in (MSG_GS, MSG_GS_DONE) and op != GS_OP_NOP
