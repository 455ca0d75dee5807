// 17_setreg_getreg_fixed.s -- the fixed twin of 17_setreg_getreg_wrong.s: 2 wait states
// (s_nop 1) between s_setreg and the s_getreg of the same hardware register.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: u32[64] = 0xffffffff
//   arg: out
//   expect out = 1                           # the round mode just set
//   expect hazards: none
//   #   measured: 376 cycles; stall cycles per wave: waitcnt lgkmcnt 36, nop 4
//   expect cycles: 338..414
//   expect stall waitcnt lgkmcnt: 6..10
//   expect stall nop: 0..8
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
setreg_getreg_fixed:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	s_mov_b32 s6, 1                           // round towards +inf
	s_setreg_b32 hwreg(HW_REG_MODE, 0, 2), s6 // MODE.FP_ROUND f32 bits
	s_nop 1                                   // FIX: s_setreg -> s_getreg: 2 wait states
	s_getreg_b32 s7, hwreg(HW_REG_MODE, 0, 2)
	v_lshlrev_b32 v1, 2, v0                   // byte offset of out[lane]
	v_mov_b32 v2, s7
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v2, s[4:5]
	s_endpgm
