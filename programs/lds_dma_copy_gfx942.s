// lds_dma_copy_gfx942.s -- copy global -> LDS (global_load_lds_dword, M0) -> VGPRs -> global.
//
// Setup: s[0:1] = kernarg pointer to {src: uint32*, dst: uint32*}; v0 = workitem id x;
//        one workgroup of 128 work-items (2 waves).
// Expect: dst[i] == src[i + 1] for every work-item i: the instruction offset (4) applies
//         to the global address and to the LDS address (M0[17:2] * 4 + 4 + lane * 4), so
//         the ds_read adds the same 4.
// Shows: gfx942's global_load_lds_dword with an SGPR base, M0 per wave, vmcnt before ds_read.
//
// gcnemu:
//   arch: gfx942
//   workgroup: 128
//   buffer src: u32[129] = i * 7 + 1
//   buffer dst: u32[128] = 0
//   arg: src, dst
//   expect dst = src[1:129]
//   expect lds[4]: u32[128] = src[1:129]
//   expect hazards: none
//   expect cycles: 958..1172
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
lds_dma_copy_gfx942:
	s_load_dwordx4 s[4:7], s[0:1], 0x0     // src, dst
	v_and_b32 v1, 0x3ff, v0
	v_lshlrev_b32 v1, 2, v1                // byte offset
	s_nop 0                                // gfx94x: 1 wait state from a VALU VGPR write to v_readfirstlane
	v_readfirstlane_b32 s8, v1
	s_mov_b32 m0, s8                       // this wave's LDS base
	s_waitcnt lgkmcnt(0)
	global_load_lds_dword v1, s[4:5] offset:4
	s_waitcnt vmcnt(0)
	ds_read_b32 v2, v1 offset:4
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v2, s[6:7]
	s_endpgm
