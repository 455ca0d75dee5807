// Workgroup sum through LDS: write, wait, barrier, read neighbours, tree steps.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
lds_reduce:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	v_lshlrev_b32 v1, 2, v0                   // LDS byte address
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v1, s[4:5]
	s_waitcnt vmcnt(0)
	ds_write_b32 v1, v2
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read2_b32 v[4:5], v1 offset1:64
	ds_read_b32 v6, v1 offset:512
	s_waitcnt lgkmcnt(1)
	v_add_f32 v2, v4, v5
	s_waitcnt lgkmcnt(0)
	v_add_f32 v2, v2, v6
	ds_write_b32 v1, v2
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b32 v7, v1 offset:4
	s_waitcnt lgkmcnt(0)
	v_add_f32 v2, v2, v7
	v_cmp_eq_u32 vcc, 0, v0
	s_and_saveexec_b64 s[6:7], vcc
	global_store_dword v1, v2, s[4:5] offset:1024
	s_endpgm
