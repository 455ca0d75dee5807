// 08_smem_lds_mixed_lgkmcnt_wrong.s -- WRONG ON PURPOSE: a scalar load and an LDS read are
// both outstanding, and s_waitcnt lgkmcnt(1) is taken to mean "the older one (the s_load)
// is done".
//
// lgkmcnt counts LDS, GDS, SMEM and messages together. LDS operations return in order,
// but scalar loads return *out of order* (a wide s_load can come back after a narrow or
// LDS operation issued later), so with an SMEM load outstanding only lgkmcnt(0) proves it
// returned. Here the 16-dword s_load is slower than the ds_read issued after it: the
// lgkmcnt(1) releases on the ds_read, and v_add_u32 reads s6 (the argument a) before the
// s_load wrote it, so out = LDS + 0 instead of LDS + a. The linter also flags the read of
// v2: with lgkmcnt(1) either of the two operations may be the one still outstanding.
// Fixed twin: 08_smem_lds_mixed_lgkmcnt_fixed.s.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: u32[64] = 0xffffffff
//   arg: out, a=3, b=4, c=5, d=6, e=7, f=8, g=9, h=10, p=11, q=12, r=13, s=14, t=15, u=16
//   lds: u32[64] = 10 * i
//   sgpr s6 = 0                              # s6's old value
//   expect out = 10 * arange(64)             # a missing: the bug made visible
//   expect hazard ds-result-before-lgkmcnt at 35
//   expect hazard smem-result-before-lgkmcnt at 35
//   #   measured: 404 cycles; stall cycles per wave: waitcnt lgkmcnt 76
//   expect cycles: 363..445
//   expect stall waitcnt lgkmcnt: 40..56
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
smem_lds_mixed_lgkmcnt_wrong:
	s_load_dwordx16 s[4:19], s[0:1], 0x0      // out, a, and 13 more arguments
	v_lshlrev_b32 v1, 2, v0                   // 4 * lane
	ds_read_b32 v2, v1                        // LDS[lane]
	// BUG: lgkmcnt(1) does not prove the s_load returned (SMEM returns out of order)
	s_waitcnt lgkmcnt(1)
	v_add_u32 v3, s6, v2                      // LDS[lane] + a
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v3, s[4:5]
	s_endpgm
