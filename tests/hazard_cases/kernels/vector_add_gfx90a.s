// c[i] = a[i] + b[i]: kernel arguments by SMEM, loads, one wait, store.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
	.globl vector_add
vector_add:
	s_load_dwordx4 s[4:7], s[0:1], 0x0        // a, b
	s_load_dwordx2 s[8:9], s[0:1], 0x10       // c
	v_lshlrev_b32 v1, 2, v0                   // byte offset of this lane
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v1, s[4:5]
	global_load_dword v3, v1, s[6:7]
	s_waitcnt vmcnt(0)
	v_add_f32 v2, v2, v3
	global_store_dword v1, v2, s[8:9]
	s_endpgm
