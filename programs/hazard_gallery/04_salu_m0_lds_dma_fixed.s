// 04_salu_m0_lds_dma_fixed.s -- the fixed twin of 04_salu_m0_lds_dma_wrong.s: M0 is set
// before the address computation, which provides the one wait state the LDS DMA needs.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer src: u32[64] = 1000 + i -> rsrc s[8:11]
//   buffer out: u32[64] = 0
//   arg: out
//   sgpr m0 = 0
//   expect lds[256]: u32[64] = src
//   expect out = src
//   expect hazards: none
//   #   measured: 996 cycles; stall cycles per wave: waitcnt vmcnt 600, waitcnt lgkmcnt 64
//   expect cycles: 896..1096
//   expect stall waitcnt vmcnt: 510..690
//   expect stall waitcnt lgkmcnt: 37..51
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
salu_m0_lds_dma_fixed:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	s_movk_i32 m0, 0x100                      // LDS destination: byte 256
	v_lshlrev_b32 v1, 2, v0                   // FIX: one instruction between the M0 write and the DMA
	buffer_load_dword v1, s[8:11], 0 offen lds
	s_waitcnt vmcnt(0)                        // the DMA has written LDS
	ds_read_b32 v2, v1 offset:256
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v2, s[4:5]
	s_endpgm
