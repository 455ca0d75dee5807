// 07_ds_read_before_lgkmcnt_fixed.s -- the fixed twin of 07_ds_read_before_lgkmcnt_wrong.s:
// s_waitcnt lgkmcnt(0) before the ds_read result is used.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer out: u32[64] = 0xffffffff
//   arg: out
//   expect out = 5 * (arange(64) ^ 1) + 100
//   expect hazards: none
//   #   measured: 404 cycles; stall cycles per wave: waitcnt lgkmcnt 64
//   expect cycles: 363..445
//   expect stall waitcnt lgkmcnt: 37..51
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
ds_read_before_lgkmcnt_fixed:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_lshlrev_b32 v1, 2, v0                   // 4 * lane
	v_mul_u32_u24 v2, 5, v0                   // lane * 5
	v_xor_b32 v4, 4, v1                       // the neighbour's slot: 4 * (lane ^ 1)
	v_mov_b32 v3, 0                           // v3's old value
	ds_write_b32 v1, v2
	ds_read_b32 v3, v4                        // LDS is in order: sees the write above
	s_waitcnt lgkmcnt(0)                      // FIX: the read (and the s_load) have returned
	v_add_u32 v5, 0x64, v3
	global_store_dword v1, v5, s[4:5]
	s_endpgm
