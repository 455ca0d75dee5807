// 12_mfma_2pass_srcc_exact_fixed.s -- the fixed twin of 12_mfma_2pass_srcc_exact_wrong.s:
// 2 wait states (s_nop 1) between the 2-pass MFMA and the MFMA that accumulates into its
// result, as gfx942 requires. In a real kernel, interleave two independent chains instead.
//
// gcnemu:
//   arch: gfx942
//   workgroup: 64
//   buffer out: f32[64] = nan
//   arg: out
//   expect out = 8 + 8                       # two K = 4 steps of 1 x 2
//   expect hazards: none
//   #   measured: 376 cycles; MFMA utilisation 0.043; stall cycles per wave: nop 24
//   expect cycles: 338..414
//   expect mfma-utilisation: 0.036..0.049
//   expect stall nop: 20..28
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
mfma_2pass_srcc_exact_fixed:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_mov_b32 v2, 0x3c003c00                  // A = 1.0 (f16 pairs) everywhere
	v_mov_b32 v3, 0x3c003c00
	v_mov_b32 v4, 0x40004000                  // B = 2.0 (f16 pairs) everywhere
	v_mov_b32 v5, 0x40004000
	v_lshlrev_b32 v20, 2, v0                  // byte offset of out[lane]
	s_nop 1                                   // VALU -> MFMA: 2 wait states
	v_mfma_f32_4x4x4f16 v[8:11], v[2:3], v[4:5], 0 // D = A B: every element 4 x 1 x 2 = 8
	s_nop 1                                   // FIX: 2-pass MFMA -> identical SrcC: 2 wait states
	v_mfma_f32_4x4x4f16 v[8:11], v[2:3], v[4:5], v[8:11] // D += A B: 16
	s_nop 4                                   // 2-pass XDL MFMA -> memory read: 5 wait states
	s_waitcnt lgkmcnt(0)
	global_store_dword v20, v8, s[4:5]
	s_endpgm
