// 07_ds_read_before_lgkmcnt_wrong.s -- WRONG ON PURPOSE: the result of a ds_read is used
// before s_waitcnt lgkmcnt says it arrived.
//
// LDS reads return after the LDS latency; a wave must wait with lgkmcnt. Each lane writes
// its lane id * 5 to LDS and reads its neighbour's (lane ^ 1) value back; v_add_u32 uses
// it at once and gets the register's old value (0). Fixed twin: 07_ds_read_before_lgkmcnt_fixed.s.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: u32[64] = 0xffffffff
//   arg: out
//   expect out = 100                         # 0 + 100: the stale v3, the bug made visible
//   expect hazard ds-result-before-lgkmcnt at 29
//   #   measured: 400 cycles; stall cycles per wave: waitcnt lgkmcnt 60
//   expect cycles: 360..440
//   expect stall waitcnt lgkmcnt: 34..46
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
ds_read_before_lgkmcnt_wrong:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_lshlrev_b32 v1, 2, v0                   // 4 * lane
	v_mul_u32_u24 v2, 5, v0                   // lane * 5
	v_xor_b32 v4, 4, v1                       // the neighbour's slot: 4 * (lane ^ 1)
	v_mov_b32 v3, 0                           // v3's old value
	ds_write_b32 v1, v2
	ds_read_b32 v3, v4                        // LDS is in order: sees the write above
	// BUG: no s_waitcnt lgkmcnt(0) before reading v3
	v_add_u32 v5, 0x64, v3
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v5, s[4:5]
	s_endpgm
