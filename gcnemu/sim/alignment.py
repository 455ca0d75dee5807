"""Misaligned global and LDS accesses: which addresses the ISA guide calls misaligned, per access.

gcnemu runs a misaligned access with the address as given (the bytes at that address), which is
what ROCm's configuration does, and reports it once per instruction as a runtime warning: the
same kernel behaves differently, or faults, in the other alignment modes, and is slower in any.

The facts, and where they come from (the four CDNA targets share them):

- Global, flat and buffer loads and stores of a dword or more: MI100/MI200/MI300/MI350 ISA guides,
  section 9.1.7 "Alignment": "For Dword or larger reads or writes, the two LSBs of the
  byte-address are ignored, thus forcing Dword alignment." Sub-dword accesses have no rule there.
- LDS: the same guides list "LDS alignment error" and "Memory read/write/atomic alignment error"
  among the memory violations (section 3.11) without a table; the rule is the SH_MEM_CONFIG
  alignment_mode that the RDNA1 guide spells out (section 8.1.7): DWORD aligns automatically to
  the smaller of the element size and a dword, DWORD_STRICT requires that, STRICT requires
  alignment to the element size, UNALIGNED has no requirement. LLVM's rule without unaligned
  access mode (SIISelLowering::allowsMisalignedMemoryAccessesImpl; "ds_read/write_b64 require
  8-byte alignment", D87821 makes "alignment_mode == STRICT the default") is natural alignment:
  the size rounded up to a power of two, so ds_read_b64 8 bytes, ds_read_b96/b128 16; the two
  addresses of ds_read2/write2 each to their element (4 or 8 bytes).
- Atomics must be naturally aligned in every mode (RDNA guides: "UNALIGNED - any alignment is
  allowed (but atomics must still be aligned)"; CDNA section 3.11: an atomic alignment error is a
  memory violation): 4 bytes for 32-bit atomics, 8 for the 64-bit ones (`_x2`, `_b64`/`_u64`/
  `_f64`), whose element is one naturally aligned qword. Scalar atomics are not checked (SMEM
  drops the low address bits, as for loads).
- Scratch: "Scratch instructions also support multi-Dword access and mis-aligned access
  (although mis-aligned is slower)" (section 10.5): never reported. Scalar loads drop the two low
  bits (the SMEM semantics note that themselves).
- What ROCm runs: amdkfd programs every gfx9 queue with SH_MEM_ALIGNMENT_MODE_UNALIGNED
  (kfd_device_queue_manager_v9.c, update_qpd_v9), and LLVM turns on unaligned-access-mode for
  amdhsa; llc 22 for gfx942/amdhsa emits global_load_dword at align 1 and ds_write_b128 at align 1.
  That is the behaviour gcnemu models.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

RULE = "misaligned-access"

NOTE_GLOBAL = ("the ISA guide (section 9.1.7) ignores the two low address bits of dword and larger accesses, "
               "forcing dword alignment; ROCm runs in unaligned mode, which gcnemu models: the bytes at the "
               "address are accessed, at a lower rate")
NOTE_LDS = ("LDS alignment follows SH_MEM_CONFIG.alignment_mode: ROCm's unaligned mode, which gcnemu models, "
            "accesses the bytes at the address at a lower rate; the dword and strict modes align the address "
            "or raise a memory violation")
NOTE_ATOMIC = ("atomics must be naturally aligned in every alignment mode: the hardware raises a memory "
               "violation; gcnemu performed the atomic at the address as given")


@dataclass(frozen=True)
class Misaligned:
    """One misaligned access of one issue: what, where, and the first offending address."""

    mnemonic: str
    space: str  # "LDS" | "global"
    verb: str  # "reads" | "writes" | "updates"
    required: int  # bytes
    lanes: tuple[int, ...]
    address: int  # the first offending lane's address
    atomic: bool = False

    @property
    def note(self) -> str:
        return NOTE_ATOMIC if self.atomic else (NOTE_LDS if self.space == "LDS" else NOTE_GLOBAL)

    def message(self, context: str = "") -> str:
        """`context` goes inside the parentheses after the lanes (" in wave 0")."""
        where = f"LDS address 0x{self.address:x}" if self.space == "LDS" else f"address 0x{self.address:x}"
        return (f"{self.mnemonic} {self.verb} {where}, which is not {self.required}-byte aligned "
                f"(lanes {lane_ranges(self.lanes)}{context})")


class MisalignedNote(str):
    """A runtime note the engine carries like any other (see Ctx.defer); `Simulation` turns
    these into one warning per instruction."""

    found: Misaligned

    def __new__(cls, found: Misaligned) -> "MisalignedNote":
        self = super().__new__(cls, found.message())
        self.found = found
        return self

    def __reduce__(self):  # pickled with grid results: rebuild from the finding
        return (MisalignedNote, (self.found,))


def natural(size: int) -> int:
    """Natural alignment of an access of `size` bytes: the size rounded up to a power of two (max 16)."""
    a = 1
    while a < size and a < 16:
        a *= 2
    return a


def lane_ranges(lanes) -> str:
    """(0, 1, 2, 3, 8) -> '0-3, 8'."""
    parts, start, prev = [], None, None
    for k in lanes:
        if prev is not None and k == prev + 1:
            prev = k
            continue
        if start is not None:
            parts.append(f"{start}" if start == prev else f"{start}-{prev}")
        start = prev = k
    if start is not None:
        parts.append(f"{start}" if start == prev else f"{start}-{prev}")
    return ", ".join(parts)


def _find(mnemonic: str, space: str, verb: str, required: int, lanes, addrs, atomic: bool = False):
    if required <= 1 or len(addrs) == 0:
        return None
    a = np.asarray(addrs)
    # the common case, every lane aligned, in one reduction (the low bits of a signed address
    # are those of its uint64 view)
    if a.dtype.kind in "iu" and not int(np.bitwise_or.reduce(a)) & (required - 1):
        return None
    a = a.astype(np.uint64, copy=False)
    bad = np.nonzero(a & np.uint64(required - 1))[0]
    if not len(bad):
        return None
    lanes = np.asarray(lanes)
    return Misaligned(mnemonic, space, verb, required, tuple(int(x) for x in lanes[bad]), int(a[bad[0]]), atomic)


# memory-operation class -> which rule of `check` applies (the isinstance chain below, decided
# once per class: check runs at every memory instruction's issue)
_KIND_OF_TYPE: dict[type, str | None] = {}


def _kind(memop) -> str | None:
    from . import memops as m  # (lazy: most runs never misalign)
    for cls, kind in ((m.LdsRead, "lds-read"), (m.LdsWrite, "lds-write"), (m.LdsAtomic, "lds-atomic"),
                      (m.LdsExchange2, "lds-xchg2"), (m.GlobalAtomic, "global-atomic"),
                      (m.GlobalLoad, "global-load"), (m.LdsDma, "lds-dma"), (m.GlobalStore, "global-store")):
        if isinstance(memop, cls):
            return kind
    return None


def check(mnemonic: str, memop) -> Misaligned | None:
    """The misaligned lanes of one memory operation (None: every lane is aligned, or no rule applies)."""
    if mnemonic.startswith(("scratch_", "s_")):  # scratch allows misaligned access; SMEM drops the bits
        return None
    t = type(memop)
    kind = _KIND_OF_TYPE.get(t, "")
    if kind == "":
        kind = _KIND_OF_TYPE[t] = _kind(memop)
    if kind is None:
        return None
    if kind == "lds-read":
        for addrs, size in memop.pieces:
            hit = _find(mnemonic, "LDS", "reads", natural(size), memop.lanes, addrs)
            if hit:
                return hit
        return None
    if kind == "lds-write":
        for addrs, data in memop.pieces:
            hit = _find(mnemonic, "LDS", "writes", natural(data.shape[1]), memop.lanes, addrs)
            if hit:
                return hit
        return None
    if kind == "lds-atomic":  # 64-bit atomics (_x2, _b64/_u64/_f64) to 8 bytes
        return _find(mnemonic, "LDS", "updates", memop.width, memop.lanes, memop.addrs, atomic=True)
    if kind == "lds-xchg2":
        for addrs, data in memop.pieces:
            hit = _find(mnemonic, "LDS", "updates", data.dtype.itemsize, memop.lanes, addrs, atomic=True)
            if hit:
                return hit
        return None
    if kind == "global-atomic":
        return _find(mnemonic, "global", "updates", memop.width, memop.lanes, memop.addrs, atomic=True)
    if kind in ("global-load", "lds-dma"):  # LDS DMA: the global side; the LDS side is dword aligned
        return _find(mnemonic, "global", "reads", 4 if memop.size >= 4 else 1, memop.lanes, memop.addrs)
    size = memop.data.shape[1] if memop.data.ndim == 2 else 0  # global-store
    return _find(mnemonic, "global", "writes", 4 if size >= 4 else 1, memop.lanes, memop.addrs)
