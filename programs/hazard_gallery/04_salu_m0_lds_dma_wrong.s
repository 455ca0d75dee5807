// 04_salu_m0_lds_dma_wrong.s -- WRONG ON PURPOSE: an LDS DMA load takes its LDS address from
// M0 in the very next instruction after an SALU wrote M0.
//
// buffer_load_dword ... lds writes lane i's dword to LDS at M0 + offset + 4 i. After an
// SALU write of M0 one wait state is needed before an LDS DMA reads it (LLVM
// checkReadM0Hazards; mesa: salu_wr_m0_then_lds); without it the DMA may use the old M0
// (here: 0, so the data would land at LDS 0 instead of 256). The emulator interlocks SALU
// results, so the data lands right here; linter and run-time monitor report the missing
// wait state.
// Fixed twin: 04_salu_m0_lds_dma_fixed.s.
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
//   expect hazard salu-m0-lds-dma at 33
//   #   measured: 996 cycles; stall cycles per wave: waitcnt vmcnt 600, waitcnt lgkmcnt 64
//   expect cycles: 896..1096
//   expect stall waitcnt vmcnt: 510..690
//   expect stall waitcnt lgkmcnt: 37..51
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
salu_m0_lds_dma_wrong:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	v_lshlrev_b32 v1, 2, v0                   // 4 * lane: source offset and LDS slot
	s_movk_i32 m0, 0x100                      // LDS destination: byte 256
	// BUG: the DMA reads M0 0 wait states after the SALU write
	buffer_load_dword v1, s[8:11], 0 offen lds
	s_waitcnt vmcnt(0)                        // the DMA has written LDS
	ds_read_b32 v2, v1 offset:256
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v2, s[4:5]
	s_endpgm
