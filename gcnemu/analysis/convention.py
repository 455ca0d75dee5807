"""The two counter rules of the AMDGPU calling convention, at function boundaries.

A call (s_swappc_b64) lets the caller treat every counter as drained once the call returns
(`counters.py` does), because the callee owes two waits, which llc-22 always emits:
- at its entry, `s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)`: the caller's loads may still be
  returning into any register (call-entry-before-waitcnt);
- before its return (`s_setpc_b64`), a wait on whatever it issued itself (return-before-waitcnt).
LLVM: SIInsertWaitcnts (callWaitsOnFunctionEntry / callWaitsOnFunctionReturn). Deleting either
from compiled code must be reported, or the drained-at-return assumption would hide real races.

A tail call is not a return. SIInsertWaitcnts::generateWaitcntInstBefore waits for everything
before SI_RETURN / S_SETPC_B64_return, but before a tail call (an instruction that is both a
return and a call) only when the callee does not wait at its entry (`!callWaitsOnFunctionEntry`,
which is always false): the callee's entry wait drains what the caller left in flight. In the
assembly a return jumps through the return address the call left in s[30:31]; a tail call
jumps through another SGPR pair to the address of a function (llc-22 on ROCm's ocml:
`__ocmlpriv_bp1_f32` reloads its whole-wave VGPRs and ends in `s_setpc_b64 s[16:17]`, a tail
call to `__ocml_fmuladd_f32`, with no wait, while its returns through s[30:31] all wait). So
return-before-waitcnt checks `s_setpc_b64 s[30:31]` only; the tail-callee's own entry wait is
checked by call-entry-before-waitcnt.

A function is a symbol typed `@function` that no `.amdhsa_kernel` block describes (kernels are
typed `@function` too, and start with nothing outstanding).
"""
from __future__ import annotations

import re

from ..asm.diagnostics import Diagnostic
from ..asm.program import Directive

_TYPE = re.compile(r"^\s*([\w.$]+)\s*,\s*@function\s*$")


def functions(program) -> list[str]:
    """Labels of non-kernel functions, in file order: typed `@function`, described by no kernel
    directive, and ending as a function does, in `s_setpc_b64` with no `s_endpgm` of its own
    (hand-written kernels are often typed `@function` with no descriptor in the file)."""
    kernels = {str(st.args[0]).strip() for st in program.statements
               if type(st) is Directive and st.name in (".amdhsa_kernel", ".amdgpu_hsa_kernel") and st.args}
    labels = program.labels  # (a property that walks every statement: read it once)
    typed = []
    for st in program.statements:
        if type(st) is Directive and st.name == ".type" and st.args:
            m = _TYPE.match(", ".join(str(a) for a in st.args))
            if m and m.group(1) in labels:
                typed.append(m.group(1))
    ins = program.instructions
    starts = sorted({labels[n] for n in typed} | {labels[k] for k in kernels if k in labels})
    typed = [n for n in typed if n not in kernels]
    out = []
    for name in typed:
        first = labels[name]
        end = next((s for s in starts if s > first), len(ins))
        mnemonics = {i.mnemonic for i in ins[first:end]}
        if "s_setpc_b64" in mnemonics and "s_endpgm" not in mnemonics:
            out.append(name)
    return out


def _boundaries(program) -> list[int]:
    """First instructions of every @function-typed or kernel symbol: where a function's code ends."""
    names = set()
    for st in program.statements:
        if type(st) is Directive and st.args and st.name in (".type", ".amdhsa_kernel", ".amdgpu_hsa_kernel"):
            names.add(str(st.args[0]).strip())
    labels = program.labels
    return sorted(labels[n] for n in names if n in labels)


RETURN_ADDRESS = ("s", 30, 2)
"""s[30:31]: where s_swappc_b64 leaves the return address under the AMDGPU calling convention
(AMDGPUUsage, "Call Convention"; SIRegisterInfo's return address register SGPR30_SGPR31)."""


def is_return(ins) -> bool:
    """An `s_setpc_b64` through the return address register: a return, not a tail call."""
    op = ins.operands[0] if ins.operands else None
    return (getattr(op, "file", None), getattr(op, "index", None), getattr(op, "count", None)) == RETURN_ADDRESS


def _drains_all(f) -> bool:
    w = f.waitcnt
    return w is not None and w.get("vm") == 0 and w.get("lgkm") == 0


def convention_diagnostics(an, only: set[str] | None = None) -> list[Diagnostic]:
    """Entry and return waits of every function of the analysed program."""
    out: list[Diagnostic] = []
    ins, facts = an.instructions, an.facts
    names = functions(an.program)
    if not names:
        return out
    starts = _boundaries(an.program)
    labels = an.program.labels
    want = (lambda r: only is None or r in only)
    states: dict | None = None  # counter states before each instruction: one pass over the whole program
    for name in names:
        first = labels[name]
        if first >= len(ins):
            continue
        end = next((s for s in starts if s > first), len(ins))
        if want("call-entry-before-waitcnt"):
            for i in range(first, end):  # straight on from the entry, up to the first full wait
                f = facts[i]
                if _drains_all(f):
                    break
                if f.reads or f.writes or f.mem is not None or f.control is not None:
                    label_line = ins[first].span.line
                    d = Diagnostic("warning", f"{f.mnemonic} runs before function {name} has waited for its caller's "
                                              "memory operations", ins[i].mnemonic_span,
                                   rule="call-entry-before-waitcnt",
                                   notes=[Diagnostic("note", f"function {name} starts here", ins[first].mnemonic_span),
                                          Diagnostic("note", "a caller's loads may still be returning into any register "
                                                     "(the calling convention leaves the wait to the callee); use "
                                                     f"s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0) before line {label_line}",
                                                     None)])
                    d.extra = {"producer": None, "required_wait_states": None, "provided_wait_states": None,
                               "fix": {"action": "insert-before", "line": label_line, "column": ins[first].span.column,
                                       "text": "s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)"}}
                    out.append(d)
                    break
        if want("return-before-waitcnt") and an.counters is not None:
            if states is None:
                states = dict(an.counters.states_before())
            for i in range(first, end):
                if ins[i].mnemonic != "s_setpc_b64" or not is_return(ins[i]):
                    continue  # (a tail call: the callee waits at its entry, see the module docstring)
                pending = [(q, c) for vm, lg in states.get(i, ()) for q, c in ((vm, "vm"), (lg, "lgkm")) if q]
                if not pending:
                    continue
                queue, counter = pending[0]
                producer = queue[-1]
                field = "vmcnt" if counter == "vm" else "lgkmcnt"
                line = ins[i].span.line
                d = Diagnostic("warning", f"s_setpc_b64 returns from {name} while {facts[producer].mnemonic} (line "
                                          f"{ins[producer].span.line}) may be outstanding", ins[i].mnemonic_span,
                               rule="return-before-waitcnt",
                               notes=[Diagnostic("note", f"{facts[producer].mnemonic} issued here",
                                                 ins[producer].mnemonic_span),
                                      Diagnostic("note", "the caller treats every counter as drained once the call "
                                                         f"returns; use s_waitcnt {field}(0) before line {line}", None)])
                d.extra = {"producer": {"line": ins[producer].span.line, "column": ins[producer].span.column},
                           "required_wait_states": None, "provided_wait_states": None,
                           "fix": {"action": "insert-before", "line": line, "column": ins[i].span.column,
                                   "text": f"s_waitcnt {field}(0)"}}
                out.append(d)
    return out
