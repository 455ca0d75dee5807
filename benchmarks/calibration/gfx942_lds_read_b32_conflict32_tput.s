// calibration: ds_read_b32 throughput, full bank conflict (stride 32 dwords)
//   hardware: 64
//   unit: cycles/iteration
//   tolerance: 10%
//   part: MI308X
//   target: gfx942
//   count: 10
//   method: one wave per CU (stride 32 dwords: every lane in one bank); pyhip's throughput = (window of 11 independent loads + s_waitcnt lgkmcnt(0) - window of one load + wait) / 10, offsets 64 elements apart
//   baseline: one load + s_waitcnt lgkmcnt(0) (s[24:27]); each window waits for its start s_memtime first, so the two windows differ by the 10 extra loads only
//   source: https://github.com/tingqli/pyhip/blob/3b45d9d/docs/mem_latency.md (pyhip docs/mem_latency.md)

	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.p2align 8
calib:
	v_lshlrev_b32 v1, 7, v0
	s_memtime s[24:25]
	s_waitcnt lgkmcnt(0)                   // the start time has returned: the window holds the loads only
	ds_read_b32 v10, v1
	s_waitcnt lgkmcnt(0)
	s_memtime s[26:27]
	s_waitcnt lgkmcnt(0)
	s_memtime s[20:21]
	s_waitcnt lgkmcnt(0)
	ds_read_b32 v10, v1 offset:0
	ds_read_b32 v11, v1 offset:256
	ds_read_b32 v12, v1 offset:512
	ds_read_b32 v13, v1 offset:768
	ds_read_b32 v14, v1 offset:1024
	ds_read_b32 v15, v1 offset:1280
	ds_read_b32 v16, v1 offset:1536
	ds_read_b32 v17, v1 offset:1792
	ds_read_b32 v18, v1 offset:2048
	ds_read_b32 v19, v1 offset:2304
	ds_read_b32 v20, v1 offset:2560
	s_waitcnt lgkmcnt(0)
	s_memtime s[22:23]
	s_waitcnt lgkmcnt(0)
	s_endpgm
