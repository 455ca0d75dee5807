flat_load_dword v1, v[3:4] offset:0
flat_load_dword v1, v[3:4] offset:-1
flat_load_dword v1, v[3:4] offset:4095
flat_load_dword v1, v[3:4] offset:4096
flat_load_dword v1, v[3:4] offset:4 glc
flat_load_dword v1, v[3:4] offset:4 glc slc
flat_atomic_add v[3:4], v5 offset:8 slc
flat_atomic_add v[3:4], v5 inst_offset:8 slc
flat_atomic_cmpswap v[1:2], v[3:4] offset:4095
flat_atomic_cmpswap v[1:2], v[3:4] offset:4095 slc
flat_atomic_cmpswap v[1:2], v[3:4]
flat_atomic_cmpswap v[1:2], v[3:4] slc
flat_atomic_cmpswap v[1:2], v[3:4] offset:4095 glc
flat_atomic_cmpswap v[1:2], v[3:4] glc
flat_atomic_cmpswap v0, v[1:2], v[3:4] offset:4095 glc
flat_atomic_cmpswap v0, v[1:2], v[3:4] offset:4095 glc slc
flat_atomic_cmpswap v0, v[1:2], v[3:4] glc
flat_atomic_cmpswap v0, v[1:2], v[3:4] glc slc
flat_atomic_cmpswap v0, v[1:2], v[3:4]
flat_atomic_cmpswap v0, v[1:2], v[3:4] offset:4095
flat_atomic_cmpswap v0, v[1:2], v[3:4] slc
flat_atomic_swap v[3:4], v5 offset:16
flat_store_dword v[3:4], v1 offset:16
flat_store_dword v[3:4], v1, off
flat_store_dword v[3:4], v1, s[0:1]
flat_store_dword v[3:4], v1, s0
flat_load_dword v1, v[3:4], off
flat_load_dword v1, v[3:4], s[0:1]
flat_load_dword v1, v[3:4], s0
flat_load_dword v1, v[3:4], exec_hi
flat_store_dword v[3:4], v1, exec_hi
flat_load_ubyte_d16 v1, v[3:4]
flat_load_ubyte_d16_hi v1, v[3:4]
flat_load_sbyte_d16 v1, v[3:4]
flat_load_sbyte_d16_hi v1, v[3:4]
flat_load_short_d16 v1, v[3:4]
flat_load_short_d16_hi v1, v[3:4]
flat_store_byte_d16_hi v[3:4], v1
flat_store_short_d16_hi v[3:4], v1
