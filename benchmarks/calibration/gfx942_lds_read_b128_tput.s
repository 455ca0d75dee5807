// calibration: ds_read_b128 throughput, one wave
//   hardware: 16
//   unit: cycles/iteration
//   tolerance: 10%
//   part: MI308X
//   target: gfx942
//   count: 10
//   method: one wave per CU (no bank conflict); pyhip's throughput = (window of 11 independent loads + s_waitcnt lgkmcnt(0) - window of one load + wait) / 10, offsets 64 elements apart
//   baseline: one load + s_waitcnt lgkmcnt(0) (s[24:27]); each window waits for its start s_memtime first, so the two windows differ by the 10 extra loads only
//   source: https://github.com/tingqli/pyhip/blob/3b45d9d/docs/mem_latency.md (pyhip docs/mem_latency.md)

	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
	.p2align 8
calib:
	v_lshlrev_b32 v1, 4, v0
	s_memtime s[24:25]
	s_waitcnt lgkmcnt(0)                   // the start time has returned: the window holds the loads only
	ds_read_b128 v[10:13], v1
	s_waitcnt lgkmcnt(0)
	s_memtime s[26:27]
	s_waitcnt lgkmcnt(0)
	s_memtime s[20:21]
	s_waitcnt lgkmcnt(0)
	ds_read_b128 v[10:13], v1 offset:0
	ds_read_b128 v[14:17], v1 offset:1024
	ds_read_b128 v[18:21], v1 offset:2048
	ds_read_b128 v[22:25], v1 offset:3072
	ds_read_b128 v[26:29], v1 offset:4096
	ds_read_b128 v[30:33], v1 offset:5120
	ds_read_b128 v[34:37], v1 offset:6144
	ds_read_b128 v[38:41], v1 offset:7168
	ds_read_b128 v[42:45], v1 offset:8192
	ds_read_b128 v[46:49], v1 offset:9216
	ds_read_b128 v[50:53], v1 offset:10240
	s_waitcnt lgkmcnt(0)
	s_memtime s[22:23]
	s_waitcnt lgkmcnt(0)
	s_endpgm
