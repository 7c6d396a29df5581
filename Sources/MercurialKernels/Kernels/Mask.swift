#if MERCURIAL_KERNELS_V3
import MercurialKernels // the one set of kernel types; this copy of the loops is built for x86-64-v3
#endif

/// Masks from pixels.
public enum Mask {
    /// Mask values of `count` pixels given as interleaved (luminance, alpha) pairs.
    public static func extract(_ channel: MaskChannel, luminanceAlpha ya: UnsafePointer<Float>,
                               into mask: UnsafeMutablePointer<Float>, count: Int) {
        switch channel {
        case .luminanceAlpha: for i in 0..<count { mask[i] = ya[2 * i] * ya[2 * i + 1] }
        case .luminance: for i in 0..<count { mask[i] = ya[2 * i] }
        case .alpha: for i in 0..<count { mask[i] = ya[2 * i + 1] }
        }
    }
}
