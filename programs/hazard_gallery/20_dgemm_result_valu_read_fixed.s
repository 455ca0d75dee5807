// 20_dgemm_result_valu_read_fixed.s -- the fixed twin of 20_dgemm_result_valu_read_wrong.s:
// 11 wait states (s_nop 10) between v_mfma_f64_16x16x4f64 and the VALU instruction that
// reads its result, as gfx90a requires.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: f64[64] = nan
//   arg: out
//   expect out = 2 * 8                       # D = A B = 8 everywhere, doubled
//   expect hazards: none
//   #   measured: 404 cycles; MFMA utilisation 0.079; stall cycles per wave: nop 44
//   expect cycles: 363..445
//   expect mfma-utilisation: 0.067..0.092
//   expect stall nop: 37..51
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
dgemm_result_valu_read_fixed:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_mov_b32 v2, 0                           // A = 1.0 (f64) everywhere
	v_mov_b32 v3, 0x3ff00000
	v_mov_b32 v14, 0                          // B = 2.0 (f64) everywhere
	v_mov_b32 v15, 0x40000000
	v_mov_b32 v4, 0                           // D[0]'s old value: 0.0
	v_mov_b32 v5, 0
	v_lshlrev_b32 v20, 3, v0                  // byte offset of out[lane]
	s_nop 1                                   // VALU -> MFMA: 2 wait states
	v_mfma_f64_16x16x4f64 v[4:11], v[2:3], v[14:15], 0 // D = A B: every element 4 x 1 x 2 = 8
	s_nop 10                                  // FIX: DGEMM 16x16x4 -> VALU read: 11 wait states
	v_add_f64 v[16:17], v[4:5], v[4:5]
	s_waitcnt lgkmcnt(0)
	global_store_dwordx2 v20, v[16:17], s[4:5]
	s_endpgm
