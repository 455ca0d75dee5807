// calibration: s_load_dword scalar cache hit latency (mt4g p-chase)
//   hardware: 48
//   unit: cycles latency
//   tolerance: 4 cycles
//   part: MI350P
//   target: gfx950
//   count: 16
//   method: mt4g's scalarL1 latency: a pointer chase of s_load_dword hits; here 16 s_load_dword + s_waitcnt lgkmcnt(0), each load's offset the previous load's result (the buffer holds zeros: every load hits the same line), in one s_memtime window
//   source: https://github.com/caps-tum/mt4g/blob/52701e7/sample_results/AMD_Instinct_MI350P.json (mt4g sample_results/AMD_Instinct_MI350P.json, scalarL1 latency)

// gcnemu:
//   workgroup: 64
//   buffer A: u32[16] = 0 -> s[4:5]

	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.text
	.p2align 8
calib:
	s_mov_b32 s6, 0
	s_load_dword s6, s[4:5], s6            // warm the line: the chase below hits
	s_waitcnt lgkmcnt(0)
	s_memtime s[20:21]
	s_waitcnt lgkmcnt(0)
	.rept 16
	s_load_dword s6, s[4:5], s6
	s_waitcnt lgkmcnt(0)
	.endr
	s_memtime s[22:23]
	s_waitcnt lgkmcnt(0)
	s_endpgm
