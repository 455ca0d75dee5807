// calibration: v_fma_f32 throughput (8-byte VOP3, aligned)
//   hardware: 4.016
//   unit: cycles/iteration
//   tolerance: 10%
//   part: MI300X
//   target: gfx942
//   count: 256
//   method: s_memtime window around 4 iterations x 64 groups (4 independent register chains), empty loop subtracted
//   baseline: the same loop with an empty body (s[24:27])
//   source: https://github.com/tingqli/pyhip/blob/bc013ed/docs/data/mfma-valu-intra-inter-coissue-gfx942.json (pyhip docs/data/mfma-valu-intra-inter-coissue-gfx942.json)

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
	v_fma_f32 v100, v40, v41, v42
	v_fma_f32 v108, v40, v41, v42
	v_fma_f32 v116, v40, v41, v42
	v_fma_f32 v124, v40, v41, v42
	.endr
	s_sub_u32 s2, s2, 1
	s_cmp_lg_u32 s2, 0
	s_cbranch_scc1 .Lbody
	s_memtime s[22:23]
	s_waitcnt lgkmcnt(0)
	s_endpgm
