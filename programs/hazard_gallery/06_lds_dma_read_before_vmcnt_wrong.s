// 06_lds_dma_read_before_vmcnt_wrong.s -- WRONG ON PURPOSE: ds_read reads LDS that an LDS DMA
// load is still writing, after waiting on the wrong counter.
//
// An LDS DMA (buffer_load_dword ... lds, global_load_lds_dword) is a *vector memory*
// operation: it is counted by vmcnt, not lgkmcnt, even though its data goes to LDS. The
// s_waitcnt lgkmcnt(0) here waits for nothing useful; the ds_read sees LDS before the DMA
// landed (the 0xdead fill), so out gets 0xdead. Fixed twin: 06_lds_dma_read_before_vmcnt_fixed.s.
//
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
//   buffer src: u32[64] = 7 * i + 1 -> rsrc s[8:11]
//   buffer out: u32[64] = 0
//   arg: out
//   lds: u32[64] = 0xdead
//   expect out = 0xdead                      # LDS before the DMA landed: the bug made visible
//   expect hazard lds-dma-read-before-vmcnt at 30
//   #   measured: 616 cycles; stall cycles per wave: waitcnt lgkmcnt 116
//   expect cycles: 554..678
//   expect stall waitcnt lgkmcnt: 57..79
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
lds_dma_read_before_vmcnt_wrong:
	s_load_dwordx2 s[4:5], s[0:1], 0x0        // out
	s_mov_b32 m0, 0                           // LDS destination of lane 0
	v_lshlrev_b32 v1, 2, v0                   // 4 * lane: source offset and LDS slot
	buffer_load_dword v1, s[8:11], 0 offen lds
	// BUG: lgkmcnt does not count the DMA; vmcnt(0) was needed
	s_waitcnt lgkmcnt(0)
	ds_read_b32 v2, v1
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v2, s[4:5]
	s_endpgm
