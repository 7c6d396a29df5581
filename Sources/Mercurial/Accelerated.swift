/// The one place that picks a build of the kernel loops: the x86-64-v3 build (the same sources,
/// compiled for AVX2) when the CPU has it, else the baseline. An op names a kernel's two builds once,
///
///     static let kernel: any LitReliefKernel.Type = Accelerated.choose(MercurialKernels.LitRelief.self,
///                                                                      MercurialKernelsV3.LitRelief.self)
///
/// and calls `kernel.render(…)` (one dynamic call per block, never per pixel). Both builds take the
/// same parameter types (there is one set, in MercurialKernels), so nothing is converted and no field
/// can reach one build and not the other; both compute each pixel with the same IEEE operations in
/// the same order (Swift does not fuse multiply-adds), so the results are identical: a plug-in test
/// renders with both and compares.
enum Accelerated {
    static let v3 = HostCPU.isX86_64_v3

    static func choose<Kernel>(_ baseline: Kernel, _ x86_64_v3: Kernel) -> Kernel { v3 ? x86_64_v3 : baseline }
}
