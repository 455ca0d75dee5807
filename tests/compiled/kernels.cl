// OpenCL C kernels written for gcnemu's tests (no third-party code): clang-22 compiles them for
// each target at test time, and the output is what compiled kernels look like to gcnemu:
// .set resource symbols with max()/or(), calls (s_swappc_b64), v_div_scale/fmas/fixup, 64-bit
// atomics, LDS with barriers, MFMA chains.
#define GID (__builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x())
__kernel void saxpy(__global float* y, __global const float* x, float a, int n) {
  int i = GID; if (i < n) y[i] = a * x[i] + y[i];
}
__kernel void reduce(__global float* out, __global const float* in, __local float* tmp) {
  int l = __builtin_amdgcn_workitem_id_x();
  tmp[l] = in[GID];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 32; s > 0; s >>= 1) { if (l < s) tmp[l] += tmp[l + s]; barrier(CLK_LOCAL_MEM_FENCE); }
  if (l == 0) out[__builtin_amdgcn_workgroup_id_x()] = tmp[0];
}
__kernel void divide(__global float* o, __global const float* a, __global double* d) {
  int i = GID; o[i] = a[i] / (a[i] + 1.0f) + __builtin_sqrtf(a[i]); d[i] = (double)a[i] / 3.0;
}
__kernel void atom64(__global ulong* c, __global uint* u) {
  __atomic_fetch_add(c, 1ul, __ATOMIC_RELAXED); __atomic_fetch_max(u, 7u, __ATOMIC_RELAXED);
}
typedef float v4f __attribute__((ext_vector_type(4)));
typedef float v16f __attribute__((ext_vector_type(16)));
__kernel void mfma(__global v16f* o, __global const float* a) {
  int l = __builtin_amdgcn_workitem_id_x();
  v16f acc = o[l];
  for (int k = 0; k < 4; k++) acc = __builtin_amdgcn_mfma_f32_32x32x2f32(a[l + k], a[l + 64 + k], acc, 0, 0, 0);
  o[l] = acc;
}
__attribute__((noinline)) float helper(float x) { return x * x + 1.0f; }
__kernel void calls(__global float* o) { int i = GID; o[i] = helper(o[i]); }
