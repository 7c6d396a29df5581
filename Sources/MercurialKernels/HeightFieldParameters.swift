import Glibc

// Height fields from masks.
//
// Every profile computes each output pixel from a bounded neighbourhood of the mask (the halo),
// with an arithmetic sequence that depends only on the pixel's own neighbourhood, never on where
// the block being computed starts. So any tiling and any thread count give identical bits.

/// How a bevel rises from the mask's edge.
public enum BevelProfile: Int, CaseIterable, Sendable {
    /// Core Image's CIHeightFieldFromMask: h = mask; for σ = R, R/2, … ≥ 1: h = mask × blur(h, σ).
    case coreImage = 0
    /// Circular fillet: h = √(1 − (1 − min(d/R, 1))²), d = distance to the edge.
    case round
    /// Chamfer: h = min(d/R, 1).
    case linear
    /// Smoothstep of d/R: flat at the edge and at the top.
    case smooth
}

public struct HeightFieldParameters: Sendable, Equatable {
    public var radius: Double
    public var profile: BevelProfile

    /// Radii beyond this are clamped: the halo (and so the memory a tile needs) stays bounded.
    public static let maximumRadius: Double = 128
    /// Core Image's Gaussians are truncated at this many σ (the tail left out is < 5e-4).
    public static let truncation: Double = 3.5

    public init(radius: Double, profile: BevelProfile = .coreImage) {
        self.radius = radius
        self.profile = profile
    }

    /// The radius actually used: NaN reads as 0, and the range is [0, maximumRadius].
    public var effectiveRadius: Double {
        radius >= 0 ? min(radius, Self.maximumRadius) : 0
    }

    /// Below one pixel there is nothing to bevel: every profile returns the mask.
    public var returnsMask: Bool { effectiveRadius < 1 }

    /// The blur levels of the Core Image profile: σ = R, R/2, R/4, … while σ ≥ 1.
    public var sigmas: [Double] {
        guard !returnsMask else { return [] }
        var out: [Double] = []
        var s = effectiveRadius
        while s >= 1 {
            out.append(s)
            s /= 2
        }
        return out
    }

    /// How many pixels around an output pixel its value depends on.
    public var halo: Int {
        if returnsMask { return 0 }
        switch profile {
        case .coreImage: return sigmas.reduce(0) { $0 + Self.taps(sigma: $1) }
        case .round, .linear, .smooth: return Int(effectiveRadius.rounded(.up)) + 4
        }
    }

    /// The one-sided width of the truncated Gaussian for σ.
    public static func taps(sigma: Double) -> Int {
        Int((sigma * truncation).rounded(.up))
    }
}
