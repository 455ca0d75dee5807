// 09_barrier_before_lds_writes_done_fixed.s -- the fixed twin of
// 09_barrier_before_lds_writes_done_wrong.s: s_waitcnt lgkmcnt(0) before s_barrier, so every
// wave's LDS writes are complete when any wave passes it.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 128
//   buffer out: u32[128] = 0xffffffff
//   arg: out
//   lds: u32[128] = 0xbad
//   expect out = (arange(128) ^ 64) * 3
//   expect hazards: none
//   #   measured: 484 cycles; stall cycles per wave: waitcnt lgkmcnt 128, barrier 4.5, pipe busy 4.5
//   expect cycles: 435..533
//   expect stall waitcnt lgkmcnt: 74..102
//   expect stall barrier: 0..9
//   expect stall pipe busy: 0..9
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
barrier_before_lds_writes_done_fixed:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_and_b32 v1, 0x3ff, v0                   // tid 0..127
	v_lshlrev_b32 v2, 2, v1                   // 4 * tid: this work-item's slot
	v_mul_u32_u24 v3, 3, v1                   // the value: 3 * tid
	v_xor_b32 v4, 0x100, v2                   // the other wave's slot for the same lane
	ds_write_b32 v2, v3
	s_waitcnt lgkmcnt(0)                      // FIX: this wave's writes are in LDS
	s_barrier
	ds_read_b32 v5, v4
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v5, s[4:5]
	s_endpgm
