// 24_lds_race_same_words_fixed.s -- the fixed twin of 24_lds_race_same_words_wrong.s: each
// work-item writes its own slot, so no two waves write the same word.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 256
//   buffer out: u32[256] = 0xffffffff
//   arg: out
//   lds: u32[256] = 0
//   expect out = arange(256) * 3
//   expect hazards: none
//   #   measured: 498 cycles; stall cycles per wave: waitcnt lgkmcnt 128, pipe busy 9, barrier 6
//   expect cycles: 448..548
//   expect stall waitcnt lgkmcnt: 74..102

	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
lds_race_same_words_fixed:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_and_b32 v1, 0x3ff, v0                   // tid 0..255
	v_lshlrev_b32 v2, 2, v1                   // 4 * tid: this work-item's slot
	v_mul_u32_u24 v3, 3, v1                   // the value: 3 * tid
	v_xor_b32 v4, 0x100, v2                   // another wave's slot: tid ^ 64
	v_mov_b32 v8, v2                          // FIX: 4 * tid, this work-item's own slot
	ds_write_b32 v8, v3
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b32 v5, v8
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v5, s[4:5]
	s_endpgm
