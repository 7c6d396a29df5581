import Glibc

// Bevel & Emboss as layer styles draw it: the layer keeps its own colours; a highlight colour is
// blended onto the slopes that face the light and a shadow colour onto those that face away.
//
// Per pixel, with heights h (one pixel of margin around the block) and the layer's colour Cb and
// alpha αb, both perceptual (R'G'B'A, straight alpha), as artists' blend modes are defined:
//   n = normalize(−depth·∂h/∂x, −depth·∂h/∂y, 1)  (central differences; x right, y down, z out)
//   L = (cos e·cos a, −cos e·sin a, sin e)        (angle a counter-clockwise from the right, altitude e)
//   s = n·L − L.z                                 (0 on flat ground: a flat top keeps its colour)
//   highlight = contour(clamp(s / (1 − L.z)))     (1 where the slope faces the light squarely)
//   shadow    = contour(clamp(−s / L.z))          (1 where the slope turns away from the light)
// Each effect is a colour Cs with alpha αs = opacity · amount (× the coverage outside an inner
// style), blended by its mode B and composited as the W3C compositing model does:
//   Cs' = (1 − αb)·Cs + αb·B(Cb, Cs)
//   source-over (outer styles):  αo = αs + αb(1 − αs),  αo·Co = αs·Cs' + (1 − αs)·αb·Cb
//   source-atop (inner styles):  αo = αb,               Co = αs·Cs' + (1 − αs)·Cb
// The shadow is composited first, then the highlight. Where αs is 0 the pixel is copied as it is.

/// How an effect's colour meets the layer's (the W3C/Photoshop formulas, per channel in [0, 1]).
public enum BlendMode: Int, CaseIterable, Sendable {
    case normal = 0, screen, multiply, overlay, softLight, linearDodge

    /// B(backdrop, source).
    public func callAsFunction(_ b: Float, _ s: Float) -> Float {
        switch self {
        case .normal: return s
        case .screen: return b + s - b * s
        case .multiply: return b * s
        case .overlay: return b <= 0.5 ? 2 * b * s : 1 - 2 * (1 - b) * (1 - s)
        case .softLight:
            let c = min(max(b, 0), 1)
            if s <= 0.5 { return c - (1 - 2 * s) * c * (1 - c) }
            let d = c <= 0.25 ? ((16 * c - 12) * c + 4) * c : c.squareRoot()
            return c + (2 * s - 1) * (d - c)
        case .linearDodge: return min(b + s, 1)
        }
    }
}

public struct BevelShadeParameters: Sendable, Equatable {
    /// Slope gain (negative: the relief sinks in).
    public var depth: Float
    /// Where the light comes from: degrees counter-clockwise from the right, and above the ground.
    public var angle: Float, altitude: Float
    public var contour: GlossContour
    public var highlight: SIMD3<Float>, highlightMode: BlendMode, highlightOpacity: Float
    public var shadow: SIMD3<Float>, shadowMode: BlendMode, shadowOpacity: Float
    /// Inner styles: the effects stay on the layer's own pixels (source-atop); otherwise they may
    /// paint where the heights' coverage reaches outside it (source-over).
    public var atop: Bool

    public init(depth: Float = 10, angle: Float = 120, altitude: Float = 30, contour: GlossContour = .linear,
                highlight: SIMD3<Float> = SIMD3(repeating: 1), highlightMode: BlendMode = .screen, highlightOpacity: Float = 0.75,
                shadow: SIMD3<Float> = SIMD3(repeating: 0), shadowMode: BlendMode = .multiply, shadowOpacity: Float = 0.75,
                atop: Bool = true) {
        self.depth = depth
        self.angle = angle
        self.altitude = altitude
        self.contour = contour
        self.highlight = highlight
        self.highlightMode = highlightMode
        self.highlightOpacity = highlightOpacity
        self.shadow = shadow
        self.shadowMode = shadowMode
        self.shadowOpacity = shadowOpacity
        self.atop = atop
    }

    /// The unit vector towards the light (non-finite angles read as 0).
    public var light: SIMD3<Float> {
        let a = (angle.isFinite ? angle : 0) * .pi / 180, e = min(max(altitude.isFinite ? altitude : 0, 0), 90) * .pi / 180
        return SIMD3(cos(e) * cos(a), -cos(e) * sin(a), sin(e))
    }
}

public enum BevelShade {
    /// The highlight and shadow amounts of a slope (gradient gx, gy), each in [0, 1].
    @inline(__always)
    public static func amounts(_ p: BevelShadeParameters, light l: SIMD3<Float>, gx: Float, gy: Float) -> (highlight: Float, shadow: Float) {
        let depth = p.depth.isFinite ? p.depth : 0
        var n = SIMD3(-depth * gx, -depth * gy, 1)
        if !(n.x.isFinite && n.y.isFinite) { n = SIMD3(0, 0, 1) }
        n /= (n * n).sum().squareRoot()
        let s = (n * l).sum() - l.z
        let up = min(max(s / max(1 - l.z, 1e-6), 0), 1), down = min(max(-s / max(l.z, 1e-6), 0), 1)
        return (p.contour(up), p.contour(down))
    }

    /// One effect composited onto (colour, alpha): colour `source` at alpha `alpha`, by `mode`.
    @inline(__always)
    static func composite(_ colour: inout SIMD3<Float>, _ a: inout Float, source: SIMD3<Float>, alpha: Float,
                          mode: BlendMode, atop: Bool) {
        guard alpha > 0 else { return }
        let blended = SIMD3(mode(colour.x, source.x), mode(colour.y, source.y), mode(colour.z, source.z))
        let mixed = (1 - a) * source + a * blended
        if atop {
            colour = alpha * mixed + (1 - alpha) * colour
        } else {
            let out = alpha + a * (1 - alpha)
            colour = out > 0 ? (alpha * mixed + (1 - alpha) * a * colour) / out : colour
            a = out
        }
    }

    /// Shades a block: `heights` holds (height, coverage) pairs for the block grown by one pixel,
    /// rows of `rowLength` pairs; `layer` and `out` hold R'G'B'A rows of `width` pixels.
    public static func shade(_ p: BevelShadeParameters, heights: UnsafePointer<Float>, rowLength: Int,
                             layer: UnsafePointer<Float>, width: Int, height: Int, into out: UnsafeMutablePointer<Float>) {
        let l = p.light
        let highlightOpacity = p.highlightOpacity.isFinite ? min(max(p.highlightOpacity, 0), 1) : 0
        let shadowOpacity = p.shadowOpacity.isFinite ? min(max(p.shadowOpacity, 0), 1) : 0
        for y in 0..<height {
            let above = heights + 2 * (y * rowLength + 1), at = above + 2 * rowLength, below = at + 2 * rowLength
            for x in 0..<width {
                let i = 4 * (y * width + x)
                var colour = SIMD3(layer[i], layer[i + 1], layer[i + 2]), a = layer[i + 3]
                var gx = (at[2 * x + 2] - at[2 * x - 2]) / 2, gy = (below[2 * x] - above[2 * x]) / 2
                if !gx.isFinite { gx = 0 }
                if !gy.isFinite { gy = 0 }
                let (up, down) = amounts(p, light: l, gx: gx, gy: gy)
                // Outside an inner style's layer the effects have nothing to paint on; outer styles
                // paint up to the heights' coverage.
                let coverage = p.atop ? 1 : min(max(at[2 * x + 1].isFinite ? at[2 * x + 1] : 0, 0), 1)
                composite(&colour, &a, source: p.shadow, alpha: shadowOpacity * down * coverage, mode: p.shadowMode, atop: p.atop)
                composite(&colour, &a, source: p.highlight, alpha: highlightOpacity * up * coverage, mode: p.highlightMode,
                          atop: p.atop)
                out[i] = colour.x
                out[i + 1] = colour.y
                out[i + 2] = colour.z
                out[i + 3] = a
            }
        }
    }
}
