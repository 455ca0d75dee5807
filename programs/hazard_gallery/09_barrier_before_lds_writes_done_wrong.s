// 09_barrier_before_lds_writes_done_wrong.s -- WRONG ON PURPOSE: a wave writes LDS for the
// other wave and reaches s_barrier without waiting for its writes to complete.
//
// s_barrier synchronises execution, not memory: it does not wait for outstanding LDS
// writes. A wave must s_waitcnt lgkmcnt(0) (vmcnt for LDS DMA) before the barrier, or
// the other waves may read LDS before the data is there (and the read races with the write). Two waves: each writes 64
// dwords, passes the barrier, and reads the other wave's 64 dwords.
// Fixed twin: 09_barrier_before_lds_writes_done_fixed.s.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 128
//   buffer out: u32[128] = 0xffffffff
//   arg: out
//   lds: u32[128] = 0xbad
//   expect out = (arange(128) ^ 64) * 3      # LDS is in order per CU in this model, so the
//                                            # values happen to arrive; the hazard is still real
//   expect hazard barrier-lds-write-pending at 35
//   expect hazard lds-race at 36
//   #   measured: 416 cycles; stall cycles per wave: waitcnt lgkmcnt 64, barrier 4.5, pipe busy 4.5
//   expect cycles: 374..458
//   expect stall waitcnt lgkmcnt: 37..51
//   expect stall barrier: 0..9
//   expect stall pipe busy: 0..9
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
barrier_before_lds_writes_done_wrong:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_and_b32 v1, 0x3ff, v0                   // tid 0..127
	v_lshlrev_b32 v2, 2, v1                   // 4 * tid: this work-item's slot
	v_mul_u32_u24 v3, 3, v1                   // the value: 3 * tid
	v_xor_b32 v4, 0x100, v2                   // the other wave's slot for the same lane
	ds_write_b32 v2, v3
	// BUG: no s_waitcnt lgkmcnt(0): the write may still be in flight at the barrier
	s_barrier
	ds_read_b32 v5, v4
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v5, s[4:5]
	s_endpgm
