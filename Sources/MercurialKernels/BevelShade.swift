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
// The shadow is composited first, then the highlight, then an optional second light's highlight (its
// own colour, angle and altitude, in the highlight's mode and opacity). Where αs is 0 the pixel is
// copied as it is.
//
// Before the slopes are taken, the heights go through the bevel's contour (a named curve over the
// lower `range` of the height: h' = contour(min(h / range, 1))) and gain an optional texture,
// h' += textureDepth · t(x / scale, y / scale) within the coverage, t in [0, 1] a pattern of the
// pixel's absolute position (so any tile computes the same pixels): value noise, cells (Voronoi
// distances), brushed metal (noise stretched along x) or canvas (a woven sine grid).

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

/// Built-in textures for the bevel's surface.
public enum BevelTexture: Int, CaseIterable, Sendable {
    /// `file`: a picture the plug-in adds to the heights before they arrive here (no pattern here).
    case none = 0, noise, cells, brushedMetal, canvas, file

    /// The pattern at (u, v) (texture units), in [0, 1].
    public func callAsFunction(_ u: Float, _ v: Float) -> Float {
        switch self {
        case .none, .file: return 0
        case .noise: return Self.valueNoise(u, v)
        case .cells: return Self.cells(u, v)
        case .brushedMetal: return 0.7 * Self.valueNoise(u / 16, v * 2) + 0.3 * Self.valueNoise(u / 4, v * 8)
        case .canvas:
            let a = 0.5 + 0.5 * sin(u * 2 * .pi), b = 0.5 + 0.5 * sin(v * 2 * .pi)
            let over = (Int(floor(u)) + Int(floor(v))) & 1 == 0
            return 0.15 * Self.valueNoise(u * 4, v * 4) + 0.85 * (over ? a * (1 - 0.5 * b) : b * (1 - 0.5 * a))
        }
    }

    /// A hash of a lattice point, in [0, 1).
    @inline(__always)
    static func hash(_ x: Int, _ y: Int) -> Float {
        var h = UInt32(truncatingIfNeeded: x &* 374_761_393 &+ y &* 668_265_263)
        h = (h ^ (h >> 13)) &* 1_274_126_177
        h ^= h >> 16
        return Float(h & 0xFFFFFF) / Float(0x1000000)
    }

    /// Smooth value noise: the lattice hashes blended by smoothstep.
    static func valueNoise(_ u: Float, _ v: Float) -> Float {
        guard u.isFinite, v.isFinite else { return 0 }
        let fu = floor(u), fv = floor(v), x = Int(fu), y = Int(fv)
        let tu = u - fu, tv = v - fv
        let su = tu * tu * (3 - 2 * tu), sv = tv * tv * (3 - 2 * tv)
        let top = hash(x, y) + su * (hash(x + 1, y) - hash(x, y))
        let bottom = hash(x, y + 1) + su * (hash(x + 1, y + 1) - hash(x, y + 1))
        return top + sv * (bottom - top)
    }

    /// Voronoi: the distance to the nearest of one jittered point per unit square, in [0, 1].
    static func cells(_ u: Float, _ v: Float) -> Float {
        guard u.isFinite, v.isFinite else { return 0 }
        let x = Int(floor(u)), y = Int(floor(v))
        var best: Float = 4
        for dy in -1...1 {
            for dx in -1...1 {
                let px = Float(x + dx) + hash(x + dx, y + dy), py = Float(y + dy) + hash(y + dy, x + dx)
                best = min(best, (px - u) * (px - u) + (py - v) * (py - v))
            }
        }
        return min(best.squareRoot(), 1)
    }
}

public struct BevelShadeParameters: Sendable, Equatable {
    /// Slope gain (negative: the relief sinks in).
    public var depth: Float
    /// Where the light comes from: degrees counter-clockwise from the right, and above the ground.
    public var angle: Float, altitude: Float
    /// Remaps the light on the slopes (Photoshop's gloss contour).
    public var gloss: GlossContour
    public var highlight: SIMD3<Float>, highlightMode: BlendMode, highlightOpacity: Float
    public var shadow: SIMD3<Float>, shadowMode: BlendMode, shadowOpacity: Float
    /// Inner styles: the effects stay on the layer's own pixels (source-atop); otherwise they may
    /// paint where the heights' coverage reaches outside it (source-over).
    public var atop: Bool
    /// The bevel's profile curve over the lower `range` (0–1] of the height.
    public var contour: GlossContour = .linear, range: Float = 1
    public var texture: BevelTexture = .none, textureScale: Float = 32, textureDepth: Float = 0.1
    /// A second light (off when its opacity is 0): its colour, angle and altitude.
    public var light2: SIMD3<Float> = SIMD3(repeating: 1), light2Opacity: Float = 0
    public var light2Angle: Float = 300, light2Altitude: Float = 30

    public init(depth: Float = 10, angle: Float = 120, altitude: Float = 30, gloss: GlossContour = .linear,
                highlight: SIMD3<Float> = SIMD3(repeating: 1), highlightMode: BlendMode = .screen, highlightOpacity: Float = 0.75,
                shadow: SIMD3<Float> = SIMD3(repeating: 0), shadowMode: BlendMode = .multiply, shadowOpacity: Float = 0.75,
                atop: Bool = true) {
        self.depth = depth
        self.angle = angle
        self.altitude = altitude
        self.gloss = gloss
        self.highlight = highlight
        self.highlightMode = highlightMode
        self.highlightOpacity = highlightOpacity
        self.shadow = shadow
        self.shadowMode = shadowMode
        self.shadowOpacity = shadowOpacity
        self.atop = atop
    }

    /// The unit vector towards the light (non-finite angles read as 0).
    public var light: SIMD3<Float> { Self.direction(angle: angle, altitude: altitude) }

    /// The unit vector towards a light at Photoshop's angle and altitude (degrees).
    public static func direction(angle: Float, altitude: Float) -> SIMD3<Float> {
        let a = (angle.isFinite ? angle : 0) * .pi / 180, e = min(max(altitude.isFinite ? altitude : 0, 0), 90) * .pi / 180
        return SIMD3(cos(e) * cos(a), -cos(e) * sin(a), sin(e))
    }

    /// A height after the contour (and before the texture).
    @inline(__always)
    public func contoured(_ h: Float) -> Float {
        guard contour != .linear || range < 1 else { return h }
        let r = range.isFinite ? min(max(range, 0.01), 1) : 1
        return contour(min(max(h, 0) / r, 1))
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
        return (p.gloss(up), p.gloss(down))
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

    /// Shapes the heights of a block's window in place, once each before `shade` reads them: the
    /// contour, then the texture (× the coverage). `heights` holds (height, coverage) pairs, `rows`
    /// rows of `rowLength` pairs; (x0, y0) is its first pixel in the image.
    public static func shapeHeights(_ p: BevelShadeParameters, heights: UnsafeMutablePointer<Float>, rowLength: Int,
                                    rows: Int, x0: Int, y0: Int) {
        let textured = p.texture != .none && p.texture != .file && p.textureDepth.isFinite && p.textureDepth != 0
        guard p.contour != .linear || p.range < 1 || textured else { return }
        let scale = p.textureScale.isFinite ? max(p.textureScale, 1) : 32
        for r in 0..<rows {
            for c in 0..<rowLength {
                let pair = heights + 2 * (r * rowLength + c)
                var v = p.contoured(pair[0])
                if textured {
                    let t = p.texture(Float(x0 + c) / scale, Float(y0 + r) / scale)
                    let coverage = pair[1].isFinite ? min(max(pair[1], 0), 1) : 0
                    v += p.textureDepth * coverage * t
                }
                pair[0] = v
            }
        }
    }

    /// Shades a block: `heights` holds (height, coverage) pairs for the block grown by one pixel
    /// (shaped by `shapeHeights`), rows of `rowLength` pairs; `layer` and `out` hold R'G'B'A rows of
    /// `width` pixels.
    public static func shade(_ p: BevelShadeParameters, heights: UnsafePointer<Float>, rowLength: Int,
                             layer: UnsafePointer<Float>, width: Int, height: Int, into out: UnsafeMutablePointer<Float>) {
        let l = p.light, l2 = BevelShadeParameters.direction(angle: p.light2Angle, altitude: p.light2Altitude)
        func opacity(_ o: Float) -> Float { o.isFinite ? min(max(o, 0), 1) : 0 }
        let highlightOpacity = opacity(p.highlightOpacity), shadowOpacity = opacity(p.shadowOpacity)
        let light2Opacity = opacity(p.light2Opacity)
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
                let c = at[2 * x + 1]
                let coverage = p.atop ? 1 : min(max(c.isFinite ? c : 0, 0), 1)
                composite(&colour, &a, source: p.shadow, alpha: shadowOpacity * down * coverage, mode: p.shadowMode, atop: p.atop)
                composite(&colour, &a, source: p.highlight, alpha: highlightOpacity * up * coverage, mode: p.highlightMode,
                          atop: p.atop)
                if light2Opacity > 0 {
                    let second = amounts(p, light: l2, gx: gx, gy: gy).highlight
                    composite(&colour, &a, source: p.light2, alpha: light2Opacity * second * coverage, mode: p.highlightMode,
                              atop: p.atop)
                }
                out[i] = colour.x
                out[i + 1] = colour.y
                out[i + 2] = colour.z
                out[i + 3] = a
            }
        }
    }
}
