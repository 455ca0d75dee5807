// 19_load_dst_overwrite_before_vmcnt_fixed.s -- the fixed twin of
// 19_load_dst_overwrite_before_vmcnt_wrong.s: s_waitcnt vmcnt(0) before v2, the load's
// destination, is recycled (what gcnemu lint --fix inserts; a free register is the
// cheaper fix when one is available).
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer in: u32[64] = randint(0, 1000, seed=19)
//   buffer out: u32[64] = 0xffffffff
//   arg: in, out
//   expect out = 3 * arange(64)
//   expect hazards: none
//   #   measured: 892 cycles; stall cycles per wave: waitcnt vmcnt 500, waitcnt lgkmcnt 64
//   expect cycles: 992..1216
//   expect stall waitcnt vmcnt: 625..847
//   expect stall waitcnt lgkmcnt: 30..42
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
load_dst_overwrite_before_vmcnt_fixed:
	s_load_dwordx4 s[4:7], s[0:1], 0x0        // in, out
	v_lshlrev_b32 v1, 2, v0                   // byte offset of element lane
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v1, s[4:5]          // in[lane], speculatively
	s_waitcnt vmcnt(0)                        // FIX: the load has written v2
	v_mul_u32_u24 v2, 3, v0                   // 3 lane
	global_store_dword v1, v2, s[6:7]
	s_endpgm
