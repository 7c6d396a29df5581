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
        case .coreImage: return sigmas.reduce(0) { $0 + HeightField.taps(sigma: $1) }
        case .round, .linear, .smooth: return Int(effectiveRadius.rounded(.up)) + 4
        }
    }
}

public enum HeightField {
    /// The one-sided width of the truncated Gaussian for σ.
    public static func taps(sigma: Double) -> Int {
        Int((sigma * HeightFieldParameters.truncation).rounded(.up))
    }

    /// Normalised one-sided Gaussian weights w[0...taps] (w[0] is the centre).
    public static func gaussianWeights(sigma: Double) -> [Float] {
        let r = taps(sigma: sigma)
        var w = (0...r).map { k in exp(-Double(k * k) / (2 * sigma * sigma)) }
        let sum = w[0] + 2 * w.dropFirst().reduce(0, +)
        for i in w.indices { w[i] /= sum }
        return w.map { Float($0) }
    }

    /// Computes the height field of `window` (a mask that extends `parameters.halo` pixels beyond
    /// the output on every side; pixels outside the image must already read as 0) into a plane of
    /// (window.width − 2·halo) × (window.height − 2·halo). Mask values are clamped to [0, 1],
    /// NaN reads as 0.
    public static func compute(window: Plane, parameters: HeightFieldParameters) -> Plane {
        precondition(window.channels == 1)
        let halo = parameters.halo
        let outW = window.width - 2 * halo, outH = window.height - 2 * halo
        guard outW > 0, outH > 0 else { return Plane(width: max(outW, 0), height: max(outH, 0)) }
        var mask = window
        for i in mask.pixels.indices { mask.pixels[i] = sanitizedMask(mask.pixels[i]) }
        if parameters.returnsMask { return mask }
        switch parameters.profile {
        case .coreImage:
            return coreImage(mask: mask, sigmas: parameters.sigmas, halo: halo)
        case .round, .linear, .smooth:
            return DistanceBevel.compute(mask: mask, radius: Float(parameters.effectiveRadius),
                                         profile: parameters.profile, halo: halo)
        }
    }

    // MARK: Core Image profile

    /// Runs the blur-and-multiply levels on a shrinking region of the window. Work is skipped
    /// where the mask is 0 (the product is 0 there whatever the blur gives), per row span.
    static func coreImage(mask: Plane, sigmas: [Double], halo: Int) -> Plane {
        let w = mask.width, h = mask.height
        var current = mask.pixels        // h_{k-1}, valid inside `inset`
        var next = [Float](repeating: 0, count: w * h)
        var across = [Float](repeating: 0, count: w * h) // horizontal pass
        var inset = 0
        // Per row: first and one-past-last column where the mask is > 0 (first == end: none).
        var spanStart = [Int](repeating: 0, count: h), spanEnd = [Int](repeating: 0, count: h)
        var needStart = [Int](repeating: 0, count: h), needEnd = [Int](repeating: 0, count: h)

        mask.pixels.withUnsafeBufferPointer { m in
            for sigma in sigmas {
                let weights = gaussianWeights(sigma: sigma)
                let r = weights.count - 1
                let outer = inset + r              // region computed at this level: [outer, w - outer)
                let x0 = outer, x1 = w - outer
                // Spans of mask > 0 on the rows computed at this level.
                for y in outer..<(h - outer) {
                    var a = x0, b = x1
                    while a < b && m[y * w + a] == 0 { a += 1 }
                    while b > a && m[y * w + b - 1] == 0 { b -= 1 }
                    spanStart[y] = a
                    spanEnd[y] = b
                }
                // Columns of the horizontal pass needed on each row: union of spans within ±r rows.
                for y in inset..<(h - inset) {
                    var a = x1, b = x0
                    for yy in max(outer, y - r)...min(h - outer - 1, y + r) where spanStart[yy] < spanEnd[yy] {
                        a = min(a, spanStart[yy])
                        b = max(b, spanEnd[yy])
                    }
                    needStart[y] = a
                    needEnd[y] = max(a, b)
                }
                current.withUnsafeBufferPointer { src in
                    across.withUnsafeMutableBufferPointer { tmp in
                        weights.withUnsafeBufferPointer { wt in
                            for y in inset..<(h - inset) where needStart[y] < needEnd[y] {
                                blurRow(src.baseAddress! + y * w, into: tmp.baseAddress! + y * w,
                                        from: needStart[y], to: needEnd[y], weights: wt)
                            }
                        }
                    }
                }
                across.withUnsafeBufferPointer { tmp in
                    next.withUnsafeMutableBufferPointer { dst in
                        weights.withUnsafeBufferPointer { wt in
                            for y in outer..<(h - outer) {
                                let row = dst.baseAddress! + y * w
                                for x in x0..<x1 { row[x] = 0 }
                                guard spanStart[y] < spanEnd[y] else { continue }
                                blurColumn(tmp.baseAddress!, width: w, row: y, into: row,
                                           from: spanStart[y], to: spanEnd[y], weights: wt)
                                let mrow = m.baseAddress! + y * w
                                for x in spanStart[y]..<spanEnd[y] { row[x] *= mrow[x] }
                            }
                        }
                    }
                }
                swap(&current, &next)
                inset = outer
            }
        }
        precondition(inset == halo)
        return Plane(width: w, height: h, pixels: current).cropped(x: halo, y: halo, width: w - 2 * halo,
                                                                    height: h - 2 * halo)
    }

    /// dst[x] = Σ_k w[|k|]·src[x+k] for x in [from, to). The sum runs in a fixed order per pixel.
    @inline(__always)
    static func blurRow(_ src: UnsafePointer<Float>, into dst: UnsafeMutablePointer<Float>,
                        from: Int, to: Int, weights: UnsafeBufferPointer<Float>) {
        let w0 = weights[0]
        for x in from..<to { dst[x] = w0 * src[x] }
        for k in 1..<weights.count {
            let wk = weights[k]
            for x in from..<to { dst[x] += wk * (src[x - k] + src[x + k]) }
        }
    }

    /// row[x] = Σ_k w[|k|]·tmp[y+k][x] for x in [from, to).
    @inline(__always)
    static func blurColumn(_ tmp: UnsafePointer<Float>, width: Int, row y: Int, into dst: UnsafeMutablePointer<Float>,
                           from: Int, to: Int, weights: UnsafeBufferPointer<Float>) {
        let w0 = weights[0]
        let centre = tmp + y * width
        for x in from..<to { dst[x] = w0 * centre[x] }
        for k in 1..<weights.count {
            let wk = weights[k]
            let up = tmp + (y - k) * width, down = tmp + (y + k) * width
            for x in from..<to { dst[x] += wk * (up[x] + down[x]) }
        }
    }
}
