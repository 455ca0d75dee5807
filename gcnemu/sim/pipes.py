"""Which pipe an instruction runs on, and the pipes' occupancy, decided once per kernel.

The engine's hot loop must not re-derive facts per issue, so every instruction is
decoded up front into a :class:`Decoded` record: pipe, issue category, counters,
flags, MFMA passes and flops, the s_nop/s_sleep count, the s_waitcnt limits and the
semantic function. Facts come from the tables (``isa.opcodes`` rows, the MFMA
catalog); while the opcode table is still being filled, a mnemonic-prefix fallback
(:func:`guess_pipe`) keeps compiler output runnable, and says so (``Decoded.guessed``).

Pipes and where they live (GCN/CDNA compute unit, AMD GCN whitepaper and the CDNA
ISA guides' "Instruction issue" description):

========  ========  ==============================================================
pipe      scope     occupancy per instruction
========  ========  ==============================================================
valu      SIMD      4 clocks for wave64 on 16 lanes; trans/dp ops: their latency; valu,
                    trans and dp share the SIMD's one VALU (isa.coissue)
mfma      SIMD      passes x ``mfma_pass`` (one matrix core per SIMD); holds the VALU for
                    its co-execution delay (isa.coissue)
salu      CU        one issue slot; never contended beyond the issue category
smem      CU        one issue slot (the scalar cache takes one request per clock)
vmem      CU        wave bytes / ``vmem_bytes_per_cycle``, at least one slot
lds       SIMD pair max(wave bytes / ``lds_wave_bytes_per_cycle``, wave bytes /
                    ``lds_bytes_per_cycle`` + bank-conflict clocks)
branch    wave      none; a taken branch holds the wave ``branch`` clocks
========  ========  ==============================================================

Issue categories (at most one instruction of each per SIMD turn, each from a
different wave; the whitepaper's arbiter): ``valu`` (VALU and MFMA), ``scalar``
(SALU and SMEM), ``vmem``, ``lds``, ``branch`` (branches and messages), and
``internal`` (s_nop, s_waitcnt, s_barrier, s_sleep, s_setprio, s_endpgm: handled
in the instruction buffer, they use no functional unit and are not limited).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..asm.program import Call, CallGroup, Imm, Instruction
from ..isa.coissue import is_packed_fp32, mfma_coexec_delay
from .context import not_a_constant

# pipe -> issue category
CATEGORY = {
    "valu": "valu", "trans": "valu", "dp": "valu", "mfma": "valu",
    "salu": "scalar", "smem": "scalar",
    "vmem": "vmem", "lds": "lds",
    "branch": "branch", "msg": "branch",
    "nop": "internal", "waitcnt": "internal", "barrier": "internal", "sleep": "internal",
    "setprio": "internal", "endpgm": "internal",
}
SIMD_PIPES = frozenset({"valu", "trans", "dp", "mfma"})
# Results of these pipes are interlocked: a reader waits for them (no software wait needed).
INTERLOCKED = frozenset({"salu", "valu", "trans", "dp", "branch", "msg"})
ENGINE_OPS = {"s_nop": "nop", "s_waitcnt": "waitcnt", "s_barrier": "barrier", "s_sleep": "sleep",
              "s_setprio": "setprio", "s_endpgm": "endpgm"}

# Mnemonic patterns of VALU ops that are not full rate (LLVM SISchedule.td classes).
_TRANS = ("v_exp_", "v_log_", "v_rcp_", "v_rsq_", "v_sqrt_", "v_sin_", "v_cos_", "v_rcp_iflag_")
_DP_SUFFIX = ("_f64",)


@dataclass(slots=True)
class Decoded:
    """Everything the engine needs about one instruction, computed once."""

    index: int
    mnemonic: str
    pipe: str
    category: str
    counters: tuple[str, ...] = ()
    flags: frozenset = frozenset()
    is_store: bool = False
    is_lds_dma: bool = False
    passes: int = 0
    flops: int = 0
    mfma_kind: str = ""  # "xdl" | "dgemm" for MFMAs
    count: int = 0  # s_nop N / s_sleep N / s_setprio N
    lane_bytes: int = 4  # memory: bytes per lane (SMEM: per wave) from the mnemonic, when no memop says
    wait: dict = field(default_factory=dict)  # s_waitcnt: counter -> limit (only the counters it waits on)
    sem: Callable | None = None
    guessed: bool = False  # pipe/counters guessed from the mnemonic (no opcode-table row yet)
    error: str | None = None  # a decode problem reported when (if) the instruction issues
    interlocked: bool = False  # its register results are interlocked (INTERLOCKED pipes)
    simd_pipe: bool = False  # its pipe belongs to the SIMD (else to the CU)
    internal: bool = False  # handled by the engine itself (s_nop, s_waitcnt, s_barrier...): no functional unit
    # MFMA: cycles after its issue before a VALU op of its SIMD may issue (isa.coissue; -1: it
    # cannot co-execute, the VALU waits for its whole busy time)
    coexec: int = 0
    packed_fp32: bool = False  # never co-issues with a running MFMA of its SIMD (isa.coissue)
    lds_wide: bool = False  # a DS access of 12/16 bytes per piece (Latencies.lds_b128)


def guess_pipe(m: str) -> str:
    """Pipe from the mnemonic prefix, for instructions the opcode table does not have yet."""
    if m in ENGINE_OPS:
        return ENGINE_OPS[m]
    if m.startswith(("v_mfma", "v_smfmac")):
        return "mfma"
    if m.startswith(("global_", "buffer_", "flat_", "scratch_", "tbuffer_")):
        return "vmem"
    if m.startswith("ds_"):
        return "lds"
    if m.startswith(("s_load", "s_buffer_load", "s_store", "s_buffer_store", "s_dcache", "s_scratch_",
                     "s_atomic", "s_buffer_atomic", "s_memtime", "s_memrealtime")):
        return "smem"
    if m.startswith(("s_branch", "s_cbranch", "s_setpc", "s_swappc", "s_call", "s_getpc")):
        return "branch"
    if m.startswith(("s_sendmsg", "s_ttracedata", "s_icache_inv")):
        return "msg"
    if m.startswith("v_"):
        if m.startswith(_TRANS):
            return "trans"
        base = m.removesuffix("_e64").removesuffix("_e32")
        if base.endswith(_DP_SUFFIX) and not m.startswith(("v_cvt_", "v_cmp", "v_cmpx", "v_readlane", "v_writelane")):
            return "dp"
        return "valu"
    return "salu"


def guess_counters(m: str, pipe: str) -> tuple[str, ...]:
    if pipe == "vmem":
        return ("vm",)
    if pipe in ("lds", "smem", "msg"):  # LDS, scalar memory and messages share lgkmcnt
        return ("lgkm",)
    return ()


def guess_flags(ins: Instruction, pipe: str) -> set[str]:
    m = ins.mnemonic
    flags: set[str] = set()
    if pipe == "vmem":
        if "_store" in m:
            flags.add("store")
        elif "_atomic" in m:
            flags.add("atomic")
        else:
            flags.add("load")
        if m.startswith("global_load_lds_") or (m.startswith("buffer_load") and ins.has("lds")):
            flags.add("lds-dma")
    elif pipe == "lds":
        flags.add("store" if m.startswith("ds_write") or m.startswith("ds_store") else "load")
    elif pipe == "smem":
        flags.add("store" if "_store" in m else "load")
    return flags


def decode(kernel, sem_lookup: Callable[[str], Callable | None]) -> list[Decoded]:
    """Decode every instruction of a resolved kernel (see module docstring)."""
    target = kernel.target
    out: list[Decoded] = []
    # (mnemonic, its opcode row, `lds` modifier) -> its Decoded: for an instruction whose decoding
    # reads nothing else (not an MFMA, not one with a count or wait fields), each later one of the
    # same mnemonic is a copy at its own index. A kernel has a few dozen mnemonics in 10k lines.
    same: dict[tuple, Decoded] = {}
    for i, ins in enumerate(kernel.instructions):
        info = kernel.infos[i] if i < len(kernel.infos) else None
        key = (ins.mnemonic, id(info), ins.has("lds"))
        p = same.get(key)
        if p is not None:
            out.append(Decoded(i, p.mnemonic, p.pipe, p.category, p.counters, p.flags, p.is_store, p.is_lds_dma,
                               p.passes, p.flops, p.mfma_kind, p.count, p.lane_bytes, {}, p.sem, p.guessed, p.error,
                               p.interlocked, p.simd_pipe, p.internal, p.coexec, p.packed_fp32, p.lds_wide))
            continue
        m = ins.mnemonic.lower()
        base = m.removesuffix("_e64").removesuffix("_e32")
        guessed = info is None
        if base in ENGINE_OPS:
            pipe = ENGINE_OPS[base]
        elif info is not None and info.pipe not in ENGINE_OPS.values():
            pipe = info.pipe
        else:
            pipe = guess_pipe(base)
        if pipe not in CATEGORY:
            pipe = guess_pipe(base)
        counters = tuple(sorted(info.counters)) if info is not None else guess_counters(base, pipe)
        flags = set(info.flags) if info is not None else guess_flags(ins, pipe)
        if pipe == "vmem" and ins.has("lds"):
            flags.add("lds-dma")
        d = Decoded(i, m, pipe, CATEGORY[pipe], counters, frozenset(flags), guessed=guessed)
        d.interlocked = pipe in INTERLOCKED
        d.simd_pipe = pipe in SIMD_PIPES
        d.internal = CATEGORY[pipe] == "internal"
        d.is_store = "store" in flags
        d.is_lds_dma = "lds-dma" in flags
        if pipe in ("vmem", "lds", "smem"):
            d.lane_bytes = access_bytes(base)
        if pipe == "lds":
            one_piece = base.replace("read2", "read").replace("write2", "write")  # read2/write2: per piece
            d.lds_wide = access_bytes(one_piece) >= 12
        if pipe == "valu":
            d.packed_fp32 = is_packed_fp32(base)
        if pipe == "mfma":
            _decode_mfma(d, m, target.name)
        elif pipe in ("nop", "sleep", "setprio"):
            try:
                d.count = _integer(ins.operands[0]) if ins.operands else 0
            except Exception as e:  # a bad operand is validation's job; report at issue
                d.error = f"{m}: {e}"
        elif pipe == "waitcnt":
            try:
                d.wait = waitcnt_fields(ins, target)
            except Exception as e:
                d.error = f"{m}: {e}"
        if pipe not in ("nop", "waitcnt", "barrier", "sleep", "setprio", "endpgm"):
            d.sem = sem_lookup(ins.mnemonic)
        out.append(d)
        if pipe not in ("mfma", "nop", "sleep", "setprio", "waitcnt") and not d.wait:
            same[key] = d
    return out


_WIDTHS = (("dwordx16", 64), ("dwordx8", 32), ("dwordx4", 16), ("dwordx3", 12), ("dwordx2", 8), ("dword", 4),
           ("b128", 16), ("b96", 12), ("b64", 8), ("b32", 4), ("short", 2), ("b16", 2), ("byte", 1), ("b8", 1))


def access_bytes(mnemonic: str) -> int:
    """Bytes per lane a memory mnemonic moves (`_dwordx4` -> 16, `_b64` -> 8, `_ubyte` -> 1)."""
    for suffix, n in _WIDTHS:
        if suffix in mnemonic:
            return n * (2 if ("read2" in mnemonic or "write2" in mnemonic) else 1)
    return 4


def _decode_mfma(d: Decoded, mnemonic: str, target: str) -> None:
    """Passes and flops from the MFMA catalog (guarded: the catalog may be absent)."""
    try:
        from ..isa import mfma
    except ImportError:  # catalog not available: a 8-pass default keeps timing plausible
        d.passes, d.mfma_kind, d.coexec = 8, "xdl", 4
        return
    info = mfma.lookup(mnemonic, target)
    if info is None:
        d.passes, d.mfma_kind, d.coexec = 8, "xdl", 4
        d.error = f"{mnemonic} is not an MFMA instruction of {target}"
        return
    d.passes = int(info.passes)
    d.flops = int(info.flops)
    d.mfma_kind = info.kind
    delay = mfma_coexec_delay(info, target, 1 << 30)
    d.coexec = -1 if delay == 1 << 30 else delay


def _integer(operand) -> int:
    """An operand `resolve` left as an integer (it folds `.set` symbols and expressions)."""
    if isinstance(operand, Imm):
        return operand.value
    raise not_a_constant(operand)


def waitcnt_fields(ins: Instruction, target) -> dict[str, int]:
    """{'vm': n, 'lgkm': n, 'exp': n} for the counters an s_waitcnt waits on.

    A field not written (or written at its maximum) means "don't wait" and is left
    out. A bare integer is the gfx9 encoding: vmcnt = [3:0] | [15:14] << 4,
    expcnt = [6:4], lgkmcnt = [11:8] (ISA guide, S_WAITCNT). The counts are integers: resolve
    folded any `.set` symbol in them.
    """
    out: dict[str, int] = {}
    maxima = {"vm": target.vmcnt_max, "lgkm": target.lgkmcnt_max, "exp": target.expcnt_max}
    for op in ins.operands:
        if isinstance(op, (Call, CallGroup)):
            calls = op.calls if isinstance(op, CallGroup) else (op,)
            for c in calls:
                name = c.name.removesuffix("_sat")
                key = {"vmcnt": "vm", "lgkmcnt": "lgkm", "expcnt": "exp"}.get(name)
                if key is None or not c.args:
                    continue
                out[key] = min(_integer(c.args[0]), maxima[key])
        else:
            raw = _integer(op)
            out["vm"] = (raw & 0xF) | (((raw >> 14) & 0x3) << 4)
            out["exp"] = (raw >> 4) & 0x7
            out["lgkm"] = (raw >> 8) & 0xF
    return {k: v for k, v in out.items() if v < maxima[k]}


def wave_bytes(memops: list, lanes_default: int = 64) -> int:
    """Bytes one instruction moves for the whole wave (for bandwidth-based occupancy)."""
    total = 0
    for op in memops:
        size = getattr(op, "size", None)
        lanes = getattr(op, "lanes", None)
        n = len(lanes) if lanes is not None else lanes_default
        if size is not None:
            total += int(size) * n
            continue
        pieces = getattr(op, "pieces", None)
        if pieces:
            for addrs, rest in pieces:
                sz = rest.shape[1] if hasattr(rest, "shape") else int(rest)
                total += sz * len(addrs)
            continue
        dwords = getattr(op, "dwords", None)
        if dwords is not None:
            total += 4 * int(dwords)
            continue
        data = getattr(op, "data", None)
        if data is not None and hasattr(data, "nbytes"):
            total += int(data.nbytes)
    return total
