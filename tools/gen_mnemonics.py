#!/usr/bin/env python3
"""Generate gcnemu's per-target mnemonic tables and assembler limits from LLVM.

What it writes
--------------
* ``gcnemu/isa/data/mnemonics/<target>.txt`` for gfx908, gfx90a, gfx942, gfx950:
  one row per mnemonic (tab separated)::

      name  family  suffixes  canonical  hint

  ``family``    encoding family (SOP1 SOP2 SOPK SOPC SOPP SMEM VOP1 VOP2 VOPC
                VOP3 VOP3P VOP3P-MAI VOP3PX2-MAI DS FLAT GLOBAL SCRATCH MUBUF MTBUF MIMG
                EXP VINTRP), or ``?`` if it could not be determined.
  ``suffixes``  comma separated suffix spellings that llvm-mc accepts for the
                mnemonic on that target (``e32``, ``e64``, ``sdwa``, ``dpp``,
                ``e64_dpp``), ``-`` for none.
  ``canonical`` the spelling llvm-mc/llvm-objdump prints for this mnemonic
                when it is an assembler alias, ``-`` otherwise.
  ``hint``      which spellings llvm-mc's own "did you mean" may offer:
                ``b`` the bare name, ``e`` a literal ``<name>_e32`` entry
                (VOPC), ``be`` both, ``-`` neither (see ``spell_table``).

* ``gcnemu/isa/data/mnemonics_other.txt``: the base names (suffix stripped,
  one a line) that exist only on other AMDGPU generations (gfx6-8, gfx10+):
  llvm-mc rejects them on all four targets with "instruction not supported on
  this GPU" (step 3), and offers no did-you-mean for them, where a name unknown
  everywhere gets "invalid instruction[, did you mean: ...?]".  gcnemu reads
  it only when a mnemonic is unknown on the target.

* ``gcnemu/isa/data/limits.json``: immediate/counter boundaries that llvm-mc
  enforces, measured on each target (see ``LIMIT_PROBES``).

How it works (everything is asked of LLVM itself; no .td file is parsed)
-----------------------------------------------------------------------
1. Candidate spellings: the AMDGPU assembler's mnemonic table, read out of the
   libLLVM shared object that llvm-mc links (length-prefixed string table of
   the generated AsmMatcher), plus every name the disassembler prints in
   step 2.
2. Encoding enumeration: for every gfx9 encoding format, every value of the
   opcode field is put together with a few operand templates and disassembled
   (``llvm-mc -disassemble``, one blob per line, each followed by a sentinel
   instruction so outputs can be attributed).  The format bits of the blob
   that decodes give the family of the printed mnemonic (VOP3 opcodes that
   are the e64 form of a VOP1/VOP2/VOPC op keep the 32-bit family; MAI ops
   are told apart from other VOP3P by name).
3. Existence: each candidate is assembled without operands, bare and with
   each suffix.  llvm-mc answers "invalid instruction" (unknown anywhere),
   "instruction not supported on this GPU" (other targets only),
   "<sfx> variant of this instruction is not supported" (suffix not valid),
   or an operand error / success: the spelling exists.
4. Aliases (spellings accepted by the assembler that the disassembler never
   prints) are assembled with operand lists borrowed from disassembled
   instructions of the same prefix; the bytes of the first one that assembles
   give the family and, disassembled again, the canonical spelling.  An
   alias passes llvm-mc's mnemonic check with any suffix and then fails on
   operands, so its suffixes are kept only if they really assemble.
5. llvm-mc's did-you-mean table membership (``hint``), see spell_table().
6. Limits: bisection on the immediate of a template instruction.

Rerunning when LLVM changes
---------------------------
    apt-get install -y llvm-22        # or whichever LLVM you target
    python3 tools/gen_mnemonics.py [--llvm-mc /path/to/llvm-mc] [--lib libLLVM.so]
    pytest tests/test_mnemonics.py tests/test_limits.py
    git diff gcnemu/isa/data/       # review, then commit

It takes 10-30 s on one core (about 350 llvm-mc runs over batched input,
most of them the bisection rounds of the limits).  Spellings that behave
oddly are listed on stderr as "odd: ...".  ``--check-version`` (default 22)
guards against running it with another LLVM by accident; pass
``--check-version 0`` to skip.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

TARGETS = ("gfx908", "gfx90a", "gfx942", "gfx950")
SUFFIXES = ("e32", "e64", "sdwa", "dpp", "e64_dpp")
ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "gcnemu" / "isa" / "data"

NOT_SUPPORTED = "instruction not supported on this GPU"
INVALID = "invalid instruction"
VARIANT_RE = re.compile(r"^(\w+) variant of this instruction is not supported")


# --------------------------------------------------------------------------
# llvm-mc plumbing
# --------------------------------------------------------------------------

def find_llvm_mc(explicit: str | None) -> str:
    for cand in (explicit, os.environ.get("LLVM_MC"), "/usr/lib/llvm-22/bin/llvm-mc",
                 shutil.which("llvm-mc-22"), shutil.which("llvm-mc")):
        if cand and Path(cand).exists():
            return cand
    sys.exit("llvm-mc not found (apt-get install llvm-22, or pass --llvm-mc)")


class MC:
    def __init__(self, path: str):
        self.path = path
        self.calls = 0

    def run(self, target: str, text: str, *args: str) -> tuple[str, str]:
        self.calls += 1
        r = subprocess.run([self.path, "-arch=amdgcn", f"-mcpu={target}", *args],
                           input=text, capture_output=True, text=True)
        return r.stdout, r.stderr

    def version(self) -> str:
        r = subprocess.run([self.path, "--version"], capture_output=True, text=True)
        m = re.search(r"LLVM version (\S+)", r.stdout)
        return m.group(1) if m else "unknown"

    def assemble_lines(self, target: str, lines: list[str]) -> tuple[dict[int, str], list[tuple[str, bytes]]]:
        """Assemble ``lines``; returns ({line index: first error}, [(text, bytes)] per success, in order)."""
        out, err = self.run(target, "\n".join(lines) + "\n", "-show-encoding")
        errors: dict[int, str] = {}
        for l in err.splitlines():
            m = re.match(r"<stdin>:(\d+):\d+: error: (.*)", l)
            if m:
                errors.setdefault(int(m.group(1)) - 1, m.group(2).strip())
        enc = []
        for l in out.splitlines():
            m = re.match(r"\s+(\S.*?)\s*; encoding: \[([^\]]*)\]", l)
            if m:
                enc.append((m.group(1).strip(), bytes(int(x, 16) for x in m.group(2).split(","))))
        return errors, enc

    def disassemble(self, target: str, blobs: list[bytes]) -> dict[bytes, str]:
        """Disassemble each blob; map blob -> asm text of the instruction decoded at its start.

        With -disassemble, llvm-mc prints re-encoded bytes (don't-care fields
        come out zeroed), so outputs are attributed by position instead: every
        blob is followed by a sentinel ``s_movk_i32 s100, <index>`` line, and a
        blob whose first byte draws an "invalid instruction encoding" warning
        has no decode (what follows it in its segment is its tail decoded as
        other instructions)."""
        res: dict[bytes, str] = {}
        for start in range(0, len(blobs), 0x8000):
            chunk = blobs[start:start + 0x8000]
            lines = []
            for i, blob in enumerate(chunk):
                lines.append(",".join(f"0x{b:02x}" for b in blob))
                lines.append(",".join(f"0x{b:02x}" for b in le(0xB0000000 | 100 << 16 | i)))
            out, err = self.run(target, "\n".join(lines) + "\n", "-disassemble")
            failed = set()
            for l in err.splitlines():
                m = re.match(r"<stdin>:(\d+):1: warning: invalid instruction encoding", l)
                if m:
                    failed.add((int(m.group(1)) - 1) // 2)
            seg: list[str] = []
            for l in out.splitlines():
                l = l.strip()
                if not l or l.startswith(("#", ".")):
                    continue
                m = re.fullmatch(r"s_movk_i32 s100, (0x[0-9a-f]+)", l)
                if m:
                    i = int(m.group(1), 16)
                    if i not in failed and seg:
                        res[chunk[i]] = seg[0]
                    seg = []
                else:
                    seg.append(re.sub(r"\s+", " ", l))
        return res


# --------------------------------------------------------------------------
# Step 1: the assembler's mnemonic table
# --------------------------------------------------------------------------

NAME_RE = re.compile(rb"[a-z][a-z0-9_]*")
PREFIXES = ("s_", "v_", "ds_", "buffer_", "tbuffer_", "global_", "flat_", "scratch_",
            "image_", "exp", "export")


def find_libllvm(mc_path: str, explicit: str | None) -> Path | None:
    if explicit:
        return Path(explicit)
    try:
        out = subprocess.run(["ldd", mc_path], capture_output=True, text=True).stdout
    except OSError:
        out = ""
    for l in out.splitlines():
        m = re.search(r"(libLLVM[^ ]*\.so[^ ]*) => (\S+)", l)
        if m:
            return Path(m.group(2)).resolve()
    return Path(mc_path).resolve()  # statically linked llvm-mc: the table is in the binary


def matcher_mnemonics(lib: Path) -> set[str]:
    """Read the AsmMatcher MnemonicTable: a run of <len><chars> entries, sorted.

    It is located by its (stable) first entries; every AMDGPU mnemonic of every
    generation is in it.  Falls back to a scan of all printable tokens with an
    instruction prefix if the table cannot be found (more candidates only
    means more lines for llvm-mc to reject)."""
    data = lib.read_bytes()
    names: set[str] = set()
    anchor = data.find(b"\x11buffer_atomic_add\x15")
    if anchor >= 0:
        p = anchor
        while p < len(data):
            n = data[p]
            s = data[p + 1:p + 1 + n]
            if n == 0 or not NAME_RE.fullmatch(s):
                break
            names.add(s.decode())
            p += 1 + n
    if len(names) < 1000:
        print("warning: matcher table not found; scanning all strings", file=sys.stderr)
        for m in re.finditer(rb"[a-z][a-z0-9_]{2,60}", data):
            s = m.group(0).decode()
            if s.startswith(PREFIXES):
                names.add(s)
    return names


# --------------------------------------------------------------------------
# Step 2: encoding enumeration (gfx9 formats)
# --------------------------------------------------------------------------

def le(*words: int) -> bytes:
    return b"".join((w & 0xFFFFFFFF).to_bytes(4, "little") for w in words)


def classify(blob: bytes) -> str:
    """Encoding family of a gfx9-family instruction from its format bits."""
    w = int.from_bytes(blob[:4], "little")
    if w >> 31 == 0:
        op7 = w >> 25
        return "VOP1" if op7 == 0x3F else "VOPC" if op7 == 0x3E else "VOP2"
    if w >> 30 == 0b10:
        hi9 = w >> 23
        if hi9 == 0x17D:
            return "SOP1"
        if hi9 == 0x17E:
            return "SOPC"
        if hi9 == 0x17F:
            return "SOPP"
        if w >> 28 == 0xB:
            return "SOPK"
        return "SOP2"
    top6 = w >> 26
    if top6 == 0x34:
        if w >> 23 == 0x1A7:
            return "VOP3P"
        return "VOP3"
    if top6 == 0x37:
        return {0: "FLAT", 1: "SCRATCH", 2: "GLOBAL"}.get((w >> 14) & 3, "FLAT?")
    return {0x30: "SMEM", 0x31: "EXP", 0x35: "VINTRP", 0x36: "DS", 0x38: "MUBUF",
            0x3A: "MTBUF", 0x3C: "MIMG"}.get(top6, "?")


def vop_sub_encoding(blob: bytes) -> str:
    """'' for the plain 32-bit form, else 'sdwa'/'dpp'/'e64'."""
    w = int.from_bytes(blob[:4], "little")
    if w >> 31 == 0:
        src0 = w & 0x1FF
        return {0xF9: "sdwa", 0xFA: "dpp"}.get(src0, "")
    if w >> 26 == 0x34 and w >> 23 != 0x1A7:
        return "e64"
    return ""


def enumeration_blobs() -> list[bytes]:
    """Byte strings covering every opcode value of every gfx9 format.

    The decoder rejects non-zero fields an opcode does not use, so register
    fields are mostly zero (s0/v0, always aligned); a few variants set the
    fields some opcodes need (VGPR sources, gds/lds/acc bits, literals)."""
    blobs: list[bytes] = []
    add = blobs.append
    V0 = 0x100  # v0 as a 9-bit source operand
    LIT = 0xFF  # literal constant follows
    for op in range(0x60):                       # SOP2 (op 0x60+ is SOPK/SOP1/SOPC/SOPP)
        add(le(0x80000000 | op << 23))
        add(le(0x80000000 | op << 23 | LIT, 0))
    for op in range(0x1D):                       # SOPK (0x1D-0x1F are SOP1/SOPC/SOPP)
        add(le(0xB0000000 | op << 23))
        add(le(0xB0000000 | op << 23, 0))        # s_setreg_imm32_b32 takes a literal
    for op in range(0x100):                      # SOP1
        add(le(0xBE800000 | op << 8))
    for op in range(0x80):                       # SOPC / SOPP
        add(le(0xBF000000 | op << 16))
        add(le(0xBF800000 | op << 16))
    for op in range(0x100):                      # SMEM: imm offset / soffset
        add(le(0xC0000000 | op << 18 | 1 << 17, 0))
        add(le(0xC0000000 | op << 18, 0))
    for op in range(0x3E):                       # VOP2 (0x3E/0x3F are VOPC/VOP1)
        for src0 in (V0, 0):
            add(le(op << 25 | src0))
            add(le(op << 25 | src0, 0))          # madak/madmk/fmaak/fmamk literal
        add(le(op << 25 | LIT, 0))
    for op in range(0x100):                      # VOP1 / VOPC
        for src0 in (V0, 0):
            add(le(0x7E000000 | op << 9 | src0))
            add(le(0x7C000000 | op << 17 | src0))
    srcs = [a | b << 9 | c << 18 for a in (V0, 0) for b in (V0, 0) for c in (V0, 0)]
    for op in range(0x380):                      # VOP3 (incl. e64 of VOPC/VOP2/VOP1)
        for w1 in srcs:
            add(le(0xD0000000 | op << 16, w1))
    for op in range(0x80):                       # VOP3P incl. MAI
        for w1 in srcs:
            add(le(0xD3800000 | op << 16, w1))
            add(le(0xD3800000 | op << 16 | 1 << 15, w1))           # acc_cd
            add(le(0xD3800000 | op << 16, w1 | 3 << 27))            # AGPR srcA/srcB (gfx908)
            add(le(0xD3800000 | op << 16 | 1 << 15, w1 | 3 << 27))
            add(le(0xD3800000 | op << 16 | 0x4000, w1 | 3 << 27))  # op_sel_hi defaults
    for op in range(0x4):                        # VINTRP
        add(le(0xD4000000 | op << 16))
    for op in range(0x100):                      # DS (gds on/off, AGPR data)
        for extra in (0, 1 << 16, 1 << 25):
            add(le(0xD8000000 | op << 17 | extra, 0))
    for op in range(0x80):                       # FLAT / SCRATCH / GLOBAL
        for seg in (0, 1, 2):
            for bits in (0, 1 << 13, 1 << 23, 1 << 13 | 1 << 23):  # lds, acc
                for saddr in (0x7F, 0x00):
                    add(le(0xDC000000 | op << 18 | seg << 14 | bits, saddr << 16))
    for op in range(0x80):                       # MUBUF (plain / lds / offen / acc)
        for extra in (0, 1 << 16, 1 << 12, 1 << 13, 3 << 12):
            for acc in (0, 1 << 23):
                add(le(0xE0000000 | op << 18 | extra, acc | 0x80 << 24))
    for op in range(0x10):                       # MTBUF
        add(le(0xE8000000 | 4 << 23 | 1 << 19 | op << 15, 0x80 << 24))
    for op in range(0x80):                       # MIMG (dmask=1; dmask=0xf)
        for dm in (1, 0xF):
            add(le(0xF0000000 | op << 18 | dm << 8, 0))
    add(le(0xC4000000 | 0xF, 0))                 # EXP mrt0
    return list(dict.fromkeys(blobs))


def base_name(printed: str) -> str:
    name = printed.split()[0] if printed else ""
    for sfx in ("_e64_dpp",) + tuple("_" + s for s in SUFFIXES if s != "e64_dpp"):
        if name.endswith(sfx):
            return name[: -len(sfx)]
    return name


def split_printed(printed: str) -> tuple[str, str]:
    parts = printed.split(None, 1)
    return parts[0], (parts[1] if len(parts) > 1 else "")


FAMILY_PRIORITY = ["SOP1", "SOP2", "SOPK", "SOPC", "SOPP", "SMEM", "VOP1", "VOP2", "VOPC",
                   "VINTRP", "VOP3P", "VOP3", "DS", "GLOBAL", "SCRATCH", "FLAT",
                   "MUBUF", "MTBUF", "MIMG", "EXP"]


MAI_PREFIXES = ("v_mfma", "v_smfmac", "v_accvgpr_read", "v_accvgpr_write")

# Operand lists for assembler-only spellings that no disassembled instruction
# can lend operands to.
EXTRA_OPERANDS = {
    "v_mfma_scale_f32_16x16x128_f8f6f4": ["v[0:3], v[4:11], v[12:19], v[20:23], v24, v25"],
    "v_mfma_scale_f32_32x32x64_f8f6f4": ["v[0:15], v[16:23], v[24:31], v[32:47], v48, v49"],
}


def refine_family(fam: str, name: str, size: int) -> str:
    """MAI (matrix) ops are a sub-encoding of VOP3P; the scaled MFMAs of gfx950
    are VOP3PX2 (a v_mfma_ld_scale_b32 word pair fused with the MFMA, 16 bytes)."""
    if fam == "VOP3P" and name.startswith(MAI_PREFIXES):
        return "VOP3PX2-MAI" if size > 8 else "VOP3P-MAI"
    return fam


def pick_family(fams: set[str]) -> str:
    for f in FAMILY_PRIORITY:
        if f in fams:
            return f
    return sorted(fams)[0] if fams else "?"


# --------------------------------------------------------------------------
# Step 3: existence per spelling
# --------------------------------------------------------------------------

def existence(mc: MC, target: str, names: list[str],
              unsupported: set[str] | None = None) -> dict[str, list[str] | None]:
    """name -> accepted suffixes (list) if the bare name exists on target, else None.

    Bare names that llvm-mc rejects with "instruction not supported on this GPU"
    (they exist on some other AMDGPU target) are added to ``unsupported``."""
    spellings = [(n, s) for n in names for s in ("",) + SUFFIXES]
    lines = [n + ("_" + s if s else "") for n, s in spellings]
    errors, _ = mc.assemble_lines(target, lines)
    res: dict[str, list[str] | None] = {}
    odd = []
    for i, (n, s) in enumerate(spellings):
        e = errors.get(i, "")
        ok = not (e.startswith(NOT_SUPPORTED) or e.startswith(INVALID) or VARIANT_RE.match(e)
                  or e.startswith("instruction requires"))
        if s == "":
            res[n] = [] if ok else None
            if unsupported is not None and e.startswith(NOT_SUPPORTED):
                unsupported.add(n)
        elif ok:
            if res.get(n) is None:
                odd.append(f"{target}: {n}_{s} accepted but {n} is not")
            else:
                res[n].append(s)
    for o in odd:
        print("odd:", o, file=sys.stderr)
    return res


def spell_table(mc: MC, target: str, rows: dict, table: set[str]) -> dict[str, str]:
    """Which spellings llvm-mc's did-you-mean may offer on ``target``.

    llvm-mc offers the mnemonics of the default assembler variant available on
    the target that are within edit distance 2 (no replacements).  That table
    holds some bare names (not VOP3-only/VOP3P ones, nor most aliases) and a
    few literal "<vopc>_e32" names.  Membership is measured: a typo one
    insertion away ("<name>q") lists the name iff it is in the table.
    Returns name -> "b" (bare name offered), "e" (name_e32 offered), "be"."""
    cands = sorted(rows) + sorted(n for n in table if n.endswith("_e32") and n[:-4] in rows)
    errs, _ = mc.assemble_lines(target, [c + "q" for c in cands])
    res: dict[str, str] = {}
    for i, c in enumerate(cands):
        m = re.search(r"did you mean: (.*)\?$", errs.get(i, ""))
        if m and c in m.group(1).split(", "):
            base, flag = (c[:-4], "e") if c.endswith("_e32") and c not in rows else (c, "b")
            res[base] = res.get(base, "") + flag
    return res


# --------------------------------------------------------------------------
# Limits (step 5)
# --------------------------------------------------------------------------

# name -> template with {v}.  Each is bisected over [-2**40, 2**40].
LIMIT_PROBES = {
    "s_waitcnt.vmcnt": "s_waitcnt vmcnt({v})",
    "s_waitcnt.expcnt": "s_waitcnt expcnt({v})",
    "s_waitcnt.lgkmcnt": "s_waitcnt lgkmcnt({v})",
    "s_waitcnt.simm16": "s_waitcnt {v}",
    "s_nop": "s_nop {v}",
    "s_sleep": "s_sleep {v}",
    "s_setprio": "s_setprio {v}",
    "smem.offset": "s_load_dword s0, s[0:1], {v}",
    "flat.offset": "flat_load_dword v0, v[0:1] offset:{v}",
    "global.offset": "global_load_dword v0, v[0:1], off offset:{v}",
    "global.saddr.offset": "global_load_dword v0, v0, s[0:1] offset:{v}",
    "scratch.offset": "scratch_load_dword v0, v1, off offset:{v}",
    "scratch.saddr.offset": "scratch_load_dword v0, off, s0 offset:{v}",
    "ds.offset": "ds_read_b32 v0, v1 offset:{v}",
    "ds.offset0": "ds_read2_b32 v[0:1], v2 offset0:{v}",
    "ds.offset1": "ds_read2_b32 v[0:1], v2 offset1:{v}",
    "mubuf.offset": "buffer_load_dword v0, off, s[0:3], 0 offset:{v}",
    "mtbuf.offset": "tbuffer_load_format_x v0, off, s[0:3], 0 "
                    "format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offset:{v}",
}
PROBE_SPAN = 1 << 40
NUM = r"(-?(?:0x[0-9a-fA-F]+|\d+))"


def readback_regex(template: str) -> re.Pattern | None:
    """Regex that finds the value back in a disassembly of the template's bytes.

    None where the printer spells the value differently (s_waitcnt).  A value
    the printer omits (offset:0) reads back as 0."""
    if template.startswith("s_waitcnt"):
        return None  # printed as vmcnt(..) expcnt(..) lgkmcnt(..), fields at max omitted
    head = template.split("{v}")[0]
    key = re.split(r"[ (]", head)[-1] if not head.endswith(", ") else ""
    if head.endswith(" ") and not head.endswith(", "):
        key = head.rstrip().split()[-1] + " "
    if head.endswith(", "):
        key = ", "
    return re.compile(re.escape(key) + NUM + (r"\)" if head.endswith("(") else r"(?:\s|$)"))


def parse_int(s: str) -> int:
    neg = s.startswith("-")
    s = s.lstrip("-")
    v = int(s, 16) if s.lower().startswith("0x") else int(s)
    return -v if neg else v


def limits_predicates(mc: MC, target: str, queries: list[tuple[str, int]]) -> tuple[list[bool], list[bool | None]]:
    """For each (probe, value): does llvm-mc accept it, and does the value survive
    the trip through the encoding (assemble, disassemble, read the value back)?"""
    lines = [LIMIT_PROBES[n].format(v=v) for n, v in queries]
    errs, enc = mc.assemble_lines(target, lines)
    ok = [i not in errs for i in range(len(lines))]
    it = iter(enc)
    blobs: list[bytes | None] = [next(it)[1] if k else None for k in ok]
    dis = mc.disassemble(target, list({b for b in blobs if b is not None}))
    trip: list[bool | None] = []
    for (n, v), b in zip(queries, blobs):
        rx = readback_regex(LIMIT_PROBES[n])
        if rx is None:
            trip.append(None)
        elif b is None or b not in dis:
            trip.append(False)
        else:
            m = rx.search(dis[b])
            trip.append((parse_int(m.group(1)) if m else 0) == v)
    return ok, trip


def measure_limits(mc: MC, target: str) -> dict:
    """Bisect, for every probe, the interval around 0 of values llvm-mc accepts
    ("min"/"max"; null = no bound within +-2**40) and the interval of values
    that are encoded faithfully ("encodable_min"/"encodable_max"): llvm-mc
    silently truncates some immediates (MUBUF offset, s_nop, ...).

    Each bisection round asks llvm-mc about all open intervals at once."""
    names = list(LIMIT_PROBES)
    # per (name, predicate index, side): [good, bad]
    iv: dict[tuple[str, int, str], list] = {}
    ok, trip = limits_predicates(mc, target, [(n, v) for n in names for v in (0, -PROBE_SPAN, PROBE_SPAN)])
    for i, n in enumerate(names):
        if not ok[3 * i]:
            raise SystemExit(f"{target}: {LIMIT_PROBES[n].format(v=0)!r} does not assemble")
        for k, pred in enumerate((ok, trip)):
            if pred[3 * i] is None:
                continue
            iv[(n, k, "lo")] = [0, None if pred[3 * i + 1] else -PROBE_SPAN]
            iv[(n, k, "hi")] = [0, None if pred[3 * i + 2] else PROBE_SPAN]
            if pred[3 * i + 1]:
                iv[(n, k, "lo")][0] = -PROBE_SPAN
            if pred[3 * i + 2]:
                iv[(n, k, "hi")][0] = PROBE_SPAN
    while True:
        open_ = [(key, (g + b) // 2) for key, (g, b) in iv.items() if b is not None and abs(b - g) > 1]
        if not open_:
            break
        ok, trip = limits_predicates(mc, target, [(key[0], mid) for key, mid in open_])
        for j, (key, mid) in enumerate(open_):
            good = (ok, trip)[key[1]][j]
            iv[key][0 if good else 1] = mid
    edge = []
    for n in names:
        edge.append((n, iv[(n, 0, "hi")][0] + 1))
        edge.append((n, iv[(n, 0, "lo")][0] - 1))
    errs, _ = mc.assemble_lines(target, [LIMIT_PROBES[n].format(v=v) for n, v in edge])
    out = {}
    for i, n in enumerate(names):
        def bound(k, side):
            if (n, k, side) not in iv:
                return None
            g, b = iv[(n, k, side)]
            return g if b is not None else None
        out[n] = {
            "syntax": LIMIT_PROBES[n],
            "min": bound(0, "lo"),
            "max": bound(0, "hi"),
            "encodable_min": bound(1, "lo"),
            "encodable_max": bound(1, "hi"),
            "error_above": errs.get(2 * i),
            "error_below": errs.get(2 * i + 1),
        }
    return out


LIMITS_DOC = (
    "Immediate ranges llvm-mc enforces, measured per target by tools/gen_mnemonics.py. "
    "syntax: the probe instruction, {v} the value. min/max: the interval around 0 that llvm-mc "
    "accepts (null: nothing rejected within +-2**40). encodable_min/encodable_max: the values "
    "that survive assemble+disassemble unchanged (llvm-mc silently truncates beyond them; "
    "null: not measured). error_above/error_below: llvm-mc's message for max+1 / min-1."
)


def write_limits(path: Path, version: str, limits: dict[str, dict]) -> None:
    """One line per probe, so that diffs show what moved."""
    lines = ["{", f' "doc": {json.dumps(LIMITS_DOC)},', f' "llvm_version": {json.dumps(version)},',
             ' "targets": {']
    for ti, (t, probes) in enumerate(limits.items()):
        lines.append(f"  {json.dumps(t)}: {{")
        items = list(probes.items())
        for pi, (name, rec) in enumerate(items):
            comma = "," if pi < len(items) - 1 else ""
            lines.append(f"   {json.dumps(name)}: {json.dumps(rec)}{comma}")
        lines.append("  }" + ("," if ti < len(limits) - 1 else ""))
    lines += [" }", "}"]
    path.write_text("\n".join(lines) + "\n")


# --------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------

def write_other_generations(path: Path, version: str, unsupported: dict[str, set[str]]) -> None:
    """Base names that exist only on other AMDGPU generations (gfx10+, gfx6-8, ...): llvm-mc
    rejects them with "instruction not supported on this GPU" on every modelled target, where
    a name unknown everywhere gets "invalid instruction".  One name a line."""
    names = sorted(set.intersection(*unsupported.values())) if unsupported else []
    with open(path, "w") as f:
        f.write(f"# AMDGPU mnemonics of other generations only, generated by tools/gen_mnemonics.py "
                f"from LLVM {version}:\n")
        f.write(f"# base names (suffix stripped) llvm-mc rejects with \"{NOT_SUPPORTED}\" on "
                f"{', '.join(sorted(unsupported))}\n")
        for n in names:
            f.write(n + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--llvm-mc")
    ap.add_argument("--lib", help="libLLVM shared object holding the AMDGPU AsmMatcher tables")
    ap.add_argument("--check-version", type=int, default=22)
    ap.add_argument("--out", type=Path, default=DATA)
    ap.add_argument("--no-limits", action="store_true")
    args = ap.parse_args(argv)

    t0 = time.time()
    mc = MC(find_llvm_mc(args.llvm_mc))
    version = mc.version()
    if args.check_version and not version.startswith(f"{args.check_version}."):
        sys.exit(f"{mc.path} is LLVM {version}, expected {args.check_version}.x (--check-version 0 to skip)")
    lib = find_libllvm(mc.path, args.lib)
    table = matcher_mnemonics(lib)
    print(f"LLVM {version}; {len(table)} mnemonics in the matcher table of {lib}", file=sys.stderr)

    blobs = enumeration_blobs()
    rows_by_target: dict[str, dict[str, tuple[str, list[str], str]]] = {}
    hints_by_target: dict[str, dict[str, str]] = {}
    oddities: list[str] = []
    unsupported_by_target: dict[str, set[str]] = {}
    for target in TARGETS:
        dis = mc.disassemble(target, blobs)
        fams: dict[str, set[str]] = defaultdict(set)
        donors: dict[str, list[str]] = defaultdict(list)   # prefix -> operand strings
        for blob, text in dis.items():
            name, ops = split_printed(text)
            fams[base_name(name)].add(classify(blob))
            prefix = name.split("_")[0] + "_" + (name.split("_")[1] if "_" in name else "")
            if ops and ops not in donors[prefix]:
                donors[prefix].append(ops)
            if ops and ops not in donors[name.split("_")[0]]:
                donors[name.split("_")[0]].append(ops)

        # The table also lists some suffixed spellings (VOPC "*_e32"); the parser
        # strips a suffix before looking a mnemonic up, so only bases are rows.
        names = sorted({n for n in table | set(fams) if base_name(n) == n})
        unsupported_by_target[target] = set()
        ex = existence(mc, target, names, unsupported_by_target[target])
        present = {n: sfx for n, sfx in ex.items() if sfx is not None}
        for n in fams:
            if n not in present:
                oddities.append(f"{target}: disassembler prints {n} but the assembler rejects it")

        # Step 4: aliases -> assemble with borrowed operands
        rows: dict[str, tuple[str, list[str], str]] = {}
        todo = []
        for n, sfx in present.items():
            if n in fams:
                rows[n] = (refine_family(pick_family(fams[n]), n, 4), sfx, "-")
            else:
                todo.append(n)
        lines, owners = [], []
        for n in todo:
            parts = n.split("_")
            pool = (EXTRA_OPERANDS.get(n, []) + donors.get("_".join(parts[:2]), [])
                    + donors.get(parts[0], []))
            for ops in dict.fromkeys(pool):
                lines.append(f"{n} {ops}")
                owners.append((n, ops))
            lines.append(n)
            owners.append((n, ""))
        errs, enc = mc.assemble_lines(target, lines) if lines else ({}, [])
        ok_iter = iter(enc)
        found: dict[str, tuple[str, bytes]] = {}
        for i, (n, ops) in enumerate(owners):
            if i in errs:
                continue
            _, b = next(ok_iter)
            found.setdefault(n, (ops, b))
        redis = mc.disassemble(target, list({b for _, b in found.values()})) if found else {}
        # An alias passes llvm-mc's mnemonic check with any suffix, but then
        # fails operand matching unless the suffix suits the aliased opcode:
        # keep only the suffixed spellings that really assemble.
        sfx_lines = [(n, x) for n in todo if n in found for x in present[n]]
        sfx_errs, _ = mc.assemble_lines(
            target, [f"{n}_{x} {found[n][0]}" for n, x in sfx_lines]) if sfx_lines else ({}, [])
        for i, (n, x) in enumerate(sfx_lines):
            if i in sfx_errs:
                present[n].remove(x)
                oddities.append(f"{target}: {n}_{x} passes the mnemonic check but never assembles "
                                f"({sfx_errs[i]})")
        for n in todo:
            if n in found:
                ops, b = found[n]
                canon = base_name(redis[b]) if b in redis and len(b) <= 12 else n
                fam = classify(b)
                if fam == "VOP3" and canon in fams:
                    fam = pick_family(fams[canon])
                rows[n] = (refine_family(fam, canon, len(b)), present[n], canon if canon != n else "-")
                if canon != n:
                    oddities.append(f"{target}: {n} assembles but disassembles as {canon}")
            else:
                rows[n] = ("?", present[n], "-")
                oddities.append(f"{target}: no operand list found to assemble alias {n}")
        rows_by_target[target] = rows
        hints_by_target[target] = spell_table(mc, target, rows, table)
        print(f"{target}: {len(rows)} mnemonics, {sum(1 + len(s) for _, s, _ in rows.values())} spellings, "
              f"{len(todo)} assembler-only aliases", file=sys.stderr)

    outdir = args.out / "mnemonics"
    outdir.mkdir(parents=True, exist_ok=True)
    for target, rows in rows_by_target.items():
        with open(outdir / f"{target}.txt", "w") as f:
            f.write(f"# gcnemu mnemonic table for {target}, generated by tools/gen_mnemonics.py from LLVM {version}\n")
            f.write("# name\tfamily\tsuffixes\tcanonical\thint\n")
            hints = hints_by_target[target]
            for n in sorted(rows):
                fam, sfx, canon = rows[n]
                f.write(f"{n}\t{fam}\t{','.join(sfx) or '-'}\t{canon}\t{hints.get(n, '-')}\n")

    write_other_generations(args.out / "mnemonics_other.txt", version, unsupported_by_target)

    if not args.no_limits:
        write_limits(args.out / "limits.json", version, {t: measure_limits(mc, t) for t in TARGETS})

    for o in oddities:
        print("odd:", o, file=sys.stderr)
    print(f"done in {time.time() - t0:.1f}s, {mc.calls} llvm-mc runs", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
