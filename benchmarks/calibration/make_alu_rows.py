"""Writes the ALU calibration loops (gfx942 pyhip rows, calculator rows) into this directory.

The .s files are the checked-in data; this script is how they were made, so a change to the
loop convention is one edit here: `python benchmarks/calibration/make_alu_rows.py`. Memory rows: make_mem_rows.py
(global memory); the LDS and scalar-cache rows are written by hand (see README.md).
"""
import sys
from pathlib import Path

OUT = sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).resolve().parent)
PYHIP_JSON = ("https://github.com/tingqli/pyhip/blob/bc013ed/docs/data/mfma-valu-intra-inter-coissue-gfx942.json "
              "(pyhip docs/data/mfma-valu-intra-inter-coissue-gfx942.json)")
PYHIP_BUNDLE = ("https://github.com/tingqli/pyhip/blob/bc013ed/docs/data/mfma-exp-alu-bundle-gfx942.json "
                "(pyhip docs/data/mfma-exp-alu-bundle-gfx942.json)")
PYHIP_MD = ("https://github.com/tingqli/pyhip/blob/bc013ed/docs/mfma-valu-coissue.md "
            "(pyhip docs/mfma-valu-coissue.md)")
CALC = ("https://github.com/ROCm/amd_matrix_instruction_calculator/blob/main/matrix_calculator.py "
        "(AMD Matrix Instruction Calculator, matrix_calculator.py)")

INIT = """\
	v_mov_b32 v40, 1.0
	v_mov_b32 v41, 0.5
	v_mov_b32 v42, 1.0
	v_mov_b32 v43, 0.5
	v_mov_b32 v44, 1.0
	v_mov_b32 v45, 0.5
	v_mov_b32 v46, 1.0
	v_mov_b32 v47, 0.5
	v_mov_b32 v48, 1.0
	v_mov_b32 v49, 0.5
	v_mov_b32 v50, 0
"""

def header(name, hw, unit, tol, part, target, count, source, method, baseline=True, extra=()):
    h = [f"// calibration: {name}",
         f"//   hardware: {hw}",
         f"//   unit: {unit}",
         f"//   tolerance: {tol}",
         f"//   part: {part}",
         f"//   target: {target}",
         f"//   count: {count}",
         f"//   method: {method}"]
    if baseline:
        h.append(f"//   baseline: {baseline if isinstance(baseline, str) else 'the same loop with an empty body (s[24:27])'}")
    h += [f"//   {e}" for e in extra]
    h.append(f"//   source: {source}")
    return "\n".join(h) + "\n"

def one_wave(fname, name, hw, body_lines, groups, iters, source, target="gfx942", part="MI300X", extra=(), method=None,
             tol="10%", kind=None, unit="cycles/iteration"):
    body = "\n".join("\t" + l for l in body_lines)
    method = method or (f"s_memtime window around {iters} iterations x {groups} groups "
                        "(4 independent register chains), empty loop subtracted")
    extra = ((f"kind: {kind}",) if kind else ()) + tuple(extra)
    text = header(name, hw, unit, tol, part, target, iters * groups, source, method, extra=extra)
    text += f"""
	.amdgcn_target "amdgcn-amd-amdhsa--{target}"
	.text
	.p2align 8
calib:
{INIT}	v_accvgpr_write_b32 a0, 0
	s_mov_b32 s2, {iters}
	s_memtime s[24:25]
.Lempty:
	s_sub_u32 s2, s2, 1
	s_cmp_lg_u32 s2, 0
	s_cbranch_scc1 .Lempty
	s_memtime s[26:27]
	s_mov_b32 s2, {iters}
	s_memtime s[20:21]
	.p2align 3
.Lbody:
	.rept {groups // 4}
{body}
	.endr
	s_sub_u32 s2, s2, 1
	s_cmp_lg_u32 s2, 0
	s_cbranch_scc1 .Lbody
	s_memtime s[22:23]
	s_waitcnt lgkmcnt(0)
	s_endpgm
"""
    open(f"{OUT}/{fname}", "w").write(text)

def chains(fmt, n=4):
    """fmt with {i}: one line per chain i=0..3."""
    return [fmt.format(i=i, d=8 + 2 * i, a=4 * i) for i in range(n)]

MF = "v_mfma_f32_16x16x16_bf16 a[{a}:{a3}], v[44:45], v[46:47], a[{a}:{a3}]"
ADD = "v_add_f32 v{d}, v40, v41"
EXP = "v_exp_f32 v{d}, v41"

def group(*parts):
    """4 groups, one per chain: each part a format line or (fmt, n) repeated."""
    out = []
    for i in range(4):
        for p in parts:
            fmt, n = p if isinstance(p, tuple) else (p, 1)
            for k in range(n):
                d = 100 + 8 * i + 2 * k
                out.append(fmt.format(i=i, d=d, d1=d + 1, a=4 * i, a3=4 * i + 3, a8=8 * i, a87=8 * i + 7))
    return out


J, B, M = PYHIP_JSON, PYHIP_BUNDLE, PYHIP_MD
ROWS = [
    ("gfx942_valu_add.s", "v_add_f32 throughput", 4.012, group(ADD), J),
    ("gfx942_valu_exp.s", "v_exp_f32 throughput (transcendental)", 16.0, group(EXP), J),
    ("gfx942_exp_add.s", "v_exp_f32 + independent v_add_f32", 20.036, group(EXP, ADD), J),
    ("gfx942_exp_exp.s", "v_exp_f32 + independent v_exp_f32", 32.036, group(EXP, EXP), J),
    ("gfx942_mfma.s", "v_mfma_f32_16x16x16_bf16 back to back", 16.026, group(MF), M),
    ("gfx942_mfma_3add.s", "MFMA(16 cyc) + 3 v_add_f32 (hidden)", 16.054, group(MF, (ADD, 3)), M),
    ("gfx942_mfma_4add.s", "MFMA(16 cyc) + 4 v_add_f32", 20.054, group(MF, (ADD, 4)), M),
    ("gfx942_mfma_exp.s", "MFMA(16 cyc) + 1 v_exp_f32", 20.052, group(MF, EXP), J),
    ("gfx942_mfma_2exp.s", "MFMA(16 cyc) + 2 v_exp_f32", 36.054, group(MF, (EXP, 2)), M),
    ("gfx942_mfma_pk_add.s", "MFMA(16 cyc) + 1 v_pk_add_f32, same wave", 28.036,
     group(MF, "v_pk_add_f32 v[{d}:{d}], v[40:41], v[42:43]".replace("{d}:{d}", "{d}:{d1}")), J),
    ("gfx942_mfma_pk_mul.s", "MFMA(16 cyc) + 1 v_pk_mul_f32, same wave", 28.036,
     group(MF, "v_pk_mul_f32 v[{d}:{d1}], v[40:41], v[42:43]"), J),
    ("gfx942_valu_fma.s", "v_fma_f32 throughput (8-byte VOP3, aligned)", 4.016,
     group("v_fma_f32 v{d}, v40, v41, v42"), J),
    ("gfx942_exp_rcp.s", "v_exp_f32 + independent v_rcp_f32", 32.036, group(EXP, "v_rcp_f32 v{d1}, v41"), J),
    ("gfx942_mfma_rcp.s", "MFMA(16 cyc) + 1 v_rcp_f32", 20.052, group(MF, "v_rcp_f32 v{d}, v41"), J),
    ("gfx942_mfma_3fma.s", "MFMA(16 cyc) + 3 v_fma_f32 (hidden)", 16.055,
     group(MF, ("v_fma_f32 v{d}, v40, v41, v42", 3)), M),
    ("gfx942_mfma_2pk_add.s", "MFMA(16 cyc) + 2 v_pk_add_f32, same wave", 32.038,
     group(MF, ("v_pk_add_f32 v[{d}:{d1}], v[40:41], v[42:43]", 2)), M),
    ("gfx942_mfma_alu_exp.s", "MFMA + 3 v_add_f32 + v_exp_f32", 32.041, group(MF, (ADD, 3), EXP), B),
    ("gfx942_mfma_exp_alu.s", "MFMA + v_exp_f32 + 3 v_add_f32", 32.043, group(MF, EXP, (ADD, 3)), B),
    ("gfx942_2mfma_alu_exp.s", "2 MFMA + 3 v_add_f32 + v_exp_f32", 48.052, group(MF, MF, (ADD, 3), EXP), B),
    ("gfx942_mfma_alu_mfma_exp.s", "MFMA + 3 v_add_f32 + MFMA + v_exp_f32", 36.053,
     group(MF, (ADD, 3), MF, EXP), B),
]

for f, name, hw, body, src in ROWS:
    # MFMA groups reuse accumulator a[4i:4i+3] per chain; the loop runs 8 iterations of 4 chains x 4 = 16 groups
    one_wave(f, name, hw, body, 64, 4, src)

def two_wave(fname, name, hw, seg_a, seg_b, inner, outer, source, target="gfx942", part="MI300X", anchor="MFMA"):
    a = "\n".join("\t" + l for l in seg_a)
    b = "\n".join("\t" + l for l in seg_b)
    method = (f"8 waves, wave i and i+4 on one SIMD; waves 4-7 start one s_barrier later, so on each SIMD one "
              f"wave runs the {anchor} segment while the other runs the tested segment, then they swap; "
              f"{outer} x 2 phases of {inner} groups in wave 0's s_memtime window, the same protocol with empty "
              "segments subtracted")
    text = header(name, hw, "cycles/iteration", "10%", part, target, 2 * outer * inner, source, method,
                  baseline="the same barrier protocol with empty segments (s[24:27])")
    text += f"""
// gcnemu:
//   workgroup: 512

	.amdgcn_target "amdgcn-amd-amdhsa--{target}"
	.text
	.p2align 8
calib:
	v_readfirstlane_b32 s3, v0
	s_lshr_b32 s3, s3, 6                   // wave id 0..7
{INIT}	s_cmp_ge_u32 s3, 4
	s_cbranch_scc0 .Lentry
	s_barrier                              // waves 4-7: one barrier ahead, the opposite phase
.Lentry:
	s_barrier
	s_mov_b32 s2, {outer}
	s_memtime s[24:25]
.Lbase:
	s_barrier
	s_barrier
	s_sub_u32 s2, s2, 1
	s_cmp_lg_u32 s2, 0
	s_cbranch_scc1 .Lbase
	s_memtime s[26:27]
	s_mov_b32 s2, {outer}
	s_memtime s[20:21]
	.p2align 3
.Lloop:
	.rept {inner // 4}
{a}
	.endr
	s_barrier
	.p2align 3
	.rept {inner // 4}
{b}
	.endr
	s_barrier
	s_sub_u32 s2, s2, 1
	s_cmp_lg_u32 s2, 0
	s_cbranch_scc1 .Lloop
	s_memtime s[22:23]
	s_cmp_lt_u32 s3, 4
	s_cbranch_scc0 .Ldone
	s_barrier                              // waves 0-3: the drain barrier that pairs with 4-7's last
.Ldone:
	s_waitcnt lgkmcnt(0)
	s_endpgm
"""
    open(f"{OUT}/{fname}", "w").write(text)

INTER = [
    ("gfx942_inter_mfma_add.s", "MFMA(16 cyc) + 1 v_add_f32 in another wave", 16.034, group(MF), group(ADD), J, "MFMA"),
    ("gfx942_inter_mfma_4add.s", "MFMA(16 cyc) + 4 v_add_f32 in another wave", 20.014, group(MF), group((ADD, 4)), M, "MFMA"),
    ("gfx942_inter_mfma_exp.s", "MFMA(16 cyc) + 1 v_exp_f32 in another wave", 20.038, group(MF), group(EXP), J, "MFMA"),
    ("gfx942_inter_mfma_pk_mul.s", "MFMA(16 cyc) + 1 v_pk_mul_f32 in another wave", 21.013, group(MF),
     group("v_pk_mul_f32 v[{d}:{d1}], v[40:41], v[42:43]"), J, "MFMA"),
    ("gfx942_inter_exp_add.s", "v_exp_f32 + 1 v_add_f32 in another wave", 20.008, group(EXP), group(ADD), J, "v_exp_f32"),
]
for f, name, hw, sa, sb, src, anchor in INTER:
    two_wave(f, name, hw, sa, sb, 32, 8, src, anchor=anchor)

DOC = [
    ("gfx908_mfma_coexec8.s", "gfx908", "MI100", "v_mfma_f32_16x16x16f16 (32 cyc, co-exec delay 8) + 7 v_add_f32", 36,
     group("v_mfma_f32_16x16x16f16 a[{a}:{a3}], v[44:45], v[46:47], a[{a}:{a3}]", (ADD, 7)),
     "calculator CDNA1: cycles 32, coexec_delay 8; VALUs issue at 8, 12, ..., 28 (6 fit), the 7th at 32, the next MFMA at 36"),
    ("gfx90a_mfma_coexec4.s", "gfx90a", "MI250X", "v_mfma_f32_16x16x16f16 (32 cyc, co-exec delay 4) + 7 v_add_f32", 32,
     group("v_mfma_f32_16x16x16f16 a[{a}:{a3}], v[44:45], v[46:47], a[{a}:{a3}]", (ADD, 7)),
     "calculator CDNA2: cycles 32, coexec_delay 4; 7 VALUs at 4, 8, ..., 28 fit in the MFMA's 32 cycles"),
    ("gfx90a_mfma_f64_no_coexec.s", "gfx90a", "MI250X", "v_mfma_f64_16x16x4f64 (32 cyc, no co-execution) + 1 v_add_f32", 36,
     group("v_mfma_f64_16x16x4f64 a[{a8}:{a87}], v[44:45], v[46:47], a[{a8}:{a87}]", ADD),
     "calculator CDNA2: cycles 32, coexec False; the VALU op waits for the whole MFMA, the next MFMA issues 4 cycles later"),
    ("gfx942_mfma_f32_no_coexec.s", "gfx942", "MI300X", "v_mfma_f32_16x16x4_f32 (32 cyc, no co-execution) + 1 v_add_f32", 36,
     group("v_mfma_f32_16x16x4_f32 a[{a}:{a3}], v44, v46, a[{a}:{a3}]", ADD),
     "calculator CDNA3: f32-input MFMA, cycles 32, coexec False: 32 + 4"),
    ("gfx942_mfma_f64_no_coexec.s", "gfx942", "MI300X", "v_mfma_f64_16x16x4_f64 (32 cyc, no co-execution) + 1 v_add_f32", 36,
     group("v_mfma_f64_16x16x4_f64 a[{a8}:{a87}], v[44:45], v[46:47], a[{a8}:{a87}]", ADD),
     "calculator CDNA3: f64 MFMA, cycles 32, coexec False: 32 + 4"),
    ("gfx942_smfmac_coexec8.s", "gfx942", "MI300X", "v_smfmac_f32_16x16x32_f16 (16 cyc, co-exec delay 8) + 3 v_add_f32", 20,
     group("v_smfmac_f32_16x16x32_f16 a[{a}:{a3}], v[44:45], v[46:49], v50", (ADD, 3)),
     "calculator CDNA3: SMFMAC cycles 16, coexec_delay 8; VALUs at 8, 12, 16, the next SMFMAC at 20"),
]
for f, tgt, part, name, hw, body, note in DOC:
    one_wave(f, name, hw, body, 64, 4, CALC, target=tgt, part=part, kind="document", extra=(f"note: {note}",))

# gfx950: pyhip's PMC cross-check (SQ co-execution counter per MFMA, equal-work control groups)
PMC = "VALU cycles co-executed per MFMA"
MF950 = "v_mfma_f32_16x16x32_bf16 a[{a}:{a3}], v[44:47], v[44:47], a[{a}:{a3}]"
for f, name, hw, body in [
    ("gfx950_pmc_mfma_2fmac.s", "MFMA + 2 v_fmac_f32: VALU cycles co-executed per MFMA", 7.999,
     group(MF950, ("v_fmac_f32 v{d}, v40, v41", 2))),
    ("gfx950_pmc_mfma_pk_fma.s", "MFMA + 1 v_pk_fma_f32: VALU cycles co-executed per MFMA", 0.0,
     group(MF950, "v_pk_fma_f32 v[{d}:{d1}], v[40:41], v[42:43], v[40:41]")),
]:
    one_wave(f, name, hw, body, 64, 4, M.replace("(pyhip docs/mfma-valu-coissue.md)",
                                                 "(pyhip docs/mfma-valu-coissue.md, gfx950 PMC cross-check)"),
             target="gfx950", part="MI355X", unit=PMC, tol="1 cycles",
             method="VALU busy cycles that overlap a running MFMA of the SIMD over the whole run, per MFMA "
                    "(what the co-execution counter reads); 4 register chains")
