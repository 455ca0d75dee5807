"""gcnemu's `check` accepts and rejects LLVM's own assembler-test lines as llvm-mc 22 does.

The lines are LLVM's `llvm/test/MC/AMDGPU/*.s` files for the CDNA targets (see
`tests/corpus/llvm_mc/README.md` for the source, commit and licence): instructions LLVM's
authors wrote to pin down what each of gfx908, gfx90a, gfx942 and gfx950 accepts, including
the lines that must fail on the other targets. Every line is assembled on all four targets,
so a gfx950-only instruction is also a gfx908 line llvm-mc must refuse.

The oracle and the comparison are those of `tests/test_differential_llvm.py` (one llvm-mc
process per target, a line is rejected when llvm-mc reports an error on it). The whole sweep
is marked `slow`; a fixed sample of it runs in every quick run.

`EXCEPTIONS` lists (line, target) pairs where llvm-mc 22 itself is wrong, each with its reason
(one so far: it accepts a 64-bit VGPR as a 32-bit DPP source on gfx90a+ and prints it back as an
"Invalid register"). `PARSER_PENDING` lists the lines gcnemu still gets wrong because of its parser,
each kept as a strict xfail with the fix it needs. Every other line must agree.

Run `python tests/test_llvm_mc_lines.py [target...]` for the agreement per target and every
disagreement; `pytest -m slow tests/test_llvm_mc_lines.py` for the whole sweep.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import test_differential_llvm as diff  # noqa: E402  (the llvm-mc oracle and the line comparison)

CORPUS = Path(__file__).resolve().parent / "corpus" / "llvm_mc"
TARGETS = diff.TARGETS

# (line text, target) -> why llvm-mc 22's verdict is the wrong one. Only llvm-mc bugs belong here.
_F16_WIDE = ("llvm-mc 22 accepts a 64-bit register as a 32-bit VOP2 DPP source on gfx90a+ and encodes only its "
             "first half: with -show-encoding it prints `v[2:3]/*Invalid register, operand has 'VGPR_32' "
             "register class*/`, so its own printer calls the operand invalid; gcnemu refuses it, as llvm-mc "
             "does on gfx908 and as LLVM's test vop_dpp.s expects (NOGFX9: invalid operand for instruction)")
EXCEPTIONS: dict[tuple[str, str], str] = {
    **{(text, t): _F16_WIDE for t in ("gfx90a", "gfx942", "gfx950")
       for text in ("v_add_f16 v1, v[2:3], v3 row_shl:1 row_mask:0xa bank_mask:0x1 bound_ctrl:0",
                    "v_add_f16 v1, v3, v[2:3] row_shl:1 row_mask:0xa bank_mask:0x1 bound_ctrl:0")},
}

# Lines gcnemu still gets wrong because of its parser (gcnemu/asm/), each with the fix it needs.
# They are left out of the sweeps and kept failing, strictly, in test_lines_waiting_for_the_parser,
# so that whoever fixes the parser sees them pass. Empty now: every corpus line is an ordinary line.
PARSER_PENDING: dict[tuple[str, str], str] = {}


def corpus_lines() -> list[tuple[str, str]]:
    """(file name, line) for every instruction line of the kept files, in file order."""
    out = []
    for f in sorted(CORPUS.glob("*.txt")):
        for line in f.read_text().splitlines():
            text = line.strip()
            if text and not text.startswith("//"):
                out.append((f.name, text))
    return out


def sample(lines: list[tuple[str, str]], every: int = 7) -> list[tuple[str, str]]:
    """A fixed, spread-out share of the lines (every `every`-th of each file) for the quick run."""
    out, seen = [], {}
    for name, text in lines:
        k = seen.get(name, 0)
        seen[name] = k + 1
        if k % every == 0:
            out.append((name, text))
    return out


def disagreements(lines: list[tuple[str, str]], target: str) -> list[str]:
    n, bad = diff.compare([text for _, text in lines], target)
    first = len(diff.gen_lines.PRELUDE) + 1
    out = []
    for ln, text, theirs, ours in bad:
        if (text, target) in EXCEPTIONS or (text, target) in PARSER_PENDING:
            continue
        name = lines[ln - first][0]
        out.append(f"  {name}: {text!r}\n      llvm-mc: {theirs}\n      gcnemu:  {ours}")
    return out


def _report(target: str, n: int, bad: list[str]) -> str:
    return f"{len(bad)} of {n} LLVM MC-test lines disagree with llvm-mc 22 on {target}:\n" + "\n".join(bad[:30])


def test_the_kept_files_cover_every_cdna_target_and_both_verdicts():
    lines = corpus_lines()
    assert len(lines) > 200
    names = {name for name, _ in lines}
    for must in ("gfx90a_asm_features.txt", "gfx940_asm_features.txt", "gfx950_asm_features.txt"):
        assert must in names
    assert all(text for text in EXCEPTIONS.values()), "every exception says why llvm-mc is wrong"


@diff.needs_llvm
@pytest.mark.parametrize("target", TARGETS)
def test_a_sample_of_the_lines_checks_as_llvm_mc_assembles_it(target):
    lines = sample(corpus_lines())
    bad = disagreements(lines, target)
    assert not bad, _report(target, len(lines), bad)


@pytest.mark.slow
@diff.needs_llvm
@pytest.mark.parametrize("target", TARGETS)
def test_every_line_checks_as_llvm_mc_assembles_it(target):
    lines = corpus_lines()
    bad = disagreements(lines, target)
    print(f"\n{target}: {len(lines) - len(bad)}/{len(lines)} LLVM MC-test lines agree with llvm-mc 22")
    assert not bad, _report(target, len(lines), bad)


@diff.needs_llvm
@pytest.mark.parametrize("text,target", [pytest.param(text, t, id=f"{t}:{text}", marks=pytest.mark.xfail(
    strict=True, reason=why)) for (text, t), why in PARSER_PENDING.items()])
def test_lines_waiting_for_the_parser(text, target):
    n, bad = diff.compare([text], target)
    assert not bad, bad


@diff.needs_llvm
@pytest.mark.parametrize("target", TARGETS)
def test_negated_cache_policy_names_check_as_llvm_mc(target):
    """`nosc0`, `noglc`...: a cache-policy bit written as cleared is a modifier on every parsing
    path, and every verdict and message agrees with llvm-mc (valid names, names of the other
    generation, duplicates)."""
    from gcnemu.asm import parse as parse_mod
    lines = ["global_load_dword v2, v[2:3], off noglc", "global_load_dword v2, v[2:3], off noslc",
             "global_load_dword v2, v[2:3], off glc noglc", "global_load_dword v2, v[2:3], off nosc0",
             "global_load_dword v2, v[2:3], off nont sc1", "buffer_load_dword v5, off, s[8:11], s3 nosc1",
             "buffer_wbl2 nosc1", "s_load_dword s2, s[2:3], 0x0 noglc", "global_load_dword v2, v[2:3], off glc glc"]
    text = "\n".join(lines) + "\n"
    theirs = diff.llvm_errors(text, target)
    for fast in (True, False):  # the fast paths and the grammar
        prog = parse_mod.parse(text, "<stdin>", fast=fast)
        ours = {d.span.line: f"{d.span.column}: {d.message}" for d in diff.validate(prog, target)
                if d.severity == "error" and d.span is not None}
        assert ours == theirs


@pytest.mark.parametrize("target", TARGETS)
def test_inst_offset_reaches_run_as_the_offset_llvm_mc_encodes(target):
    """llvm-mc 22 encodes `inst_offset:N` on FLAT/GLOBAL/SCRATCH as `offset:N`: run must add it
    to the address too, so the Kernel run executes carries it as the offset."""
    from gcnemu.asm.resolve import resolve
    text = "flat_load_dword v1, v[2:3] inst_offset:4\nglobal_load_dword v1, v[2:3], off inst_offset:-8\n"
    for fast in (True, False):
        kernel = resolve(diff.parse(text, "<stdin>", fast=fast), target)
        assert [i.modifier("offset") for i in kernel.instructions] == [4, -8]
        assert not any(m.name == "inst_offset" for i in kernel.instructions for m in i.modifiers)


FORMAT_NAMES = ["BUF_DATA_FORMAT_8,BUF_NUM_FORMAT_UNORM", "BUF_NUM_FORMAT_SNORM, BUF_DATA_FORMAT_16",
                " BUF_DATA_FORMAT_8_8 ", "BUF_NUM_FORMAT_USCALED", "BUF_DATA_FORMAT_32", "BUF_DATA_FORMAT_RESERVED_15",
                "BUF_DATA_FORMAT_INVALID,BUF_NUM_FORMAT_RESERVED_6", "BUF_NUM_FORMAT_FLOAT,BUF_DATA_FORMAT_32_32_32_32"]


def _encodings(text: str, target: str) -> list[str]:
    import subprocess
    out = subprocess.run([diff.LLVM_MC, "-arch=amdgcn", f"-mcpu={target}", "-show-encoding"], input=text,
                         capture_output=True, text=True, check=True).stdout
    return [line.split("encoding:")[1].strip() for line in out.splitlines() if "encoding:" in line]


@diff.needs_llvm
@pytest.mark.parametrize("target", TARGETS)
def test_symbolic_formats_encode_as_the_number_gcnemu_keeps(target):
    """`format:[BUF_DATA_FORMAT_x, BUF_NUM_FORMAT_y]` becomes the `format:N` modifier whose
    number llvm-mc encodes for those names: the instruction gcnemu keeps is the one written."""
    symbolic = [f"tbuffer_store_format_x v1, off, s[4:7], s0 format:[{names}]" for names in FORMAT_NAMES]
    numbers = []
    for fast in (True, False):
        prog = diff.parse("\n".join(symbolic) + "\n", "<stdin>", fast=fast)
        assert not prog.diagnostics
        numbers.append([i.modifier("format") for i in prog.instructions])
    assert numbers[0] == numbers[1]
    numeric = [f"tbuffer_store_format_x v1, off, s[4:7], s0 format:{n}" for n in numbers[0]]
    assert len(set(numbers[0])) == len(FORMAT_NAMES)
    assert _encodings("\n".join(numeric) + "\n", target) == _encodings("\n".join(symbolic) + "\n", target)


# Lines whose exact message and column this change set out to match (the message diffs and
# the rules added for the MC-test disagreements): compared on every target, message for message.
MESSAGE_LINES = [
    "global_load_dword v[2:3], off",  # gfx94x: "invalid operand" at `off`; gfx90a: "too few operands"
    "global_load_dword v[2:3], off sc0", "global_load_dword v[2:3], v[4:5], off", "global_load_dword v[2:3]",
    "global_load_dword v2, off", "global_load_dword v2, s[4:5]", "global_load_dword a[2:3], off",
    "global_load_dwordx2 v[2:3], off", "global_load_dword v[2:3], off offset:4",
    "v_mov_b64_sdwa v[2:3], v[4:5]", "v_pk_fma_f32_dpp v[0:1], v[2:3], v[4:5], v[6:7] quad_perm:[0,1,2,3]",
    "v_dot2c_f32_bf16_sdwa v0, v1, v2", "v_mac_f32_sdwa v5, v1, v2 dst_sel:DWORD", "v_add_nc_u32_sdwa v0, v1, v2",
    "v_permlane16_swap_b32 v1, v2 fi:1 bound_ctrl:1", "v_permlane16_swap_b32_e32 v1, v2 fi:1",
    "v_permlane32_swap_b32 v1, v2 bound_ctrl:2", "v_permlane16_swap_b32 v1, v2 row_mask:0xf",
    "v_dot4c_i32_i8 v0, v1, v2, v3", "v_dot2c_f32_f16 v0, v1, v2 mul:2", "v_cvt_sr_fp8_f32 v1, v2, -v3",
    "v_cvt_scalef32_pk_fp8_f16 v1, v2, v3 clamp", "v_cvt_scalef32_pk32_f32_fp6 v[2:33], v[2:7], v6 op_sel:[0,0,0]",
    "v_add_f32 v5, v1, lds_direct", "v_add_f32_e64 v5, -lds_direct, v1", "v_subrev_u32 v0, lds_direct, v1",
    "s_mov_b32 s0, lds_direct", "ds_gws_init a1 offset:65535 gds", "ds_gws_barrier v2 offset:4 gds glc",
    "ds_gws_init v2 gds offset:4", "ds_gws_init v1", "ds_read_b96_tr_b6 v[1:3], v0",
    "s_sendmsg sendmsg(MSG_SYSMSG, SYSMSG_OP_HOST_TRAP_ACK)", "s_sendmsg sendmsg(MSG_SYSMSG)",
    "s_sendmsg sendmsg(MSG_INTERRUPT, 1)", "s_sendmsg sendmsg(MSG_GS, GS_OP_NOP)",
    "s_sendmsg sendmsg(MSG_GS, GS_OP_CUT, 4)", "s_sendmsg sendmsg(MSG_SYSMSG, SYSMSG_OP_REG_RD, 1)",
    "buffer_load_dword v[1:2], off, s[4:7], s1 tfe", "buffer_store_dword v[1:2], off, s[4:7], s1 tfe",
    "buffer_load_format_xy v[2:3], off, s[4:7], s1 glc", "buffer_atomic_add_f32 v0, off, s[4:7], 0 glc",
    "global_load_dword v2, v[2:3], off glc glc", "flat_load_dword v1, v[3:4] inst_offset:4",
    "v_mov_b32 v0, v0 row_mirror", "v_cmp_eq_u32 vcc, v0, v1 row_mirror", "v_mov_b32 v0, s1 row_shl:1",
    "v_add_f32 v0, v1, s45 row_shl:1", "v_add_u32 v1, vcc, v2, v3 row_shl:1",
    "v_mac_f32 v3, v4, v5 dst_sel:DWORD", "v_cmp_eq_f32_sdwa vcc, exec_lo, vcc_lo src0_sel:WORD_1",
    "v_add_f32 v0, v1, vcc dst_sel:DWORD",
    "v_interp_mov_f32 v5, v2, attr0.x", "v_interp_p1_f32 v5, v2, attr63.w", "v_interp_p1_f32 v5, v2, attr0.q",
    "v_interp_p1_f32 v5, v2, v3", "v_interp_p1_f32 v5, sext(v2), attr0.x", "v_interp_p1lv_f16 v5, v2, attr0.x",
    "v_interp_p1_f32_e64 v5, -v2, attr0.x clamp mul:2", "v_cvt_f64_i32 v[5:6], s1 mul:3",
    "exp mrt8 v3, v2, v1, v0", "exp pos4 v3, v2, v1, v0", "exp mrt-1 v3, v2, v1, v0", "exp 0 v3, v2, v1, v0",
    "exp null v4, v3, v2, v1", "exp mrt0 v0, v0, v0, v0 vm done", "exp mrt0 v0, v0, v0, v0 offset:4",
    "exp mrt0 v0, v0, v0", "exp mrt0 v0, v0, v0, v0, v0", "exp mrt0 v0, v0, v[0:1], v0", "exp mrtz, v3, v3, off, off compr",
    "image_load v5, v1, s[8:11] dmask:0x1", "image_load v[5:6], v1, s[8:15] dmask:0x1 r128",
    "image_sample v5, v1, s[8:15], s[4:5] dmask:0x1", "image_load v[5:6], v1, s[8:11] dmask:0x1",
    "image_load v[4:6], v[237:240], s[28:35] dmask:0x7 tfe", "image_store v193, v[237:240], s[28:35]",
    "image_atomic_add v4, v[1:2], s[8:15] dmask:0x1 glc", "image_store v[3:4], v[2:3], s[8:15] dmask:0x3",
]


@diff.needs_llvm
@pytest.mark.parametrize("target", TARGETS)
def test_messages_and_columns_match_llvm_mc_on_these_lines(target):
    text = "\n".join(MESSAGE_LINES) + "\n"
    theirs = diff.llvm_errors(text, target)
    prog = diff.parse(text, "<stdin>")
    ours = {d.span.line: f"{d.span.column}: {d.message}" for d in diff.validate(prog, target)
            if d.severity == "error" and d.span is not None}
    bad = [f"  {MESSAGE_LINES[n - 1]!r}\n      llvm-mc: {theirs.get(n)}\n      gcnemu:  {ours.get(n)}"
           for n in range(1, len(MESSAGE_LINES) + 1) if theirs.get(n) != ours.get(n)
           and (MESSAGE_LINES[n - 1], target) not in PARSER_PENDING]
    assert not bad, "\n".join(bad)


def main(argv: list[str]) -> int:
    """`python tests/test_llvm_mc_lines.py [target...]`: the agreement per target, and every disagreement."""
    lines = corpus_lines()
    total = 0
    for t in argv or TARGETS:
        bad = disagreements(lines, t)
        total += len(bad)
        pending = sum(1 for _, text in lines if (text, t) in PARSER_PENDING)
        excepted = sum(1 for _, text in lines if (text, t) in EXCEPTIONS)
        print(f"{t}: {len(lines) - len(bad) - pending - excepted}/{len(lines)} agree, {len(bad)} disagreements, "
              f"{pending} waiting for the parser (strict xfail), {excepted} llvm-mc bugs (EXCEPTIONS)")
        print("\n".join(bad))
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
