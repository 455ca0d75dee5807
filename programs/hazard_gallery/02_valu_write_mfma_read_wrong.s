// 02_valu_write_mfma_read_wrong.s -- WRONG ON PURPOSE: an MFMA reads a VGPR that a VALU
// instruction wrote in the instruction right before it.
//
// The matrix core reads its sources through a path that does not wait for the VALU
// pipeline: on gfx90a/gfx942 a VALU write needs 2 wait states before an MFMA reads the
// register (LLVM checkMAIHazards90A, LegacyVALUNotDotWritesVGPRWaitStates). Hardware may
// hand the MFMA the old v2.
// The emulator runs VALU results interlocked, so the numbers come out right here: the
// static linter and the run-time wait-state monitor report the missing wait states.
// Fixed twin: 02_valu_write_mfma_read_fixed.s.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: f32[64] = nan
//   arg: out
//   expect out = 8
//   expect hazard valu-vgpr-mfma-read at 32
//   #   measured: 376 cycles; MFMA utilisation 0.085; stall cycles per wave: nop 40, waitcnt lgkmcnt 4
//   expect cycles: 338..414
//   expect mfma-utilisation: 0.072..0.098
//   expect stall nop: 34..46
//   expect stall waitcnt lgkmcnt: 0..8
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
valu_write_mfma_read_wrong:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_mov_b32 v1, 1.0                         // A = 1 everywhere
	v_lshlrev_b32 v9, 2, v0                   // byte offset of out[lane]
	v_mov_b32 v2, 2.0                         // B = 2 everywhere
	// BUG: the MFMA reads v2 0 wait states after the v_mov wrote it
	v_mfma_f32_16x16x4f32 v[4:7], v1, v2, 0   // D = A B = 8 everywhere
	s_nop 10                                  // 8-pass MFMA -> memory read: 11 wait states
	s_waitcnt lgkmcnt(0)
	global_store_dword v9, v4, s[4:5]
	s_endpgm
