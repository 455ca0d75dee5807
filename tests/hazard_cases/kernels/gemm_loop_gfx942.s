// gfx942: software-pipelined K loop, loads for the next step issued before the MFMAs of this one.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
gemm_loop:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_load_dwordx2 s[8:9], s[0:1], 0x10
	s_load_dword s10, s[0:1], 0x18
	v_lshlrev_b32 v1, 3, v0
	v_mov_b32 v32, 0
	v_mov_b32 v33, 0
	v_mov_b32 v34, 0
	v_mov_b32 v35, 0
	s_waitcnt lgkmcnt(0)
	global_load_dwordx2 v[2:3], v1, s[4:5]
	global_load_dwordx2 v[4:5], v1, s[6:7]
loop:
	s_waitcnt vmcnt(0)
	v_mov_b32 v6, v2
	v_mov_b32 v7, v3
	v_mov_b32 v8, v4
	v_mov_b32 v9, v5
	s_add_u32 s4, s4, 8
	s_addc_u32 s5, s5, 0
	s_add_u32 s6, s6, 8
	s_addc_u32 s7, s7, 0
	global_load_dwordx2 v[2:3], v1, s[4:5]
	global_load_dwordx2 v[4:5], v1, s[6:7]
	v_mfma_f32_16x16x16_f16 v[32:35], v[6:7], v[8:9], v[32:35]
	s_sub_u32 s10, s10, 1
	s_cmp_lg_u32 s10, 0
	s_cbranch_scc1 loop
	s_nop 3                                   // 4 passes: 7 wait states before a VALU read
	v_cvt_f16_f32 v10, v32
	v_cvt_f16_f32 v11, v33
	v_cvt_f16_f32 v12, v34
	v_cvt_f16_f32 v13, v35
	v_pack_b32_f16 v10, v10, v11
	v_pack_b32_f16 v11, v12, v13
	global_store_dwordx2 v1, v[10:11], s[8:9]
	s_endpgm
