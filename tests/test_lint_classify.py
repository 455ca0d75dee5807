"""The classifier maps instructions onto the rule table's vocabulary (classes, roles, implicit operands)."""
from __future__ import annotations

import pytest

from gcnemu.analysis.classify import classify_all
from gcnemu.isa.hazard_rules import CLASSES
from gcnemu.asm.parse import parse


def facts(line: str, target: str = "gfx90a"):
    (f,) = classify_all(parse(f"\t{line}\n", "c.s").instructions, target)
    return f


def regs(accesses, role=None):
    return sorted(a.reg.text() for a in accesses if role is None or a.role == role)


@pytest.mark.parametrize("line,target,expect", [
    ("v_mfma_f32_32x32x8f16 v[0:15], v[16:17], v[18:19], v[0:15]", "gfx90a", {"mfma", "mfma-xdl"}),
    ("v_mfma_f32_32x32x1_2b_f32 v[0:31], v1, v2, v[0:31]", "gfx942", {"mfma", "mfma-nonxdl"}),
    ("v_mfma_f32_32x32x1f32 v[0:31], v1, v2, v[0:31]", "gfx90a", {"mfma", "mfma-xdl"}),
    ("v_mfma_f64_4x4x4f64 v[0:1], v[2:3], v[4:5], v[0:1]", "gfx90a", {"dgemm", "dgemm-4x4"}),
    ("v_cmpx_eq_u32 vcc, v0, v1", "gfx90a", {"valu", "valu-writes-exec", "valu-writes-vcc", "v-cmpx"}),
    ("v_readlane_b32 s0, v1, s2", "gfx942", {"valu-writes-sgpr", "v-rwlane", "v-readlane-ops"}),
    ("v_exp_f32 v0, v1", "gfx942", {"valu-trans"}),
    ("buffer_load_dword v1, s[4:7], 0 offen lds", "gfx90a", {"vmem", "lds-dma", "mem"}),
    ("global_load_lds_dword v[2:3], off", "gfx942", {"vmem", "lds-dma"}),
    ("global_store_dwordx4 v[0:1], v[4:7], off", "gfx942", {"vmem-store-wide"}),
    ("buffer_store_dwordx4 v[4:7], v0, s[0:3], s8 offen", "gfx942", {"buf-store-wide-sgpr-soffset"}),
    ("s_mov_b32 m0, s0", "gfx90a", {"salu-writes-m0"}),
    ("s_setreg_b32 hwreg(HW_REG_TRAPSTS, 0, 4), s0", "gfx90a", {"s-setreg", "s-setreg-trapsts"}),
    ("v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf", "gfx90a", {"dpp"}),
    ("v_add_f16_sdwa v0, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0 src1_sel:WORD_0",
     "gfx942", {"valu-partial-dst"}),
])
def test_classes(line, target, expect):
    f = facts(line, target)
    assert expect <= f.classes
    assert f.classes <= set(CLASSES) | {"salu", "smem"}


def test_xdl_split_depends_on_the_target():
    line = "v_mfma_f32_32x32x1f32 v[0:31], v1, v2, v[0:31]"
    assert "mfma-xdl" in facts(line, "gfx90a").classes
    assert "mfma-nonxdl" in facts(line, "gfx942").classes


def test_mfma_roles_and_passes():
    f = facts("v_mfma_f32_32x32x8f16 v[0:15], v[16:17], v[18:19], v[0:15]")
    assert regs(f.writes) == ["v[0:15]"] and regs(f.reads, "srcc") == ["v[0:15]"]
    assert regs(f.reads, "srca") == ["v[16:17]"] and f.passes == 16
    g = facts("v_smfmac_f32_16x16x32_f16 v[0:3], v[4:5], v[6:9], v10", "gfx942")
    assert regs(g.reads, "srcc") == ["v[0:3]"] and regs(g.reads, "idx") == ["v10"]


def test_implicit_operands():
    assert "exec" in regs(facts("v_cmpx_eq_u32 vcc, v0, v1").writes)
    assert "vcc" in regs(facts("v_div_fmas_f32 v3, v4, v5, v6").reads)
    assert "m0" in regs(facts("buffer_load_dword v1, s[4:7], 0 offen lds").reads)
    assert "exec" in regs(facts("global_load_dword v1, v[2:3], off").reads)
    assert regs(facts("v_fmac_f32 v0, v1, v2").reads, "src2") == ["v0"]


def test_memory_ops_and_waitcnt():
    f = facts("global_atomic_add v1, v[2:3], v0, off glc")
    assert f.mem.kind == "atomic" and regs(f.writes) == ["v1"]
    assert facts("global_atomic_add v[2:3], v0, off").writes == ()
    assert facts("ds_write_b32 v1, v2").mem.writes_lds
    assert facts("s_load_dword s8, s[0:1], 0x0").mem.kind == "smem"
    assert facts("s_waitcnt vmcnt(1) lgkmcnt(0)").waitcnt == {"vm": 1, "lgkm": 0}
    assert facts("s_waitcnt 0").waitcnt == {"vm": 0, "exp": 0, "lgkm": 0}
    assert facts("s_nop 7").wait_states == 8


def test_unknown_mnemonics_still_classify_by_pattern():
    f = facts("v_future_op_b32 v1, v2, v3")
    assert "valu" in f.classes and regs(f.writes) == ["v1"] and regs(f.reads, None)[:2] == ["exec", "v2"]


@pytest.mark.parametrize("imm,wait_states", [(0, 1), (7, 8), (15, 16), (16, 1), (17, 2), (0x1F, 16)])
def test_s_nop_counts_only_the_low_four_bits_as_hardware_does(imm, wait_states):
    # ISA guides: S_NOP repeats SIMM16[3:0] + 1 times, so `s_nop 16` gives one wait state and an
    # MFMA guarded by two of them is still a hazard
    assert facts(f"s_nop {imm}").wait_states == wait_states


def test_a_hazard_guarded_by_s_nop_16_is_still_reported():
    from gcnemu.analysis.lint import lint
    prog = parse("v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]\ns_nop 16\ns_nop 16\n"
                 "v_accvgpr_read_b32 v4, a0\ns_endpgm\n", "n.s")
    (d,) = [d for d in lint(prog, "gfx90a") if d.severity == "warning"]
    assert d.span.line == 4 and d.extra["provided_wait_states"] == 2


def _fields(f):
    return (f.index, f.mnemonic, f.base, f.classes, f.reads, f.writes, f.wait_states, f.mfma, f.passes, f.hwreg,
            f.mem, f.waitcnt, f.control, f.target_label, f.span)


def _corpus():
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    files = sorted((root / "programs").rglob("*.s")) + sorted((root / "tests" / "corpus").rglob("*.s"))[:40]
    return [f for f in files if f.stat().st_size < 400_000]


def test_shared_classification_equals_classifying_each_instruction_alone():
    """classify_all reuses work between instructions that differ only in their registers (and
    between identical ones): the facts must be exactly those of classifying each one alone,
    on the bundled programs, the corpus and a block that names every register class and
    the SGPRs with a role of their own (vcc, m0, exec, flat_scratch...)."""
    import random

    from gcnemu.analysis.classify import classify
    from gcnemu.asm.parse import parse_file
    rnd = random.Random(3)
    forms = ["v_add_u32 v{a}, v{b}, v{c}", "v_fma_f32 v{a}, v{b}, 1.0, s{s}", "s_add_u32 s{s}, s{t}, 7",
             "v_mov_b32 v{a}, s{s}", "v_cmp_eq_u32 s[{s}:{s1}], v{b}, v{c}", "s_mov_b32 s{s}, s{t}",
             "v_accvgpr_write_b32 a{a}, v{b}", "v_add_co_u32 v{a}, s[{s}:{s1}], v{b}, v{c}",
             "v_readlane_b32 s{s}, v{b}, s{t}", "s_mov_b64 s[{s}:{s1}], s[{t}:{t1}]",
             "v_mfma_f32_4x4x1f32 a[{a}:{a3}], v{b}, v{c}, a[{a}:{a3}]", "v_mac_f32 v{a}, v{b}, v{c}",
             "ds_read_b32 v{a}, v{b}", "global_load_dword v{a}, v[{b}:{b1}], off"]
    text = ""
    for _ in range(3000):
        s = rnd.choice([rnd.randint(0, 40) * 2, rnd.choice([100, 102, 104, 106, 124, 126])])
        t = rnd.randint(0, 50) * 2
        a, b = rnd.randint(0, 60) * 4, rnd.randint(0, 60) * 2
        text += "  " + rnd.choice(forms).format(a=a, a3=a + 3, b=b, b1=b + 1, c=rnd.randint(0, 250), s=s, s1=s + 1,
                                                t=t, t1=t + 1) + "\n"
    programs = [parse(text, "mix.s")] + [parse_file(str(p)) for p in _corpus()]
    assert len(programs) > 20
    for prog in programs:
        for target in ("gfx90a", "gfx942"):
            ins = prog.instructions
            shared = classify_all(ins, target, prog.symbols)
            alone = [classify(x, target, prog.symbols) for x in ins]
            for i, (f, g) in enumerate(zip(shared, alone)):
                assert _fields(f) == (i, *_fields(g)[1:]), (prog.file, ins[i].text())
