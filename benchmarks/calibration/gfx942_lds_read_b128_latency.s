// calibration: ds_read_b128 latency (no bank conflict)
//   hardware: 50
//   unit: cycles latency
//   tolerance: 4 cycles
//   part: MI308X
//   target: gfx942
//   count: 16
//   method: one wave per CU (no bank conflict); pyhip times one load + s_waitcnt lgkmcnt(0) between two s_memtime (the s_memtime overhead, about 4 cycles, included); here a pointer chase of 16 such loads in one s_memtime window
//   source: https://github.com/tingqli/pyhip/blob/3b45d9d/docs/mem_latency.md (pyhip docs/mem_latency.md)

	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.p2align 8
calib:
	v_lshlrev_b32 v6, 4, v0                // lane i reads 16 bytes at 16*i (no conflict)
	ds_write_b32 v6, v6                    // each slot's first dword holds its own address
	s_waitcnt lgkmcnt(0)
	s_memtime s[20:21]
	.rept 8
	ds_read_b128 v[2:5], v6
	s_waitcnt lgkmcnt(0)
	ds_read_b128 v[6:9], v2
	s_waitcnt lgkmcnt(0)
	.endr
	s_memtime s[22:23]
	s_waitcnt lgkmcnt(0)
	s_endpgm
