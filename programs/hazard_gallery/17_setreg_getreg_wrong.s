// 17_setreg_getreg_wrong.s -- WRONG ON PURPOSE: s_getreg reads a hardware register in the
// instruction right after s_setreg wrote it.
//
// s_setreg takes effect late: an s_getreg (or another s_setreg) of the same hardware register
// needs 2 wait states after it (../shared/isa/hazards.md "Other hazards": "s_setreg ->
// s_getreg / s_setreg of the same register: 2", LLVM checkGetRegHazards). Here the kernel
// sets MODE's f32 round mode (bits 1:0) to 1 (towards +inf) and reads the field back; hardware
// may return the old value (0, round to nearest even): out = 0 instead of 1. The emulator
// interlocks scalar results, so the value comes out right here; linter and run-time monitor
// report it. Fixed twin: 17_setreg_getreg_fixed.s.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: u32[64] = 0xffffffff
//   arg: out
//   expect out = 1                           # right in this model (SALU results interlocked)
//   expect hazard setreg-getreg at 29
//   #   measured: 376 cycles; stall cycles per wave: waitcnt lgkmcnt 44
//   expect cycles: 338..414
//   expect stall waitcnt lgkmcnt: 13..19
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
setreg_getreg_wrong:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	s_mov_b32 s6, 1                           // round towards +inf
	s_setreg_b32 hwreg(HW_REG_MODE, 0, 2), s6 // MODE.FP_ROUND f32 bits
	// BUG: reads MODE 0 wait states after s_setreg wrote it
	s_getreg_b32 s7, hwreg(HW_REG_MODE, 0, 2)
	v_lshlrev_b32 v1, 2, v0                   // byte offset of out[lane]
	v_mov_b32 v2, s7
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v2, s[4:5]
	s_endpgm
