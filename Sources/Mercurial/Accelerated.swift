import GeglBridge
import MercurialKernels
import MercurialKernelsV3

/// The kernels that gain from wider vectors, run from their x86-64-v3 build (the same sources,
/// compiled for AVX2) when the CPU has it, else from the baseline build. Both compute each pixel
/// with the same IEEE operations in the same order (Swift does not fuse multiply-adds), so the
/// results are identical; a plug-in test renders with both builds and compares.
///
/// The two builds have distinct (if identical) types, so what a kernel needs is built once, in
/// prepare, for the build in use: the plans below.
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

    /// The hemisphere's parameters in the build that will render them.
    enum HemispherePlan: Sendable {
        case baseline(MercurialKernels.HemisphereParameters)
        case v3(MercurialKernelsV3.HemisphereParameters)

        init(_ p: MercurialKernels.HemisphereParameters) {
            guard Accelerated.v3 else { self = .baseline(p); return }
            self = .v3(MercurialKernelsV3.HemisphereParameters(
                size: p.size, lights: p.lights.map { MercurialKernelsV3.OmniLight(position: $0.position, color: $0.color) },
                diffuse: p.diffuse, specular: p.specular, shininess: p.shininess, ambient: p.ambient))
        }

        func render(x: Int, y: Int, width: Int, count: Int, into out: UnsafeMutablePointer<Float>) {
            switch self {
            case let .baseline(p): MercurialKernels.Hemisphere.render(p, x: x, y: y, width: width, count: count, into: out)
            case let .v3(p): MercurialKernelsV3.Hemisphere.render(p, x: x, y: y, width: width, count: count, into: out)
            }
        }
    }

    /// The foil's plan (parameters and sweep geometry) in the build that will apply it.
    enum HolographicPlan: Sendable {
        case baseline(MercurialKernels.Holographic.Plan)
        case v3(MercurialKernelsV3.Holographic.Plan)

        init(_ p: MercurialKernels.HolographicParameters, extent: Rect?) {
            let e = extent.map { (x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
            guard Accelerated.v3 else { self = .baseline(MercurialKernels.Holographic.Plan(p, extent: e)); return }
            let q = MercurialKernelsV3.HolographicParameters(
                offset: p.offset, strength: p.strength, cellSize: p.cellSize, displacement: p.displacement,
                seed: p.seed, sweep: p.sweep, sweepAngle: p.sweepAngle)
            self = .v3(MercurialKernelsV3.Holographic.Plan(q, extent: e))
        }

        func apply(input: UnsafePointer<Float>, aux: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>,
                   x: Int, y: Int, width: Int, count: Int) {
            switch self {
            case let .baseline(plan):
                MercurialKernels.Holographic.apply(plan, input: input, aux: aux, output: output, x: x, y: y,
                                                   width: width, count: count)
            case let .v3(plan):
                MercurialKernelsV3.Holographic.apply(plan, input: input, aux: aux, output: output, x: x, y: y,
                                                     width: width, count: count)
            }
        }
    }

    /// A shading image in the build that will sample it (the pixels are shared, not copied).
    enum Shading: Sendable {
        case baseline(MercurialKernels.ShadingImage)
        case v3(MercurialKernelsV3.ShadingImage)

        init(_ image: MercurialKernels.ShadingImage) {
            self = Accelerated.v3
                ? .v3(MercurialKernelsV3.ShadingImage(width: image.width, height: image.height, rgba: image.rgba))
                : .baseline(image)
        }

        func shade(heightAlpha: UnsafePointer<Float>, rowLength: Int, width: Int, height: Int, scale: Float,
                   into out: UnsafeMutablePointer<Float>) {
            switch self {
            case let .baseline(image):
                MercurialKernels.ShadedMaterial.shade(heightAlpha: heightAlpha, rowLength: rowLength, width: width,
                                                      height: height, scale: scale, shading: image, into: out)
            case let .v3(image):
                MercurialKernelsV3.ShadedMaterial.shade(heightAlpha: heightAlpha, rowLength: rowLength, width: width,
                                                        height: height, scale: scale, shading: image, into: out)
            }
        }
    }
}
