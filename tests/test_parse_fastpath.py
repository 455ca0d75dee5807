"""The parser's regex fast path builds exactly what the Lark grammar builds.

`parse(text, fast=False)` sends every instruction line through the grammar; the
default takes a hand-written path for simple lines. A user would notice any
difference as a wrong operand, a wrong caret column or a changed verdict, so
both must agree object for object (spans included) on everything we have:
the bundled kernels, the differential corpus and the benchmark's generated file.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from gcnemu.asm.parse import parse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).parent))
import gen_lines  # noqa: E402


def _same(text: str, file: str) -> None:
    fast = parse(text, file)
    slow = parse(text, file, fast=False)
    assert len(fast.statements) == len(slow.statements)
    for a, b in zip(fast.statements, slow.statements):
        assert a == b, f"{file}:{getattr(a, 'span', None)}: fast path {a!r} != grammar {b!r}"
    assert [(d.message, d.span) for d in fast.diagnostics] == [(d.message, d.span) for d in slow.diagnostics]


@pytest.mark.parametrize("path", sorted(ROOT.glob("programs/**/*.s")), ids=lambda p: p.name)
def test_bundled_programs_parse_identically(path):
    _same(path.read_text(), str(path))


def test_differential_corpus_parses_identically():
    lines = gen_lines.PRELUDE + gen_lines.generate(99, 2)
    _same("\n".join(lines) + "\n", "corpus.s")


def test_benchmark_kernel_parses_identically():
    spec = importlib.util.spec_from_file_location("bench_parse", ROOT / "benchmarks" / "bench_parse.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    _same(bench.generate(4000, seed=7), "bench.s")


@pytest.mark.parametrize("line", [
    "v_add_u32 v1, -v2, v3",
    "v_sub_u32 v1, v2 -1",
    "s_waitcnt vmcnt(0) & lgkmcnt(1)",
    "s_waitcnt vmcnt(0), lgkmcnt(1)",
    "global_load_dword v1, v[2:3], off offset:-16 sc0 sc1 nt",
    "buffer_load_dword v1, s[4:7], 0 offen lds",
    "v_mfma_f32_16x16x4f32 a[0:3], v0, v1, a[0:3] cbsz:1 abid:0 blgp:2",
    "v_pk_fma_f16 v0, v1, v2, v3 neg_lo:[1,0,0] neg_hi:[0,1,0]",
    "s_mov_b32 s0, 0x3f800000",
    "v_mov_b32 v0, 0.5",
    "v_mov_b32 v0, -1.0",
    "v_mov_b32 v0, .5",  # a float (llvm-mc: 0.5), not a name starting with '.'
    "v_mov_b32 v0, .5e1",
    "v_add_u32 v0, v1, v2\t ",
    "s_branch label_1",
    "ds_read_b32 v0, v1 offset:65535 gds",
    "V_ADD_U32 v1 v2 v3",
    # labels named like modifier flags are branch targets (llvm-mc reads them as symbols there)
    "s_branch done",
    "s_cbranch_scc1 done",
    "s_cbranch_execz lds",
    "s_cbranch_vccnz glc",
    "s_branch off",
    "s_branch offen",
    "s_call_b64 s[0:1], sc0",
    "s_mov_b32 s0, nt",
    "s_load_dword s0, s[0:1], 0x0 glc",
    "global_load_dword v1, v[2:3], off glc",
    # lines the fast path must decline (the grammar decides, as llvm-mc does)
    "s_nop ,0",
    "v_mov_b32 v0,& v1",
    "v_mov_b32 v0 &, v1",
    "s_mov_b32 s0, 0xff & 0xf",
    "s_waitcnt vmcnt(0) & 1",
    "s_waitcnt 0 & lgkmcnt(0)",
    "s_waitcnt vmcnt(0) & lgkmcnt(0) & expcnt(0)",
    "s_mov_b32 s0, --1",
    "s_mov_b32 s0, " + "-" * 3000 + "1",
    "s_mov_b32 s0, 18446744073709551615",
    "s_mov_b32 s0, 18446744073709551616",
    "s_mov_b32 s0, 0x10000000000000000",
    "s_nop " + "1" * 5000,
    "s_waitcnt vmcnt(" + "9" * 30 + ")",
    "v_pk_fma_f16 v0, v1, v2, v3 neg_lo:[1,0,0" + "0" * 30 + "]",
    "s_mov_b32 s[3:2], 0",
    "s_waitcnt v11- 0x10",  # the grammar's span of `- 0x10` starts at the sign, as the fast path's
    "global_load_dword - 0x10",
])
def test_typical_lines_parse_identically(line):
    _same(f"label_1:\n{line}\n", "t.s")


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize("line, target", [
    ("s_branch done", "done"), ("s_cbranch_scc1 done", "done"), ("s_cbranch_execz lds", "lds"),
    ("s_branch off", "off"), ("s_branch glc", "glc"), ("s_call_b64 s[0:1], offen", "offen"),
])
def test_a_label_named_like_a_flag_is_the_branch_target(line, target, fast):
    from gcnemu.asm.program import Symbol
    from gcnemu.asm.validate import validate
    text = f"{line}\n{target}:\ns_endpgm\n"
    prog = parse(text, "t.s", fast=fast)
    ins = prog.instructions[0]
    assert ins.modifiers == ()
    assert isinstance(ins.operands[-1], Symbol) and ins.operands[-1].name == target
    assert prog.labels[target] == 1
    assert not [d for d in validate(prog, "gfx90a") if d.severity == "error"]


@pytest.mark.parametrize("fast", [True, False])
def test_memory_instructions_keep_their_flags(fast):
    prog = parse("s_load_dword s0, s[0:1], 0x0 glc\nglobal_load_dword v1, v[2:3], off sc0 nt\n", "t.s", fast=fast)
    s_load, g_load = prog.instructions
    assert [m.name for m in s_load.modifiers] == ["glc"]
    assert [m.name for m in g_load.modifiers] == ["sc0", "nt"]
    assert g_load.operands[-1].text() == "off" and type(g_load.operands[-1]).__name__ == "Special"


# ds_swizzle_b32's offset macro, with the offsets llvm-mc 22 encodes for it (gfx90a)
SWIZZLES = [
    ('swizzle(BITMASK_PERM,"01pip")', 0x0907),
    ('swizzle(BITMASK_PERM, "10ipi")', None),
    ("swizzle(QUAD_PERM,0,1,2,3)", 0x80E4),
    ("swizzle(QUAD_PERM, 3, 2, 1, 0)", None),
    ("swizzle(BROADCAST,8,7)", 0x00F8),
    ("swizzle(SWAP,16)", 0x401F),
    ("swizzle(REVERSE,8)", 0x1C1F),
]


@pytest.mark.parametrize("macro", [m for m, _ in SWIZZLES])
def test_swizzle_offsets_parse_identically(macro):
    _same(f"ds_swizzle_b32 v1, v2 offset:{macro}\n", "t.s")


@pytest.mark.parametrize("macro, offset", [s for s in SWIZZLES if s[1] is not None])
def test_swizzle_offsets_validate_and_execute(macro, offset):
    """Parsed, accepted by validation and executed with the lane mapping of llvm-mc's encoding."""
    import numpy as np

    import gcnemu
    from gcnemu.asm.validate import validate

    prog = parse(f"ds_swizzle_b32 v1, v2 offset:{macro}\ns_waitcnt lgkmcnt(0)\ns_endpgm\n", "t.s")
    assert not prog.diagnostics and not validate(prog, "gfx90a")
    sim = gcnemu.Simulation(gcnemu.resolve(prog, "gfx90a"), gcnemu.Setup(workgroup_size=(64, 1, 1)))
    data = np.arange(64, dtype=np.uint32) * 7 + 1
    sim.wave(0).vgpr[2] = data
    sim.wave(0).vgpr_init[2] = True
    sim.run()
    assert sim.error is None, sim.error
    lanes = np.arange(64)
    if offset & 0x8000:
        src = (lanes & ~3) + np.array([(offset >> (2 * k)) & 3 for k in range(4)])[lanes & 3]
    else:
        and_m, or_m, xor_m = offset & 0x1F, (offset >> 5) & 0x1F, (offset >> 10) & 0x1F
        src = ((((lanes & 0x1F) & and_m) | or_m) ^ xor_m) | (lanes & 0x20)
    assert sim.wave(0).v[1].u32.tolist() == data[src].tolist()


def test_a_string_is_only_a_call_argument():
    prog = parse('v_mov_b32 v0, "01pip"\n', "t.s")
    assert [(d.severity, d.span.column) for d in prog.diagnostics] == [("error", 15)]  # llvm-mc rejects it too
