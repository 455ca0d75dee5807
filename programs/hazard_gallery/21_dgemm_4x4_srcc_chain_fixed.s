// 21_dgemm_4x4_srcc_chain_fixed.s -- the fixed twin of 21_dgemm_4x4_srcc_chain_wrong.s: 4
// wait states (s_nop 3) between the two chained v_mfma_f64_4x4x4f64. In a real kernel,
// interleave independent accumulators instead.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: f64[64] = nan
//   arg: out
//   expect out = 4 + 4                       # two K = 4 steps of 1 x 1
//   expect hazards: none
//   #   measured: 404 cycles; MFMA utilisation 0.079; stall cycles per wave: nop 48
//   expect cycles: 363..445
//   expect mfma-utilisation: 0.067..0.092
//   expect stall nop: 40..56
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
dgemm_4x4_srcc_chain_fixed:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_mov_b32 v2, 0                           // A = 1.0 (f64) everywhere
	v_mov_b32 v3, 0x3ff00000
	v_mov_b32 v6, 0                           // B = 1.0 (f64) everywhere
	v_mov_b32 v7, 0x3ff00000
	v_lshlrev_b32 v20, 3, v0                  // byte offset of out[lane]
	s_nop 1                                   // VALU -> MFMA: 2 wait states
	v_mfma_f64_4x4x4f64 v[4:5], v[2:3], v[6:7], 0 // D = A B: every element 4 x 1 x 1 = 4
	s_nop 3                                   // FIX: DGEMM 4x4x4 -> identical SrcC: 4 wait states
	v_mfma_f64_4x4x4f64 v[4:5], v[2:3], v[6:7], v[4:5] // D += A B: 8
	s_nop 8                                   // DGEMM 4x4x4 -> memory read: 9 wait states
	s_waitcnt lgkmcnt(0)
	global_store_dwordx2 v20, v[4:5], s[4:5]
	s_endpgm
