// 10_mfma_result_mfma_srcab_wrong.s -- WRONG ON PURPOSE: an MFMA takes as SrcA the result of
// the MFMA right before it.
//
// Matrix-core results are not interlocked, not even for another MFMA: on gfx90a an MFMA may
// read an 8-pass (16x16) MFMA's destination as SrcA/B only 11 wait states later (passes + 3;
// ../shared/isa/hazards.md gfx90a "SMFMA writes -> MFMA reads overlapped as SrcA/B 5/11/19",
// LLVM checkMAIHazards90A). Without them hardware may feed the second MFMA the *old* v4
// (1.0 instead of 8.0): out = 4 x 1 x 2 = 8 instead of 4 x 8 x 2 = 64.
// In the emulator the second MFMA cannot issue before the matrix pipe is free ("pipe busy"
// stall), and by then the first result has landed, so the value comes out right here;
// the linter and the run-time wait-state monitor report the missing wait states.
// Fixed twin: 10_mfma_result_mfma_srcab_fixed.s.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: f32[64] = nan
//   arg: out
//   expect out = 4 * 8 * 2                   # right in this model (the matrix pipe is busy until D lands)
//   expect hazard xdl-result-mfma-srcab at 37
//   #   measured: 416 cycles; MFMA utilisation 0.154; stall cycles per wave: nop 44, pipe busy 28
//   expect cycles: 374..458
//   expect mfma-utilisation: 0.130..0.177
//   expect stall nop: 37..51
//   expect stall pipe busy: 23..33
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
mfma_result_mfma_srcab_wrong:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_mov_b32 v1, 1.0                         // A = 1 everywhere
	v_mov_b32 v2, 2.0                         // B = 2 everywhere
	v_mov_b32 v4, 1.0                         // D's old value
	v_lshlrev_b32 v9, 2, v0                   // byte offset of out[lane]
	s_nop 1                                   // VALU -> MFMA: 2 wait states (not the bug here)
	v_mfma_f32_16x16x4f32 v[4:7], v1, v2, 0   // D = A B: every element 4 x 1 x 2 = 8
	// BUG: the next MFMA reads v4 (SrcA) 0 wait states after the MFMA that writes it
	v_mfma_f32_16x16x4f32 v[10:13], v4, v2, 0 // E = D B: every element 4 x 8 x 2 = 64
	s_nop 10                                  // 8-pass MFMA -> memory read: 11 wait states
	s_waitcnt lgkmcnt(0)
	global_store_dword v9, v10, s[4:5]
	s_endpgm
