// 08_smem_lds_mixed_lgkmcnt_fixed.s -- the fixed twin of 08_smem_lds_mixed_lgkmcnt_wrong.s:
// with a scalar load outstanding, wait with lgkmcnt(0).
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: u32[64] = 0xffffffff
//   arg: out, a=3, b=4, c=5, d=6, e=7, f=8, g=9, h=10, p=11, q=12, r=13, s=14, t=15, u=16
//   lds: u32[64] = 10 * i
//   sgpr s6 = 0                              # s6's old value
//   expect out = 10 * arange(64) + a
//   expect hazards: none
//   #   measured: 408 cycles; stall cycles per wave: waitcnt lgkmcnt 84
//   expect cycles: 367..449
//   expect stall waitcnt lgkmcnt: 47..65
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
smem_lds_mixed_lgkmcnt_fixed:
	s_load_dwordx16 s[4:19], s[0:1], 0x0      // out, a, and 13 more arguments
	v_lshlrev_b32 v1, 2, v0                   // 4 * lane
	ds_read_b32 v2, v1                        // LDS[lane]
	s_waitcnt lgkmcnt(0)                      // FIX: both the s_load and the ds_read
	v_add_u32 v3, s6, v2                      // LDS[lane] + a
	global_store_dword v1, v3, s[4:5]
	s_endpgm
