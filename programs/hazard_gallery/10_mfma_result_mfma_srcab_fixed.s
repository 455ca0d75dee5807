// 10_mfma_result_mfma_srcab_fixed.s -- the fixed twin of 10_mfma_result_mfma_srcab_wrong.s:
// 11 wait states (s_nop 10) between the 8-pass MFMA and the MFMA that reads its result as
// SrcA, as gfx90a requires (passes + 3). In a real kernel other MFMAs fill them.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: f32[64] = nan
//   arg: out
//   expect out = 4 * 8 * 2                   # E = (A B) B = 64 everywhere
//   expect hazards: none
//   #   measured: 432 cycles; MFMA utilisation 0.148; stall cycles per wave: nop 84
//   expect cycles: 388..476
//   expect mfma-utilisation: 0.125..0.171
//   expect stall nop: 71..97
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
mfma_result_mfma_srcab_fixed:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_mov_b32 v1, 1.0                         // A = 1 everywhere
	v_mov_b32 v2, 2.0                         // B = 2 everywhere
	v_mov_b32 v4, 1.0                         // D's old value
	v_lshlrev_b32 v9, 2, v0                   // byte offset of out[lane]
	s_nop 1                                   // VALU -> MFMA: 2 wait states
	v_mfma_f32_16x16x4f32 v[4:7], v1, v2, 0   // D = A B: every element 4 x 1 x 2 = 8
	s_nop 10                                  // FIX: 8-pass MFMA -> MFMA SrcA/B: 11 wait states
	v_mfma_f32_16x16x4f32 v[10:13], v4, v2, 0 // E = D B: every element 4 x 8 x 2 = 64
	s_nop 10                                  // 8-pass MFMA -> memory read: 11 wait states
	s_waitcnt lgkmcnt(0)
	global_store_dword v9, v10, s[4:5]
	s_endpgm
