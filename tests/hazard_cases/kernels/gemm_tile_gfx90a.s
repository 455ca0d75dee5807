// 32x32 tile of C += A*B, K loop: global -> LDS -> registers -> MFMA chain.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
gemm_tile:
	s_load_dwordx4 s[4:7], s[0:1], 0x0        // A, B
	s_load_dwordx2 s[8:9], s[0:1], 0x10       // C
	s_load_dword s10, s[0:1], 0x18            // K / 8
	v_lshlrev_b32 v1, 3, v0                   // 8 bytes per lane
	v_mov_b32 v64, 0
	v_mov_b32 v65, 0
	v_mov_b32 v66, 0
	v_mov_b32 v67, 0
	v_mov_b32 v68, 0
	v_mov_b32 v69, 0
	v_mov_b32 v70, 0
	v_mov_b32 v71, 0
	v_mov_b32 v72, 0
	v_mov_b32 v73, 0
	v_mov_b32 v74, 0
	v_mov_b32 v75, 0
	v_mov_b32 v76, 0
	v_mov_b32 v77, 0
	v_mov_b32 v78, 0
	v_mov_b32 v79, 0
	s_waitcnt lgkmcnt(0)
k_loop:
	global_load_dwordx2 v[2:3], v1, s[4:5]
	global_load_dwordx2 v[4:5], v1, s[6:7]
	s_waitcnt vmcnt(0)
	ds_write_b64 v1, v[2:3]
	ds_write_b64 v1, v[4:5] offset:512
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b64 v[6:7], v1
	ds_read_b64 v[8:9], v1 offset:512
	s_waitcnt lgkmcnt(0)
	s_barrier
	v_mfma_f32_32x32x8f16 v[64:79], v[6:7], v[8:9], v[64:79]
	s_add_u32 s4, s4, 16
	s_addc_u32 s5, s5, 0
	s_add_u32 s6, s6, 16
	s_addc_u32 s7, s7, 0
	s_sub_u32 s10, s10, 1
	s_cmp_lg_u32 s10, 0
	s_cbranch_scc1 k_loop
	s_nop 11                                  // 7 SALU + 12 = 19 after a 16-pass MFMA
	global_store_dwordx4 v1, v[64:67], s[8:9]
	global_store_dwordx4 v1, v[68:71], s[8:9] offset:16
	global_store_dwordx4 v1, v[72:75], s[8:9] offset:32
	global_store_dwordx4 v1, v[76:79], s[8:9] offset:48
	s_endpgm
