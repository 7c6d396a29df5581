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

/// Where a bevel lies relative to the shape's edge (Photoshop's Bevel & Emboss styles). With
/// H(mask, W) the `profile`'s height field of width W (0 at the edge, 1 from W inside it):
/// - inner: h = H(m, R) — the shape rises from its edge inwards;
/// - outer: h = 1 − H(1 − m, R) — the shape is the plateau, and the bevel falls away outside it;
/// - emboss: h = ½·H(m, R/2) + ½·(1 − H(1 − m, R/2)) — half inside, half outside, ½ on the edge;
/// - pillow: h = H(m, R/2) + H(1 − m, R/2) — both sides rise from the edge, which sinks in.
/// The outside styles also give a coverage: c = max(alpha, min(1, W·(1 − H(1 − m, W)))), 1 over
/// the shape and the ring of width W around it, fading at the ring's outer edge as the profile does.
public enum BevelStyle: Int, CaseIterable, Sendable {
    case inner = 0, outer, emboss, pillow

    /// Whether the style reaches outside the shape.
    public var reachesOutside: Bool { self != .inner }
}

public struct HeightFieldParameters: Sendable, Equatable {
    public var radius: Double
    public var profile: BevelProfile
    public var style: BevelStyle
    /// σ in pixels of a Gaussian blur of the heights after the profile (0 = none); clamped to
    /// [0, maximumSoften].
    public var soften: Double

    /// Radii beyond this are clamped: the halo (and so the memory a tile needs) stays bounded.
    public static let maximumRadius: Double = 128
    /// Core Image's Gaussians are truncated at this many σ (the tail left out is < 5e-4).
    public static let truncation: Double = 3.5

    /// Soften beyond this is clamped (Photoshop's largest is 16 px).
    public static let maximumSoften: Double = 16

    public init(radius: Double, profile: BevelProfile = .coreImage, style: BevelStyle = .inner, soften: Double = 0) {
        self.radius = radius
        self.profile = profile
        self.style = style
        self.soften = soften
    }

    /// The soften σ actually used: NaN and negative read as 0.
    public var effectiveSoften: Double { soften > 0 ? min(soften, Self.maximumSoften) : 0 }

    /// The soften blur's one-sided width (0 when off or below a tenth of a pixel).
    public var softenTaps: Int { effectiveSoften >= 0.1 ? Self.taps(sigma: effectiveSoften) : 0 }

    /// The profile's parameters for one side of a style: the inner profile at width `radius`.
    public func side(radius r: Double) -> HeightFieldParameters {
        HeightFieldParameters(radius: r, profile: profile)
    }

    /// The width of each side the style uses: R for inner and outer, R/2 for emboss and pillow.
    public var sideRadius: Double {
        switch style {
        case .inner, .outer: return effectiveRadius
        case .emboss, .pillow: return effectiveRadius / 2
        }
    }

    /// Whether the height field is the plain inner profile (the streaming path).
    public var isPlainInner: Bool { style == .inner && softenTaps == 0 }

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
        guard isPlainInner else { return side(radius: sideRadius).halo + softenTaps }
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
