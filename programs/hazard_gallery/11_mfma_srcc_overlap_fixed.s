// 11_mfma_srcc_overlap_fixed.s -- the fixed twin of 11_mfma_srcc_overlap_wrong.s: 8 wait
// states (s_nop 7) between the 8-pass MFMA and the MFMA whose SrcC v[6:9] overlaps its
// destination v[4:7], as gfx90a requires for an overlapped, not identical, SrcC.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: f32[64] = nan
//   arg: out
//   expect out = 8 + 8                       # E[0] = A B + v6 = 8 + 8
//   expect hazards: none
//   #   measured: 432 cycles; MFMA utilisation 0.148; stall cycles per wave: nop 72
//   expect cycles: 388..476
//   expect mfma-utilisation: 0.125..0.171
//   expect stall nop: 61..83
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
mfma_srcc_overlap_fixed:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_mov_b32 v1, 1.0                         // A = 1 everywhere
	v_mov_b32 v2, 2.0                         // B = 2 everywhere
	v_mov_b32 v6, 1.0                         // old values of D's upper half
	v_mov_b32 v7, 1.0
	v_mov_b32 v8, 0.5                         // C' = v[6:9]: v8, v9 are not part of D
	v_mov_b32 v9, 0.5
	v_lshlrev_b32 v20, 2, v0                  // byte offset of out[lane]
	s_nop 1                                   // VALU -> MFMA: 2 wait states
	v_mfma_f32_16x16x4f32 v[4:7], v1, v2, 0   // D = A B: every element 4 x 1 x 2 = 8
	s_nop 7                                   // FIX: 8-pass MFMA -> overlapped SrcC: 8 wait states
	v_mfma_f32_16x16x4f32 v[10:13], v1, v2, v[6:9] // E = A B + C': E[0] = 8 + v6 = 16
	s_nop 10                                  // 8-pass MFMA -> memory read: 11 wait states
	s_waitcnt lgkmcnt(0)
	global_store_dword v20, v10, s[4:5]
	s_endpgm
