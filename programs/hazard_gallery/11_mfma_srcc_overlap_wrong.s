// 11_mfma_srcc_overlap_wrong.s -- WRONG ON PURPOSE: an MFMA's SrcC partly overlaps (but is not
// identical to) the destination of the MFMA right before it.
//
// Accumulating into exactly the previous result (SrcC = the same registers as its D) is the
// one case the matrix core forwards: 0 wait states on gfx90a. A SrcC that only *overlaps*
// it (here v[6:9] against D = v[4:7]) is not forwarded: after an 8-pass MFMA, 8 wait states
// are required on gfx90a (../shared/isa/hazards.md gfx90a "SMFMA writes -> next SMFMA reads
// overlapped-not-identical as SrcC 2/8/16", LLVM checkMAIHazards90A). Hardware may add the
// old v6, v7 (1.0) instead of D's 8.0: out = 8 + 1 instead of 8 + 8.
// In the emulator the second MFMA waits for the matrix pipe ("pipe busy"), by which time D
// has landed, so the value comes out right here; linter and run-time monitor report it.
// Fixed twin: 11_mfma_srcc_overlap_fixed.s.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: f32[64] = nan
//   arg: out
//   expect out = 8 + 8                       # right in this model (the matrix pipe is busy until D lands)
//   expect hazard xdl-result-xdl-srcc-partial at 40
//   #   measured: 428 cycles; MFMA utilisation 0.150; stall cycles per wave: nop 44, pipe busy 28
//   expect cycles: 385..471
//   expect mfma-utilisation: 0.127..0.172
//   expect stall nop: 37..51
//   expect stall pipe busy: 23..33
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
mfma_srcc_overlap_wrong:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_mov_b32 v1, 1.0                         // A = 1 everywhere
	v_mov_b32 v2, 2.0                         // B = 2 everywhere
	v_mov_b32 v6, 1.0                         // old values of D's upper half
	v_mov_b32 v7, 1.0
	v_mov_b32 v8, 0.5                         // C' = v[6:9]: v8, v9 are not part of D
	v_mov_b32 v9, 0.5
	v_lshlrev_b32 v20, 2, v0                  // byte offset of out[lane]
	s_nop 1                                   // VALU -> MFMA: 2 wait states (not the bug here)
	v_mfma_f32_16x16x4f32 v[4:7], v1, v2, 0   // D = A B: every element 4 x 1 x 2 = 8
	// BUG: SrcC v[6:9] overlaps D v[4:7] (not identical) 0 wait states after the MFMA
	v_mfma_f32_16x16x4f32 v[10:13], v1, v2, v[6:9] // E = A B + C': E[0] = 8 + v6 = 16
	s_nop 10                                  // 8-pass MFMA -> memory read: 11 wait states
	s_waitcnt lgkmcnt(0)
	global_store_dword v20, v10, s[4:5]
	s_endpgm
