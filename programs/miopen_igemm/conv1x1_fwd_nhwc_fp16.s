// conv1x1_fwd_nhwc_fp16.s -- a production MIOpen convolution kernel, run over its whole grid.
//
// The kernel is MIOpen's implicit-GEMM forward kernel for fp16 NHWC tensors on gfx90a,
// included below exactly as MIOpen ships it (the file next to this one, MIT, see LICENSE.txt;
// MIOpen src/kernels/dynamic_igemm/igemm_gtc_xdlops_nhwc_gfx90a/fwd_fp16/). Its name is its
// tiling: `_ex0` = 1x1 filters with stride 1 and no padding only, `_bt32x64x32` = each workgroup
// computes a 32 x 64 tile of the GEMM out[n*ho*wo, k] = in[n*ho*wo, c] @ wei[k, c]^T, 32 channels
// per loop iteration, with v_mfma_f32_16x16x4f16; `_ta..._1x4x1x32` = 4*32 = 128 work-items.
//
// The convolution: input 2 x 6 x 6 x 96 (n, h, w, c), weights 72 x 1 x 1 x 96 (k, y, x, c),
// output 2 x 6 x 6 x 72. GEMM M = 2*6*6 = 72 pixels -> 3 tiles of 32 (the last one 8 rows),
// N = 72 channels -> 2 tiles of 64 (the last one 8 columns), K = 96 -> 3 loop iterations, so
// the grid is 3 * 2 = 6 workgroups and every bounds check of the kernel is exercised.
//
// The kernel arguments are what MIOpen's host code passes (impl_gemm_dynamic.cpp): the sizes,
// then "magic" multiply-and-shift constants the kernel divides with (block id -> tile, pixel ->
// n, h, w): magic_0..3 for the divisors 2 (N tiles), 36 (ho*wo), 6 (wo) and 6 (tiles per
// group), their shifts one byte each in shift_pack_0. tools/miopen_igemm_host.py computes the
// header below for any shape this kernel supports (the comments here are added by hand):
//     python tools/miopen_igemm_host.py programs/miopen_igemm/igemm_fwd_gtcx2_nhwc_fp16_bx0_ex0_bt32x64x32_wt16x64x4_ws1x1_wr1x1_ta1x8x1x1_1x4x1x32_tb1x8x2x1_1x4x1x32.s \
//         --n 2 --c 96 --hi 6 --wi 6 --k 72 -o my_conv.s
// The `arg:` list names each argument as the kernel's `.amdgpu_metadata` does (`n_`, `y_` and
// `__pack_0` are MIOpen's spellings); gcnemu puts each at its metadata offset.
//
// The check: numpy's convolution in fp32 of the same fp16 inputs (here a matrix product, the
// filter being 1x1). Every fp16 product is exact in fp32 (11 x 11 significant bits) and the
// MFMA sums them in fp32, so the kernel and numpy differ by (a) the order of the fp32 additions
// of the same 96 products, at most 95 * 2^-24 * sum|products| <= 95 * 96 * 2^-24 each, twice
// that for the two: tol 0.0011 (inputs in [-1, 1)); and (b) the rounding of each output to fp16,
// half an fp16 ulp: rtol 2^-11. A wrong tile, pixel or channel is off by about 1. OUT starts as
// NaN, so an output the kernel never writes fails too.
//
// gcnemu:
//   arch: gfx90a
//   grid: 6
//   workgroup: 128
//   buffer IN: f16[2, 6, 6, 96] = rand(seed=1) * 2 - 1
//   buffer WEI: f16[72, 1, 1, 96] = rand(seed=2) * 2 - 1
//   buffer OUT: f16[2, 6, 6, 72] = nan
//   arg: p_in=IN, p_wei=WEI, p_out=OUT, hi=6, wi=6, n_=2, k=72, c=96, ho=6, wo=6, stride_h=1, stride_w=1, dilation_h=1, dilation_w=1, pad_h=0, pad_w=0, y_=1, x=1, group=1, magic_0=0x1, magic_1=0xc71c71c8, magic_2=0x55555556, magic_3=0x55555556, magic_4=0x1, magic_5=0x1, shift_pack_0=0x3030601, shift_pack_1=0x0, gemm_k_split=0, __pack_0=0
//   expect OUT = reshape(f32(reshape(IN, (72, 96))) @ transpose(f32(reshape(WEI, (72, 96)))), (2, 6, 6, 72)) : f32, tol 0.0011, rtol 0.00048828125
.include "igemm_fwd_gtcx2_nhwc_fp16_bx0_ex0_bt32x64x32_wt16x64x4_ws1x1_wr1x1_ta1x8x1x1_1x4x1x32_tb1x8x2x1_1x4x1x32.s"
