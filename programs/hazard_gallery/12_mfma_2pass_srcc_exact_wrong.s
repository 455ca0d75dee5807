// 12_mfma_2pass_srcc_exact_wrong.s -- WRONG ON PURPOSE (gfx942): an accumulation chain of
// 2-pass MFMAs back to back, SrcC = exactly the previous destination.
//
// On gfx90a a chain through the identical SrcC range needs no wait states; on CDNA3/4
// (gfx942, gfx950) it still does when the producer is a 2-pass MFMA (4x4 shapes): 2 wait
// states (../shared/isa/hazards.md gfx940+ "2-pass MFMA writes -> next MFMA reads the
// identical range as SrcC: 2", LLVM checkMAIHazards90A,
// GFX940_SMFMA4x4WritesVGPRFullSrcCWaitStates). Longer MFMAs chain back to back. Hardware
// may accumulate onto v[8:11] before the first result is written: out = (old v8) + 8
// instead of 8 + 8. The emulator's matrix pipe is busy until the first result lands, so the
// value comes out right here; linter and run-time monitor report the missing wait states.
// (The same file on gfx90a lints clean.) Fixed twin: 12_mfma_2pass_srcc_exact_fixed.s.
//
// gcnemu:
//   arch: gfx942
//   workgroup: 64
//   buffer out: f32[64] = nan
//   arg: out
//   expect out = 8 + 8                       # right in this model (the matrix pipe is busy until D lands)
//   expect hazard mfma-2pass-srcc-exact at 39
//   #   measured: 376 cycles; MFMA utilisation 0.043; stall cycles per wave: nop 20, pipe busy 4, waitcnt lgkmcnt 4
//   expect cycles: 338..414
//   expect mfma-utilisation: 0.036..0.049
//   expect stall nop: 16..24
//   expect stall pipe busy: 0..8
//   expect stall waitcnt lgkmcnt: 0..8
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
mfma_2pass_srcc_exact_wrong:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_mov_b32 v2, 0x3c003c00                  // A = 1.0 (f16 pairs) everywhere
	v_mov_b32 v3, 0x3c003c00
	v_mov_b32 v4, 0x40004000                  // B = 2.0 (f16 pairs) everywhere
	v_mov_b32 v5, 0x40004000
	v_lshlrev_b32 v20, 2, v0                  // byte offset of out[lane]
	s_nop 1                                   // VALU -> MFMA: 2 wait states (not the bug here)
	v_mfma_f32_4x4x4f16 v[8:11], v[2:3], v[4:5], 0 // D = A B: every element 4 x 1 x 2 = 8
	// BUG: accumulates into v[8:11] 0 wait states after the 2-pass MFMA that writes it
	v_mfma_f32_4x4x4f16 v[8:11], v[2:3], v[4:5], v[8:11] // D += A B: 16
	s_nop 4                                   // 2-pass XDL MFMA -> memory read: 5 wait states
	s_waitcnt lgkmcnt(0)
	global_store_dword v20, v8, s[4:5]
	s_endpgm
