// LDS index with a run-time negative part: clang-22 -O2 computes (i - n) * 4 into the VGPR and
// folds the constant "+ 4" elements into the DS instruction (ds_read_b32 v0, v0 offset:16), so for
// n = 4 lane 0's VGPR holds 0xFFFFFFF0 and only the 32-bit sum with the offset is address 0.
__kernel void shifted(__global int *o, int n) {
  __local int t[64];
  int i = __builtin_amdgcn_workitem_id_x();
  t[i] = i * 10;
  __builtin_amdgcn_s_barrier();
  o[i] = t[(i - n) + 4];
}
