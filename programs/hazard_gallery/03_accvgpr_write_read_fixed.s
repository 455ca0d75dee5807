// 03_accvgpr_write_read_fixed.s -- the fixed twin of 03_accvgpr_write_read_wrong.s: three
// wait states (s_nop 2) between v_accvgpr_write and the v_accvgpr_read of the same AGPR.
//
// gcnemu:
//   arch: gfx908
//   workgroup: 64
//   buffer out: u32[64] = 0xffffffff
//   arg: out
//   expect out = 3 * arange(64)
//   expect hazards: none
//   #   measured: 376 cycles; stall cycles per wave: waitcnt lgkmcnt 28, nop 12
//   expect cycles: 338..414
//   expect stall waitcnt lgkmcnt: 0..0
//   expect stall nop: 8..16
	.amdgcn_target "amdgcn-amd-amdhsa--gfx908"
	.text
accvgpr_write_read_fixed:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_mul_u32_u24 v1, 3, v0                   // 3 * lane (gfx908: v0 = work-item id x)
	s_nop 1                                   // VALU -> v_accvgpr_write: 2 wait states (gfx908)
	v_accvgpr_write_b32 a0, v1
	s_nop 2                                   // FIX: 3 wait states before reading a0
	v_accvgpr_read_b32 v2, a0
	v_lshlrev_b32 v9, 2, v0                   // byte offset of out[lane]; with the s_waitcnt
	                                          // the 2 wait states v_accvgpr_read -> store needs
	s_waitcnt lgkmcnt(0)
	global_store_dword v9, v2, s[4:5]
	s_endpgm
