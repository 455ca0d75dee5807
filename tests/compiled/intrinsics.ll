; IR using the intrinsics and atomics compiled kernels reach that gcnemu once could not run (written
; for gcnemu's tests; compiled by llc-22 at test time for gfx908/gfx90a/gfx942/gfx950):
; LDS atomics of every width (integer, float, cmpxchg, inc/dec wrap, packed f16/bf16 adds), global
; f64 atomics, s_memtime/s_memrealtime, llvm.trap (s_trap 2), trig_preop (sin/cos of doubles)
; and the quad SADs. tests/test_corpus_executes.py pins that check --list-unmodelled lists none
; of the instructions llc makes of it.
target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.workitem.id.x()
declare i64 @llvm.amdgcn.s.memtime()
declare i64 @llvm.amdgcn.s.memrealtime()
declare double @llvm.amdgcn.trig.preop.f64(double, i32)
declare void @llvm.trap()
declare i64 @llvm.amdgcn.qsad.pk.u16.u8(i64, i32, i64)
declare i64 @llvm.amdgcn.mqsad.pk.u16.u8(i64, i32, i64)
declare i32 @llvm.amdgcn.ds.append.p3(ptr addrspace(3), i1)

define amdgpu_kernel void @lds_atomics(ptr addrspace(1) %out, ptr addrspace(3) %l, i64 %x, float %f, double %d) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i64, ptr addrspace(3) %l, i32 %tid
  %pf = getelementptr float, ptr addrspace(3) %l, i32 %tid
  %pd = getelementptr double, ptr addrspace(3) %l, i32 %tid
  %pi = getelementptr i32, ptr addrspace(3) %l, i32 %tid
  %a1 = atomicrmw add ptr addrspace(3) %p, i64 %x monotonic
  %a2 = atomicrmw sub ptr addrspace(3) %p, i64 %a1 monotonic
  %a3 = atomicrmw and ptr addrspace(3) %p, i64 %a2 monotonic
  %a4 = atomicrmw or ptr addrspace(3) %p, i64 %a3 monotonic
  %a5 = atomicrmw xor ptr addrspace(3) %p, i64 %a4 monotonic
  %a6 = atomicrmw max ptr addrspace(3) %p, i64 %a5 monotonic
  %a7 = atomicrmw umin ptr addrspace(3) %p, i64 %a6 monotonic
  %a8 = atomicrmw xchg ptr addrspace(3) %p, i64 %a7 monotonic
  %c = cmpxchg ptr addrspace(3) %p, i64 %a8, i64 %x monotonic monotonic
  %cv = extractvalue { i64, i1 } %c, 0
  %a9 = atomicrmw uinc_wrap ptr addrspace(3) %p, i64 %cv monotonic
  %a10 = atomicrmw udec_wrap ptr addrspace(3) %p, i64 %a9 monotonic
  %i1 = atomicrmw uinc_wrap ptr addrspace(3) %pi, i32 7 monotonic
  %i2 = atomicrmw udec_wrap ptr addrspace(3) %pi, i32 %i1 monotonic
  %i3 = atomicrmw xchg ptr addrspace(3) %pi, i32 %i2 monotonic
  %ci = cmpxchg ptr addrspace(3) %pi, i32 %i3, i32 5 monotonic monotonic
  %civ = extractvalue { i32, i1 } %ci, 0
  %f1 = atomicrmw fmax ptr addrspace(3) %pf, float %f monotonic
  %f2 = atomicrmw fmin ptr addrspace(3) %pf, float %f1 monotonic
  %f3 = atomicrmw fadd ptr addrspace(3) %pf, float %f2 monotonic
  %d1 = atomicrmw fadd ptr addrspace(3) %pd, double %d monotonic
  %d2 = atomicrmw fmax ptr addrspace(3) %pd, double %d1 monotonic
  %d3 = atomicrmw fmin ptr addrspace(3) %pd, double %d2 monotonic
  %cf = cmpxchg ptr addrspace(3) %pi, i32 %civ, i32 9 monotonic monotonic
  %ph = getelementptr <2 x half>, ptr addrspace(3) %l, i32 %tid
  %h1 = atomicrmw fadd ptr addrspace(3) %ph, <2 x half> <half 1.0, half 2.0> monotonic
  %pb = getelementptr <2 x bfloat>, ptr addrspace(3) %l, i32 %tid
  %b1 = atomicrmw fadd ptr addrspace(3) %pb, <2 x bfloat> <bfloat 1.0, bfloat 2.0> monotonic
  %app = call i32 @llvm.amdgcn.ds.append.p3(ptr addrspace(3) %l, i1 false)
  %s = add i64 %a10, %cv
  %fi = bitcast float %f3 to i32
  %di = bitcast double %d3 to i64
  %hi = bitcast <2 x half> %h1 to i32
  %bi = bitcast <2 x bfloat> %b1 to i32
  %s2 = add i32 %fi, %i2
  %s3 = add i32 %s2, %hi
  %s4 = add i32 %s3, %bi
  %s5 = add i32 %s4, %app
  %s6 = zext i32 %s5 to i64
  %s7 = add i64 %s, %s6
  %s8 = add i64 %s7, %di
  %o = getelementptr i64, ptr addrspace(1) %out, i32 %tid
  store i64 %s8, ptr addrspace(1) %o
  ret void
}

define amdgpu_kernel void @global_atomics(ptr addrspace(1) %out, ptr addrspace(1) %g, double %d, i64 %x) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pd = getelementptr double, ptr addrspace(1) %g, i32 %tid
  %d1 = atomicrmw fadd ptr addrspace(1) %pd, double %d syncscope("agent") monotonic
  %d2 = atomicrmw fmax ptr addrspace(1) %pd, double %d1 syncscope("agent") monotonic
  %d3 = atomicrmw fmin ptr addrspace(1) %pd, double %d2 syncscope("agent") monotonic
  %p = getelementptr i64, ptr addrspace(1) %g, i32 %tid
  %a1 = atomicrmw uinc_wrap ptr addrspace(1) %p, i64 %x syncscope("agent") monotonic
  %a2 = atomicrmw udec_wrap ptr addrspace(1) %p, i64 %a1 syncscope("agent") monotonic
  %ph = getelementptr <2 x half>, ptr addrspace(1) %g, i32 %tid
  %h1 = atomicrmw fadd ptr addrspace(1) %ph, <2 x half> <half 1.0, half 2.0> syncscope("agent") monotonic
  %pf = getelementptr float, ptr addrspace(1) %g, i32 %tid
  %f1 = atomicrmw fadd ptr addrspace(1) %pf, float 1.0 syncscope("agent") monotonic
  %f2 = atomicrmw fmax ptr addrspace(1) %pf, float %f1 syncscope("agent") monotonic
  %t0 = call i64 @llvm.amdgcn.s.memtime()
  %t1 = call i64 @llvm.amdgcn.s.memrealtime()
  %dt = sub i64 %t1, %t0
  %di = bitcast double %d3 to i64
  %s = add i64 %di, %a2
  %s1 = add i64 %s, %dt
  %o = getelementptr i64, ptr addrspace(1) %out, i32 %tid
  store i64 %s1, ptr addrspace(1) %o
  ret void
}

define amdgpu_kernel void @math(ptr addrspace(1) %out, double %x, i32 %n) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %t = call double @llvm.amdgcn.trig.preop.f64(double %x, i32 %n)
  %o = getelementptr double, ptr addrspace(1) %out, i32 %tid
  store double %t, ptr addrspace(1) %o
  %c = icmp eq i32 %n, 77
  br i1 %c, label %die, label %ok
die:
  call void @llvm.trap()
  unreachable
ok:
  ret void
}

define amdgpu_kernel void @sad(ptr addrspace(1) %out, i64 %a, i32 %b, i64 %c) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = call i64 @llvm.amdgcn.qsad.pk.u16.u8(i64 %a, i32 %tid, i64 %c)
  %m = call i64 @llvm.amdgcn.mqsad.pk.u16.u8(i64 %a, i32 %tid, i64 %q)
  %o = getelementptr i64, ptr addrspace(1) %out, i32 %tid
  store i64 %m, ptr addrspace(1) %o
  ret void
}
