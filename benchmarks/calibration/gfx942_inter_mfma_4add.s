// calibration: MFMA(16 cyc) + 4 v_add_f32 in another wave
//   hardware: 20.014
//   unit: cycles/iteration
//   tolerance: 10%
//   part: MI300X
//   target: gfx942
//   count: 512
//   method: 8 waves, wave i and i+4 on one SIMD; waves 4-7 start one s_barrier later, so on each SIMD one wave runs the MFMA segment while the other runs the tested segment, then they swap; 8 x 2 phases of 32 groups in wave 0's s_memtime window, the same protocol with empty segments subtracted
//   baseline: the same barrier protocol with empty segments (s[24:27])
//   source: https://github.com/tingqli/pyhip/blob/bc013ed/docs/mfma-valu-coissue.md (pyhip docs/mfma-valu-coissue.md)

// gcnemu:
//   workgroup: 512

	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.p2align 8
calib:
	v_readfirstlane_b32 s3, v0
	s_lshr_b32 s3, s3, 6                   // wave id 0..7
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
	s_cmp_ge_u32 s3, 4
	s_cbranch_scc0 .Lentry
	s_barrier                              // waves 4-7: one barrier ahead, the opposite phase
.Lentry:
	s_barrier
	s_mov_b32 s2, 8
	s_memtime s[24:25]
.Lbase:
	s_barrier
	s_barrier
	s_sub_u32 s2, s2, 1
	s_cmp_lg_u32 s2, 0
	s_cbranch_scc1 .Lbase
	s_memtime s[26:27]
	s_mov_b32 s2, 8
	s_memtime s[20:21]
	.p2align 3
.Lloop:
	.rept 8
	v_mfma_f32_16x16x16_bf16 a[0:3], v[44:45], v[46:47], a[0:3]
	v_mfma_f32_16x16x16_bf16 a[4:7], v[44:45], v[46:47], a[4:7]
	v_mfma_f32_16x16x16_bf16 a[8:11], v[44:45], v[46:47], a[8:11]
	v_mfma_f32_16x16x16_bf16 a[12:15], v[44:45], v[46:47], a[12:15]
	.endr
	s_barrier
	.p2align 3
	.rept 8
	v_add_f32 v100, v40, v41
	v_add_f32 v102, v40, v41
	v_add_f32 v104, v40, v41
	v_add_f32 v106, v40, v41
	v_add_f32 v108, v40, v41
	v_add_f32 v110, v40, v41
	v_add_f32 v112, v40, v41
	v_add_f32 v114, v40, v41
	v_add_f32 v116, v40, v41
	v_add_f32 v118, v40, v41
	v_add_f32 v120, v40, v41
	v_add_f32 v122, v40, v41
	v_add_f32 v124, v40, v41
	v_add_f32 v126, v40, v41
	v_add_f32 v128, v40, v41
	v_add_f32 v130, v40, v41
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
