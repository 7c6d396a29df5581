import MercurialKernels
import MercurialKernelsV3

/// The one place that picks a build of the kernel loops: the x86-64-v3 build (the same sources,
/// compiled for AVX2) when the CPU has it, else the baseline. `Kernels` names each kernel's two
/// builds once; ops call `Kernels.litRelief.render(…)` (one dynamic call per block, never per
/// pixel). Both builds take the same parameter types (one set, in MercurialKernels), so nothing is
/// converted and no field can reach one build and not the other; both compute each pixel with the
/// same IEEE operations in the same order (Swift does not fuse multiply-adds), so the results are
/// identical: a plug-in test renders with both and compares.
enum Accelerated {
    static let v3 = HostCPU.isX86_64_v3

    static func choose<Kernel>(_ baseline: Kernel, _ x86_64_v3: Kernel) -> Kernel { v3 ? x86_64_v3 : baseline }
}

/// Every kernel, in the build for this CPU (ops share them: one choice per kernel).
enum Kernels {
    static let heightField: any HeightFieldKernel.Type = Accelerated.choose(MercurialKernels.HeightField.self,
                                                                            MercurialKernelsV3.HeightField.self)
    static let shadedMaterial: any ShadedMaterialKernel.Type = Accelerated.choose(MercurialKernels.ShadedMaterial.self,
                                                                                  MercurialKernelsV3.ShadedMaterial.self)
    static let hemisphere: any HemisphereKernel.Type = Accelerated.choose(MercurialKernels.Hemisphere.self,
                                                                          MercurialKernelsV3.Hemisphere.self)
    static let holographic: any HolographicKernel.Type = Accelerated.choose(MercurialKernels.Holographic.self,
                                                                            MercurialKernelsV3.Holographic.self)
    static let litRelief: any LitReliefKernel.Type = Accelerated.choose(MercurialKernels.LitRelief.self,
                                                                        MercurialKernelsV3.LitRelief.self)
    static let materialMaps: any MaterialMapsKernel.Type = Accelerated.choose(MercurialKernels.MaterialMaps.self,
                                                                              MercurialKernelsV3.MaterialMaps.self)
}
