// 01_mfma_result_valu_read_fixed.s -- the fixed twin of 01_mfma_result_valu_read_wrong.s:
// 11 wait states (s_nop 10) between the 8-pass MFMA and the VALU instruction that reads
// its result, as gfx90a requires (passes + 3). Independent work could fill them instead.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: f32[64] = nan
//   arg: out
//   expect out = 2 * 8                       # D = A B = 8 everywhere, doubled
//   expect hazards: none
//   #   measured: 388 cycles; MFMA utilisation 0.082; stall cycles per wave: nop 44
//   expect cycles: 349..427
//   expect mfma-utilisation: 0.070..0.095
//   expect stall nop: 37..51
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
mfma_result_valu_read_fixed:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_mov_b32 v1, 1.0                         // A = 1 everywhere
	v_mov_b32 v2, 2.0                         // B = 2 everywhere
	v_mov_b32 v4, 0                           // D's old value
	v_lshlrev_b32 v9, 2, v0                   // byte offset of out[lane]
	s_nop 1                                   // VALU -> MFMA: 2 wait states
	v_mfma_f32_16x16x4f32 v[4:7], v1, v2, 0   // D = A B: every element 4 x 1 x 2 = 8
	s_nop 10                                  // FIX: 8-pass MFMA -> VALU read: 11 wait states
	v_add_f32 v8, v4, v4
	s_waitcnt lgkmcnt(0)
	global_store_dword v9, v8, s[4:5]
	s_endpgm
