import GeglBridge
import MercurialKernels
import MercurialKernelsV3

/// The one place that picks a build of the kernel loops: the x86-64-v3 build (the same sources,
/// compiled for AVX2) when the CPU has it, else the baseline. Both builds take the same parameter
/// types (there is one set, in MercurialKernels), so nothing is converted and no field can reach one
/// build and not the other. Both compute each pixel with the same IEEE operations in the same
/// order (Swift does not fuse multiply-adds), so the results are identical; a plug-in test renders
/// with both and compares.
enum Accelerated {
    static let v3 = HostCPU.isX86_64_v3

    static func coreImageRows(width: Int, height: Int, weights: [[Float]],
                              readRows: (Int, Int, UnsafeMutablePointer<Float>) -> Void,
                              emit: (Int, UnsafePointer<Float>) -> Void) {
        if v3 {
            MercurialKernelsV3.HeightField.coreImageRows(width: width, height: height, weights: weights,
                                                         readRows: readRows, emit: emit)
        } else {
            MercurialKernels.HeightField.coreImageRows(width: width, height: height, weights: weights,
                                                       readRows: readRows, emit: emit)
        }
    }

    static func renderHemisphere(_ p: HemisphereParameters, x: Int, y: Int, width: Int, count: Int,
                                 into out: UnsafeMutablePointer<Float>) {
        if v3 {
            MercurialKernelsV3.Hemisphere.render(p, x: x, y: y, width: width, count: count, into: out)
        } else {
            MercurialKernels.Hemisphere.render(p, x: x, y: y, width: width, count: count, into: out)
        }
    }

    static func shadingImage(_ p: HemisphereParameters) -> ShadingImage {
        v3 ? MercurialKernelsV3.Hemisphere.shadingImage(p) : MercurialKernels.Hemisphere.shadingImage(p)
    }

    static func applyFoil(_ plan: HolographicPlan, input: UnsafePointer<Float>, aux: UnsafePointer<Float>?,
                          output: UnsafeMutablePointer<Float>, x: Int, y: Int, width: Int, count: Int) {
        if v3 {
            MercurialKernelsV3.Holographic.apply(plan, input: input, aux: aux, output: output, x: x, y: y,
                                                 width: width, count: count)
        } else {
            MercurialKernels.Holographic.apply(plan, input: input, aux: aux, output: output, x: x, y: y,
                                               width: width, count: count)
        }
    }

    static func shade(heightAlpha: UnsafePointer<Float>, rowLength: Int, width: Int, height: Int, scale: Float,
                      shading: ShadingImage, into out: UnsafeMutablePointer<Float>) {
        if v3 {
            MercurialKernelsV3.ShadedMaterial.shade(heightAlpha: heightAlpha, rowLength: rowLength, width: width,
                                                    height: height, scale: scale, shading: shading, into: out)
        } else {
            MercurialKernels.ShadedMaterial.shade(heightAlpha: heightAlpha, rowLength: rowLength, width: width,
                                                  height: height, scale: scale, shading: shading, into: out)
        }
    }

    static func litRelief(_ p: LitReliefParameters, weights: [Float], heights: UnsafePointer<Float>,
                          color: UnsafePointer<Float>, x: Int, y: Int, width: Int, height: Int,
                          into out: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>) {
        if v3 {
            MercurialKernelsV3.LitRelief.render(p, weights: weights, heights: heights, color: color, x: x, y: y,
                                                width: width, height: height, into: out, scratch: scratch)
        } else {
            MercurialKernels.LitRelief.render(p, weights: weights, heights: heights, color: color, x: x, y: y,
                                              width: width, height: height, into: out, scratch: scratch)
        }
    }
}

/// The scratch sizes are the same in both builds (one formula, in the baseline's copy).
typealias LitReliefKernels = MercurialKernels.LitRelief
