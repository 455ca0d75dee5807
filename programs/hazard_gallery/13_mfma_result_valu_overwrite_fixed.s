// 13_mfma_result_valu_overwrite_fixed.s -- the fixed twin of
// 13_mfma_result_valu_overwrite_wrong.s: the scratch write to v5 waits 11 wait states
// (s_nop 10) after the 8-pass MFMA whose destination contains v5, so the MFMA has written
// v[4:7] before the v_mov does. (Better still: a scratch register outside v[4:7].)
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: f32[64] = nan
//   arg: out
//   expect out = 8 + 3                       # D[0] + scratch
//   expect hazards: none
//   #   measured: 388 cycles; MFMA utilisation 0.082; stall cycles per wave: nop 44
//   expect cycles: 349..427
//   expect mfma-utilisation: 0.070..0.095
//   expect stall nop: 37..51
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
mfma_result_valu_overwrite_fixed:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_mov_b32 v1, 1.0                         // A = 1 everywhere
	v_mov_b32 v2, 2.0                         // B = 2 everywhere
	v_lshlrev_b32 v9, 2, v0                   // byte offset of out[lane]
	s_nop 1                                   // VALU -> MFMA: 2 wait states
	v_mfma_f32_16x16x4f32 v[4:7], v1, v2, 0   // D = A B: every element 4 x 1 x 2 = 8
	s_nop 10                                  // FIX: 8-pass MFMA -> VALU write (WAW): 11 wait states
	v_mov_b32 v5, 3.0                         // scratch
	v_add_f32 v8, v4, v5                      // D[0] + scratch
	s_waitcnt lgkmcnt(0)
	global_store_dword v9, v8, s[4:5]
	s_endpgm
