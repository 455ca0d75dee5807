"""Check gcnemu's instruction semantics against AMD's own pseudocode, instruction by instruction.

    python tools/pcode_diff.py                 # every instruction class, full sweep
    python tools/pcode_diff.py --sample 8      # 8 instructions per class (what CI runs)
    python tools/pcode_diff.py --only v_frexp_mant_f32_e32 --verbose
    python tools/pcode_diff.py --json

The pseudocode table comes from the `tinygrad` wheel (a test-only dependency): its
`runtime/autogen/amd/cdna/str_pcode.py` holds, for 1,441 CDNA instructions, the pseudocode of AMD's
CDNA4 ISA guide. tools/pcode_eval.py evaluates it lane by lane; this file turns each entry into a
one-instruction kernel for gcnemu, runs it on 64 lanes of operands (edge classes in the first lanes:
+-0, denormals, +-inf, quiet and signalling NaN, integer extremes, shift counts past the width),
and compares every bit the pseudocode writes: the destination, VCC/SGPR-pair carries, EXEC, SCC.
Inactive lanes (a random EXEC) must keep their old destination. Memory instructions (DS, MUBUF,
FLAT/GLOBAL/SCRATCH, SMEM) are driven by tools/pcode_mem.py: random addresses inside LDS, a buffer or
the private segment, the returned data and every byte of that memory compared.

Each instruction ends in one of four rows:
- agree: every compared bit matched;
- disagree: a minimal failing operand set is printed (lane inputs, both results);
- not comparable: the pseudocode cannot decide the result (MFMA's `D = A * B + C`, wave-level
  state, a helper the evaluator does not model, an approximate transcendental) - with the reason;
- gap: gcnemu does not execute the instruction (`gcnemu check --list-unmodelled`).
Known mistakes of the pseudocode (it is extracted from a PDF) are listed in EXCEPTIONS with the
reason; they are reported apart and never counted as agreement.
"""
from __future__ import annotations

import argparse
import ast
import functools
import importlib.util
import json
import random
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pcode_eval as pe  # noqa: E402
import pcode_mem as pm  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

WAVE = 64
LLVM_MC = next((p for p in ("/usr/lib/llvm-22/bin/llvm-mc", shutil.which("llvm-mc-22") or "") if p and Path(p).exists()),
               None)

# Instruction classes this tool drives, in report order; the rest of the table is counted per class
# as "not comparable" with the reason CLASS_REASON gives.
DRIVEN = ("VOP1", "VOP2", "VOP3", "VOPC", "VOP3SD", "VOP3P", "SOP1", "SOP2", "SOPC", "SOPK")
# DS/MUBUF/FLAT/GLOBAL/SCRATCH/SMEM are driven by tools/pcode_mem.py.
CLASS_REASON = {
    "MTBUF": "typed buffer access: the pseudocode's ConvertFromFormat/ChannelOffsetX are not defined in the table",
    "SOPP": "program control (branches, waits, traps): wave-level state, not a lane function",
}

# Where the pseudocode itself is wrong or says less than the hardware does: decided from the ISA
# guide's prose and llc's behaviour, never from gcnemu's output.
EXCEPTIONS: dict[str, str] = {
    "V_DIV_SCALE_F32": "pseudocode known to be incomplete (assigns VCC as a whole, compares with an "
                       "undefined DENORM constant); the guide's prose and llc's div expansion define it",
    "V_DIV_SCALE_F64": "as V_DIV_SCALE_F32",
    "V_DIV_FMAS_F32": "the pseudocode omits the 2**+-32 scaling by VCC that the guide's prose describes",
    "V_DIV_FMAS_F64": "as V_DIV_FMAS_F32 (2**+-64)",
    "V_TRIG_PREOP_F64": "the pseudocode indexes a 1201-bit 2/PI table it does not define",
    "V_FRACT_F32": "the pseudocode's x + -floor(x) rounds to 1.0 for tiny negative x; the guide's prose and "
                   "LLVM (AMDGPU fract lowering: min(x - floor(x), 0x1.fffffep-1)) keep the result below 1.0",
    "V_DIV_FIXUP_F32": "the pseudocode's last clause (exponent(S1) == 255) is unreachable and returns +-|S0| for a "
                       "NaN or inf quotient and a denormal for tiny ones; gcnemu follows AMD's bit-exact model "
                       "(goc division_fixup: an inf/NaN quotient gives +-inf, so 1e30/1e-30 overflows to inf, "
                       "not NaN) - see gcnemu/sim/semantics/valu_div.py",
    "V_DIV_FIXUP_F64": "as V_DIV_FIXUP_F32",
    "V_FRACT_F16": "as V_FRACT_F32 (below 1.0: 0x3bff)", "V_FRACT_F64": "as V_FRACT_F32 (below 1.0)",
    "V_FREXP_EXP_I32_F32": "the pseudocode's exponent(x) - 127 + 1 is wrong for zero and denormals; the guide's "
                           "prose ('x = significand * 2**exponent') and llvm.frexp's folding give 0 for zero and "
                           "the true exponent of a denormal",
    "V_FREXP_EXP_I32_F64": "as V_FREXP_EXP_I32_F32", "V_FREXP_EXP_I16_F16": "as V_FREXP_EXP_I32_F32",
    "V_RNDNE_F32": "the pseudocode's floor(x + 0.5) rounds 0.49999997 up (the add rounds) and drops -0's sign; "
                   "the guide's prose says round to the nearest even integer, as llc folds llvm.roundeven",
    "V_RNDNE_F16": "as V_RNDNE_F32", "V_RNDNE_F64": "as V_RNDNE_F32",
    "V_MAD_F16": "legacy MAD flushes denormals whatever MODE says; LLVM selects it only when f16 denormals are "
                 "off (VOP3Instructions.td: mad patterns predicated on NoFP16Denormals)",
    "V_MAC_F16": "as V_MAD_F16", "V_MAD_F32": "as V_MAD_F16 (NoFP32Denormals)", "V_MAC_F32": "as V_MAD_F32",
    # float memory atomics
    "DS_MAX_F32": "the pseudocode's `src > tmp ? src : tmp` keeps a NaN in memory; gcnemu applies V_MAX's IEEE-mode "
                  "rules (one NaN operand gives the other), the maxnum contract LLVM relies on when it lowers "
                  "`atomicrmw fmax` to this instruction (gcnemu/sim/memops.py _float_ops); they differ only for NaN",
}
for _name in ("DS_MAX_RTN_F32", "DS_MAX_F64", "DS_MAX_RTN_F64", "DS_MIN_F32", "DS_MIN_RTN_F32", "DS_MIN_F64",
              "DS_MIN_RTN_F64", "FLAT_ATOMIC_MAX_F64", "FLAT_ATOMIC_MIN_F64", "GLOBAL_ATOMIC_MAX_F64",
              "GLOBAL_ATOMIC_MIN_F64", "BUFFER_ATOMIC_MAX_F64", "BUFFER_ATOMIC_MIN_F64"):
    EXCEPTIONS[_name] = "as DS_MAX_F32 (min: minnum)"
for _name in ("FLAT_ATOMIC_ADD_F32", "GLOBAL_ATOMIC_ADD_F32", "BUFFER_ATOMIC_ADD_F32"):
    EXCEPTIONS[_name] = ("the pseudocode's `MEM[ADDR].f32 += DATA.f32` keeps denormals; the MI200/MI300 guides "
                         "(section Float Memory Atomics, the denorm table) say ADD_F32 in L2 flushes them, as "
                         "gcnemu does (memops.py ATOMIC_OPS); DS_ADD_F32 in LDS keeps them and agrees")

_DOT2 = ("the pseudocode rounds after each add (tmp += ...); gcnemu rounds the exact three-term sum once "
         "(gcnemu/sim/semantics/valu_dot.py). Neither is established for CDNA: the CDNA3 guide's prose and its "
         "one-line definition (D = S0[0]*S1[0] + S0[1]*S1[1] + S2) state no intermediate rounding, LLVM does not "
         "constant-fold llvm.amdgcn.fdot2, and silicon measurements of the same opcodes on RDNA3.5 "
         "(ROCm/rocm-systems issue 12056: gfx1151) match neither per-add rounding nor host-fp32 evaluation "
         "(the sum is aligned at an lsb taken from the operand exponents). Still compared, bit for bit, against "
         "the pseudocode with its sum rounded once (the products are exact in f32)")
EXCEPTIONS.update({"V_DOT2_F32_F16": _DOT2, "V_DOT2C_F32_F16": _DOT2, "V_DOT2_F32_BF16": _DOT2})
# Exceptions about intermediate rounding only: the instruction is still compared, against the table's
# pseudocode rewritten to round its sum once (sum_rounded_once in pcode_eval), so the exception cannot
# hide a wrong operand, half, order or sign.
_F16_TERMS = ("f16_to_f32(S0[15 : 0].f16) * f16_to_f32(S1[15 : 0].f16), "
              "f16_to_f32(S0[31 : 16].f16) * f16_to_f32(S1[31 : 16].f16)")
ROUNDING_ONLY: dict[str, list[tuple[str, str]]] = {  # (the table's text, the same with one rounding)
    "V_DOT2_F32_F16": [(
        "tmp = S2.f32;\ntmp += f16_to_f32(S0[15 : 0].f16) * f16_to_f32(S1[15 : 0].f16);\n"
        "tmp += f16_to_f32(S0[31 : 16].f16) * f16_to_f32(S1[31 : 16].f16);\nD0.f32 = tmp",
        f"D0.f32 = sum_rounded_once(S2.f32, {_F16_TERMS})")],
    "V_DOT2C_F32_F16": [(
        "tmp = D0.f32;\ntmp += f16_to_f32(S0[15 : 0].f16) * f16_to_f32(S1[15 : 0].f16);\n"
        "tmp += f16_to_f32(S0[31 : 16].f16) * f16_to_f32(S1[31 : 16].f16);\nD0.f32 = tmp",
        f"D0.f32 = sum_rounded_once(D0.f32, {_F16_TERMS})")],
    "V_DOT2_F32_BF16": [(
        "tmp = 32'F(S0[15 : 0].bf16) * 32'F(S1[15 : 0].bf16);\ntmp += 32'F(S0[31 : 16].bf16) * "
        "32'F(S1[31 : 16].bf16);\ntmp += S2.f32;\nD0.f32 = tmp",
        "D0.f32 = sum_rounded_once(32'F(S0[15 : 0].bf16) * 32'F(S1[15 : 0].bf16), "
        "32'F(S0[31 : 16].bf16) * 32'F(S1[31 : 16].bf16), S2.f32)")],
}
_OVERRIDES: dict[str, str] = {}  # table key -> pseudocode text used instead of the table's (ROUNDING_ONLY)

# Instructions whose result is wave or machine state the pseudocode names but does not define.
WAVE_STATE = {
    "S_GETREG_B32": "reads hardware registers (HW_REGISTERS[...]): machine state, checked per register elsewhere",
    "S_SETREG_B32": "writes hardware registers: machine state", "S_SETREG_IMM32_B32": "writes hardware registers",
    "S_MOVRELS_B32": "indexes the SGPR file by M0: wave state", "S_MOVRELS_B64": "indexes the SGPR file by M0",
    "S_MOVRELD_B32": "indexes the SGPR file by M0: wave state", "S_MOVRELD_B64": "indexes the SGPR file by M0",
    "S_SWAPPC_B64": "program counter", "S_SETPC_B64": "program counter", "S_GETPC_B64": "program counter",
    "S_CBRANCH_G_FORK": "program counter", "S_CBRANCH_I_FORK": "program counter", "S_CBRANCH_JOIN": "program counter",
    "S_RFE_B64": "program counter",
}

# Approximate instructions: the guide gives an accuracy in ULP, the pseudocode the exact function.
APPROXIMATE = re.compile(r"^V_(EXP|LOG|RCP|RSQ|SQRT|SIN|COS|RCP_IFLAG|EXP_LEGACY|LOG_LEGACY)_")


# --------------------------------------------------------------------------- the table

@functools.lru_cache(maxsize=1)
def load_table() -> dict[str, tuple[str, str]]:
    """{table key 'VOP2Op.V_ADD_F32_E32': (class 'VOP2', pseudocode)}, read without importing
    tinygrad (only its data file is used)."""
    spec = importlib.util.find_spec("tinygrad")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("error: the pseudocode table needs the 'tinygrad' package: pip install tinygrad")
    path = Path(list(spec.submodule_search_locations)[0]) / "runtime/autogen/amd/cdna/str_pcode.py"
    tree = ast.parse(path.read_text())
    table: dict[str, tuple[str, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for k, v in zip(node.keys, node.values):
                if isinstance(k, ast.Attribute) and isinstance(v, ast.Constant):
                    cls = k.value.id[:-2] if k.value.id.endswith("Op") else k.value.id
                    table[f"{k.value.id}.{k.attr}"] = (cls, v.value)
            break
    return table


def parsed(key: str) -> pe.Program:
    if key in _OVERRIDES:
        return pe.parse(key, _OVERRIDES[key])
    return _parsed_table(key)


@functools.lru_cache(maxsize=None)
def _parsed_table(key: str) -> pe.Program:
    cls, text = load_table()[key]
    return pe.parse(key, text)


def instruction_key(name: str) -> str | None:
    """The table key of a base name called from another instruction's pseudocode (`v_max_f32`)."""
    upper = name.upper()
    for cls in ("VOP2Op", "VOP1Op", "VOP3Op", "SOP1Op", "SOP2Op", "VOP3POp"):
        for suffix in ("_E32", "_E64", ""):
            key = f"{cls}.{upper}{suffix}"
            if key in load_table():
                return key
    return None


def call_instruction(name: str, args: list[pe.Val]) -> pe.Val:
    """Evaluate another instruction on the given sources and return its D0, typed as written."""
    key = instruction_key(name)
    if key is None:
        raise pe.PcodeUnsupported(f"helper {name}()")
    env = pe.Env(call_instruction=call_instruction)
    for i, v in enumerate(args):
        env.vars[f"S{i}"] = pe.Storage(v.bits(), v.kind, v.width or 64)
    env.set("WAVE_MODE.IEEE", "u", 1, 1)
    env.set("D0", "b", 64, 0)
    pe.run(parsed(key), env)
    store = env.vars["D0"]
    if store.written_as is None:
        raise pe.PcodeUnsupported(f"{name}() wrote no result")
    kind, width = store.written_as
    return pe.from_bits(kind, width, store.bits)


# --------------------------------------------------------------------------- operand shapes

TYPE_USE = re.compile(r"\b(S[0-2]|D0)(?:\[[^\]]*\])?\.(u|i|b|f|bf)(\d+)\b")
SLICE_USE = re.compile(r"\b(S[0-2]|D0)\[(\d+)\s*:\s*\d+\]")


@dataclass
class Shape:
    """What the pseudocode says about an instruction's operands."""
    sources: int
    widths: dict[str, int]           # S0/S1/S2/D0 -> 32 or 64 (register width)
    kinds: dict[str, str]            # S0/S1/S2 -> 'f16' 'f32' 'f64' 'int' (operand class to draw)
    mask_dest: bool                  # D0.u64[laneId]: a VOPC-style lane mask
    reads_vcc: bool
    writes_vcc: bool
    writes_exec: bool
    reads_scc: bool
    writes_scc: bool


def shape_of(text: str) -> Shape:
    code = re.sub(r"//[^\n]*", "", text)
    widths: dict[str, int] = {}
    kinds: dict[str, str] = {}
    for m in TYPE_USE.finditer(code):
        reg, kind, width = m.group(1), m.group(2), int(m.group(3))
        widths[reg] = max(widths.get(reg, 32), 64 if width >= 64 and "[" not in m.group(0) else 32)
        if reg != "D0":
            cls = f"f{width}" if kind == "f" else "int"
            if cls != "int" or reg not in kinds:
                kinds[reg] = cls if kinds.get(reg, "int") == "int" else kinds[reg]
    for m in SLICE_USE.finditer(code):
        if int(m.group(2)) >= 32:
            widths[m.group(1)] = 64
    sources = 3 if "S2" in code else 2 if "S1" in code else 1 if "S0" in code else 0
    mask_dest = bool(re.search(r"D0\.u64\[laneId\]\s*=", code))
    vcc_writes = re.findall(r"VCC(?:\.u64\[laneId\])?\s*=[^=]", code)
    return Shape(sources=sources, widths=widths, kinds=kinds, mask_dest=mask_dest,
                 reads_vcc=bool(re.search(r"VCC(\.u64)?\[laneId\](\.u\d+)?\s*(?!=[^=])", code.split("VCC.u64[laneId] =")[0]))
                 if "VCC" in code else False,
                 writes_vcc=bool(vcc_writes), writes_exec=bool(re.search(r"EXEC\.u64\[laneId\]\s*=", code)),
                 reads_scc=bool(re.search(r"\bSCC\b(?!\s*=[^=])", code)),
                 writes_scc=bool(re.search(r"\bSCC\s*=[^=]", code)))


# --------------------------------------------------------------------------- operand values

def _f32_edges() -> list[int]:
    f = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, 0.5, -0.5, 1.5, 2.5, -2.5, 0.49999997, 3.4e38,
                  -3.4e38, 1e-40, -1e-40, 1.17549435e-38, 65504.0, 1e-8, 8388608.5, 2147483648.0,
                  -2147483904.0, 4294967296.0, 100.25, -7.75], dtype=np.float32)
    return [int(x) for x in f.view(np.uint32)] + [0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FA00000, 0x00000001]


def _f16_edges() -> list[int]:
    f = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, 0.5, 1.5, 2.5, -2.5, 65504.0, -65504.0, 6e-8,
                  6.1e-5, 1e-5, 0.1, 100.5, -7.75, 0.49975586], dtype=np.float16)
    return [int(x) for x in f.view(np.uint16)] + [0x7E00, 0xFE00, 0x7C01, 0x7D00, 0x0001, 0x03FF]


def _f64_edges() -> list[int]:
    f = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, 0.5, 1.5, 2.5, -2.5, 1e308, -1e308, 5e-324,
                  2.2250738585072014e-308, 1e-310, 4294967296.5, 2147483647.5, -2147483648.5, 0.49999999999999994,
                  100.25], dtype=np.float64)
    return [int(x) for x in f.view(np.uint64)] + [0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001,
                                                   0x7FF4000000000000]


INT_EDGES = [0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF,
             0x10000, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF, 0xFFFFFFFE, 0x12345678, 0x00FF00FF]


def draw(kind: str, width: int, n: int, rng: random.Random) -> list[int]:
    """n raw operand values of a register width: edge classes first, then random ones."""
    if kind == "f32":
        edges = _f32_edges()
        rand = lambda: int(np.float32(rng.gauss(0, 1) * 10 ** rng.randint(-3, 6)).view(np.uint32))  # noqa: E731
    elif kind == "f16":
        edges = _f16_edges()
        rand = lambda: int(np.float16(rng.gauss(0, 1) * 10 ** rng.randint(-2, 3)).view(np.uint16)) \
            | (rng.getrandbits(16) << 16)  # noqa: E731
    elif kind == "f64":
        edges = _f64_edges()
        rand = lambda: int(np.float64(rng.gauss(0, 1) * 10 ** rng.randint(-5, 12)).view(np.uint64))  # noqa: E731
    else:
        edges = INT_EDGES + ([0xFFFFFFFFFFFFFFFF, 0x8000000000000000, 0x7FFFFFFFFFFFFFFF, 1 << 32] if width == 64 else [])
        rand = lambda: rng.getrandbits(width)  # noqa: E731
    out = [e & ((1 << width) - 1) for e in edges]
    rng.shuffle(out)
    if kind == "f16" and width == 32:  # both halves exercised: packed ops read the high one
        out = [(x & 0xFFFF) | (rng.choice(edges) << 16) for x in out]
    while len(out) < n:
        out.append(rand() & ((1 << width) - 1))
    return out[:n]


# --------------------------------------------------------------------------- running gcnemu

def _vreg(base: int, width: int) -> str:
    return f"v{base}" if width == 32 else f"v[{base}:{base + 1}]"


def _sreg(base: int, width: int) -> str:
    return f"s{base}" if width == 32 else f"s[{base}:{base + 1}]"


@functools.lru_cache(maxsize=None)
def llvm_accepts(asm: str, target: str) -> bool:
    if LLVM_MC is None:
        return True
    proc = subprocess.run([LLVM_MC, "-arch=amdgcn", f"-mcpu={target}", "-o", "/dev/null"], input=asm + "\n",
                          capture_output=True, text=True)
    return proc.returncode == 0 and "error" not in proc.stderr


SRC_V = {"S0": 0, "S1": 2, "S2": 4}
SRC_S = {"S0": 0, "S1": 2, "S2": 4}
DST_V, DST_S, CARRY_OUT, CARRY_IN = 10, 20, 30, 32


@dataclass
class Form:
    """One accepted assembly form of an instruction and where its pseudocode operands live."""
    asm: str
    vcc_in: str | None = None     # "vcc" or "s[32:33]"
    vcc_out: str | None = None    # "vcc" or "s[30:31]"
    mask_out: str | None = None   # VOPC destination: "vcc" or "s[20:21]"
    scalar: bool = False
    imm: str | None = None        # SOPK: which pseudocode source the 16-bit immediate is


def forms(cls: str, mnemonic: str, shape: Shape) -> list[Form]:
    """Candidate spellings, most specific first; the first that llvm-mc accepts is used."""
    w = shape.widths
    srcs_v = [_vreg(SRC_V[s], w.get(s, 32)) for s in ("S0", "S1", "S2")[:shape.sources]]
    d_v = _vreg(DST_V, w.get("D0", 32))
    out: list[Form] = []
    if cls in ("VOP1", "VOP2", "VOP3", "VOP3P", "VOPC", "VOP3SD"):
        s = ", ".join(srcs_v)
        if shape.mask_dest:
            out.append(Form(f"{mnemonic} vcc, {s}", mask_out="vcc"))
            out.append(Form(f"{mnemonic} s[{DST_S}:{DST_S + 1}], {s}", mask_out=f"s[{DST_S}:{DST_S + 1}]"))
        if shape.writes_vcc or shape.reads_vcc:
            co, ci = f"s[{CARRY_OUT}:{CARRY_OUT + 1}]", f"s[{CARRY_IN}:{CARRY_IN + 1}]"
            out += [Form(f"{mnemonic} {d_v}, vcc, {s}, vcc", vcc_in="vcc", vcc_out="vcc"),
                    Form(f"{mnemonic} {d_v}, vcc, {s}", vcc_out="vcc"),
                    Form(f"{mnemonic} {d_v}, {s}, vcc", vcc_in="vcc"),
                    Form(f"{mnemonic} {d_v}, {co}, {s}, {ci}", vcc_in=ci, vcc_out=co),
                    Form(f"{mnemonic} {d_v}, {co}, {s}", vcc_out=co),
                    Form(f"{mnemonic} {d_v}, {s}, {ci}", vcc_in=ci)]
        if not shape.mask_dest:
            out.append(Form(f"{mnemonic} {d_v}, {s}" if s else f"{mnemonic} {d_v}"))
    elif cls in ("SOP1", "SOP2"):
        s = ", ".join(_sreg(SRC_S[x], w.get(x, 32)) for x in ("S0", "S1")[:shape.sources])
        out.append(Form(f"{mnemonic} {_sreg(DST_S, w.get('D0', 32))}, {s}" if s else
                        f"{mnemonic} {_sreg(DST_S, w.get('D0', 32))}", scalar=True))
    elif cls == "SOPC":
        s = ", ".join(_sreg(SRC_S[x], w.get(x, 32)) for x in ("S0", "S1")[:shape.sources])
        out.append(Form(f"{mnemonic} {s}", scalar=True))
    elif cls == "SOPK":
        if shape.sources >= 2:  # s_cmpk_*: S0 the register, S1 the immediate
            out.append(Form(f"{mnemonic} {_sreg(SRC_S['S0'], 32)}, IMM", scalar=True, imm="S1"))
        else:
            out.append(Form(f"{mnemonic} {_sreg(DST_S, 32)}, IMM", scalar=True, imm="S0"))
    return out


def pick_form(cls: str, mnemonic: str, shape: Shape, target: str) -> Form | None:
    import gcnemu
    for f in forms(cls, mnemonic, shape):
        asm = f.asm.replace("IMM", "0x1234")
        if not llvm_accepts(asm, target):
            continue
        prog = gcnemu.parse(asm + "\ns_endpgm\n", "<pcode>")
        if prog.diagnostics:
            continue
        return f
    return None


def _sim(asm: str, target: str):
    import gcnemu
    from gcnemu.asm.resolve import resolve
    from gcnemu.setup import Setup
    from gcnemu.simulation import Simulation
    prog = gcnemu.parse(asm + "\ns_endpgm\n", "<pcode>")
    kernel = resolve(prog, target, validate_first=False)
    return Simulation(kernel, Setup(kernarg_sgpr=None, workgroup_id_sgprs={}), abi_from_file=False)


def _run(sim) -> str:
    """Run the kernel; '' or why gcnemu did not finish (a crash is a finding, reported as one)."""
    try:
        sim.run()
    except Exception as exc:  # noqa: BLE001 - any exception from the engine is the report
        return f"gcnemu raised {type(exc).__name__}: {exc}"
    return f"gcnemu stopped: {sim.error.message}" if sim.error is not None else ""


def _sgpr_of(spec: str) -> int:
    return {"vcc": 106, "exec": 126}.get(spec) or int(re.match(r"s\[(\d+)", spec).group(1))


def _set_s64(w, slot: int, value: int) -> None:
    w.set_sgpr(slot, np.array([value & 0xFFFFFFFF, (value >> 32) & 0xFFFFFFFF], dtype=np.uint32))


def _get_s64(w, slot: int) -> int:
    return int(w.sgpr[slot]) | (int(w.sgpr[slot + 1]) << 32)


def _set_v(w, base: int, width: int, lanes: list[int]) -> None:
    arr, init = w.file("v")
    vals = np.array(lanes, dtype=np.uint64)
    arr[base] = (vals & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    init[base] = True
    if width == 64:
        arr[base + 1] = (vals >> np.uint64(32)).astype(np.uint32)
        init[base + 1] = True


def _get_v(w, base: int, width: int) -> list[int]:
    arr, _ = w.file("v")
    lo = arr[base].astype(np.uint64)
    if width == 64:
        lo = lo | (arr[base + 1].astype(np.uint64) << np.uint64(32))
    return [int(x) for x in lo]


# --------------------------------------------------------------------------- comparing

@dataclass
class Outcome:
    key: str
    cls: str
    status: str                 # agree | disagree | not comparable | gap | exception
    reason: str = ""
    example: dict = field(default_factory=dict)


def _same(written: pe.Storage | None, want_bits: int, got_bits: int, width: int, hint: int = 0) -> bool:
    """Bits equal, except that a NaN matches any NaN in float results: the pseudocode does not define
    NaN payloads (gcnemu's are pinned by their own tests). `hint`: the float width of the sources,
    for results written as raw bits (`D0.b32 = tmp` after packed f16 math)."""
    mask = (1 << width) - 1
    a, b = want_bits & mask, got_bits & mask
    if a == b:
        return True
    kind, fw = written.written_as if written is not None and written.written_as else ("b", 0)
    if kind != "f" and hint:
        kind, fw = "f", hint
    if kind == "f" and fw in (16, 32, 64) and width % fw == 0:
        for shift in range(0, width, fw):  # any NaN matches any NaN: payloads have their own tests
            x, y = (a >> shift) & ((1 << fw) - 1), (b >> shift) & ((1 << fw) - 1)
            if x != y and not (pe.from_bits("f", fw, x).v != pe.from_bits("f", fw, x).v and
                               pe.from_bits("f", fw, y).v != pe.from_bits("f", fw, y).v):
                return False
        return True
    return False


def _float_hint(shape: Shape) -> int:
    widths = [int(k[1:]) for k in shape.kinds.values() if k.startswith("f")]
    return min(widths) if widths else 0


def _written_width(env: pe.Env, name: str) -> int:
    store = env.vars.get(name)
    return store.written_bits if store is not None else 0


def compare_vector(key: str, cls: str, form: Form, shape: Shape, target: str, rng: random.Random) -> Outcome:
    prog = parsed(key)
    sim = _sim(form.asm, target)
    w = sim.wave(0)
    regs = {s: draw(shape.kinds.get(s, "int"), shape.widths.get(s, 32), WAVE, rng) for s in ("S0", "S1", "S2")[:shape.sources]}
    d_width = shape.widths.get("D0", 32)
    d_init = draw("int", d_width, WAVE, rng)
    exec_mask = (1 << WAVE) - 1 & ~(1 << rng.randrange(WAVE)) & ~(1 << rng.randrange(WAVE))
    vcc_in = rng.getrandbits(64)
    for s, vals in regs.items():
        _set_v(w, SRC_V[s], shape.widths.get(s, 32), vals)
    _set_v(w, DST_V, d_width, d_init)
    _set_s64(w, 126, exec_mask)
    mask_init = rng.getrandbits(64)
    if form.mask_out:
        _set_s64(w, _sgpr_of(form.mask_out), mask_init)
    if form.vcc_in:
        _set_s64(w, _sgpr_of(form.vcc_in), vcc_in)
    if form.vcc_out and form.vcc_out != form.vcc_in:
        _set_s64(w, _sgpr_of(form.vcc_out), rng.getrandbits(64))
    failure = _run(sim)
    if failure:
        return Outcome(key, cls, "disagree", failure)
    got_d = _get_v(w, DST_V, d_width)
    got_mask = _get_s64(w, _sgpr_of(form.mask_out)) if form.mask_out else None
    got_vcc = _get_s64(w, _sgpr_of(form.vcc_out)) if form.vcc_out else None
    got_exec = _get_s64(w, 126)
    for lane in range(WAVE):
        active = (exec_mask >> lane) & 1
        if not active:
            if not form.mask_out and got_d[lane] != d_init[lane]:
                return Outcome(key, cls, "disagree", f"inactive lane {lane} changed its destination",
                               {"lane": lane, "before": hex(d_init[lane]), "after": hex(got_d[lane])})
            if form.mask_out and (got_mask >> lane) & 1:  # VOPC writes 0 for inactive lanes (guide, VOPC)
                return Outcome(key, cls, "disagree", f"inactive lane {lane} set its compare bit")
            continue
        env = pe.Env(lane=lane, call_instruction=call_instruction)
        for s, vals in regs.items():
            env.set(s, "b", shape.widths.get(s, 32), vals[lane])
        env.set("D0", "b", 64 if form.mask_out else d_width, mask_init if form.mask_out else d_init[lane])
        env.set("VCC", "b", 64, vcc_in)
        env.set("EXEC", "b", 64, exec_mask)
        env.set("WAVE_MODE.IEEE", "u", 1, 1)
        try:
            pe.run(prog, env)
        except (pe.PcodeUnsupported, pe.PcodeError) as exc:
            return Outcome(key, cls, "not comparable", str(exc))
        inputs = {s: hex(v[lane]) for s, v in regs.items()}
        if form.mask_out:
            want = (env.vars["D0"].bits >> lane) & 1
            if want != (got_mask >> lane) & 1:
                return Outcome(key, cls, "disagree", "compare bit", {"lane": lane, **inputs, "want": want,
                                                                      "got": (got_mask >> lane) & 1})
            if shape.writes_exec and ((env.vars["EXEC"].bits >> lane) & 1) != ((got_exec >> lane) & 1):
                return Outcome(key, cls, "disagree", "EXEC bit", {"lane": lane, **inputs})
            continue
        if "D0" in env.written:
            width = min(_written_width(env, "D0"), d_width)
            store = env.vars["D0"]
            if not _same(store, store.bits, got_d[lane], width, _float_hint(shape)):
                return Outcome(key, cls, "disagree", "destination",
                               {"lane": lane, **inputs, "want": hex(store.bits & ((1 << width) - 1)),
                                "got": hex(got_d[lane] & ((1 << width) - 1))})
        if shape.writes_vcc and form.vcc_out:
            want = (env.vars["VCC"].bits >> lane) & 1
            if want != (got_vcc >> lane) & 1:
                return Outcome(key, cls, "disagree", "carry-out bit",
                               {"lane": lane, **inputs, "vcc_in": (vcc_in >> lane) & 1, "want": want,
                                "got": (got_vcc >> lane) & 1})
    return Outcome(key, cls, "agree")


def compare_scalar(key: str, cls: str, form: Form, shape: Shape, target: str, rng: random.Random,
                   cases: int = 12) -> Outcome:
    prog = parsed(key)
    vals = {s: draw(shape.kinds.get(s, "int"), shape.widths.get(s, 32), cases, rng) for s in ("S0", "S1")}
    d_width = shape.widths.get("D0", 32)
    d_init = draw("int", d_width, cases, rng)
    for c in range(cases):
        imm = vals[form.imm][c] & 0xFFFF if form.imm else None
        asm = form.asm.replace("IMM", hex(imm)) if imm is not None else form.asm
        sim = _sim(asm, target)
        w = sim.wave(0)
        for s in ("S0", "S1")[:shape.sources]:
            if s == form.imm:
                continue
            if shape.widths.get(s, 32) == 64:
                _set_s64(w, SRC_S[s], vals[s][c])
            else:
                w.set_sgpr(SRC_S[s], np.array([vals[s][c] & 0xFFFFFFFF], dtype=np.uint32))
        if d_width == 64:
            _set_s64(w, DST_S, d_init[c])
        else:
            w.set_sgpr(DST_S, np.array([d_init[c] & 0xFFFFFFFF], dtype=np.uint32))
        scc_in = rng.getrandbits(1)
        w.scc = scc_in
        exec_before = _get_s64(w, 126)
        failure = _run(sim)
        if failure:
            return Outcome(key, cls, "disagree", failure)
        env = pe.Env(call_instruction=call_instruction)
        for s in ("S0", "S1")[:shape.sources]:
            env.set(s, "b", shape.widths.get(s, 32) if s != form.imm else 16, imm if s == form.imm else vals[s][c])
        env.set("D0", "b", d_width, d_init[c])
        env.set("SCC", "u", 1, scc_in)
        env.set("EXEC", "b", 64, exec_before)
        try:
            pe.run(prog, env)
        except (pe.PcodeUnsupported, pe.PcodeError) as exc:
            return Outcome(key, cls, "not comparable", str(exc))
        inputs = {s: hex(imm if s == form.imm else vals[s][c]) for s in ("S0", "S1")[:shape.sources]}
        got_d = _get_s64(w, DST_S) if d_width == 64 else int(w.sgpr[DST_S])
        if "D0" in env.written:
            width = min(_written_width(env, "D0"), d_width)
            if not _same(env.vars["D0"], env.vars["D0"].bits, got_d, width):
                return Outcome(key, cls, "disagree", "destination",
                               {**inputs, "scc_in": scc_in, "want": hex(env.vars["D0"].bits & ((1 << width) - 1)),
                                "got": hex(got_d & ((1 << width) - 1))})
        if "SCC" in env.written and (env.vars["SCC"].bits & 1) != int(w.scc):
            return Outcome(key, cls, "disagree", "SCC", {**inputs, "scc_in": scc_in,
                                                          "want": env.vars["SCC"].bits & 1, "got": int(w.scc)})
        if "EXEC" in env.written and env.vars["EXEC"].bits & ((1 << 64) - 1) != _get_s64(w, 126):
            return Outcome(key, cls, "disagree", "EXEC", {**inputs, "want": hex(env.vars["EXEC"].bits),
                                                           "got": hex(_get_s64(w, 126))})
    return Outcome(key, cls, "agree")


# --------------------------------------------------------------------------- one instruction

def mnemonic_of(key: str) -> str:
    return key.split(".", 1)[1].lower()


def check_one(key: str, target: str = "gfx950", seed: int = 1) -> Outcome:
    cls, text = load_table()[key]
    name = key.split(".", 1)[1]
    base = re.sub(r"_E(32|64)$", "", name)
    if base in WAVE_STATE:
        return Outcome(key, cls, "not comparable", WAVE_STATE[base])
    if base in EXCEPTIONS and base not in ROUNDING_ONLY:
        return Outcome(key, cls, "exception", EXCEPTIONS[base])
    if base in ROUNDING_ONLY:
        variant = text
        for old, new in ROUNDING_ONLY[base]:
            if old not in variant:
                return Outcome(key, cls, "not comparable", f"the table's pseudocode changed: no {old!r}")
            variant = variant.replace(old, new)
        _OVERRIDES[key] = variant
        try:
            out = _check_value(key, cls, name, variant, target, seed)
        finally:
            del _OVERRIDES[key]
        if out.status == "agree":
            return Outcome(key, cls, "exception", EXCEPTIONS[base])
        return out
    return _check_value(key, cls, name, text, target, seed)


def _check_value(key: str, cls: str, name: str, text: str, target: str, seed: int) -> Outcome:
    from gcnemu.isa import modelled
    if cls in pm.MEM_CLASSES or cls == "MTBUF":
        return _check_memory(key, cls, name, text, target, seed)
    if cls not in DRIVEN:
        return Outcome(key, cls, "not comparable", CLASS_REASON.get(cls, f"class {cls} not driven"))
    if re.search(r"\bD = A\b|MFMA|SMFMAC", name):
        return Outcome(key, cls, "not comparable", "MFMA: the pseudocode says only D = A * B + C "
                       "(checked against the matrix calculator and llvm elsewhere)")
    if APPROXIMATE.match(name):
        return Outcome(key, cls, "not comparable", "approximate on hardware (the guide gives an ULP bound); "
                       "the pseudocode is the exact function")
    mnemonic = mnemonic_of(key)
    if not modelled.executes(mnemonic):
        return Outcome(key, cls, "gap", "gcnemu does not execute it")
    try:
        parsed(key)
    except (pe.PcodeError, pe.PcodeUnsupported) as exc:
        return Outcome(key, cls, "not comparable", f"pseudocode not parsed: {exc}")
    shape = shape_of(text)
    form = pick_form(cls, mnemonic, shape, target)
    if form is None:
        return Outcome(key, cls, "not comparable", f"no operand form of {mnemonic} that llvm-mc accepts on "
                       f"{target} is derived from the pseudocode")
    rng = random.Random(f"{seed}:{key}")
    try:
        if form.scalar:
            return compare_scalar(key, cls, form, shape, target, rng)
        return compare_vector(key, cls, form, shape, target, rng)
    except pe.PcodeUnsupported as exc:
        return Outcome(key, cls, "not comparable", str(exc))


def _check_memory(key: str, cls: str, name: str, text: str, target: str, seed: int) -> Outcome:
    from gcnemu.isa import modelled
    if name in pm.NOT_COMPARABLE:
        return Outcome(key, cls, "not comparable", pm.NOT_COMPARABLE[name])
    if not modelled.executes(mnemonic_of(key)):
        return Outcome(key, cls, "gap", "gcnemu does not execute it")
    if cls not in pm.MEM_CLASSES:
        return Outcome(key, cls, "not comparable", CLASS_REASON[cls])
    try:
        prog = parsed(key)
    except (pe.PcodeError, pe.PcodeUnsupported) as exc:
        return Outcome(key, cls, "not comparable", f"pseudocode not parsed: {exc}")
    rng = random.Random(f"{seed}:{key}")
    try:
        status, reason, example = pm.compare_memory(key, cls, text, prog, target, rng)
        if status == "agree" and cls in ("GLOBAL", "SCRATCH", "SMEM", "MUBUF"):  # and the second address form
            status, reason, example = pm.compare_memory(key, cls, text, prog, target, rng, saddr=True)
    except pe.PcodeUnsupported as exc:
        return Outcome(key, cls, "not comparable", str(exc))
    return Outcome(key, cls, status, reason, example)


# --------------------------------------------------------------------------- report

def select(keys: list[str], sample: int | None, seed: int) -> list[str]:
    if not sample:
        return keys
    by_cls: dict[str, list[str]] = {}
    for k in keys:
        by_cls.setdefault(load_table()[k][0], []).append(k)
    rng = random.Random(seed)
    out = []
    for cls, ks in by_cls.items():
        out += sorted(rng.sample(ks, min(sample, len(ks))))
    return out


def report(outcomes: list[Outcome]) -> str:
    rows: dict[str, dict[str, int]] = {}
    for o in outcomes:
        rows.setdefault(o.cls, {"agree": 0, "disagree": 0, "exception": 0, "not comparable": 0, "gap": 0})[o.status] += 1
    lines = [f"{'class':8} {'agree':>6} {'disagree':>9} {'exception':>10} {'not comparable':>15} {'gap':>5}"]
    total = {"agree": 0, "disagree": 0, "exception": 0, "not comparable": 0, "gap": 0}
    for cls in sorted(rows):
        r = rows[cls]
        for k in total:
            total[k] += r[k]
        lines.append(f"{cls:8} {r['agree']:6} {r['disagree']:9} {r['exception']:10} {r['not comparable']:15} {r['gap']:5}")
    lines.append(f"{'total':8} {total['agree']:6} {total['disagree']:9} {total['exception']:10} "
                 f"{total['not comparable']:15} {total['gap']:5}")
    comparable = total["agree"] + total["disagree"]
    if comparable:
        lines.append(f"agreement: {total['agree']}/{comparable} comparable instructions "
                     f"({100.0 * total['agree'] / comparable:.1f}%)")
    bad = [o for o in outcomes if o.status == "disagree"]
    if bad:
        lines.append("")
        lines.append("disagreements:")
        for o in bad:
            lines.append(f"  {mnemonic_of(o.key)}: {o.reason} {json.dumps(o.example)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--target", default="gfx950")
    ap.add_argument("--sample", type=int, default=None, help="instructions per class (CI's fixed sample)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", action="append", default=[], help="mnemonic or table key (repeatable)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--verbose", action="store_true", help="list not-comparable reasons too")
    args = ap.parse_args(argv)
    keys = sorted(load_table())
    if args.only:
        wanted = {o.lower() for o in args.only}
        keys = [k for k in keys if k.lower() in wanted or mnemonic_of(k) in wanted]
        if not keys:
            print(f"error: no table entry named {', '.join(args.only)}", file=sys.stderr)
            return 2
    outcomes = [check_one(k, args.target, args.seed) for k in select(keys, args.sample, args.seed)]
    if args.json:
        print(json.dumps([o.__dict__ for o in outcomes], indent=1))
    else:
        print(report(outcomes))
        if args.verbose:
            for o in outcomes:
                if o.status in ("not comparable", "exception", "gap"):
                    print(f"  {o.status}: {mnemonic_of(o.key)}: {o.reason}")
    return 1 if any(o.status == "disagree" for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
