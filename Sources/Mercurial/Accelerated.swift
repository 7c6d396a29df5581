import GeglBridge
import MercurialKernels
import MercurialKernelsV3

/// The kernels that gain from wider vectors, run from their x86-64-v3 build (the same sources,
/// compiled for AVX2) when the CPU has it, else from the baseline build. Both compute each pixel
/// with the same IEEE operations in the same order (Swift does not fuse multiply-adds), so the
/// results are identical; the plug-in tests compare the shipped op with the baseline kernels.
enum Accelerated {
    static let v3 = HostCPU.isX86_64_v3

    static func coreImageRows(width: Int, height: Int, sigmas: [Double],
                              readRows: (Int, Int, UnsafeMutablePointer<Float>) -> Void,
                              emit: (Int, UnsafePointer<Float>) -> Void) {
        if v3 {
            MercurialKernelsV3.HeightField.coreImageRows(width: width, height: height, sigmas: sigmas,
                                                         readRows: readRows, emit: emit)
        } else {
            MercurialKernels.HeightField.coreImageRows(width: width, height: height, sigmas: sigmas,
                                                       readRows: readRows, emit: emit)
        }
    }

    static func renderHemisphere(_ p: MercurialKernels.HemisphereParameters, x: Int, y: Int, width: Int, count: Int,
                                 into out: UnsafeMutablePointer<Float>) {
        guard v3 else {
            MercurialKernels.Hemisphere.render(p, x: x, y: y, width: width, count: count, into: out)
            return
        }
        let q = MercurialKernelsV3.HemisphereParameters(
            size: p.size, lights: p.lights.map { MercurialKernelsV3.OmniLight(position: $0.position, color: $0.color) },
            diffuse: p.diffuse, specular: p.specular, shininess: p.shininess, ambient: p.ambient)
        MercurialKernelsV3.Hemisphere.render(q, x: x, y: y, width: width, count: count, into: out)
    }

    /// The foil. `extent` as Holographic.Plan takes it.
    static func holographic(_ p: MercurialKernels.HolographicParameters, extent: (x: Int, y: Int, width: Int, height: Int)?,
                            input: UnsafePointer<Float>, aux: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>,
                            x: Int, y: Int, width: Int, count: Int) {
        if v3 {
            let q = MercurialKernelsV3.HolographicParameters(
                offset: p.offset, strength: p.strength, cellSize: p.cellSize, displacement: p.displacement,
                seed: p.seed, sweep: p.sweep, sweepAngle: p.sweepAngle)
            MercurialKernelsV3.Holographic.apply(MercurialKernelsV3.Holographic.Plan(q, extent: extent), input: input,
                                                 aux: aux, output: output, x: x, y: y, width: width, count: count)
        } else {
            MercurialKernels.Holographic.apply(MercurialKernels.Holographic.Plan(p, extent: extent), input: input,
                                               aux: aux, output: output, x: x, y: y, width: width, count: count)
        }
    }

    static func shade(heightAlpha: UnsafePointer<Float>, width: Int, height: Int, scale: Float,
                      shading: MercurialKernels.ShadingImage, into out: UnsafeMutablePointer<Float>) {
        if v3 {
            // The image's storage is shared, not copied.
            let image = MercurialKernelsV3.ShadingImage(width: shading.width, height: shading.height, rgba: shading.rgba)
            MercurialKernelsV3.ShadedMaterial.shade(heightAlpha: heightAlpha, width: width, height: height, scale: scale,
                                                    shading: image, into: out)
        } else {
            MercurialKernels.ShadedMaterial.shade(heightAlpha: heightAlpha, width: width, height: height, scale: scale,
                                                  shading: shading, into: out)
        }
    }
}
