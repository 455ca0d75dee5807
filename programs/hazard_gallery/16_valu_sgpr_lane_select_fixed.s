// 16_valu_sgpr_lane_select_fixed.s -- the fixed twin of 16_valu_sgpr_lane_select_wrong.s:
// 4 wait states (s_nop 3) between the VALU write of s6 and v_readlane's use of it as the
// lane select.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: u32[64] = 0xffffffff
//   arg: out
//   sgpr s6 = 0                              # s6's old value
//   expect out = 370                         # lane 37's lane * 10, in every lane
//   expect hazards: none
//   #   measured: 376 cycles; stall cycles per wave: waitcnt lgkmcnt 24, nop 12
//   expect cycles: 338..414
//   expect stall waitcnt lgkmcnt: 0..0
//   expect stall nop: 8..16
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
valu_sgpr_lane_select_fixed:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_mul_u32_u24 v2, 10, v0                  // lane * 10
	v_mov_b32 v3, 37                          // the lane to broadcast
	v_lshlrev_b32 v1, 2, v0                   // byte offset of out[lane]
	v_readfirstlane_b32 s6, v3                // lane select -> SGPR (a VALU write)
	s_nop 3                                   // FIX: VALU SGPR write -> lane select: 4 wait states
	v_readlane_b32 s7, v2, s6                 // s7 = lane 37's v2
	v_mov_b32 v4, s7
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v4, s[4:5]
	s_endpgm
