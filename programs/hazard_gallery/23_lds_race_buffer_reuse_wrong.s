// 23_lds_race_buffer_reuse_wrong.s -- WRONG ON PURPOSE: a buffer read in phase 1 is overwritten
// in phase 2 without a second s_barrier: a fast wave's phase-2 write can land before a slow
// wave's phase-1 read of the same slot (write after read). Fixed twin: 23_..._fixed.s.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 256
//   buffer out: u32[256] = 0xffffffff
//   arg: out
//   lds: u32[256] = 0
//   expect out = (arange(256) ^ 64) * 6 + 1  # this run's schedule happened to order them
//   expect hazard lds-race at 31
//   #   measured: 657 cycles; stall cycles per wave: waitcnt lgkmcnt 256, barrier 13, pipe busy 11
//   expect cycles: 591..723
//   expect stall waitcnt lgkmcnt: 149..203

	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
lds_race_buffer_reuse_wrong:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_and_b32 v1, 0x3ff, v0                   // tid 0..255
	v_lshlrev_b32 v2, 2, v1                   // 4 * tid: this work-item's slot
	v_mul_u32_u24 v3, 3, v1                   // the value: 3 * tid
	v_xor_b32 v4, 0x100, v2                   // another wave's slot: tid ^ 64
	ds_write_b32 v2, v3                       // phase 1: fill the buffer
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b32 v5, v4                        // phase 1: read another wave's slot
	s_waitcnt lgkmcnt(0)
	v_add_u32 v6, 1, v3
	ds_write_b32 v2, v6                       // BUG: phase 2 reuses the buffer with no second barrier
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b32 v7, v4
	s_waitcnt lgkmcnt(0)
	v_add_u32 v5, v5, v7
	global_store_dword v2, v5, s[4:5]
	s_endpgm
