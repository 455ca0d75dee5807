// 21_dgemm_4x4_srcc_chain_wrong.s -- WRONG ON PURPOSE: two v_mfma_f64_4x4x4f64 back to back,
// the second accumulating into the first's result (SrcC = exactly its destination).
//
// For single-precision MFMAs this chain needs no wait states on gfx90a (the matrix core
// forwards an identical SrcC); the f64 4x4x4 DGEMM does not forward it: 4 wait states are
// required on gfx90a, gfx942 and gfx950 (../shared/isa/hazards.md gfx90a "any MFMA writes ->
// next MFMA reads the identical range as SrcC: 0 (but DGEMM 4x4x4 after DGEMM 4x4x4: 4)",
// LLVM checkMAIHazards90A DMFMA4x4WritesVGPRFullSrcCWaitStates). Hardware may accumulate onto
// v[4:5] before the first result is written: out = (old v[4:5]) + 4 instead of 4 + 4. The
// emulator's fp64 pipe is busy until the first result lands, so the value comes out right
// here; linter and run-time monitor report the missing wait states.
// Fixed twin: 21_dgemm_4x4_srcc_chain_fixed.s.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: f64[64] = nan
//   arg: out
//   expect out = 4 + 4                       # right in this model (the pipe is busy until D lands)
//   expect hazard dgemm4x4-srcc-exact at 38
//   #   measured: 400 cycles; MFMA utilisation 0.080; stall cycles per wave: nop 36, pipe busy 12
//   expect cycles: 360..440
//   expect mfma-utilisation: 0.068..0.092
//   expect stall nop: 30..42
//   expect stall pipe busy: 8..16
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
dgemm_4x4_srcc_chain_wrong:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_mov_b32 v2, 0                           // A = 1.0 (f64) everywhere
	v_mov_b32 v3, 0x3ff00000
	v_mov_b32 v6, 0                           // B = 1.0 (f64) everywhere
	v_mov_b32 v7, 0x3ff00000
	v_lshlrev_b32 v20, 3, v0                  // byte offset of out[lane]
	s_nop 1                                   // VALU -> MFMA: 2 wait states (not the bug here)
	v_mfma_f64_4x4x4f64 v[4:5], v[2:3], v[6:7], 0 // D = A B: every element 4 x 1 x 1 = 4
	// BUG: accumulates into v[4:5] 0 wait states after the DGEMM 4x4x4 that writes it
	v_mfma_f64_4x4x4f64 v[4:5], v[2:3], v[6:7], v[4:5] // D += A B: 8
	s_nop 8                                   // DGEMM 4x4x4 -> memory read: 9 wait states
	s_waitcnt lgkmcnt(0)
	global_store_dwordx2 v20, v[4:5], s[4:5]
	s_endpgm
