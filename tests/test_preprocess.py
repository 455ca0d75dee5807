"""The preprocessor and symbol layer behave as llvm-mc 22's MC layer does on production asm:
ordered symbol assignment folded wherever an expression is read (register indices included),
`.include` with -I, the conditional family, llc's expression functions, and llvm-mc's errors.

Each case states gcnemu's verdict; when llvm-mc 22 is installed, the same text is assembled by
llvm-mc and the error lines must agree (the oracle, not our memory of it)."""
from __future__ import annotations

import os
import subprocess
import textwrap
from pathlib import Path

import pytest

from gcnemu.asm.parse import parse
from gcnemu.asm.program import Reg
from gcnemu.asm.validate import validate
from gcnemu.cli import main

LLVM_MC = "/usr/lib/llvm-22/bin/llvm-mc"
HAVE_MC = os.path.exists(LLVM_MC)


def _src(text: str) -> str:
    return textwrap.dedent(text).strip("\n") + "\n"


def gcnemu_error_lines(path: Path, target: str = "gfx90a", include=()) -> dict[tuple[str, int], str]:
    prog = parse(path.read_bytes(), str(path), include_dirs=[str(d) for d in include])
    diags = list(prog.diagnostics)
    if not any(d.severity == "error" for d in diags):
        diags += validate(prog, target)
    return {(Path(d.span.file).name, d.span.line): d.message for d in diags if d.severity == "error"}


def llvm_error_lines(path: Path, target: str = "gfx90a", include=()) -> dict[tuple[str, int], str]:
    args = [LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-filetype=obj", "-o", os.devnull]
    args += [f"-I{d}" for d in include] + [str(path)]
    proc = subprocess.run(args, capture_output=True, text=True, cwd=path.parent)
    out = {}
    for line in proc.stderr.splitlines():
        parts = line.split(":", 4)
        if len(parts) == 5 and parts[3].strip() == "error" and parts[1].isdigit():
            out.setdefault((Path(parts[0]).name, int(parts[1])), parts[4].strip())
    return out


def agree(tmp_path: Path, text: str, target: str = "gfx90a", files: dict[str, str] | None = None,
          include=()) -> dict:
    """Write the case (and its include files), return gcnemu's error lines; with llvm-mc 22 at hand,
    assert that it reports errors on exactly the same lines."""
    for name, body in (files or {}).items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(_src(body))
    main_file = tmp_path / "k.s"
    main_file.write_text(_src(text))
    inc = [tmp_path / d for d in include]
    ours = gcnemu_error_lines(main_file, target, inc)
    if HAVE_MC:
        theirs = llvm_error_lines(main_file, target, inc)
        assert set(ours) == set(theirs), f"gcnemu {ours}\nllvm-mc {theirs}"
    return ours


def regs(text: str) -> list[Reg]:
    prog = parse(_src(text), "k.s")
    assert not [d for d in prog.diagnostics if d.severity == "error"], prog.diagnostics
    return [op for ins in prog.instructions for op in ins.operands if isinstance(op, Reg)]


# ------------------------------------------------------------------ symbols as register indices


def test_set_symbols_index_every_register_file(tmp_path):
    text = """
        .set s_p, 4
        .set v_c, 8
        .set a_acc, 12
        s_load_dwordx2 s[s_p:s_p+1], s[0:1], 0
        v_mov_b32 v[s_p+1], 0
        v_mov_b32 v[v_c+4], v[v_c]
        v_accvgpr_write_b32 a[a_acc+1], v[v_c+7]
        v_accvgpr_read_b32 v[v_c], acc[a_acc]
        s_endpgm
    """
    assert agree(tmp_path, text) == {}
    got = [(r.file, r.index, r.count) for r in regs(text)]
    assert got == [("s", 4, 2), ("s", 0, 2), ("v", 5, 1), ("v", 12, 1), ("v", 8, 1), ("a", 13, 1), ("v", 15, 1),
                   ("v", 8, 1), ("a", 12, 1)]


def test_a_symbol_reassigned_in_a_rept_body_takes_each_value_in_turn(tmp_path):
    text = """
        _v = 0
        .rept 3
          v_mov_b32 v[_v], _v
          _v = _v + 1
        .endr
        v_mov_b32 v[_v], 0
        s_endpgm
    """
    assert agree(tmp_path, text) == {}
    prog = parse(_src(text), "k.s")
    movs = prog.instructions[:4]
    assert [m.operands[0].index for m in movs] == [0, 1, 2, 3]
    assert [m.operands[1].value for m in movs[:3]] == [0, 1, 2]


def test_macro_counters_assign_registers_per_instantiation():
    text = """
        .set vgpr_next, 10
        .macro alloc name, n
          .set \\name, vgpr_next
          .set vgpr_next, vgpr_next + \\n
        .endm
        alloc v_a, 4
        alloc v_b, 2
        v_mov_b32 v[v_b+1], v[v_a+3]
        s_endpgm
    """
    assert [(r.index, r.count) for r in regs(text)] == [(15, 1), (13, 1)]


def test_reassignment_uses_the_old_value(tmp_path, capsys):
    """issue 18 #13: `.set x, 1` then `.set x, x*2` is 2 (llvm-mc), not "circular"."""
    text = """
        .set x, 1
        .set x, x*2
        s_mov_b32 s0, x
        s_endpgm
    """
    assert agree(tmp_path, text) == {}
    path = tmp_path / "k.s"
    assert main(["run", str(path), "--arch", "gfx90a", "--print", "s0"]) == 0
    out = capsys.readouterr().out
    assert "s0 (u32): 2" in out, out


def test_an_undefined_symbol_in_a_register_index_is_llvm_mcs_error(tmp_path):
    errors = agree(tmp_path, "v_mov_b32 v[q], 0\ns_endpgm\n")
    assert errors == {("k.s", 1): "expected absolute expression"}


def test_a_register_index_out_of_range_after_folding(tmp_path):
    errors = agree(tmp_path, ".set w, 1\nv_mov_b32 v[w+300], 0\ns_endpgm\n")
    assert list(errors) == [("k.s", 2)] and "out of range" in errors[("k.s", 2)]


# ------------------------------------------------------------------ expressions


def test_llc_resource_functions_and_integer_suffixes(tmp_path):
    text = """
        .set g.private_seg_size, 8
        .set total, 16+max(g.private_seg_size)
        .set m, max(3, 7, 5)
        .set o, or(1, 2, 4)
        .set n, alignto(13, 4) + totalnumvgprs(4, 6)
        s_mov_b32 s0, total
        s_mov_b32 s1, 0x20000001L
        s_mov_b32 s2, m + o + n
        s_endpgm
    """
    assert agree(tmp_path, text) == {}
    ins = parse(_src(text), "k.s").instructions
    assert [i.operands[1].value for i in ins[:3]] == [24, 0x20000001, 7 + 7 + 16 + 12]


def test_symbol_arithmetic_inside_modifiers(tmp_path):
    text = """
        .set k, 8
        global_load_dword v2, v[0:1], off offset:k+4
        ds_read_b32 v3, v1 offset:k*2
        s_endpgm
    """
    assert agree(tmp_path, text) == {}
    ins = parse(_src(text), "k.s").instructions
    assert ins[0].modifier("offset") == 12 and ins[1].modifier("offset") == 16


def test_comparisons_are_all_ones_when_true():
    ins = parse(".set c, (1<2)\ns_mov_b32 s0, c\ns_mov_b32 s1, 1+2^3\n", "k.s").instructions
    assert [i.operands[1].value for i in ins] == [-1, 2]


# ------------------------------------------------------------------ conditionals and repeats


def test_the_whole_conditional_family(tmp_path):
    text = """
        .set a, 3
        .macro pick kind, arg=
          .ifc \\kind, wide
            v_mov_b32 v10, 1
          .elseif a - 3
            v_mov_b32 v10, 2
          .else
            v_mov_b32 v10, 3
          .endif
          .ifnc \\kind, wide
            v_mov_b32 v11, 4
          .endif
          .ifb \\arg
            v_mov_b32 v12, 5
          .endif
          .ifnb \\arg
            v_mov_b32 v12, \\arg
          .endif
        .endm
        pick wide
        pick narrow, 9
        .ifdef a
          v_mov_b32 v13, 6
        .endif
        .ifndef nope
          v_mov_b32 v14, 7
        .endif
        .ifeq a - 3
          v_mov_b32 v15, 8
        .endif
        .ifgt a
          v_mov_b32 v16, 9
        .endif
        .iflt a
          v_mov_b32 v17, 10
        .endif
        .ifge a - 3
          v_mov_b32 v18, 11
        .endif
        .ifle a - 4
          v_mov_b32 v19, 12
        .endif
        .ifne a
          v_mov_b32 v20, 13
        .endif
        s_endpgm
    """
    assert agree(tmp_path, text) == {}
    got = [(i.operands[0].index, i.operands[1].value) for i in parse(_src(text), "k.s").instructions[:-1]]
    assert got == [(10, 1), (12, 5), (10, 3), (11, 4), (12, 9), (13, 6), (14, 7), (15, 8), (16, 9), (18, 11),
                   (19, 12), (20, 13)]


def test_irp_irpc_counter_req_vararg_purgem_exitm(tmp_path):
    text = """
        .irp r, 1, 2
          v_mov_b32 v\\r, \\r
        .endr
        .irpc d, 34
          v_mov_b32 v\\d, 0
        .endr
        .macro m first:req, rest:vararg
          v_mov_b32 \\first, \\@
          .exitm
          v_mov_b32 v99, 0
        .endm
        m v5, v6, v7
        .purgem m
        s_endpgm
    """
    assert agree(tmp_path, text) == {}
    ins = parse(_src(text), "k.s").instructions
    assert [i.operands[0].index for i in ins[:-1]] == [1, 2, 3, 4, 5]


# ------------------------------------------------------------------ includes


def test_include_resolves_next_to_the_including_file_then_on_the_I_path(tmp_path):
    files = {"lib/regs.inc": ".set v_a, 10\n.include \"macros.inc\"\n",
             "lib/macros.inc": ".macro zero reg\n  v_mov_b32 \\reg, 0\n.endm\n"}
    text = """
        .include "regs.inc"
        zero v[v_a+1]
        s_endpgm
    """
    assert agree(tmp_path, text, files=files, include=["lib"]) == {}
    prog = parse((tmp_path / "k.s").read_bytes(), str(tmp_path / "k.s"), include_dirs=[str(tmp_path / "lib")])
    assert prog.instructions[0].operands[0].index == 11
    assert set(Path(f).name for f in prog.sources) == {"regs.inc", "macros.inc"}


def test_a_missing_include_is_an_error_at_the_file_name(tmp_path, capsys):
    errors = agree(tmp_path, '.include "missing.inc"\ns_endpgm\n')
    assert errors == {("k.s", 1): "Could not find include file 'missing.inc'"}
    assert main(["check", "--arch", "gfx90a", str(tmp_path / "k.s")]) == 1
    err = capsys.readouterr().err
    assert "k.s:1:10: error: Could not find include file 'missing.inc'" in err and "^~~" in err


def test_an_error_inside_an_included_file_names_that_file_and_the_include(tmp_path, capsys):
    files = {"bad.inc": "s_nop 0\nv_bogus v0\n"}
    errors = agree(tmp_path, '.include "bad.inc"\ns_endpgm\n', files=files)
    assert list(errors) == [("bad.inc", 2)]
    assert main(["check", "--arch", "gfx90a", str(tmp_path / "k.s")]) == 1
    err = capsys.readouterr().err
    assert "bad.inc:2:1: error: invalid instruction" in err
    assert "k.s:1:10: note: included from" in err and '.include "bad.inc"' in err


def test_the_I_option_works_on_every_command(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "n.inc").write_text(".set N, 3\n")
    k = tmp_path / "k.s"
    k.write_text('.include "n.inc"\nv_mov_b32 v[N], 1\ns_endpgm\n')
    assert main(["check", "--arch", "gfx90a", str(k)]) == 1
    for cmd in (["check"], ["lint"], ["run", "--print", "v3"]):
        assert main(cmd + ["--arch", "gfx90a", "-I", str(tmp_path / "inc"), str(k)]) == 0, cmd


def test_an_include_cycle_is_one_clear_error(tmp_path):
    (tmp_path / "a.inc").write_text('.include "b.inc"\n')
    (tmp_path / "b.inc").write_text('.include "a.inc"\n')
    (tmp_path / "k.s").write_text('.include "a.inc"\ns_endpgm\n')
    prog = parse((tmp_path / "k.s").read_bytes(), str(tmp_path / "k.s"))
    errors = [d for d in prog.diagnostics if d.severity == "error"]
    assert len(errors) == 1 and "include cycle" in errors[0].message
    assert Path(errors[0].span.file).name == "b.inc" and errors[0].span.line == 1


# ------------------------------------------------------------------ directives llvm-mc rejects


@pytest.mark.parametrize("text, line, message", [
    (".foo 1\n", 1, "unknown directive"),
    (".hsa_code_object_version 2,1\n", 1, "unknown directive"),
    ('.error "boom here"\n', 1, "boom here"),
    (".err\n", 1, ".err encountered"),
    (".equiv e, 1\n.equiv e, 2\n", 2, "redefinition of 'e'"),
    ("lbl:\n.set lbl, 3\n", 2, "redefinition of 'lbl'"),
    (".set z, z+1\n", 1, "cyclic dependency detected for symbol 'z'"),
    (".ifc a,b\n.error \"not taken\"\n.else\n.error \"taken\"\n.endif\n", 4, "taken"),
])
def test_errors_llvm_mc_reports(tmp_path, text, line, message):
    errors = agree(tmp_path, text + "s_endpgm\n")
    assert errors == {("k.s", line): message}


def test_warning_directive_warns_and_assembles(tmp_path):
    prog = parse('.warning "careful"\ns_endpgm\n', "k.s")
    assert [(d.severity, d.message) for d in prog.diagnostics] == [("warning", "careful")]
    assert agree(tmp_path, '.warning "careful"\ns_endpgm\n') == {}


def test_runaway_recursion_is_one_error_not_a_crash():
    prog = parse(".macro r\nr\n.endm\nr\ns_endpgm\n", "k.s")
    errors = [d for d in prog.diagnostics if d.severity == "error"]
    assert errors and "nested more than 20 levels" in errors[0].message


def test_print_takes_register_indices_written_with_the_files_symbols(tmp_path, capsys):
    k = tmp_path / "k.s"
    k.write_text(".set v_c, 4\n  v_mov_b32 v[v_c], 7\n  v_mov_b32 v[v_c+1], 8\n  s_endpgm\n")
    assert main(["run", str(k), "--print", "v[v_c:v_c+1]"]) == 0
    out = capsys.readouterr().out
    assert "v4 (u32):" in out and "v5 (u32):" in out and "0.. 7: 8 8 8 8 8 8 8 8" in out
    assert main(["run", str(k), "--print", "v[nope]"]) == 1
    assert "'nope' has no constant value" in capsys.readouterr().err


# ------------------------------------------------------------------ resource bounds (issue 18 #11)


def test_a_runaway_rept_is_refused_before_it_expands():
    """`.rept 999999` in a 4-line file took 43 s and 0.9 GB; the limit refuses it at once."""
    prog = parse(".rept 999999\n  s_nop 0\n.endr\ns_endpgm\n", "k.s")
    (err,) = [d for d in prog.diagnostics if d.severity == "error"]
    assert (err.span.line, err.rule) == (1, "macro-limit") and "500000 lines" in err.message
    assert len(prog.instructions) == 1


def test_an_expression_of_a_million_operators_is_refused_not_parsed():
    prog = parse("v_mov_b32 v0, " + "1+" * 60_000 + "1\ns_endpgm\n", "k.s")
    (err,) = [d for d in prog.diagnostics if d.severity == "error"]
    assert err.rule == "input-limit" and err.span.line == 1 and "operators" in err.message


# ------------------------------------------------------------------ what generated kernels lean on (MIOpen asm)


@pytest.mark.parametrize("target, major, minor, stepping", [("gfx908", 9, 0, 8), ("gfx90a", 9, 0, 10),
                                                             ("gfx942", 9, 4, 2), ("gfx950", 9, 5, 0)])
def test_llvm_mcs_predefined_target_symbols(tmp_path, target, major, minor, stepping):
    text = f"""
        .amdgcn_target "amdgcn-amd-amdhsa--{target}"
        .if .amdgcn.gfx_generation_number != {major} || .amdgcn.gfx_generation_minor != {minor}
          .error "wrong generation"
        .endif
        s_mov_b32 s0, .amdgcn.gfx_generation_stepping
        s_endpgm
    """
    assert agree(tmp_path, text, target) == {}
    assert parse(_src(text), "k.s").instructions[0].operands[1].value == stepping


def test_defsym_defines_a_symbol_before_the_file(tmp_path, capsys):
    k = tmp_path / "k.s"
    k.write_text('.ifnotdef ROCM_METADATA_VERSION\n.error "Undefined ROCM_METADATA_VERSION"\n.end\n.endif\n'
                 "s_mov_b32 s0, ROCM_METADATA_VERSION\ns_endpgm\n")
    assert main(["check", str(k)]) == 1
    assert "Undefined ROCM_METADATA_VERSION" in capsys.readouterr().err
    assert main(["check", "--defsym", "ROCM_METADATA_VERSION=5", str(k)]) == 0
    assert main(["check", "--defsym", "nonsense", str(k)]) == 2


def test_end_stops_the_file_it_is_in(tmp_path):
    files = {"stop.inc": ".if 1\n.error \"stopped\"\n.end\n.endif\nv_bogus_after_end v0\n"}
    errors = agree(tmp_path, '.include "stop.inc"\ns_endpgm\n', files=files)
    assert errors[("stop.inc", 2)] == "stopped" and ("stop.inc", 5) not in errors
    assert errors[("stop.inc", 6)] == "unmatched .ifs or .elses"  # llvm-mc checks at the file's end


def test_altmacro_arguments_percent_and_angle_brackets(tmp_path):
    text = """
        .altmacro
        .set gen, 9
        .macro pick n, name
          v_mov_b32 v\\n, \\n
          .set \\name\\()_seen, 1
        .endm
        pick %gen+1, <first>
        s_mov_b32 s0, first_seen
        s_endpgm
    """
    assert agree(tmp_path, text) == {}
    ins = parse(_src(text), "k.s").instructions
    assert ins[0].operands[0].index == 10 and ins[1].operands[1].value == 1


def test_a_symbol_whose_name_starts_with_a_dot_is_assigned(tmp_path):
    text = """
        vgpr_size = 128
        .amdgcn.next_free_vgpr = vgpr_size
        s_mov_b32 s0, .amdgcn.next_free_vgpr
        s_endpgm
    """
    assert agree(tmp_path, text) == {}
    assert parse(_src(text), "k.s").instructions[0].operands[1].value == 128


@pytest.mark.parametrize("target, bad", [("gfx908", set()), ("gfx90a", {1})])
def test_lds_direct_is_no_sgpr_on_the_bus_and_gone_after_gfx908(tmp_path, target, bad):
    errors = agree(tmp_path, "v_cmp_eq_u32_e64 vcc, src_lds_direct, s91\ns_endpgm\n", target)
    assert {line for _, line in errors} == bad
