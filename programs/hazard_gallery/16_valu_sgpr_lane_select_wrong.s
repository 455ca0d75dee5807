// 16_valu_sgpr_lane_select_wrong.s -- WRONG ON PURPOSE: v_readlane_b32 takes its lane select
// from an SGPR that a VALU instruction wrote in the instruction right before.
//
// v_readlane/v_writelane read the lane-select SGPR early; after a VALU write of that SGPR
// (v_readfirstlane, v_cmp into an SGPR, ...) 4 wait states are required
// (../shared/isa/hazards.md "Other hazards": "VALU writes an SGPR -> v_readlane / v_writelane
// uses it as lane select: 4", LLVM checkRWLaneHazards). SALU writes are interlocked. Hardware
// may select lane 0 (the old s6): out = 0 instead of lane 37's 370. The emulator interlocks
// VALU results, so the value comes out right here; linter and run-time monitor report it.
// Fixed twin: 16_valu_sgpr_lane_select_fixed.s.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: u32[64] = 0xffffffff
//   arg: out
//   sgpr s6 = 0                              # s6's old value
//   expect out = 370                         # right in this model (VALU -> SGPR interlocked)
//   expect hazard valu-sgpr-lane-select at 32
//   #   measured: 376 cycles; stall cycles per wave: waitcnt lgkmcnt 40
//   expect cycles: 338..414
//   expect stall waitcnt lgkmcnt: 10..14
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
valu_sgpr_lane_select_wrong:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_mul_u32_u24 v2, 10, v0                  // lane * 10
	v_mov_b32 v3, 37                          // the lane to broadcast
	v_lshlrev_b32 v1, 2, v0                   // byte offset of out[lane]
	v_readfirstlane_b32 s6, v3                // lane select -> SGPR (a VALU write)
	// BUG: v_readlane uses s6 as lane select 0 wait states after the VALU wrote it
	v_readlane_b32 s7, v2, s6                 // s7 = lane 37's v2
	v_mov_b32 v4, s7
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v4, s[4:5]
	s_endpgm
