// 22_lds_race_missing_barrier_fixed.s -- the fixed twin of 22_lds_race_missing_barrier_wrong.s:
// every wave's write is complete (lgkmcnt(0)) before s_barrier, and every read follows it.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 256
//   buffer out: u32[256] = 0xffffffff
//   arg: out
//   lds: u32[256] = 0
//   expect out = (arange(256) ^ 64) * 3
//   expect hazards: none
//   #   measured: 494 cycles; stall cycles per wave: waitcnt lgkmcnt 128, pipe busy 9, barrier 6
//   expect cycles: 444..544
//   expect stall waitcnt lgkmcnt: 74..102

	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
lds_race_missing_barrier_fixed:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_and_b32 v1, 0x3ff, v0                   // tid 0..255
	v_lshlrev_b32 v2, 2, v1                   // 4 * tid: this work-item's slot
	v_mul_u32_u24 v3, 3, v1                   // the value: 3 * tid
	v_xor_b32 v4, 0x100, v2                   // another wave's slot: tid ^ 64
	ds_write_b32 v2, v3
	s_waitcnt lgkmcnt(0)
	s_barrier                                 // FIX: all writes are in LDS before any wave reads
	ds_read_b32 v5, v4
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v5, s[4:5]
	s_endpgm
