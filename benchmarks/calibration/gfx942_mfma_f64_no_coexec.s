// calibration: v_mfma_f64_16x16x4_f64 (32 cyc, no co-execution) + 1 v_add_f32
//   hardware: 36
//   unit: cycles/iteration
//   tolerance: 10%
//   part: MI300X
//   target: gfx942
//   count: 256
//   method: s_memtime window around 4 iterations x 64 groups (4 independent register chains), empty loop subtracted
//   baseline: the same loop with an empty body (s[24:27])
//   kind: document
//   note: calculator CDNA3: f64 MFMA, cycles 32, coexec False: 32 + 4
//   source: https://github.com/ROCm/amd_matrix_instruction_calculator/blob/main/matrix_calculator.py (AMD Matrix Instruction Calculator, matrix_calculator.py)

	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.p2align 8
calib:
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
	v_accvgpr_write_b32 a0, 0
	s_mov_b32 s2, 4
	s_memtime s[24:25]
.Lempty:
	s_sub_u32 s2, s2, 1
	s_cmp_lg_u32 s2, 0
	s_cbranch_scc1 .Lempty
	s_memtime s[26:27]
	s_mov_b32 s2, 4
	s_memtime s[20:21]
	.p2align 3
.Lbody:
	.rept 16
	v_mfma_f64_16x16x4_f64 a[0:7], v[44:45], v[46:47], a[0:7]
	v_add_f32 v100, v40, v41
	v_mfma_f64_16x16x4_f64 a[8:15], v[44:45], v[46:47], a[8:15]
	v_add_f32 v108, v40, v41
	v_mfma_f64_16x16x4_f64 a[16:23], v[44:45], v[46:47], a[16:23]
	v_add_f32 v116, v40, v41
	v_mfma_f64_16x16x4_f64 a[24:31], v[44:45], v[46:47], a[24:31]
	v_add_f32 v124, v40, v41
	.endr
	s_sub_u32 s2, s2, 1
	s_cmp_lg_u32 s2, 0
	s_cbranch_scc1 .Lbody
	s_memtime s[22:23]
	s_waitcnt lgkmcnt(0)
	s_endpgm
