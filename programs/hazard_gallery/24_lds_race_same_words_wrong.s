// 24_lds_race_same_words_wrong.s -- WRONG ON PURPOSE: every wave writes the same 64 LDS
// words (the slot of its lane, not of its work-item): which wave's value stays depends on the
// schedule (write after write). Fixed twin: 24_lds_race_same_words_fixed.s.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 256
//   buffer out: u32[256] = 0xffffffff
//   arg: out
//   lds: u32[256] = 0
//   expect out = (arange(256) % 64 + 192) * 3  # the last wave (3) won in this run
//   expect hazard lds-race at 26
//   #   measured: 498 cycles; stall cycles per wave: waitcnt lgkmcnt 128, pipe busy 9, barrier 6
//   expect cycles: 448..548
//   expect stall waitcnt lgkmcnt: 74..102

	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
lds_race_same_words_wrong:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_and_b32 v1, 0x3ff, v0                   // tid 0..255
	v_lshlrev_b32 v2, 2, v1                   // 4 * tid: this work-item's slot
	v_mul_u32_u24 v3, 3, v1                   // the value: 3 * tid
	v_xor_b32 v4, 0x100, v2                   // another wave's slot: tid ^ 64
	v_and_b32 v8, 0xfc, v2                    // BUG: 4 * (tid % 64): the same slot in every wave
	ds_write_b32 v8, v3
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b32 v5, v8
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v5, s[4:5]
	s_endpgm
