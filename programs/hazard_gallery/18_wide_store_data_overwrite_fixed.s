// 18_wide_store_data_overwrite_fixed.s -- the fixed twin of
// 18_wide_store_data_overwrite_wrong.s: 2 wait states (s_nop 1) after the 128-bit store
// before its data VGPRs are overwritten, as gfx942 requires. (Or write the next row into
// other registers.)
//
// gcnemu:
//   arch: gfx942
//   workgroup: 64
//   buffer out: u32[64,8] = 0xffffffff
//   arg: out
//   expect out = i                           # out[lane, k] = 8 lane + k
//   expect hazards: none
//   #   measured: 420 cycles; stall cycles per wave: waitcnt lgkmcnt 44, nop 4
//   expect cycles: 378..462
//   expect stall waitcnt lgkmcnt: 13..19
//   expect stall nop: 0..8
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
wide_store_data_overwrite_fixed:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_lshlrev_b32 v1, 5, v0                   // 32 * lane: byte offset of out[lane, 0]
	v_lshlrev_b32 v4, 3, v0                   // 8 lane + 0..3: the first four dwords
	v_add_u32 v5, 1, v4
	v_add_u32 v6, 2, v4
	v_add_u32 v7, 3, v4
	s_waitcnt lgkmcnt(0)
	global_store_dwordx4 v1, v[4:7], s[4:5]
	s_nop 1                                   // FIX: wide store -> VALU overwrite: 2 wait states
	v_add_u32 v4, 4, v4                       // 8 lane + 4..7: the next four dwords
	v_add_u32 v1, 16, v1                      // byte offset of out[lane, 4]
	v_add_u32 v5, 4, v5
	v_add_u32 v6, 4, v6
	v_add_u32 v7, 4, v7
	global_store_dwordx4 v1, v[4:7], s[4:5]
	s_endpgm
