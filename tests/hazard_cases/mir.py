"""Ask LLVM's own hazard recognizer how many wait states a producer/consumer pair needs.

An assembly line cannot go through llc directly, so each line becomes a Machine IR instruction:
llvm-mc 22 ``-show-inst`` names the MC opcode and lists its operands (registers by name,
immediates), the MC opcode maps to its pseudo (``BUFFER_LOAD_DWORD_OFFEN_gfx90a`` ->
``BUFFER_LOAD_DWORD_OFFEN``, ``V_MFMA_F32_4X4X1F32_gfx90a_vcd`` -> ``..._vgprcd_e64``), and the
details MC does not show (how many operands are definitions, the implicit $exec/$mode/$vcc
operands) are learnt from the MIR parser's own error messages, once per line and target.
Then ``llc-22 -run-pass=post-RA-hazard-rec`` (GCNHazardRecognizer in hazard-recognizer mode, the
pass that puts every s_nop into compiled code) runs on the block and we count the S_NOPs it puts
before the consumer: S_NOP n is n + 1 wait states.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

LLC = shutil.which("llc-22") or "/usr/lib/llvm-22/bin/llc"
LLVM_MC = shutil.which("llvm-mc-22") or "/usr/lib/llvm-22/bin/llvm-mc"
AVAILABLE = Path(LLC).exists() and Path(LLVM_MC).exists()

# MC-only register spellings and the register MIR uses for them
_MC_ONLY_REGS = {"$m0_gfxpre11": "$m0", "$sgpr_null_gfxpre11": "$sgpr_null"}
_TWO_DEFS = re.compile(r"PERMLANE\d+_SWAP|V_DIV_SCALE|_CO_U32_e64|V_ADDC_|V_SUBB|V_MAD_U64|V_MAD_I64")
_SUFFIX = re.compile(r"_(vi|gfx90a|gfx940|gfx950|gfx9|gfx908|si|ci)(_(acd|vcd))?$")


@dataclass
class McInst:
    name: str
    operands: list[str]  # "$vgpr0", "5"


@dataclass
class _Line:
    """What we learnt about one assembly line: the MIR spelling that llc's parser accepts."""
    candidates: list[str]
    operands: list[str]
    ndefs: int = 1
    implicit: list[str] = field(default_factory=list)
    drop_tail: int = 0
    tie: bool = False  # uses equal to a definition are tied to it (v_permlane*_swap)

    def text(self) -> str:
        ops = self.operands[: len(self.operands) - self.drop_tail] if self.drop_tail else list(self.operands)
        defs, uses = ops[: self.ndefs], ops[self.ndefs:]
        if self.tie:
            uses = [f"{u}(tied-def {defs.index(u)})" if u in defs else u for u in uses]
        body = ", ".join(uses + self.implicit)
        head = f"{', '.join(defs)} = " if defs else ""
        return f"{head}{self.candidates[0]} {body}".rstrip()


def show_inst(lines: list[str], target: str) -> list[McInst]:
    """MC opcode and operands of each line, from llvm-mc -show-inst."""
    src = "\n".join(lines) + "\n"
    out = subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-show-inst"], input=src,
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise ValueError(out.stderr[:500])
    insts: list[McInst] = []
    for row in out.stdout.splitlines():
        m = re.search(r"<MCInst #\d+ (\w+)", row)
        if m:
            insts.append(McInst(m.group(1), []))
            continue
        m = re.search(r"<MCOperand (Reg|Imm|FPImm):([^>]+)>", row)
        if m and insts:
            kind, val = m.groups()
            if kind == "Reg":
                reg = "$noreg" if val in ("NoRegister", "0") else "$" + val.lower()
                insts[-1].operands.append(_MC_ONLY_REGS.get(reg, reg))
            else:
                insts[-1].operands.append(val)
    return insts


def _candidates(mc: str) -> list[str]:
    m = _SUFFIX.search(mc)
    base = mc[: m.start()] if m else mc
    tail = m.group(3) if m else None
    if base.startswith("V_MFMA") or base.startswith("V_SMFMAC"):
        if tail == "vcd":
            return [base + "_vgprcd_e64", base + "_vgprcd", base + "_e64", base]
        return [base + "_e64", base, base + "_vgprcd_e64"]
    if base.endswith(("_e32", "_e64", "_sdwa", "_dpp")):
        return [base, base[: base.rfind("_")]]
    return [base, base + "_e64", base + "_e32"]


class MirLearner:
    """Turns assembly lines into MIR instructions llc accepts, per target, learning from errors."""

    def __init__(self, target: str):
        self.target = target
        self.known: dict[str, _Line] = {}
        self.fixed: dict[str, str] = {}  # spellings from the cache

    def _learn(self, lines: list[str]) -> None:
        new = [ln for ln in dict.fromkeys(lines) if ln not in self.known and ln not in self.fixed]
        if not new:
            return
        for ln, mc in zip(new, show_inst(new, self.target)):
            # stores, s_setreg, v_cmpx_e32 and the like define nothing explicit; guessed first from the
            # name, corrected below if the parser disagrees
            nodef = bool(re.search(r"(STORE|S_SETREG|CMPX_\w+_e32|S_NOP|S_SENDMSG|_LDS_|LDS_DWORD|S_RFE|"
                                   r"WRITE_ADDTID|S_BARRIER|S_MOVRELD)", mc.name))
            self.known[ln] = _Line(_candidates(mc.name), mc.operands,
                                   0 if nodef else 2 if _TWO_DEFS.search(mc.name) else 1)
        for _ in range(40 * len(new)):
            err = self._try(new)
            if err is None:
                return
            line_no, msg = err
            fixed = self._fix(new[line_no], msg)
            if not fixed:
                raise ValueError(f"cannot express {new[line_no]!r} in MIR for {self.target}: {msg}")
        raise ValueError(f"gave up converting {new} for {self.target}")

    def _fix(self, asm: str, msg: str) -> bool:
        ln = self.known[asm]
        m = re.search(r"missing implicit register operand '(implicit(?:-def)? \$\w+)'", msg)
        if m:
            ln.implicit.append(m.group(1))
            return True
        if "unknown machine instruction name" in msg:
            if len(ln.candidates) > 1:
                ln.candidates.pop(0)
                return True
            return False
        if "Dst register should have tied register" in msg:  # SDWA dst_unused:UNUSED_PRESERVE
            ln.implicit.append(f"implicit {ln.operands[0]}(tied-def 0)")
            return True
        if "tied" in msg.lower() and not ln.tie:
            ln.tie = True
            return True
        if msg == "Explicit operand marked as def" and ln.ndefs > 0:
            ln.ndefs -= 1
            return True
        if msg == "Explicit definition marked as use" and ln.ndefs < 2:
            ln.ndefs += 1
            return True
        if ("should be a register definition" in msg or "should not be a register definition" in msg
                or ("explicit" in msg and "def" in msg)):
            if "should not" in msg and ln.ndefs > 0:
                ln.ndefs -= 1
                return True
            if ln.ndefs < 2:
                ln.ndefs += 1
                return True
        if ("too many operands" in msg or ("operand" in msg and "expected" in msg)) and ln.drop_tail < 4:
            ln.drop_tail += 1
            return True
        return False

    def _try(self, asm_lines: list[str]) -> tuple[int, str] | None:
        body = [f"    {self.known[a].text()}" for a in asm_lines]
        r = _run(body, self.target)
        if r.returncode == 0:
            return None
        m = re.search(r"\.mir:(\d+):\d+: (.*)", r.stderr)
        bad = re.search(r"\*\*\* Bad machine code: (.*?) \*\*\*.*?- instruction: +(.*?)\n", r.stderr, re.S)
        if bad:  # the machine verifier: find the line by the instruction it prints
            for i, a in enumerate(asm_lines):
                name = self.known[a].candidates[0]
                if re.search(rf"\b{name}\b", bad.group(2)):
                    return i, bad.group(1)
            raise ValueError(r.stderr[:800])
        if not m:
            raise ValueError(r.stderr[:500])
        return int(m.group(1)) - _FIRST_LINE, m.group(2)

    def mir(self, asm_lines: list[str]) -> list[str]:
        self._learn(asm_lines)
        return [self.fixed[a] if a in self.fixed else self.known[a].text() for a in asm_lines]


_FIRST_LINE = 7  # the line of the first instruction in _run's file
SPELLINGS = Path(__file__).resolve().parent / "mir_spellings.json"


def _doc(name: str, body: list[str]) -> list[str]:
    return ["---", f"name: {name}", "tracksRegLiveness: false", "body: |", "  bb.0:", "    S_NOP 0"] + body \
        + ["    S_ENDPGM 0", "..."]


def _llc(docs: list[list[str]], target: str) -> subprocess.CompletedProcess:
    with tempfile.NamedTemporaryFile("w", suffix=".mir", delete=False) as f:
        f.write("\n".join(line for d in docs for line in d) + "\n")
        path = f.name
    try:
        return subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={target}",
                               "-run-pass=post-RA-hazard-rec", path, "-o", "-"], capture_output=True, text=True)
    finally:
        Path(path).unlink()


def _run(body: list[str], target: str) -> subprocess.CompletedProcess:
    return _llc([_doc("f", body)], target)


_LEARNERS: dict[str, MirLearner] = {}


def learner(target: str) -> MirLearner:
    """The target's learner, seeded with the spellings saved in mir_spellings.json (a cache: a line
    missing there is learnt from llc at test time, a stale one fails loudly in llc)."""
    if target not in _LEARNERS:
        lr = MirLearner(target)
        if SPELLINGS.exists():
            for asm, text in json.loads(SPELLINGS.read_text()).get(target, {}).items():
                lr.fixed[asm] = text
        _LEARNERS[target] = lr
    return _LEARNERS[target]


def save_spellings(targets: list[str]) -> None:
    data = {t: {**learner(t).fixed, **{a: ln.text() for a, ln in learner(t).known.items()}} for t in targets}
    SPELLINGS.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


def _counts(func_text: str, n: int) -> list[int]:
    rows = func_text[func_text.index("bb.0:"):].splitlines()[2:]  # past the leading S_NOP 0
    counts: list[int] = []
    pending = 0
    for row in rows:
        s = row.strip()
        m = re.fullmatch(r"S_NOP (\d+)", s)
        if m:
            pending += int(m.group(1)) + 1
            continue
        if not s or s.startswith(("S_ENDPGM", "...")):
            continue
        counts.append(pending)
        pending = 0
        if len(counts) == n:
            break
    return counts


def llc_wait_states_many(programs: list[list[str]], target: str) -> list[list[int]]:
    """For each straight-line program (assembly lines, no s_nop), the wait states llc's hazard
    recognizer puts before each line. One llc run for all of them, one function per program; the
    block starts with S_NOP 0 so nothing before the first line can matter."""
    lr = learner(target)
    texts = [lr.mir(p) for p in programs]
    r = _llc([_doc(f"f{i}", [f"    {t}" for t in body]) for i, body in enumerate(texts)], target)
    if r.returncode != 0:
        raise ValueError(r.stderr[:800])
    funcs = r.stdout.split("\n---\n")
    funcs = [f for f in funcs if "bb.0:" in f]
    assert len(funcs) == len(programs)
    return [_counts(f, len(p)) for f, p in zip(funcs, programs)]


def llc_wait_states(asm_lines: list[str], target: str) -> list[int]:
    """Wait states llc's hazard recognizer puts before each of ``asm_lines``."""
    return llc_wait_states_many([asm_lines], target)[0]


if __name__ == "__main__":  # refresh the cache: python -m tests.hazard_cases.mir
    from . import gen
    built = gen.all_built()
    for t in sorted({b.target for b in built}):
        for b in built:
            if b.target == t:
                learner(t).mir(gen.pair_lines(b))
    save_spellings(sorted({b.target for b in built}))
