"""The compiled issue loop of the timed engine: one wave's stretch of integer SALU/VALU
instructions and branches issued, timed and executed in one numba call.

Why: on an ALU loop the Python issue loop (`Engine._run_alu`) costs ~7 us per instruction,
half of it bookkeeping (landing writes, pipe state, issue records) and ~2 us the plan's numpy
calls on 64-lane rows; a compiled loop does both in well under a microsecond. This module is
the loop alone, written as plain Python over numpy arrays so numba can compile it
(`accel.load`); `alu_compiled` translates instructions into its program rows, hands it the
engine's state and turns what it did back into the engine's records, events and statistics.

The loop is `Engine._run_alu` try for try: the same order of checks (hold, pipe, sources
never written, dependencies), the same stall arithmetic (`Engine._stall`, `_turn`), the same
completion rule (`_in_order`), the same landing order of writes ((land, seq)). It leaves the
loop, without touching the try it is at, wherever the Python loop would need anything it does
not model (an instruction without a row, a source never written, an event due, a full buffer);
the Python loop then makes that try itself. Each operation here is a second implementation of
a table lane function (`semantics` VECTOR_LANE_OPS, SCALAR_OPS, SCALAR_COMPARES): the tests
compare every one with its table function on random and edge-case operands, bit for bit.
"""
from __future__ import annotations

import numpy as np

from .state import SPECIAL_SLOTS

# ---------------------------------------------------------------- program rows (int64 columns)
C_OP, C_DST, C_NSRC, C_K0, C_V0, C_LAT, C_BUSY, C_KEY, C_TARGET, C_SCC = 0, 1, 2, 3, 6, 9, 10, 11, 12, 13
COLUMNS = 14
# source kinds (C_K0 + k) and their values (C_V0 + k)
K_VGPR, K_SGPR, K_CONST = 1, 2, 3

# operation codes: VALU 1..39 (D.v = f(sources) under EXEC), SALU 40..69 ((D.s, SCC) = f(sources,
# SCC)), s_cmp 70..89 (SCC = rel(sources)), branches 90..; 0: no row (the Python loop issues it)
V_MOV, V_ADD, V_SUB, V_SUBREV, V_ADD3, V_MUL_LO, V_MUL_HI, V_LSHLREV, V_LSHRREV = 1, 2, 3, 4, 5, 6, 7, 8, 9
V_LSHL_ADD, V_ADD_LSHL, V_LSHL_OR, V_AND, V_OR, V_XOR, V_XNOR, V_AND_OR, V_OR3, V_BFI, V_BFE_U32 = \
    10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20
S_MOV, S_ADD_U32, S_SUB_U32, S_ADDC_U32, S_SUBB_U32, S_ADD_I32, S_SUB_I32, S_MUL_I32, S_MUL_HI_U32 = \
    40, 41, 42, 43, 44, 45, 46, 47, 48
S_AND, S_OR, S_XOR, S_ANDN2, S_ORN2, S_NAND, S_NOR, S_XNOR, S_LSHL, S_LSHR = 49, 50, 51, 52, 53, 54, 55, 56, 57, 58
CMP_EQ, CMP_LG, CMP_GT, CMP_GE, CMP_LT, CMP_LE = 70, 71, 72, 73, 74, 75  # + 6: the _i32 forms
B_BRANCH, B_SCC0, B_SCC1 = 90, 91, 92

VALU_OPS = {"v_mov_b32": V_MOV, "v_add_u32": V_ADD, "v_sub_u32": V_SUB, "v_subrev_u32": V_SUBREV,
            "v_add3_u32": V_ADD3, "v_mul_lo_u32": V_MUL_LO, "v_mul_hi_u32": V_MUL_HI,
            "v_lshlrev_b32": V_LSHLREV, "v_lshrrev_b32": V_LSHRREV, "v_lshl_add_u32": V_LSHL_ADD,
            "v_add_lshl_u32": V_ADD_LSHL, "v_lshl_or_b32": V_LSHL_OR, "v_and_b32": V_AND, "v_or_b32": V_OR,
            "v_xor_b32": V_XOR, "v_xnor_b32": V_XNOR, "v_and_or_b32": V_AND_OR, "v_or3_b32": V_OR3,
            "v_bfi_b32": V_BFI, "v_bfe_u32": V_BFE_U32}
SALU_OPS = {"s_mov_b32": S_MOV, "s_add_u32": S_ADD_U32, "s_sub_u32": S_SUB_U32, "s_addc_u32": S_ADDC_U32,
            "s_subb_u32": S_SUBB_U32, "s_add_i32": S_ADD_I32, "s_sub_i32": S_SUB_I32, "s_mul_i32": S_MUL_I32,
            "s_mul_hi_u32": S_MUL_HI_U32, "s_and_b32": S_AND, "s_or_b32": S_OR, "s_xor_b32": S_XOR,
            "s_andn2_b32": S_ANDN2, "s_orn2_b32": S_ORN2, "s_nand_b32": S_NAND, "s_nor_b32": S_NOR,
            "s_xnor_b32": S_XNOR, "s_lshl_b32": S_LSHL, "s_lshr_b32": S_LSHR}
COMPARE_OPS = {f"s_cmp_{rel}_{kind}": code + (6 if kind == "i32" else 0)
               for rel, code in (("eq", CMP_EQ), ("lg", CMP_LG), ("gt", CMP_GT), ("ge", CMP_GE),
                                 ("lt", CMP_LT), ("le", CMP_LE))
               for kind in ("u32", "i32")}
BRANCH_OPS = {"s_branch": B_BRANCH, "s_cbranch_scc0": B_SCC0, "s_cbranch_scc1": B_SCC1}

# ---------------------------------------------------------------- the loop's state (int64)
# global (`s`)
(S_T, S_SEQ, S_EXECUTED, S_CHECK_AT, S_MAX_CYCLES, S_NEXT_EVENT, S_IV, S_BRANCH_LAT, S_NREC, S_NSTALL,
 S_EXIT) = range(11)
STATE_SIZE = 11
# per wave (`ws[wave]`)
(W_PC, W_FIRST, W_HOLD, W_HOLD_REASON, W_INTERLOCK, W_READY, W_SCC, W_SIMD, W_ACTIVE, W_STALL_REASON,
 W_ISSUED) = range(11)
WAVE_STATE = 11
# stall reasons (the engine's strings, by number); 4 and on: named by the caller
R_DEPENDENCY, R_BRANCH, R_PIPE_BUSY, R_COISSUE = 0, 1, 2, 3
# why the loop returned: the first four at the start of a cycle it did not process (the engine
# processes that cycle), X_LIMIT after a cycle whose end the engine's limits must look at
X_NO_ROW, X_EVENT, X_FULL, X_DECLINE, X_LIMIT = 1, 2, 3, 4, 5
# in-flight writes (`ring_i` columns): one register of one wave each
I_ALIVE, I_LAND, I_SEQ, I_KEY, I_INDEX, I_VALUE, I_FULL, I_WAVE = 0, 1, 2, 3, 4, 5, 6, 7
RING_COLUMNS = 8
EXEC_LO = SPECIAL_SLOTS["exec"][0]  # EXEC's low SGPR slot (the high one follows)
M32 = 0xFFFFFFFF


def run_alu(prog, keyof, vgpr, vinit, sgpr, sinit, ws, s, pipe_free, pipe_gate, pipe_set, land_of, seq_of,
            order_of, blocked, ring_i, ring_v, ring_m, rec, stalls):
    """Issue from cycle s[S_T] on, cycle by cycle, as the engine's loops would (Engine._run_alu
    for one wave, Engine._run_many for a workgroup with a SIMD per wave), until an exit
    (s[S_EXIT]; s[S_T] is then the cycle to process next, or the one just processed: X_LIMIT).

    Each cycle: unless an event is due, the writes due land, in (land, seq) order; then, if the
    loop cannot make the cycle (an instruction without a row, a source never written, a register
    with a write in flight the engine keeps (`blocked`), full buffers), it returns before
    touching the cycle; else each wave whose turn it is tries, in wave order (equal priorities),
    with Engine._try_issue's checks: hold, pipe, dependencies.

    Register keys (land_of, seq_of, blocked: per wave; seq 0: no write in flight): VGPR i -> i,
    SGPR slot j -> NV + j, SCC -> NV + NS. order_of: when the register last became pending (the
    seq of that write; the caller's places before the call are negative): a dict of pending
    writes keeps a key's place while its value is replaced, and the caller rebuilds its dicts
    (`lands`, Pending entries) in that order. rec[k] = (wave, index, ready, issue, complete) of the
    k-th issue; stalls[j] = (wave, issues made before it, reason, cycles) in the order they
    happened (a stall belongs to the wave's next issue)."""
    nw = vgpr.shape[0]
    nv = vgpr.shape[1]
    ns = sgpr.shape[1]
    scck = nv + ns
    n = prog.shape[0]
    nring = ring_i.shape[0]
    rcap = rec.shape[0]
    scap = stalls.shape[0]
    srcs = np.zeros((3, 64), dtype=np.uint64)
    res = np.zeros(64, dtype=np.uint64)
    m32 = np.uint64(M32)
    now = s[S_T]
    iv = s[S_IV]
    nrec = s[S_NREC]
    nst = s[S_NSTALL]
    while True:
        # an event due: leave before this cycle's writes land. The engine lands the events due
        # first and the ALU writes after (_run_alu), or all of them in (land, seq) order
        # (_run_many): a load's write and a younger VALU's of one register landing in one cycle
        # leave the younger value, so the engine lands both.
        if s[S_NEXT_EVENT] <= now:
            s[S_EXIT] = X_EVENT
            break
        # ---- the writes due by now land, in (land, seq) order
        while True:
            best = -1
            for r in range(nring):
                if ring_i[r, I_ALIVE] != 0 and ring_i[r, I_LAND] <= now:
                    if best < 0 or ring_i[r, I_LAND] < ring_i[best, I_LAND] or \
                            (ring_i[r, I_LAND] == ring_i[best, I_LAND] and ring_i[r, I_SEQ] < ring_i[best, I_SEQ]):
                        best = r
            if best < 0:
                break
            key = ring_i[best, I_KEY]
            wi = ring_i[best, I_WAVE]
            if key < nv:
                if ring_i[best, I_FULL] != 0:
                    for lane in range(64):
                        vgpr[wi, key, lane] = ring_v[best, lane]
                        vinit[wi, key, lane] = True
                else:
                    for lane in range(64):
                        if ring_m[best, lane]:
                            vgpr[wi, key, lane] = ring_v[best, lane]
                            vinit[wi, key, lane] = True
            elif key < scck:
                sgpr[wi, key - nv] = np.uint32(ring_i[best, I_VALUE])
                sinit[wi, key - nv] = True
            else:
                ws[wi, W_SCC] = ring_i[best, I_VALUE]
            if seq_of[wi, key] == ring_i[best, I_SEQ]:
                seq_of[wi, key] = 0
            ring_i[best, I_ALIVE] = 0
        # ---- can the loop make this cycle? (else the engine makes it)
        free_slots = 0
        for r in range(nring):
            if ring_i[r, I_ALIVE] == 0:
                free_slots += 1
        if nrec + nw > rcap or nst + nw > scap or free_slots < 2 * nw:
            s[S_EXIT] = X_FULL
            break
        code = 0
        for wi in range(nw):
            if ws[wi, W_ACTIVE] == 0 or ws[wi, W_READY] > now:
                continue
            pc = ws[wi, W_PC]
            if pc >= n or prog[pc, C_OP] == 0:
                code = X_NO_ROW
                break
            op = prog[pc, C_OP]
            for k in range(prog[pc, C_NSRC]):  # a source never written: the engine notes it
                kind = prog[pc, C_K0 + k]
                v = prog[pc, C_V0 + k]
                if kind == K_VGPR:
                    if blocked[wi, v]:
                        code = X_DECLINE
                    for lane in range(64):
                        if not vinit[wi, v, lane]:
                            code = X_DECLINE
                elif kind == K_SGPR:
                    if blocked[wi, nv + v] or not sinit[wi, v]:
                        code = X_DECLINE
            if op < 40:  # VALU: EXEC is read, the destination VGPR written
                if blocked[wi, nv + EXEC_LO] or blocked[wi, nv + EXEC_LO + 1] or blocked[wi, prog[pc, C_DST]]:
                    code = X_DECLINE
            elif op < 70:
                if blocked[wi, nv + prog[pc, C_DST]] or blocked[wi, scck]:
                    code = X_DECLINE
            elif blocked[wi, scck]:  # (compares write SCC, conditional branches read it)
                code = X_DECLINE
            if code != 0:
                break
        if code != 0:
            s[S_EXIT] = code
            break
        # ---- each wave whose turn it is tries
        for wi in range(nw):
            if ws[wi, W_ACTIVE] == 0 or ws[wi, W_READY] > now:
                continue
            t = now
            pc = ws[wi, W_PC]
            op = prog[pc, C_OP]
            if ws[wi, W_FIRST] < 0:
                ws[wi, W_FIRST] = t
            stall_until = -1
            reason = 0
            pkey = keyof[ws[wi, W_SIMD], pc]
            if ws[wi, W_HOLD] > t:
                stall_until = ws[wi, W_HOLD]
                reason = ws[wi, W_HOLD_REASON]
            elif pipe_free[pkey] > t:
                stall_until = pipe_free[pkey]
                reason = R_COISSUE if pipe_gate[pkey] == stall_until else R_PIPE_BUSY
            else:
                wait = t
                nsrc = prog[pc, C_NSRC]
                for k in range(nsrc):
                    kind = prog[pc, C_K0 + k]
                    v = prog[pc, C_V0 + k]
                    key = v if kind == K_VGPR else nv + v if kind == K_SGPR else -1
                    if key >= 0 and seq_of[wi, key] != 0 and land_of[wi, key] > wait:
                        wait = land_of[wi, key]
                if prog[pc, C_SCC] != 0 and seq_of[wi, scck] != 0 and land_of[wi, scck] > wait:
                    wait = land_of[wi, scck]
                if op < 40:  # VALU: EXEC is read too
                    for j in range(2):
                        ek = nv + EXEC_LO + j
                        if seq_of[wi, ek] != 0 and land_of[wi, ek] > wait:
                            wait = land_of[wi, ek]
                if wait > t:
                    stall_until = wait
                    reason = R_DEPENDENCY
                else:
                    # ---- issue (Engine._issue_fixed)
                    complete = t + prog[pc, C_LAT]
                    busy = prog[pc, C_BUSY]
                    if busy > 0:
                        pipe_free[pkey] = t + busy
                        pipe_set[pkey] = 1
                    seq = s[S_SEQ] + 1
                    s[S_SEQ] = seq
                    dst = prog[pc, C_DST]
                    key0 = -1
                    key1 = -1
                    val0 = 0
                    val1 = 0
                    full = 0
                    branch_to = -1
                    ex_lo = np.uint64(0)
                    ex_hi = np.uint64(0)
                    if op < 40:
                        for k in range(nsrc):
                            kind = prog[pc, C_K0 + k]
                            v = prog[pc, C_V0 + k]
                            if kind == K_VGPR:
                                for lane in range(64):
                                    srcs[k, lane] = np.uint64(vgpr[wi, v, lane])
                            elif kind == K_SGPR:
                                x = np.uint64(sgpr[wi, v])
                                for lane in range(64):
                                    srcs[k, lane] = x
                            else:
                                x = np.uint64(v & M32)
                                for lane in range(64):
                                    srcs[k, lane] = x
                        for lane in range(64):
                            a = srcs[0, lane]
                            b = srcs[1, lane]
                            c = srcs[2, lane]
                            if op == V_MOV:
                                rv = a
                            elif op == V_ADD:
                                rv = a + b
                            elif op == V_SUB:
                                rv = a - b
                            elif op == V_SUBREV:
                                rv = b - a
                            elif op == V_ADD3:
                                rv = a + b + c
                            elif op == V_MUL_LO:
                                rv = a * b
                            elif op == V_MUL_HI:
                                rv = (a * b) >> np.uint64(32)
                            elif op == V_LSHLREV:
                                rv = b << (a & np.uint64(31))
                            elif op == V_LSHRREV:
                                rv = b >> (a & np.uint64(31))
                            elif op == V_LSHL_ADD:
                                rv = (a << (b & np.uint64(31))) + c
                            elif op == V_ADD_LSHL:
                                rv = (a + b) << (c & np.uint64(31))
                            elif op == V_LSHL_OR:
                                rv = ((a << (b & np.uint64(31))) & m32) | c
                            elif op == V_AND:
                                rv = a & b
                            elif op == V_OR:
                                rv = a | b
                            elif op == V_XOR:
                                rv = a ^ b
                            elif op == V_XNOR:
                                rv = ~(a ^ b)
                            elif op == V_AND_OR:
                                rv = (a & b) | c
                            elif op == V_OR3:
                                rv = a | b | c
                            elif op == V_BFI:
                                rv = (a & b) | (~a & c)
                            else:  # V_BFE_U32
                                rv = (a >> (b & np.uint64(31))) & ((np.uint64(1) << (c & np.uint64(31))) - np.uint64(1))
                            res[lane] = rv & m32
                        key0 = dst
                        ex_lo = np.uint64(sgpr[wi, EXEC_LO])
                        ex_hi = np.uint64(sgpr[wi, EXEC_LO + 1])
                        full = 1 if (ex_lo == m32 and ex_hi == m32) else 0
                    elif op < 90:
                        sa = np.int64(0)
                        sb = np.int64(0)
                        for k in range(nsrc):
                            kind = prog[pc, C_K0 + k]
                            v = prog[pc, C_V0 + k]
                            if kind == K_SGPR:
                                sx = np.int64(sgpr[wi, v]) & M32
                            else:
                                sx = v & M32
                            if k == 0:
                                sa = sx
                            else:
                                sb = sx
                        scc = ws[wi, W_SCC]
                        new_scc = -1
                        sr = np.int64(0)
                        if op == S_MOV:
                            sr = sa
                        elif op == S_ADD_U32:
                            tot = sa + sb
                            sr = tot & M32
                            new_scc = tot >> 32
                        elif op == S_SUB_U32:
                            sr = (sa - sb) & M32
                            new_scc = 1 if sb > sa else 0
                        elif op == S_ADDC_U32:
                            tot = sa + sb + scc
                            sr = tot & M32
                            new_scc = tot >> 32
                        elif op == S_SUBB_U32:
                            sr = (sa - sb - scc) & M32
                            new_scc = 1 if sb + scc > sa else 0
                        elif op == S_ADD_I32 or op == S_SUB_I32:
                            sr = ((sa + sb) if op == S_ADD_I32 else (sa - sb)) & M32
                            same = (sa >> 31) == (sb >> 31)
                            if op == S_SUB_I32:
                                same = not same
                            new_scc = 1 if (same and (sa >> 31) != (sr >> 31)) else 0
                        elif op == S_MUL_I32:
                            sr = np.int64((np.uint64(sa) * np.uint64(sb)) & m32)
                        elif op == S_MUL_HI_U32:
                            sr = np.int64((np.uint64(sa) * np.uint64(sb)) >> np.uint64(32))
                        elif op < 70:
                            if op == S_AND:
                                sr = sa & sb
                            elif op == S_OR:
                                sr = sa | sb
                            elif op == S_XOR:
                                sr = sa ^ sb
                            elif op == S_ANDN2:
                                sr = sa & ~sb
                            elif op == S_ORN2:
                                sr = sa | ~sb
                            elif op == S_NAND:
                                sr = ~(sa & sb)
                            elif op == S_NOR:
                                sr = ~(sa | sb)
                            elif op == S_XNOR:
                                sr = ~(sa ^ sb)
                            elif op == S_LSHL:
                                sr = sa << (sb & 31)
                            else:  # S_LSHR
                                sr = sa >> (sb & 31)
                            sr = sr & M32
                            new_scc = 1 if sr != 0 else 0
                        else:  # s_cmp: SCC alone
                            rel = op - 70
                            if rel >= 6:  # the _i32 forms compare sign-extended values
                                rel -= 6
                                if sa >= 0x80000000:
                                    sa -= 0x100000000
                                if sb >= 0x80000000:
                                    sb -= 0x100000000
                            if rel == 0:
                                truth = sa == sb
                            elif rel == 1:
                                truth = sa != sb
                            elif rel == 2:
                                truth = sa > sb
                            elif rel == 3:
                                truth = sa >= sb
                            elif rel == 4:
                                truth = sa < sb
                            else:
                                truth = sa <= sb
                            key0 = scck
                            val0 = 1 if truth else 0
                        if op < 70:
                            key0 = nv + dst
                            val0 = sr
                            if new_scc >= 0:
                                key1 = scck
                                val1 = new_scc
                    else:  # branches
                        if op == B_BRANCH or (op == B_SCC0 and ws[wi, W_SCC] == 0) or (op == B_SCC1 and ws[wi, W_SCC] == 1):
                            branch_to = prog[pc, C_TARGET]
                    # ---- the writes in flight (_in_order, then the lands entries)
                    if key0 >= 0:
                        if ws[wi, W_INTERLOCK] > complete:
                            if seq_of[wi, key0] != 0 and land_of[wi, key0] > complete:
                                complete = land_of[wi, key0]
                            if key1 >= 0 and seq_of[wi, key1] != 0 and land_of[wi, key1] > complete:
                                complete = land_of[wi, key1]
                        for j in range(2):
                            key = key0 if j == 0 else key1
                            if key < 0:
                                continue
                            if seq_of[wi, key] == 0:  # (newly pending; a replaced write keeps its place)
                                order_of[wi, key] = seq
                            land_of[wi, key] = complete
                            seq_of[wi, key] = seq
                            for r2 in range(nring):
                                if ring_i[r2, I_ALIVE] == 0:
                                    ring_i[r2, I_ALIVE] = 1
                                    ring_i[r2, I_LAND] = complete
                                    ring_i[r2, I_SEQ] = seq
                                    ring_i[r2, I_KEY] = key
                                    ring_i[r2, I_INDEX] = pc
                                    ring_i[r2, I_VALUE] = val0 if j == 0 else val1
                                    ring_i[r2, I_FULL] = full
                                    ring_i[r2, I_WAVE] = wi
                                    if key < nv:
                                        for lane in range(64):
                                            ring_v[r2, lane] = np.uint32(res[lane])
                                        if full == 0:
                                            for lane in range(32):
                                                ring_m[r2, lane] = (ex_lo >> np.uint64(lane)) & np.uint64(1) != 0
                                                ring_m[r2, lane + 32] = (ex_hi >> np.uint64(lane)) & np.uint64(1) != 0
                                    break
                    if complete > ws[wi, W_INTERLOCK]:
                        ws[wi, W_INTERLOCK] = complete
                    if branch_to >= 0:
                        ws[wi, W_PC] = branch_to
                        ws[wi, W_HOLD] = t + s[S_BRANCH_LAT]
                        ws[wi, W_HOLD_REASON] = R_BRANCH
                    else:
                        ws[wi, W_PC] = pc + 1
                    rec[nrec, 0] = wi
                    rec[nrec, 1] = pc
                    rec[nrec, 2] = ws[wi, W_FIRST]
                    rec[nrec, 3] = t
                    rec[nrec, 4] = complete
                    nrec += 1
                    ws[wi, W_ISSUED] += 1
                    ws[wi, W_FIRST] = -1
                    s[S_EXECUTED] += 1
                    ws[wi, W_READY] = t + 1 if iv == 1 else t + 1 + (ws[wi, W_SIMD] - t - 1) % iv
            if stall_until >= 0:  # Engine._stall
                until = stall_until if stall_until > t else t + 1
                t2 = until if iv == 1 else until + (ws[wi, W_SIMD] - until) % iv
                stalls[nst, 0] = wi
                stalls[nst, 1] = ws[wi, W_ISSUED]
                stalls[nst, 2] = reason
                stalls[nst, 3] = t2 - t
                nst += 1
                ws[wi, W_STALL_REASON] = reason
                ws[wi, W_READY] = t2
        # ---- the end of the cycle: the next one a wave can act in, and the engine's limits
        nxt = -1
        for wi in range(nw):
            if ws[wi, W_ACTIVE] != 0 and (nxt < 0 or ws[wi, W_READY] < nxt):
                nxt = ws[wi, W_READY]
        nxt = nxt if nxt > now else now + 1
        if nxt > s[S_MAX_CYCLES] or s[S_EXECUTED] >= s[S_CHECK_AT]:
            s[S_EXIT] = X_LIMIT
            break
        now = nxt
    s[S_T] = now
    s[S_NREC] = nrec
    s[S_NSTALL] = nst
