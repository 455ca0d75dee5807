// lane_ids.s -- the lane-id and workitem-id idioms, written out per work-item.
//
// Setup: s[0:1] = kernarg pointer to {out: uint32*}; v0 = workitem id, packed on gfx90a
//        as x | y << 10 | z << 20. Workgroup of 8 x 4 x 3 = 96 work-items: 2 waves, the
//        second with only 32 active lanes (EXEC = 0x00000000ffffffff).
// Expect: for flat id t = x + 8 * y + 32 * z, out[4t .. 4t+3] = (lane id, x, y, z), where
//         lane id = t % 64 comes from v_mbcnt_lo/hi with an all-ones mask; dwords of
//         inactive lanes are never written.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 8x4x3
//   buffer out: u32[96,4] = 0xdeadbeef
//   arg: out
//   expect out[:, 0] = i % 64
//   expect out[:, 1] = i % 8
//   expect out[:, 2] = i // 8 % 4
//   expect out[:, 3] = i // 32
//   expect v2 = lane
//   expect exec = 0xffffffff : waves 1
//   expect hazards: none
//   expect cycles: 357..437
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
lane_ids:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	v_mbcnt_lo_u32_b32 v2, -1, 0           // lanes below me in the low half
	v_mbcnt_hi_u32_b32 v2, -1, v2          // ... plus the high half: lane id 0..63
	v_and_b32 v3, 0x3ff, v0                // x = v0[9:0]
	v_bfe_u32 v4, v0, 10, 10               // y = v0[19:10]
	v_bfe_u32 v5, v0, 20, 10               // z = v0[29:20]
	v_lshlrev_b32 v1, 3, v4                // 8 * y
	v_lshlrev_b32 v6, 5, v5                // 32 * z
	v_add3_u32 v1, v3, v1, v6              // flat id
	v_lshlrev_b32 v1, 4, v1                // 16 bytes per work-item
	s_waitcnt lgkmcnt(0)
	global_store_dwordx4 v1, v[2:5], s[4:5]  // (lane id, x, y, z); gfx90a wants an even first register
	s_endpgm
