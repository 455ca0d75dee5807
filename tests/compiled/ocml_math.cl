// gcnemu test kernels (tests/test_ocml.py): OpenCL C math that calls ROCm's device libraries.
//
// sin/exp/log/pow come from ocml (__ocml_*_f32, __ocml_*_f64), get_global_id from ockl (__ockl_get_global_id),
// x / y is a correctly rounded division (v_div_scale/fmas/fixup), sqrt a correctly rounded one.
// Built at test time as the ROCm driver builds OpenCL, in two steps:
//   clang-22 -x cl -cl-std=CL2.0 -cl-kernel-arg-info -cl-fp32-correctly-rounded-divide-sqrt
//       -target amdgcn-amd-amdhsa -mcpu=TARGET -nogpulib -O2 -c -emit-llvm
//       -Xclang -mlink-builtin-bitcode -Xclang BITCODE/F.bc   (for F in opencl ocml ockl and the
//           oclc_* controls: isa_version_NNN, daz_opt_off, unsafe_math_off, finite_only_off,
//           correctly_rounded_sqrt_on, wavefrontsize64_on, abi_version_500)
//       -mllvm -force-attribute=__ocml_sin_f32:noinline  (and exp, log, pow, their _f64 forms,
//           __ockl_get_global_id)
//   llc-22 -O2 -mtriple=amdgcn-amd-amdhsa -mcpu=TARGET  ->  .s
// The force-attribute flags keep those library functions out of line, so the kernel reaches them
// through s_getpc_b64 + @rel32 relocations + s_swappc_b64 instead of inlining them.
//
// Each work-item writes seven results, one per call, so each is compared with its own bound. The
// second sine scales its argument by 2^13 (exactly) past 2^17, where ocml's argument reduction
// changes from the short Cody-Waite path to the long Payne-Hanek one.
__kernel void ocml_math(__global float *out, __global const float *x, __global const float *y, uint n) {
    size_t i = get_global_id(0);
    if (i < n) {
        float a = x[i], b = y[i];
        __global float *o = out + 7 * i;
        o[0] = sin(a);
        o[1] = exp(a);
        o[2] = log(b);
        o[3] = pow(b, a);
        o[4] = sqrt(b);
        o[5] = a / b;
        o[6] = sin(a * 0x1p13f);
    }
}

// The same in double precision: ocml's f64 routines (v_trig_preop_f64 in the long reduction, which
// f64 takes from 2^30 on, hence the scale of the second sine;
// v_div_scale/fmas/fixup_f64, v_rsq_f64, v_frexp, v_ldexp_f64 ...), sqrt and division correctly rounded.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void ocml_math_f64(__global double *out, __global const double *x, __global const double *y, uint n) {
    size_t i = get_global_id(0);
    if (i < n) {
        double a = x[i], b = y[i];
        __global double *o = out + 7 * i;
        o[0] = sin(a);
        o[1] = exp(a);
        o[2] = log(b);
        o[3] = pow(b, a);
        o[4] = sqrt(b);
        o[5] = a / b;
        o[6] = sin(a * 0x1p30);
    }
}
