// 02_valu_write_mfma_read_fixed.s -- the fixed twin of 02_valu_write_mfma_read_wrong.s:
// two wait states between the VALU write of v2 and the MFMA that reads it. Here the
// address computation is moved between them instead of an s_nop 1 (free wait states).
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: f32[64] = nan
//   arg: out
//   expect out = 8
//   expect hazards: none
//   #   measured: 376 cycles; MFMA utilisation 0.085; stall cycles per wave: nop 40
//   expect cycles: 338..414
//   expect mfma-utilisation: 0.072..0.098
//   expect stall nop: 34..46
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
valu_write_mfma_read_fixed:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_mov_b32 v1, 1.0                         // A = 1 everywhere
	v_mov_b32 v2, 2.0                         // B = 2 everywhere
	v_lshlrev_b32 v9, 2, v0                   // FIX: independent work as wait state 1 ...
	s_nop 0                                   // ... and wait state 2
	v_mfma_f32_16x16x4f32 v[4:7], v1, v2, 0   // D = A B = 8 everywhere
	s_nop 10                                  // 8-pass MFMA -> memory read: 11 wait states
	s_waitcnt lgkmcnt(0)
	global_store_dword v9, v4, s[4:5]
	s_endpgm
