"""The memory classes of tools/pcode_diff.py: DS, MUBUF, FLAT, GLOBAL, SCRATCH and SMEM instructions
checked against AMD's pseudocode, every written bit compared.

One instruction runs on 64 lanes (SMEM: once) with random addresses inside an allocated region (LDS,
a global buffer, each lane's private segment) and random data, edge values first. The pseudocode is
evaluated lane by lane, in lane order, on a copy of the same bytes; then gcnemu's destination
registers (RETURN_DATA, VDATA, SDATA), the whole region afterwards (every byte, so a stray write
shows) and the inactive lanes' destinations are compared with the oracle's.

Lanes get disjoint addresses for every write (a slot of SLOT bytes each, in a random order; the
two-address DS forms are redrawn until their bytes do not meet another lane's): the guide leaves the
order of two lanes' writes to one address unspecified, so such a draw would test nothing.

The address helpers the pseudocode calls follow the CDNA3 ISA guide (AMD Instinct MI300 ISA reference
guide); each names its section. The helpers compute the address from the instruction's operands the
driver chose, never from the address the driver aimed at, so a wrong operand encoding would show.

Entries that index `MEM[ADDR]` without an address helper (DS_ADD_F64, the packed-f16 atomics,
DS_READ_U8, ...) use the guide's shorthand in which ADDR is the instruction's effective address; the
driver binds ADDR to that address computed by the same helper.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass

import numpy as np

import pcode_eval as pe

MEM_CLASSES = ("DS", "FLAT", "GLOBAL", "SCRATCH", "MUBUF", "SMEM")

# Memory instructions whose effect is not a function of one lane's operands and memory.
NOT_COMPARABLE = {
    "DS_SWIZZLE_B32": "cross-lane: the result is another lane's VGPR; the table holds only the swizzle pattern "
                      "list, no pseudocode",
    "DS_PERMUTE_B32": "cross-lane: writes other lanes' VGPRs (VGPR[i][VDST]); needs the whole wave's VGPRs",
    "DS_BPERMUTE_B32": "cross-lane: reads other lanes' VGPRs (VGPR[src_lane][DATA0]); needs the whole wave's VGPRs",
}

SLOT = 64          # bytes of each lane's own slot (the largest single access is 16 bytes, x16 SMEM 64)
LDS_REGION = 16384
BUF_REGION = 16384
PRIVATE = 8192     # private bytes per lane for SCRATCH
STRIDE = 64        # MUBUF IDXEN: the V#'s stride, with 256 records


@dataclass
class MemShape:
    """What the pseudocode says about a memory instruction's operands, in bits."""
    data: int          # DATA / VDATA (stores) / SDATA (stores) read
    data2: int         # DATA2
    ret: int           # RETURN_DATA / VDATA / SDATA written
    writes_mem: bool
    mem_float: int     # 16/32/64 when the memory operand is a float (then seeded with float values)
    two_offsets: bool  # offset0/offset1 (DS read2/write2/wrxchg2)
    uses_helper: bool  # the address comes from a Calc*Addr helper (else ADDR is the effective address)
    access: int        # bytes at one address (for alignment and slot fit)


def _max_bits(code: str, names: tuple[str, ...]) -> int:
    best = 0
    for name in names:
        for m in re.finditer(rf"\b{name}\[(\d+) : \d+\]", code):
            best = max(best, int(m.group(1)) + 1)
        for m in re.finditer(rf"\b{name}(?:\[\d+ : \d+\])?\.[a-z]+(\d+)", code):
            best = max(best, int(m.group(1)))
    return best


def mem_shape(text: str) -> MemShape:
    code = re.sub(r"//[^\n]*", "", text)
    mem_types = [int(m.group(1)) for m in re.finditer(r"MEM\[[^\]]*\]\.[a-z]+(\d+)", code)] or [32]
    mem_bits = max(mem_types)
    written = r"(?:\[\d+ : \d+\])?(?:\.[a-z]+\d+)?\s*=[^=]"
    ret = 0
    for name in ("RETURN_DATA", "VDATA", "SDATA"):
        if re.search(rf"\b{name}{written}", code):
            ret = max(ret, _max_bits(code, (name,)) or mem_bits)
    data = _max_bits(code, ("DATA", "DATA0")) or (mem_bits if re.search(r"\bDATA\b", code) else 0)
    for name in ("VDATA", "SDATA"):
        if not re.search(rf"\b{name}{written}", code) and re.search(rf"\b{name}\b", code):
            data = max(data, _max_bits(code, (name,)))
    data2 = _max_bits(code, ("DATA2",)) or (mem_bits if re.search(r"\bDATA2\b", code) else 0)
    mem_float = 0
    m = re.search(r"MEM\[[^\]]*\]\.f(\d+)", code) or re.search(r"\]\.f(16) \+", code)
    if m:
        mem_float = int(m.group(1))
    per_addr = max(mem_types)
    multi = re.findall(r"MEM\[[^\]]*\+ (\d+)U\]", code)
    if multi and not re.search(r"OFFSET1", code):  # b64/b96/b128 pieces: the whole run at one address
        per_addr = 32 + max(int(x) for x in multi) * 8
    return MemShape(data=data, data2=data2, ret=ret,
                    writes_mem=bool(re.search(r"\b(?:MEM|LDS)\[[^\]]*\](?:\.[a-z]+\d+)?\s*(?:=[^=]|\+=|-=)", code)),
                    mem_float=mem_float, two_offsets="OFFSET1.u32 *" in code or "ADDR_BASE" in code,
                    uses_helper="Calc" in code or "ADDR_BASE" in code, access=max(1, per_addr // 8))


def _regs(first: int, bits: int) -> str:
    n = max(1, -(-bits // 32))
    return f"v{first}" if n == 1 else f"v[{first}:{first + n - 1}]"


def _sregs(first: int, bits: int) -> str:
    n = max(1, -(-bits // 32))
    return f"s{first}" if n == 1 else f"s[{first}:{first + n - 1}]"


# register homes: address v0 (v[0:1] for 64-bit), DATA v2.., DATA2 v6.., destination v10..
ADDR_V, DATA_V, DATA2_V, DST_V = 0, 2, 6, 10
SBASE_S, RSRC_S, SOFF_S, SDST_S, SDATA_S = 4, 8, 12, 20, 40


@dataclass
class MemForm:
    asm: str           # with OFFSET / OFFSET0 / OFFSET1 placeholders
    dst: str | None    # "v" (v10..), "data" (the data registers: MUBUF returning atomics), "s" (s20..)
    returns: bool


def mem_forms(cls: str, mnemonic: str, shape: MemShape, saddr: bool = False) -> list[MemForm]:
    """Candidate spellings, most checking first (returning forms compare RETURN_DATA too)."""
    d, d2 = _regs(DATA_V, shape.data), _regs(DATA2_V, shape.data2)
    dst = _regs(DST_V, shape.ret)
    out: list[MemForm] = []
    if cls == "DS":
        offs = " offset0:OFFSET0 offset1:OFFSET1" if shape.two_offsets else " offset:OFFSET"
        srcs = "".join(f", {r}" for r, bits in ((d, shape.data), (d2, shape.data2)) if bits)
        if shape.ret:
            out.append(MemForm(f"{mnemonic} {dst}, v{ADDR_V}{srcs}{offs}", "v", True))
        out.append(MemForm(f"{mnemonic} v{ADDR_V}{srcs}{offs}", None, False))
    elif cls in ("FLAT", "GLOBAL", "SCRATCH"):
        addr = f"v[{ADDR_V}:{ADDR_V + 1}]" if cls != "SCRATCH" else f"v{ADDR_V}"
        tail = "" if cls == "FLAT" else ", off"
        if saddr:  # GLOBAL: a 32-bit VGPR offset from s[4:5]; SCRATCH: no VGPR, the private address in s4
            if cls == "GLOBAL":
                addr, tail = f"v{ADDR_V}", f", s[{SBASE_S}:{SBASE_S + 1}]"
            else:
                addr, tail = "off", f", s{SBASE_S}"
        off = " offset:OFFSET"
        if shape.writes_mem and shape.ret:  # an atomic: the returning form first (glc, or sc0 on gfx94x)
            for bit in (" glc", " sc0", ""):
                out.append(MemForm(f"{mnemonic} {dst}, {addr}, {d}{tail}{off}{bit}", "v", True) if bit else
                           MemForm(f"{mnemonic} {addr}, {d}{tail}{off}", None, False))
        elif shape.ret:
            out.append(MemForm(f"{mnemonic} {dst}, {addr}{tail}{off}", "v", True))
        else:
            out.append(MemForm(f"{mnemonic} {addr}, {d}{tail}{off}", None, False))
    elif cls == "MUBUF":
        rsrc = f"s[{RSRC_S}:{RSRC_S + 3}]"
        tail = f"v{ADDR_V}, {rsrc}, s{SOFF_S} offen offset:OFFSET"
        if saddr:  # the second form here: IDXEN and OFFEN, v0 the record index, v1 the offset (stride STRIDE)
            tail = f"v[{ADDR_V}:{ADDR_V + 1}], {rsrc}, s{SOFF_S} idxen offen offset:OFFSET"
        if shape.writes_mem and shape.ret:
            for bit in (" glc", " sc0", ""):
                out.append(MemForm(f"{mnemonic} {d}, {tail}{bit}", "data" if bit else None, bool(bit)))
        elif shape.ret:
            out.append(MemForm(f"{mnemonic} {dst}, {tail}", "v", True))
        else:
            out.append(MemForm(f"{mnemonic} {d}, {tail}", None, False))
    elif cls == "SMEM":
        base = (f"s[{RSRC_S}:{RSRC_S + 3}]" if "buffer" in mnemonic else f"s[{SBASE_S}:{SBASE_S + 1}]") + ", "
        if saddr:  # the SGPR-offset form: base + s12 + the immediate
            base += f"s{SOFF_S} offset:"
        if shape.writes_mem and shape.ret:
            sd = _sregs(SDATA_S, shape.data)
            for bit in (" glc", " sc0", ""):
                out.append(MemForm(f"{mnemonic} {sd}, {base}OFFSET{bit}", "sdata" if bit else None, bool(bit)))
        elif shape.ret:
            out.append(MemForm(f"{mnemonic} {_sregs(SDST_S, shape.ret)}, {base}OFFSET", "s", True))
        else:
            out.append(MemForm(f"{mnemonic} {_sregs(SDATA_S, shape.data)}, {base}OFFSET", None, False))
    return out


# --------------------------------------------------------------------------- address helpers

def _sext(value: int, bits: int) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


@dataclass
class Lane:
    """One lane's operands as the driver set them (what the address helpers read)."""
    vaddr: int = 0       # the VGPR address (64-bit for FLAT/GLOBAL, 32 otherwise)
    offset: int = 0      # the instruction offset field
    soffset: int = 0     # MUBUF: the SGPR offset
    base: int = 0        # MUBUF/SMEM: the descriptor's or SBASE's 64-bit base; GLOBAL saddr: the SGPR pair
    saddr: bool = False  # GLOBAL/SCRATCH: the SGPR-address form (compare_memory's second form)
    vindex: int | None = None  # MUBUF IDXEN: the record index (vaddr is then the OFFEN offset)


def helpers_for(lane: Lane) -> dict:
    """The guide's address functions for one lane (CDNA3 ISA guide section per helper).

    The table's calls write every argument `.b32` (`CalcGlobalAddr(ADDR.b32, SADDR.b32, OFFSET.b32)`);
    where the guide's definition needs more than those 32 bits (a 64-bit VGPR pair, the 128-bit V#)
    the helper reads the lane's actual operand."""
    u32 = lambda x: pe.mk_int("u", 32, x)  # noqa: E731
    u64 = lambda x: pe.mk_int("u", 64, x)  # noqa: E731
    return {
        # "Data Share Operations" > "LDS instruction fields": LDS_ADDR = VGPR[ADDR] + {OFFSET1, OFFSET0}
        # (a 32-bit byte address; the DS_READ2/WRITE2 entries pass 0, 0 and scale the offsets themselves)
        "CalcDsAddr": lambda a, o0, o1: u32(int(a.v) + ((int(o1.v) & 0xFF) << 8 | (int(o0.v) & 0xFF))),
        # "Flat Memory Instructions" > "Flat addressing": the 64-bit VGPR pair plus the instruction offset
        "CalcFlatAddr": lambda a, o: u64(lane.vaddr + _sext(int(o.v), 13)),
        # "Global": SADDR off -> the 64-bit VGPR pair + the signed 13-bit offset; SADDR on -> the 64-bit
        # SGPR pair + the 32-bit VGPR offset (unsigned) + the signed offset
        "CalcGlobalAddr": lambda a, s, o: u64((lane.base + (int(a.v) & 0xFFFFFFFF) if lane.saddr else lane.vaddr)
                                              + _sext(int(o.v), 13)),
        # "Scratch": the lane's private address = VGPR (32 bits) or, VADDR off, the SGPR + the signed offset
        "CalcScratchAddr": lambda a, s, o: u64((int(s.v) & 0xFFFFFFFF if lane.saddr else int(a.v) & 0xFFFFFFFF)
                                               + _sext(int(o.v), 13)),
        # "Vector Memory Buffer Instructions" > "Buffer addressing": base + SOFFSET + inst offset + VGPR
        # offset (OFFEN; IDXEN off and stride 0, so no index term)
        # with IDXEN (stride STRIDE, no swizzle, no ADD_TID) the index term stride * VGPR index is added
        "CalcBufferAddr": lambda v, r, so, o: u64(lane.base + (int(so.v) & 0xFFFFFFFF) + (int(o.v) & 0xFFF)
                                                 + (lane.vaddr if lane.vindex is not None else int(v.v) & 0xFFFFFFFF)
                                                 + (STRIDE * lane.vindex if lane.vindex is not None else 0)),
        # "Scalar Memory Operations": SBASE (or the V#'s base) + the offset, dword aligned (bits 1:0 ignored)
        "CalcScalarGlobalAddr": lambda b, so, o: u64((lane.base + (int(so.v) & 0xFFFFFFFF) + int(o.v)) & ~3),
        "CalcScalarBufferAddr": lambda b, so, o: u64((lane.base + (int(so.v) & 0xFFFFFFFF) + int(o.v)) & ~3),
    }


# --------------------------------------------------------------------------- the comparison

def _pow2(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


def _draw_bits(bits: int, n: int, rng: random.Random, kind: str) -> list[int]:
    import pcode_diff as pd
    if bits <= 0:
        return [0] * n
    words = -(-bits // 32)
    if kind in ("f32", "f64", "f16") and bits in (32, 64):
        return pd.draw(kind if not (kind == "f64" and bits == 32) else "f32", bits, n, rng)
    parts = [pd.draw("int", 32, n, rng) for _ in range(words)]
    out = []
    for lane in range(n):
        v = 0
        for k in range(words):
            v |= parts[k][lane] << (32 * k)
        out.append(v & ((1 << bits) - 1))
    return out


def _set_vregs(w, first: int, bits: int, lanes: list[int]) -> None:
    arr, init = w.file("v")
    for k in range(max(1, -(-bits // 32))):
        arr[first + k] = np.array([(x >> (32 * k)) & 0xFFFFFFFF for x in lanes], dtype=np.uint32)
        init[first + k] = True


def _get_vregs(w, first: int, bits: int) -> list[int]:
    arr, _ = w.file("v")
    out = [0] * 64
    for k in range(max(1, -(-bits // 32))):
        col = arr[first + k]
        for lane in range(64):
            out[lane] |= int(col[lane]) << (32 * k)
    return out


def _same_bytes(want: bytes, got: bytes, fw: int) -> int | None:
    """The first differing byte offset, None when equal (a NaN matches any NaN in float memory)."""
    a, b = np.frombuffer(want, np.uint8), np.frombuffer(got, np.uint8)
    diff = np.nonzero(a != b)[0]
    for off in diff:
        if fw:
            step = fw // 8
            lo = int(off) // step * step
            x = pe.from_bits("f", fw, int.from_bytes(want[lo:lo + step], "little"))
            y = pe.from_bits("f", fw, int.from_bytes(got[lo:lo + step], "little"))
            if x.v != x.v and y.v != y.v:
                continue
        return int(off)
    return None


def _same_value(want: int, got: int, bits: int, fw: int) -> bool:
    mask = (1 << bits) - 1
    if (want & mask) == (got & mask):
        return True
    if fw and bits % fw == 0:
        for s in range(0, bits, fw):
            x = pe.from_bits("f", fw, want >> s)
            y = pe.from_bits("f", fw, got >> s)
            if (want >> s) & ((1 << fw) - 1) != (got >> s) & ((1 << fw) - 1) and not (x.v != x.v and y.v != y.v):
                return False
        return True
    return False


def pick_mem_form(cls: str, mnemonic: str, shape: MemShape, target: str, saddr: bool = False) -> MemForm | None:
    import gcnemu
    import pcode_diff as pd
    for f in mem_forms(cls, mnemonic, shape, saddr):
        asm = f.asm.replace("OFFSET0", "1").replace("OFFSET1", "2").replace("OFFSET", "16")
        if not pd.llvm_accepts(asm, target):
            continue
        if gcnemu.parse(asm + "\ns_endpgm\n", "<pcode>").diagnostics:
            continue
        return f
    return None


def compare_memory(key: str, cls: str, text: str, prog: pe.Program, target: str, rng: random.Random,
                   saddr: bool = False):
    """(status, reason, example) for one memory instruction. `saddr` picks the second address form,
    the other case of each class's address helper: GLOBAL/SCRATCH with an SGPR address, SMEM with an
    SGPR offset, MUBUF with IDXEN (a record index times the V#'s stride)."""
    import pcode_diff as pd
    name = key.split(".", 1)[1]
    if name in NOT_COMPARABLE:
        return "not comparable", NOT_COMPARABLE[name], {}
    mnemonic = name.lower()
    shape = mem_shape(text)
    form = pick_mem_form(cls, mnemonic, shape, target, saddr)
    if form is None and cls == "SMEM":  # scalar stores and atomics left the ISA with gfx940
        target = "gfx90a"
        form = pick_mem_form(cls, mnemonic, shape, target)
    if form is None:
        return ("not comparable", f"no operand form of {mnemonic} that llvm-mc accepts is derived from the "
                "pseudocode", {})
    if cls == "SMEM":
        return _compare_scalar_memory(key, mnemonic, shape, form, prog, target, rng, saddr)
    fkind = f"f{shape.mem_float}" if shape.mem_float in (32, 64) else "int"
    align = min(_pow2(shape.access), 16 if cls == "DS" else 8)
    scale = 0
    m = re.search(r"OFFSET0\.u32 \* (\d+)U", text)
    if m:
        scale = int(m.group(1))
    for _attempt in range(20):
        # operands
        same_sub = False
        if shape.two_offsets:
            # the second address must miss every other lane's bytes: past all 64 slots, or at a
            # distance that lands between two lanes' accesses (the lanes then share a sub-offset)
            units = max(2, min(256, (LDS_REGION - 2048 - 64 * SLOT - 16) // scale))
            while True:
                o0, o1 = sorted(rng.sample(range(units), 2))
                d = (o1 - o0) * scale
                if d >= 64 * SLOT or shape.access <= d % SLOT <= SLOT - shape.access:
                    break
            same_sub = d < 64 * SLOT
            offset = 0
        else:
            o0 = o1 = 0
            hi = {"DS": 1024, "FLAT": 1024, "GLOBAL": 512, "SCRATCH": 512, "MUBUF": 1024}[cls]
            lo = -512 if cls == "GLOBAL" else 0
            offset = rng.randrange(lo // align, hi // align) * align
        soffset = rng.randrange(0, 256 // align) * align if cls == "MUBUF" or saddr else 0
        perm = list(range(64))
        rng.shuffle(perm)
        if saddr and cls == "SCRATCH":  # one SGPR address for all lanes: each lane has its own private bytes
            perm, same_sub = [0] * 64, True
        start = 2048
        sub = rng.randrange(0, (SLOT - shape.access) // align + 1) * align
        targets = [start + perm[lane] * SLOT + (sub if same_sub else
                                                 rng.randrange(0, (SLOT - shape.access) // align + 1) * align)
                   for lane in range(64)]
        data = _draw_bits(shape.data, 64, rng, fkind)
        data2 = _draw_bits(shape.data2, 64, rng, fkind)
        dst_init = _draw_bits(max(shape.ret, 32), 64, rng, "int")
        exec_mask = (1 << 64) - 1 & ~(1 << rng.randrange(64)) & ~(1 << rng.randrange(64))
        region = LDS_REGION if cls == "DS" else PRIVATE if cls == "SCRATCH" else BUF_REGION
        init = bytearray(rng.getrandbits(8) for _ in range(region))
        if shape.mem_float in (32, 64):  # float memory operands: edge values at each lane's address
            vals = pd.draw(f"f{shape.mem_float}", shape.mem_float, 64, rng)
            for lane in range(64):
                init[targets[lane]:targets[lane] + shape.mem_float // 8] = vals[lane].to_bytes(shape.mem_float // 8,
                                                                                                "little")
        cmp = re.search(r"cmp = (DATA2?)(?:\[(\d+) : (\d+)\])?\.\w(\d+)", text)
        if cmp:  # every other lane compares equal, so both arms of the swap run
            width = int(cmp.group(4))
            shift = int(cmp.group(3) or 0)
            arr = data if cmp.group(1) == "DATA" else data2
            for lane in range(0, 64, 2):
                old = int.from_bytes(init[targets[lane]:targets[lane] + width // 8], "little")
                arr[lane] = (arr[lane] & ~(((1 << width) - 1) << shift)) | (old << shift)
        # the oracle, lane by lane in lane order
        lanes_info = []
        vindex: list[int | None] = [None] * 64
        for lane in range(64):
            if cls == "DS":
                vaddr = targets[lane] - offset
            elif cls == "MUBUF" and saddr:
                vindex[lane] = rng.randrange(0, 11)
                vaddr = targets[lane] - offset - soffset - STRIDE * vindex[lane]
            elif cls == "MUBUF" or (saddr and cls == "GLOBAL"):
                vaddr = targets[lane] - offset - soffset
            elif saddr and cls == "SCRATCH":  # the SGPR carries the address, no VGPR
                soffset = targets[lane] - offset
                vaddr = 0
            else:
                vaddr = targets[lane] - offset
            lanes_info.append(vaddr)
        result = _oracle(cls, shape, prog, text, lanes_info, offset, o0, o1, soffset, data, data2, dst_init,
                         exec_mask, init, saddr, vindex)
        if isinstance(result, str):
            return "not comparable", result, {}
        mem_after, dests, touched = result
        if touched is None:  # lanes' bytes met: draw again
            continue
        break
    else:
        return "not comparable", "could not draw addresses whose written bytes are disjoint across lanes", {}
    # gcnemu
    asm = form.asm.replace("OFFSET0", str(o0)).replace("OFFSET1", str(o1)).replace("OFFSET", str(offset))
    import gcnemu
    from gcnemu.asm.resolve import resolve
    from gcnemu.setup import Setup, buffer_descriptor
    from gcnemu.simulation import Simulation
    setup = Setup(kernarg_sgpr=None, workgroup_id_sgprs={})
    if cls == "DS":
        setup.lds_init = np.frombuffer(bytes(init), dtype=np.uint8)
    elif cls == "SCRATCH":
        setup.private_segment_size = PRIVATE
    else:
        setup.add_buffer("buf", np.frombuffer(bytes(init), dtype=np.uint8))
    kernel = resolve(gcnemu.parse(asm + "\ns_endpgm\n", "<pcode>"), target, validate_first=False)
    sim = Simulation(kernel, setup, abi_from_file=False)
    w = sim.wave(0)
    if "_D16" in name:
        # the pseudocode keeps the other half of the VGPR: the guide's behaviour with SRAM ECC off
        # ("16-bit Memory Operations"); gcnemu zeroes it with ECC on, the Instinct default (its own tests)
        sim.engine.sramecc = False
    bufbase = sim.buffer_address("buf") if cls not in ("DS", "SCRATCH") else 0
    if cls not in ("DS", "SCRATCH") and bufbase != GLOBAL_BASE:
        return "not comparable", "gcnemu placed the buffer elsewhere than the oracle assumed", {}
    if cls == "SCRATCH":
        scratch = sim.memory.buffer("__scratch_w0")
        for lane in range(64):
            scratch.data[lane * PRIVATE:(lane + 1) * PRIVATE] = np.frombuffer(bytes(init), dtype=np.uint8)
    if saddr and cls == "GLOBAL":
        _set_vregs(w, ADDR_V, 32, lanes_info)
        pd._set_s64(w, SBASE_S, bufbase + soffset)
    elif saddr and cls == "SCRATCH":
        w.set_sgpr(SBASE_S, np.array([soffset], dtype=np.uint32))
    elif cls in ("FLAT", "GLOBAL"):
        _set_vregs(w, ADDR_V, 64, [bufbase + v for v in lanes_info])
    elif cls == "MUBUF":
        if saddr:
            _set_vregs(w, ADDR_V, 64, [int(i) | (v << 32) for i, v in zip(vindex, lanes_info)])
            w.set_sgpr(RSRC_S, np.array(buffer_descriptor(bufbase, BUF_REGION // STRIDE, STRIDE), dtype=np.uint32))
        else:
            _set_vregs(w, ADDR_V, 32, lanes_info)
            w.set_sgpr(RSRC_S, np.array(buffer_descriptor(bufbase, BUF_REGION), dtype=np.uint32))
        w.set_sgpr(SOFF_S, np.array([soffset], dtype=np.uint32))
    else:
        _set_vregs(w, ADDR_V, 32, lanes_info)
    if shape.data:
        _set_vregs(w, DATA_V, shape.data, data)
    if shape.data2:
        _set_vregs(w, DATA2_V, shape.data2, data2)
    _set_vregs(w, DST_V, max(shape.ret, 32), dst_init)
    pd._set_s64(w, 126, exec_mask)
    failure = pd._run(sim)
    if failure:
        return "disagree", failure, {"asm": asm}
    # registers
    fw = shape.mem_float
    if form.returns:
        first = DST_V if form.dst == "v" else DATA_V
        got = _get_vregs(w, first, shape.ret)
        before = dst_init if form.dst == "v" else data
        for lane in range(64):
            if not (exec_mask >> lane) & 1:
                if (got[lane] ^ before[lane]) & ((1 << shape.ret) - 1):
                    return "disagree", f"inactive lane {lane} changed its destination", {"asm": asm}
                continue
            if not _same_value(dests[lane], got[lane], shape.ret, fw):
                return "disagree", "returned data", {"asm": asm, "lane": lane, "addr": hex(targets[lane]),
                                                     "data": hex(data[lane]), "want": hex(dests[lane]),
                                                     "got": hex(got[lane])}
    # memory: every byte of the region
    if cls == "DS":
        got_mem = bytes(sim.lds.data[:len(mem_after[0])])
        mems = [(None, mem_after[0], got_mem)]
    elif cls == "SCRATCH":
        scratch = sim.memory.buffer("__scratch_w0")
        mems = [(lane, mem_after[lane], bytes(scratch.data[lane * PRIVATE:(lane + 1) * PRIVATE])) for lane in range(64)]
    else:
        mems = [(None, mem_after[0], bytes(sim.buffer("buf")))]
    for lane, want, got_b in mems:
        off = _same_bytes(bytes(want), got_b, fw)
        if off is not None:
            owner = next((ln for ln in range(64) if targets[ln] <= off < targets[ln] + SLOT), None)
            return "disagree", "memory byte", {"asm": asm, "byte": off, "lane": owner if lane is None else lane,
                                               "data": hex(data[owner]) if owner is not None else None,
                                               "want": hex(want[off]), "got": hex(got_b[off])}
    return "agree", "", {}


GLOBAL_BASE = 0x1_0000_0000  # where gcnemu puts the first buffer (checked after each launch)


class _Recording(pe.Memory):
    """Memory that remembers which lane read and wrote which bytes."""

    def __init__(self, base: int, data: bytes | bytearray):
        super().__init__(base, data)
        self.lane = 0
        self.reads: dict[int, set[int]] = {}
        self.writes: dict[int, set[int]] = {}

    def read(self, addr: int, nbytes: int) -> int:
        self.reads.setdefault(self.lane, set()).update(range(addr, addr + nbytes))
        return super().read(addr, nbytes)

    def write(self, addr: int, nbytes: int, bits: int) -> None:
        self.writes.setdefault(self.lane, set()).update(range(addr, addr + nbytes))
        super().write(addr, nbytes, bits)


def _overlap(mem: _Recording) -> bool:
    """True when a byte one lane writes is read or written by another lane."""
    owner: dict[int, int] = {}
    for lane, written in mem.writes.items():
        for b in written:
            if owner.setdefault(b, lane) != lane:
                return True
    for lane, read in mem.reads.items():
        for b in read:
            if owner.get(b, lane) != lane:
                return True
    return False


def _lane_env(lane: int, mem: pe.Memory, ln: Lane) -> pe.Env:
    import pcode_diff as pd
    return pe.Env(lane=lane, call_instruction=pd.call_instruction, memory=mem, helpers=helpers_for(ln))


def _result_of(env: pe.Env) -> int:
    for name in ("RETURN_DATA", "VDATA", "SDATA"):
        if name in env.written:
            return env.vars[name].bits
    return 0


def _oracle(cls, shape, prog, text, vaddrs, offset, o0, o1, soffset, data, data2, dst_init, exec_mask, init,
            saddr=False, vindex=None):
    """(memory after per region, destination per lane, touched) or a reason string; touched is
    None when two lanes' bytes met (the caller draws again)."""
    base = GLOBAL_BASE if cls in ("FLAT", "GLOBAL", "MUBUF") else 0
    shared = _Recording(base, init)
    privates: list[pe.Memory] = []
    dests = [0] * 64
    ret_is_data = cls == "MUBUF" and shape.writes_mem and shape.ret
    for lane in range(64):
        mem = shared if cls != "SCRATCH" else pe.Memory(0, init)
        if cls == "SCRATCH":
            privates.append(mem)
        if not (exec_mask >> lane) & 1:
            continue
        shared.lane = lane
        vaddr = vaddrs[lane]
        ln = Lane(vaddr=base + vaddr if cls in ("FLAT", "GLOBAL") and not saddr else vaddr, offset=offset,
                  soffset=soffset, base=base + soffset if saddr and cls == "GLOBAL" else base, saddr=saddr,
                  vindex=vindex[lane] if vindex and cls == "MUBUF" else None)
        effective = (base + vaddr + offset + soffset) if cls != "DS" or not shape.two_offsets else vaddr
        if ln.vindex is not None:
            effective += STRIDE * ln.vindex
        env = _lane_env(lane, mem, ln)
        addr_value = ln.vaddr if shape.uses_helper else effective
        env.set("ADDR", "b", 64, addr_value)
        env.set("ADDR_BASE", "b", 32, vaddr)
        env.set("VADDR", "b", 32, vaddr)
        env.set("SADDR", "b", 32, (base + soffset if cls == "GLOBAL" else soffset) if saddr else 0)
        env.set("SRSRC", "b", 32, base & 0xFFFFFFFF)
        env.set("SOFFSET", "b", 32, soffset)
        if cls == "DS" and not shape.two_offsets:
            env.set("OFFSET", "u", 16, offset)
            env.set("OFFSET0", "u", 8, offset & 0xFF)
            env.set("OFFSET1", "u", 8, offset >> 8)
        else:
            env.set("OFFSET", "b", 32, offset & 0xFFFFFFFF)
            env.set("OFFSET0", "u", 8, o0)
            env.set("OFFSET1", "u", 8, o1)
        dbits = max(shape.data, 32)
        env.set("DATA", "b", dbits, data[lane])
        env.set("DATA0", "b", dbits, data[lane])
        env.set("DATA2", "b", max(shape.data2, 32), data2[lane])
        rbits = max(shape.ret, 32)
        old_dst = data[lane] if ret_is_data else dst_init[lane]
        env.set("RETURN_DATA", "b", rbits, old_dst)
        env.set("VDATA", "b", max(rbits, dbits), data[lane] if shape.writes_mem else dst_init[lane])
        env.set("EXEC", "b", 64, exec_mask)
        try:
            pe.run(prog, env)
        except (pe.PcodeUnsupported, pe.PcodeError) as exc:
            return str(exc)
        dests[lane] = _result_of(env)
    if cls != "SCRATCH" and _overlap(shared):
        return None, None, None
    mems = [m.data for m in privates] if cls == "SCRATCH" else [shared.data]
    return mems, dests, True


def _compare_scalar_memory(key, mnemonic, shape, form, prog, target, rng, saddr=False):
    import pcode_diff as pd
    import gcnemu
    from gcnemu.asm.resolve import resolve
    from gcnemu.setup import Setup, buffer_descriptor
    from gcnemu.simulation import Simulation
    offset = rng.randrange(0, 1024) if not shape.writes_mem else rng.randrange(0, 256) * 4
    soffset = (rng.randrange(0, 1024) if not shape.writes_mem else rng.randrange(0, 256) * 4) if saddr else 0
    start = 2048
    init = bytearray(rng.getrandbits(8) for _ in range(BUF_REGION))
    data = _draw_bits(shape.data, 1, rng, "int")[0]
    dst_init = _draw_bits(max(shape.ret, 32), 1, rng, "int")[0]
    cmp = re.search(r"cmp = DATA\[(\d+) : (\d+)\]", prog.text)
    if cmp and rng.getrandbits(1):
        width = int(cmp.group(1)) - int(cmp.group(2)) + 1
        addr = (start + offset + soffset) & ~3
        old = int.from_bytes(init[addr:addr + width // 8], "little")
        data = (data & ~(((1 << width) - 1) << int(cmp.group(2)))) | (old << int(cmp.group(2)))
    mem = pe.Memory(GLOBAL_BASE, init)
    env = _lane_env(0, mem, Lane(base=GLOBAL_BASE + start))
    env.set("SBASE", "b", 32, (GLOBAL_BASE + start) & 0xFFFFFFFF)
    env.set("SOFFSET", "b", 32, soffset)
    env.set("OFFSET", "i", 32, offset)
    env.set("DATA", "b", max(shape.data, 32), data)
    env.set("SDATA", "b", max(shape.ret, shape.data, 32), data if shape.writes_mem else dst_init)
    env.set("RETURN_DATA", "b", max(shape.ret, 32), data)
    try:
        pe.run(prog, env)
    except (pe.PcodeUnsupported, pe.PcodeError) as exc:
        return "not comparable", str(exc), {}
    want = _result_of(env)
    asm = form.asm.replace("OFFSET", hex(offset))
    setup = Setup(kernarg_sgpr=None, workgroup_id_sgprs={})
    setup.add_buffer("buf", np.frombuffer(bytes(init), dtype=np.uint8))
    kernel = resolve(gcnemu.parse(asm + "\ns_endpgm\n", "<pcode>"), target, validate_first=False)
    sim = Simulation(kernel, setup, abi_from_file=False)
    w = sim.wave(0)
    if sim.buffer_address("buf") != GLOBAL_BASE:
        return "not comparable", "gcnemu placed the buffer elsewhere than the oracle assumed", {}
    if "buffer" in mnemonic:
        w.set_sgpr(RSRC_S, np.array(buffer_descriptor(GLOBAL_BASE + start, BUF_REGION - start), dtype=np.uint32))
    else:
        pd._set_s64(w, SBASE_S, GLOBAL_BASE + start)
    w.set_sgpr(SOFF_S, np.array([soffset], dtype=np.uint32))
    words = max(1, -(-max(shape.data, shape.ret, 32) // 32))
    first = SDATA_S if form.dst != "s" else SDST_S
    value = data if form.dst != "s" else dst_init
    w.set_sgpr(first, np.array([(value >> (32 * k)) & 0xFFFFFFFF for k in range(words)], dtype=np.uint32))
    failure = pd._run(sim)
    if failure:
        return "disagree", failure, {"asm": asm}
    if form.returns:
        got = 0
        for k in range(-(-shape.ret // 32)):
            got |= int(w.sgpr[first + k]) << (32 * k)
        if not _same_value(want, got, shape.ret, 0):
            return "disagree", "returned data", {"asm": asm, "want": hex(want & ((1 << shape.ret) - 1)),
                                                 "got": hex(got)}
    off = _same_bytes(bytes(mem.data), bytes(sim.buffer("buf")), 0)
    if off is not None:
        return "disagree", "memory byte", {"asm": asm, "byte": off, "want": hex(mem.data[off]),
                                           "got": hex(sim.buffer("buf")[off])}
    return "agree", "", {}
