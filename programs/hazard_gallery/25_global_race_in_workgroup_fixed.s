// 25_global_race_in_workgroup_fixed.s -- the fixed twin of 25_global_race_in_workgroup_wrong.s:
// every wave's store is complete (vmcnt(0)) before s_barrier, and every load follows it.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 256
//   buffer tmp: u32[256] = 0
//   buffer out: u32[256] = 0xffffffff
//   arg: tmp, out
//   expect out = (arange(256) ^ 64) * 3
//   expect hazards: none
//   #   measured: 1034 cycles; stall cycles per wave: waitcnt vmcnt 604, pipe busy 25, waitcnt lgkmcnt 24, barrier 16
//   expect cycles: 930..1138
//   expect stall waitcnt vmcnt: 513..695

	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
global_race_in_workgroup_fixed:
	s_load_dwordx4 s[4:7], s[0:1], 0x0        // tmp, out
	v_and_b32 v1, 0x3ff, v0                   // tid 0..255
	v_lshlrev_b32 v2, 2, v1                   // 4 * tid: this work-item's slot
	v_mul_u32_u24 v3, 3, v1                   // the value: 3 * tid
	v_xor_b32 v4, 0x100, v2                   // another wave's slot: tid ^ 64
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v3, s[4:5]
	s_waitcnt vmcnt(0)                        // this wave's store is complete before the barrier
	s_barrier                                 // every wave's store has completed (vmcnt(0) above)
	global_load_dword v5, v4, s[4:5] glc      // glc: past the per-CU L1, to the L2 the stores went to
	s_waitcnt vmcnt(0)
	global_store_dword v2, v5, s[6:7]
	s_endpgm
