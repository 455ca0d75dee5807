.text
k:
  s_endpgm
.rodata
.amdhsa_kernel k
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 8
  .amdhsa_reserve_xnack_mask 0
  .amdhsa_ieee_mode 0
  .amdhsa_dx10_clamp 0
.end_amdhsa_kernel
.amdhsa_kernel k2
  .amdhsa_next_free_sgpr 8
  .amdhsa_ieee_mode 0
.end_amdhsa_kernel
.amdhsa_kernel k3
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 6
.end_amdhsa_kernel
.amdhsa_kernel k4
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 12
.end_amdhsa_kernel
.amdhsa_kernel k5
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 8
  .amdhsa_ieee_mode 0
  .amdhsa_ieee_mode 0
  .amdhsa_bogus 1
.end_amdhsa_kernel
