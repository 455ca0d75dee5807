"""Resolution is finished when `resolve` returns: the simulator evaluates no expression.

A `.set` symbol used before its definition (llvm-mc takes it as a literal it fixes up later)
reaches `resolve` as a name or an expression; the Kernel's instructions hold its integer, and a
kernel written that way runs exactly as the one with the numbers written out.
"""
from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

import gcnemu
from gcnemu.asm.program import Call, CallGroup, Expr, Modified, Symbol

SIM = Path(gcnemu.__file__).parent / "sim"

BODY = """\
s_mov_b32 s0, {N}
s_mov_b32 s1, {NK1}
s_add_u32 s2, s0, {KN}
v_mov_b32 v1, {K}
v_add_u32 v2, {NK1}, v0
v_sub_u32 v3, {N}, v0
v_xor_b32 v4, {MASK}, v0
s_endpgm
"""
SYMBOLS = """\
.set N, 3
K = 0x40
.set MASK, ~(K - 1)
"""


def _run(text: str, tmp_path: Path, name: str):
    path = tmp_path / name
    path.write_text(text)
    kernel = gcnemu.resolve(gcnemu.parse_file(str(path)), "gfx90a")
    sim = gcnemu.Simulation(kernel)
    sim.run()
    assert sim.error is None, sim.error
    return kernel, sim


def test_forward_symbols_and_expressions_run_as_the_numbers_they_stand_for(tmp_path):
    written = BODY.format(N="N", NK1="N*K+1", KN="(K - N)", K="K", MASK="MASK") + SYMBOLS
    # llvm-mc encodes a symbol it fixes up later as a literal dword, even a small one: lit(...)
    numbers = BODY.format(N="lit(3)", NK1=3 * 64 + 1, KN="lit(61)", K="lit(64)", MASK=~63 & 0xFFFFFFFF)
    _, a = _run(written, tmp_path, "symbols.s")
    _, b = _run(numbers, tmp_path, "numbers.s")
    wa, wb = a.wave(0), b.wave(0)
    assert [int(x) for x in wa.sgpr[:3]] == [3, 193, 3 + 61]
    for v in range(1, 5):
        assert np.array_equal(wa.vgpr[v], wb.vgpr[v]), f"v{v}"
    assert a.cycles == b.cycles


def test_the_kernel_holds_integers_where_the_source_has_symbols(tmp_path):
    """No operand the simulator could evaluate is left: a `.set` name or an expression is an
    Imm that still prints as written (messages quote the source)."""
    kernel, _ = _run(BODY.format(N="N", NK1="N*K+1", KN="(K - N)", K="K", MASK="MASK") + SYMBOLS,
                     tmp_path, "k.s")
    symbols = set(kernel.symbols)

    def leftovers(op):
        if isinstance(op, Expr) or (isinstance(op, Symbol) and op.name in symbols):
            yield op
        elif isinstance(op, Modified):
            yield from leftovers(op.inner)
        elif isinstance(op, Call):
            for a in op.args:
                yield from leftovers(a)
        elif isinstance(op, CallGroup):
            for c in op.calls:
                yield from leftovers(c)

    assert [o.text() for ins in kernel.instructions for op in ins.operands for o in leftovers(op)] == []
    assert kernel.instructions[1].operands[1].text() == "((N * K) + 1)"


def test_a_float_symbol_as_an_operand_stops_the_run_at_its_line(tmp_path):
    """llvm-mc refuses `v_add_f32 v2, F, v1` with `.set F, 2.5`; gcnemu does not invent a value."""
    path = tmp_path / "f.s"
    path.write_text("v_mov_b32 v1, 1.0\nv_add_f32 v2, F, v1\ns_endpgm\n.set F, 2.5\n")
    kernel = gcnemu.resolve(gcnemu.parse_file(str(path)), "gfx90a")
    sim = gcnemu.Simulation(kernel).run()
    assert sim.error is not None and sim.error.span.line == 2
    assert "'F' is not a constant" in sim.error.message


def _imports(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            for a in node.names:
                yield node.module or "", a.name
        elif isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, ""


@pytest.mark.parametrize("path", sorted(SIM.rglob("*.py")), ids=lambda p: str(p.relative_to(SIM)))
def test_the_simulator_imports_no_expression_evaluator(path):
    """The engines run what `resolve` produced; an import of the assembler's evaluator (here, or
    inside a function) would mean an expression is still evaluated while a kernel runs."""
    bad = [f"{m}.{n}" for m, n in _imports(path)
           if n in ("eval_const", "evaluate", "fold") or m.rsplit(".", 1)[-1] in ("evaluate", "expr")]
    assert bad == []


HIP = Path(gcnemu.__file__).parents[1] / "programs" / "hipcc_save_temps_gfx90a.s"


def test_a_launch_reads_the_kernel_description_from_the_kernel_not_the_program(monkeypatch):
    """hipcc's vector add (an `.amdhsa_kernel` block and `.amdgpu_metadata`) launches from what
    resolve put on the Kernel: with the readers of those directives disabled after resolve, the
    kernarg segment, the ABI SGPRs and the result are those of its description."""
    from gcnemu.asm import kernels
    kernel = gcnemu.resolve(gcnemu.parse_file(str(HIP)), "gfx90a")
    desc = kernel.description(None)
    assert desc.name == "_Z10vector_addPKfS0_Pfi" and desc.from_block and len(desc.explicit_args) == 4

    def reread(*_a, **_k):
        raise AssertionError("the launch read the Program's kernel directives again")

    for name in ("describe", "descriptor_blocks", "find", "_read_blocks", "_read_metadata",
                 "padded_entries", "function_names"):
        monkeypatch.setattr(kernels, name, reread)
    a = np.arange(64, dtype=np.float32)
    setup = gcnemu.Setup(workgroup_size=(64, 1, 1), grid=(1, 1, 1))
    setup.add_buffer("A", a).add_buffer("B", 2 * a).add_buffer("C", np.zeros(64, np.float32))
    setup.args = [("a", "A"), ("b", "B"), ("c", "C"), ("n", 64)]
    sim = gcnemu.Simulation(kernel, setup).run()
    assert sim.error is None, sim.error
    assert setup.kernarg_sgpr == 4 and setup.descriptor is desc
    np.testing.assert_array_equal(sim.buffer("C", np.float32), 3 * a)
