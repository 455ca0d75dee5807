// 06_lds_dma_read_before_vmcnt_fixed.s -- the fixed twin of 06_lds_dma_read_before_vmcnt_wrong.s:
// s_waitcnt vmcnt(0) (the DMA's counter) before the ds_read (and lgkmcnt(0) for the s_load).
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer src: u32[64] = 7 * i + 1 -> rsrc s[8:11]
//   buffer out: u32[64] = 0
//   arg: out
//   lds: u32[64] = 0xdead
//   expect out = src
//   expect hazards: none
//   #   measured: 996 cycles; stall cycles per wave: waitcnt vmcnt 600, waitcnt lgkmcnt 64
//   expect cycles: 896..1096
//   expect stall waitcnt vmcnt: 510..690
//   expect stall waitcnt lgkmcnt: 37..51
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
lds_dma_read_before_vmcnt_fixed:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	s_mov_b32 m0, 0                           // LDS destination of lane 0
	v_lshlrev_b32 v1, 2, v0                   // 4 * lane: source offset and LDS slot
	buffer_load_dword v1, s[8:11], 0 offen lds
	s_waitcnt vmcnt(0) lgkmcnt(0)             // FIX: the DMA counts on vmcnt
	ds_read_b32 v2, v1
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v2, s[4:5]
	s_endpgm
