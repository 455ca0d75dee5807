// 22_lds_race_missing_barrier_wrong.s -- WRONG ON PURPOSE: each wave writes its slots and reads
// another wave's slots with no s_barrier between: nothing orders the read after the other
// wave's write (a race: whether the value is there depends on the schedule).
// Fixed twin: 22_lds_race_missing_barrier_fixed.s.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 256
//   buffer out: u32[256] = 0xffffffff
//   arg: out
//   lds: u32[256] = 0
//   expect out = (arange(256) ^ 64) * 3      # this run's schedule happened to order them
//   expect hazard lds-race at 28
//   #   measured: 483 cycles; stall cycles per wave: waitcnt lgkmcnt 128, pipe busy 7
//   expect cycles: 434..532
//   expect stall waitcnt lgkmcnt: 74..102

	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
lds_race_missing_barrier_wrong:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_and_b32 v1, 0x3ff, v0                   // tid 0..255
	v_lshlrev_b32 v2, 2, v1                   // 4 * tid: this work-item's slot
	v_mul_u32_u24 v3, 3, v1                   // the value: 3 * tid
	v_xor_b32 v4, 0x100, v2                   // another wave's slot: tid ^ 64
	ds_write_b32 v2, v3
	s_waitcnt lgkmcnt(0)                      // this wave's write is done, but nothing waits for the others
	ds_read_b32 v5, v4                        // BUG: no s_barrier before reading another wave's slot
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v5, s[4:5]
	s_endpgm
