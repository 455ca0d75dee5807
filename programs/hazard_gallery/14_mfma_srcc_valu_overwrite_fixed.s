// 14_mfma_srcc_valu_overwrite_fixed.s -- the fixed twin of 14_mfma_srcc_valu_overwrite_wrong.s:
// v4, the MFMA's SrcC, is overwritten 7 wait states after the 8-pass MFMA (s_nop 6), when
// the matrix core has read it.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: f32[64] = nan
//   arg: out
//   expect out = 8 + 1                       # D = A B + C
//   expect hazards: none
//   #   measured: 396 cycles; MFMA utilisation 0.081; stall cycles per wave: nop 36
//   expect cycles: 356..436
//   expect mfma-utilisation: 0.068..0.093
//   expect stall nop: 30..42
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
mfma_srcc_valu_overwrite_fixed:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_mov_b32 v1, 1.0                         // A = 1 everywhere
	v_mov_b32 v2, 2.0                         // B = 2 everywhere
	v_mov_b32 v4, 1.0                         // C = 1 everywhere
	v_mov_b32 v5, 1.0
	v_mov_b32 v6, 1.0
	v_mov_b32 v7, 1.0
	v_lshlrev_b32 v9, 2, v0                   // byte offset of out[lane]
	s_nop 1                                   // VALU -> MFMA: 2 wait states
	v_mfma_f32_16x16x4f32 v[10:13], v1, v2, v[4:7] // D = A B + C = 8 + 1
	s_nop 6                                   // FIX: SrcC of an 8-pass MFMA -> VALU write (WAR): 7 wait states
	v_mov_b32 v4, 0x42c80000                  // v4 = 100.0, for later use
	s_nop 2                                   // 8-pass MFMA -> memory read: 11 wait states
	s_waitcnt lgkmcnt(0)
	global_store_dword v9, v10, s[4:5]
	s_endpgm
