// 01_mfma_result_valu_read_wrong.s -- WRONG ON PURPOSE: a VALU instruction reads an MFMA
// result before the matrix core has written it.
//
// MFMA results are not interlocked: a 16x16x4 f32 MFMA takes 8 passes (32 cycles) and on
// gfx90a a vector instruction may read its destination only 11 wait states later
// (passes + 3, LLVM checkMAIVALUHazards). Here v_add_f32 follows at once and reads the
// *old* v4 (0.0, written by the v_mov before the MFMA), so out is 0 instead of 2 x 8.
// Fixed twin: 01_mfma_result_valu_read_fixed.s.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: f32[64] = nan
//   arg: out
//   expect out = 0                           # the stale v4: the bug made visible
//   expect hazard xdl-result-valu-read at 33
//   #   measured: 376 cycles; MFMA utilisation 0.085; stall cycles per wave: waitcnt lgkmcnt 32, nop 4
//   expect cycles: 338..414
//   expect mfma-utilisation: 0.072..0.098
//   expect stall waitcnt lgkmcnt: 3..5
//   expect stall nop: 0..8
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
mfma_result_valu_read_wrong:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_mov_b32 v1, 1.0                         // A = 1 everywhere
	v_mov_b32 v2, 2.0                         // B = 2 everywhere
	v_mov_b32 v4, 0                           // D's old value
	v_lshlrev_b32 v9, 2, v0                   // byte offset of out[lane]
	s_nop 1                                   // VALU -> MFMA: 2 wait states (not the bug here)
	v_mfma_f32_16x16x4f32 v[4:7], v1, v2, 0   // D = A B: every element 4 x 1 x 2 = 8
	// BUG: the next instruction reads v4 0 wait states after the MFMA
	v_add_f32 v8, v4, v4
	s_waitcnt lgkmcnt(0)
	global_store_dword v9, v8, s[4:5]
	s_endpgm
