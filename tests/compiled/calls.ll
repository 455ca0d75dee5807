; Calls between functions of one file, written for gcnemu's tests (no third-party code) and
; compiled with llc-22 at test time (tests/test_calls.py) for gfx908, gfx90a, gfx942, gfx950.
; What llc makes of it: arguments and results in VGPRs; `twice` calls `square_plus` (it saves
; s[30:31] in a VGPR lane and keeps a frame through s32/s33); `fact` is recursive and keeps its
; state in scratch (buffer_* on the private segment buffer on gfx908/gfx90a, scratch_* on
; gfx942/gfx950); `scaled` has external linkage, so the kernel loads its address from the GOT
; (@gotpcrel32) instead of computing it (@rel32); `weights` is a constant table in .rodata that
; the kernel addresses with @rel32 and reads with a global load.
;   out[i] = twice(square_plus(x[i], 3)) + fact(i & 7) + scaled(x[i]) + weights[i & 7]
target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.workitem.id.x()

@weights = internal addrspace(4) constant [8 x float] [float 0.25, float 0.5, float 0.75, float 1.0,
                                                     float 1.25, float 1.5, float 1.75, float 2.0]

define internal float @square_plus(float %x, i32 %k) #0 {
  %kf = sitofp i32 %k to float
  %sq = fmul float %x, %x
  %r = fadd float %sq, %kf
  ret float %r
}

define internal float @twice(float %x) #0 {
  %a = call float @square_plus(float %x, i32 0)
  %b = fadd float %a, %x
  %c = fmul float %b, 2.0
  ret float %c
}

define internal i32 @fact(i32 %n) #0 {
  %z = icmp ule i32 %n, 1
  br i1 %z, label %one, label %rec
one:
  ret i32 1
rec:
  %m = sub i32 %n, 1
  %f = call i32 @fact(i32 %m)
  %r = mul i32 %f, %n
  ret i32 %r
}

define float @scaled(float %x) #0 {
  %r = fmul float %x, 0.5
  ret float %r
}

define amdgpu_kernel void @calls(ptr addrspace(1) %out, ptr addrspace(1) %x) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %px = getelementptr float, ptr addrspace(1) %x, i32 %tid
  %v = load float, ptr addrspace(1) %px
  %a = call float @square_plus(float %v, i32 3)
  %b = call float @twice(float %a)
  %n = and i32 %tid, 7
  %f = call i32 @fact(i32 %n)
  %ff = sitofp i32 %f to float
  %s = call float @scaled(float %v)
  %r0 = fadd float %b, %ff
  %r1 = fadd float %r0, %s
  %pw = getelementptr [8 x float], ptr addrspace(4) @weights, i32 0, i32 %n
  %w = load float, ptr addrspace(4) %pw
  %r = fadd float %r1, %w
  %po = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %r, ptr addrspace(1) %po
  ret void
}

attributes #0 = { noinline }
