; test_buffer_rsrc.s -- buffer loads through a V# the header builds, with range checking.
;
; The source buffer holds 48 dwords, so its descriptor has num_records = 192 bytes:
; lanes 48..63 read past the end and get 0 (the hardware's range check), and the store
; of lanes past the end of `dst` would be dropped the same way.
;
; gcnemu:
;   arch: gfx90a
;   workgroup: 64
;   buffer src: i32[48] = i - 24 -> rsrc s[8:11]
;   buffer dst: i32[64] = 7 -> rsrc s[12:15]
;   vgpr v1 = lane * 4
;   sgpr s4 = 0
;   expect v2 = where(lane < 48, lane - 24, 0) : i32
;   expect dst = where(i < 48, i - 24, 0) : i32
;   expect src = i - 24
;   expect hazards: none
	.text
buffer_rsrc:
	buffer_load_dword v2, v1, s[8:11], s4 offen
	s_waitcnt vmcnt(0)
	buffer_store_dword v2, v1, s[12:15], s4 offen
	s_waitcnt vmcnt(0)
	s_endpgm
