// 18_wide_store_data_overwrite_wrong.s -- WRONG ON PURPOSE (gfx942): the data VGPRs of a
// 128-bit store are overwritten by the next instruction.
//
// A vector memory store of more than 64 bits of data reads its data VGPRs after it issued.
// A VALU write to them needs 2 wait states on gfx942/gfx950 (1 on gfx908/gfx90a)
// (../shared/isa/hazards.md, LLVM checkVALUHazards / has12DWordStoreHazard: "wide store data
// VGPR overwritten"). Here each lane writes the first four of its 8 dwords with global_store_dwordx4
// and reuses v[4:7] for the next four at once; hardware may store the new v4 in the first
// four (out[lane, 0] = 8 lane + 4 instead of 8 lane). The emulator reads store data at issue, so
// the values come out right here; linter and run-time monitor report it.
// Fixed twin: 18_wide_store_data_overwrite_fixed.s.
//
// gcnemu:
//   arch: gfx942
//   workgroup: 64
//   buffer out: u32[64,8] = 0xffffffff
//   arg: out
//   expect out = i                           # right in this model (store data read at issue)
//   expect hazard wide-store-data-overwrite at 35
//   #   measured: 412 cycles; stall cycles per wave: waitcnt lgkmcnt 44
//   expect cycles: 370..454
//   expect stall waitcnt lgkmcnt: 13..19
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
wide_store_data_overwrite_wrong:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_lshlrev_b32 v1, 5, v0                   // 32 * lane: byte offset of out[lane, 0]
	v_lshlrev_b32 v4, 3, v0                   // 8 lane + 0..3: the first four dwords
	v_add_u32 v5, 1, v4
	v_add_u32 v6, 2, v4
	v_add_u32 v7, 3, v4
	s_waitcnt lgkmcnt(0)
	global_store_dwordx4 v1, v[4:7], s[4:5]
	// BUG: the store's data v4 is overwritten 0 wait states after it (v5..v7 later are fine)
	v_add_u32 v4, 4, v4                       // 8 lane + 4..7: the next four dwords
	v_add_u32 v1, 16, v1                      // byte offset of out[lane, 4]
	v_add_u32 v5, 4, v5
	v_add_u32 v6, 4, v6
	v_add_u32 v7, 4, v7
	global_store_dwordx4 v1, v[4:7], s[4:5]
	s_endpgm
