// gfx908: accumulators live in AGPRs; v_accvgpr_write to clear, v_accvgpr_read after the chain.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx908"
	.text
gemm_agpr:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_load_dwordx2 s[8:9], s[0:1], 0x10
	v_lshlrev_b32 v1, 3, v0
	v_mov_b32 v10, 0
	v_accvgpr_write_b32 a0, 0
	v_accvgpr_write_b32 a1, 0
	v_accvgpr_write_b32 a2, 0
	v_accvgpr_write_b32 a3, 0
	s_waitcnt lgkmcnt(0)
	global_load_dwordx2 v[2:3], v1, s[4:5]
	global_load_dwordx2 v[4:5], v1, s[6:7]
	s_waitcnt vmcnt(0)
	v_mfma_f32_16x16x16f16 a[0:3], v[2:3], v[4:5], a[0:3]
	v_mfma_f32_16x16x16f16 a[0:3], v[4:5], v[2:3], a[0:3]
	s_nop 7
	s_nop 1
	v_accvgpr_read_b32 v6, a0
	v_accvgpr_read_b32 v7, a1
	v_accvgpr_read_b32 v8, a2
	v_accvgpr_read_b32 v9, a3
	s_nop 1
	global_store_dwordx4 v1, v[6:9], s[8:9]
	s_endpgm
