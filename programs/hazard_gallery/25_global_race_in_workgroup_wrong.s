// 25_global_race_in_workgroup_wrong.s -- WRONG ON PURPOSE: each wave stores its slots of a global
// scratch buffer, waits for its own store, and loads another wave's slots with no s_barrier:
// nothing orders the load after the other wave's store (a global-memory race inside the
// workgroup; whether the value is there depends on the schedule).
// Fixed twin: 25_global_race_in_workgroup_fixed.s.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 256
//   buffer tmp: u32[256] = 0
//   buffer out: u32[256] = 0xffffffff
//   arg: tmp, out
//   expect out = (arange(256) ^ 64) * 3      # this run's schedule happened to order them
//   expect hazard global-race at 30
//   #   measured: 1003 cycles; stall cycles per wave: waitcnt vmcnt 604, waitcnt lgkmcnt 24, pipe busy 13
//   expect cycles: 902..1104
//   expect stall waitcnt vmcnt: 513..695

	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
global_race_in_workgroup_wrong:
	s_load_dwordx4 s[4:7], s[0:1], 0x0        // tmp, out
	v_and_b32 v1, 0x3ff, v0                   // tid 0..255
	v_lshlrev_b32 v2, 2, v1                   // 4 * tid: this work-item's slot
	v_mul_u32_u24 v3, 3, v1                   // the value: 3 * tid
	v_xor_b32 v4, 0x100, v2                   // another wave's slot: tid ^ 64
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v3, s[4:5]
	s_waitcnt vmcnt(0)                        // this wave's store is done, but nothing waits for the others
	global_load_dword v5, v4, s[4:5] glc      // BUG: no s_barrier before reading another wave's slot
	s_waitcnt vmcnt(0)
	global_store_dword v2, v5, s[6:7]
	s_endpgm
