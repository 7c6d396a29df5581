import CVector
import Glibc
#if MERCURIAL_KERNELS_V3
import MercurialKernels // the types below are compiled once, in MercurialKernels; this copy is the x86-64-v3 loops
#else

// MARK: Types (compiled once, into MercurialKernels)

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
/// the shape and the ring of width W around it, fading at the ring's outer edge as the profile does;
/// below `coverageFloor` it is 0 (the Core Image profile's tail never reaches 0 by itself).
public enum BevelStyle: Int, CaseIterable, Sendable {
    case inner = 0, outer, emboss, pillow

    /// Whether the style reaches outside the shape.
    public var reachesOutside: Bool { self != .inner }

    /// Below this the ring's coverage is 0: under half a step of 8-bit alpha, so an 8-bit export looks
    /// the same, and no faint alpha is left far from the shapes (Alpha to Selection and autocrop see
    /// the shape and its ring; shading skips those pixels).
    public static let coverageFloor: Float = 1.0 / 1024
}

public struct HeightFieldParameters: Sendable, Equatable {
    public var radius: Double
    public var profile: BevelProfile
    public var style: BevelStyle
    /// σ in pixels of a Gaussian blur of the heights after the profile (0 = none); clamped to
    /// [0, maximumSoften].
    public var soften: Double

    /// Radii beyond this are clamped: the halo (and so the memory a tile needs) stays bounded.
    public static let maximumRadius: Double = 250
    /// Core Image's Gaussians are truncated at this many σ (the tail left out is < 5e-4)...
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

    /// A soften with softenRatio pixels of σ or more per cell of a grid of spacing 2 is made on the
    /// coarsest such grid, as the cascade's large levels are (nil: at full resolution).
    public var softenLevel: CoarseLevel? {
        let s = Self.spacing(sigma: effectiveSoften, ratio: Self.softenRatio)
        return softenTaps > 0 && s >= 2 ? CoarseLevel(sigma: effectiveSoften, spacing: s, readBack: 1.0 / 3, firstMoments: false) : nil
    }

    /// How many pixels around an output pixel the soften reads (an upper bound on the grid's,
    /// whatever its alignment: its taps, and the read back's four cells).
    public var softenReach: Int {
        guard let level = softenLevel else { return softenTaps }
        return (level.taps + 3) * level.spacing
    }

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
        guard isPlainInner else { return side(radius: sideRadius).halo + softenReach }
        if returnsMask { return 0 }
        switch profile {
        case .coreImage: return streamHalo + CoarseCascade.reach(coarseLevels)
        case .round, .linear, .smooth: return Int(effectiveRadius.rounded(.up)) + 4
        }
    }

    /// From a radius of minimumCoarseSigma on, every level with coarseRatio pixels of σ or more per
    /// cell of a grid of spacing 2 is made on a coarse grid (see `CoarseCascade`); the smaller
    /// ones, and every level of smaller radii (the default sizes'), at full resolution. A level's σ
    /// and its grid's spacing halve together, so every coarse level has the same σ per cell: the
    /// finest one's spacing is the largest whole number of pixels that keeps it at coarseRatio or
    /// more (2 or 3), each coarser grid twice the next one's. The cells' values take in where in
    /// each cell its mass lies (their first moments), so an edge crossing a cell costs little: every
    /// style keeps within 1e-3 of the reference wherever the shapes lie on the grids (see
    /// docs/operations.md).
    public static let coarseRatio: Double = 2.5
    public static let minimumCoarseSigma: Double = 12
    /// A coarse soften's σ per cell: more than the cascade's, as its grid is read back as it is, with
    /// no finer levels after it (the spline's and the box's share of the blur stays small).
    public static let softenRatio: Double = 6

    /// The spacing of the grid level σ is made on: the largest power of two ≤ σ / ratio (1: at full
    /// resolution).
    public static func spacing(sigma: Double, ratio: Double) -> Int {
        var s = 1
        while Double(2 * s) <= sigma / ratio { s *= 2 }
        return s
    }

    /// Whether level σ of a cascade whose first level is `first` (its radius) is coarse.
    func isCoarse(_ sigma: Double, first: Double) -> Bool {
        first >= Self.minimumCoarseSigma && sigma >= 2 * Self.coarseRatio
    }

    /// The Core Image levels made on coarse grids (the first, largest ones), for the plain inner
    /// profile or a style's side.
    public var coarseLevels: [CoarseLevel] {
        guard profile == .coreImage else { return [] }
        let sigmas = levelSigmas(coarse: true)
        guard let finest = sigmas.last else { return [] }
        // (The finest coarse σ lies in [5, 10): the level after it is at full resolution.)
        let finestSpacing = Int(finest / Self.coarseRatio)
        var levels = sigmas.enumerated().map { k, sigma in
            CoarseLevel(sigma: sigma, spacing: finestSpacing << (sigmas.count - 1 - k))
        }
        // An outer side's last level also folds the full-resolution levels into a blur of its grid:
        // their variances add up (each level's Gaussian as cut and weighed).
        if style.reachesOutside, let last = levels.last {
            let variance = fineWeights.reduce(0.0) { sum, w in
                sum + w.indices.dropFirst().reduce(0.0) { $0 + 2 * Double(w[$1]) * Double($1 * $1) }
            }
            let cells = variance.squareRoot() / Double(last.spacing)
            if cells > 0 {
                levels[levels.count - 1] = CoarseLevel(sigma: last.sigma, spacing: last.spacing,
                                                       fold: Gaussian.weights(sigma: cells, taps: Self.taps(sigma: cells)))
            }
        }
        return levels
    }

    /// The Core Image levels made at full resolution (after the coarse ones).
    public var fineSigmas: [Double] { levelSigmas(coarse: false) }

    /// The parameters whose cascade these run: these, or a style's side.
    var cascade: HeightFieldParameters { isPlainInner ? self : side(radius: sideRadius) }

    /// The σ of the plain inner profile's levels, or a style's side's, that are (or are not) coarse.
    func levelSigmas(coarse: Bool) -> [Double] {
        let sigmas = cascade.sigmas, first = sigmas.first ?? 0
        return sigmas.filter { isCoarse($0, first: first) == coarse }
    }

    /// How far the full-resolution cascade reaches around an output pixel (the window it streams
    /// over; the coarse levels read further, `halo`, at coarse resolution).
    public var streamHalo: Int {
        guard isPlainInner else { return side(radius: sideRadius).streamHalo + softenReach }
        guard profile == .coreImage, !returnsMask else { return halo }
        return fineSigmas.reduce(0) { $0 + Self.taps(sigma: $1) }
    }

    /// The weights of the Core Image levels made at full resolution.
    public var fineWeights: [[Float]] { fineSigmas.map { Gaussian.weights(sigma: $0, taps: Self.taps(sigma: $0)) } }

    /// The one-sided width of the truncated Gaussian for σ.
    public static func taps(sigma: Double) -> Int {
        Int((sigma * truncation).rounded(.up))
    }
}

/// The entry points the plug-in calls, in whichever build suits the CPU (both builds conform).
public protocol HeightFieldKernel {
    static func styled(window: consuming Plane, parameters p: HeightFieldParameters, origin: (x: Int, y: Int)) -> (heights: Plane, coverage: Plane?)
    static func styledStream(_ p: HeightFieldParameters, weights: [[Float]], width: Int, height: Int,
                             origin: (x: Int, y: Int), seeds: CoarseSeedPair,
                             readRows: (Int, Int, UnsafeMutablePointer<Float>) -> Void) -> (heights: Plane, coverage: Plane?)
    static func coreImageRows(width: Int, height: Int, weights: [[Float]], seed: CoarseCascade.Seed?,
                              readRows: (Int, Int, UnsafeMutablePointer<Float>) -> Void,
                              emit: (Int, UnsafePointer<Float>) -> Void)
    /// The coarse levels over `window`, with the mask's moments (`CoarseLoops.cascade`).
    static func coarseCascade(levels: [CoarseLevel], window: IntRect, bounds: IntRect?, forEach: ForEach,
                              read: (IntRect, UnsafeMutablePointer<Float>) -> Void) -> CoarseCascade
    /// Their last level's blurred grid for each side asked for (`CoarseLoops.seedGrids`).
    static func coarseSeedGrids(_ cascade: CoarseCascade, inner: Bool, outer: Bool, forEach: ForEach) -> CoarseCascade.SeedGrids
}

/// The coarse levels' seeds of a window for a style's two sides (nil where a side has none).
public struct CoarseSeedPair {
    public var inner: CoarseCascade.Seed?, outer: CoarseCascade.Seed?
    public init(inner: CoarseCascade.Seed? = nil, outer: CoarseCascade.Seed? = nil) {
        self.inner = inner
        self.outer = outer
    }
}

#endif

// MARK: Loops (compiled for each CPU build)

public enum HeightField {
    /// Computes the height field of `window` (a mask that extends `parameters.halo` pixels beyond
    /// the output on every side; pixels outside the image must already read as 0) into a plane of
    /// (window.width − 2·halo) × (window.height − 2·halo). Mask values are clamped to [0, 1],
    /// NaN reads as 0. `origin`: the window's first pixel in the image (the coarse grids are the
    /// image's, so any tiling gives the same bits).
    public static func compute(window: consuming Plane, parameters: HeightFieldParameters, origin: (x: Int, y: Int) = (0, 0)) -> Plane {
        precondition(window.channels == 1)
        guard parameters.isPlainInner else { return styled(window: window, parameters: parameters, origin: origin).heights }
        let halo = parameters.halo
        let outW = window.width - 2 * halo, outH = window.height - 2 * halo
        guard outW > 0, outH > 0 else { return Plane(width: max(outW, 0), height: max(outH, 0)) }
        // The window is the kernel's own: sanitized in place, not copied.
        var mask = consume window
        for i in mask.pixels.indices { mask.pixels[i] = sanitizedMask(mask.pixels[i]) }
        if parameters.returnsMask { return mask }
        switch parameters.profile {
        case .coreImage:
            let inset = halo - parameters.streamHalo
            let coarse = coarseCascade(parameters.coarseLevels, window: mask, origin: origin, inset: inset)
            let fine = inset == 0 ? mask : mask.cropped(x: inset, y: inset, width: mask.width - 2 * inset, height: mask.height - 2 * inset)
            return coreImage(mask: fine, weights: parameters.fineWeights, halo: parameters.streamHalo,
                             seed: coarse.map { CoarseLoops.seed($0) })
        case .round, .linear, .smooth:
            return DistanceBevel.compute(mask: mask, radius: Float(parameters.effectiveRadius),
                                         profile: parameters.profile, halo: halo)
        }
    }

    // MARK: Styles and soften

    /// `compute` for every style and soften (see `BevelStyle`): each side is the plain inner
    /// profile of width `sideRadius`, on the mask and on the inverted mask (1 − m, so the background,
    /// and whatever lies beyond the image, is the inside of the outer side); the sides are combined,
    /// then blurred by the soften Gaussian. Also returns the outside styles' coverage
    /// min(1, W·(1 − H(1 − m, W))) over the output (nil for the inner style).
    public static func styled(window: consuming Plane, parameters p: HeightFieldParameters,
                              origin: (x: Int, y: Int) = (0, 0)) -> (heights: Plane, coverage: Plane?) {
        precondition(window.channels == 1)
        let halo = p.halo, soft = p.softenReach
        let outW = window.width - 2 * halo, outH = window.height - 2 * halo
        guard outW > 0, outH > 0 else { return (Plane(width: max(outW, 0), height: max(outH, 0)), nil) }
        let side = p.side(radius: p.sideRadius)
        if side.profile == .coreImage, !side.returnsMask {
            let inset = halo - p.streamHalo, fw = window.width - 2 * inset
            // The seeds of the sides the style has (as the plug-in's engine makes them).
            let seeds = coarseCascade(p.coarseLevels, window: window, origin: origin, inset: inset).map { c in
                let grids = CoarseLoops.seedGrids(c, inner: p.style != .outer, outer: p.style.reachesOutside)
                return CoarseSeedPair(inner: grids.inner?.seed(c.window), outer: grids.outer?.seed(c.window))
            } ?? CoarseSeedPair()
            return window.pixels.withUnsafeBufferPointer { m in
                styledStream(p, weights: p.fineWeights, width: fw, height: window.height - 2 * inset,
                             origin: (origin.x + inset, origin.y + inset), seeds: seeds) {
                    first, count, into in
                    for r in 0..<count {
                        (into + r * fw).update(from: m.baseAddress! + (inset + first + r) * window.width + inset, count: fw)
                    }
                }
            }
        }
        var mask = consume window // the kernel's own: sanitized in place, not copied
        for i in mask.pixels.indices { mask.pixels[i] = sanitizedMask(mask.pixels[i]) }
        // The sides over the output grown by the soften's reach (halo = side's halo + soft). The
        // exact-distance profiles measure both sides to the same edge in one distance transform.
        var inner = Plane(width: 0, height: 0), outer = Plane(width: 0, height: 0)
        if !side.returnsMask {
            (inner, outer) = DistanceBevel.sides(mask: mask, radius: Float(side.effectiveRadius), profile: side.profile,
                                                 halo: side.halo, inside: p.style != .outer,
                                                 outside: p.style.reachesOutside)
        } else {
            if p.style.reachesOutside {
                outer = mask
                for i in outer.pixels.indices { outer.pixels[i] = 1 - mask.pixels[i] }
                outer = compute(window: outer, parameters: side)
            }
            if p.style != .outer { inner = compute(window: mask, parameters: side) }
        }
        // The style's heights land in place in the side that holds them (inner, or outer for the
        // outer style); the outer side's coverage is taken from each row before it is combined.
        let gw = outW + 2 * soft, gh = outH + 2 * soft
        var coverage: Plane? = p.style.reachesOutside ? Plane.unfilled(width: outW, height: outH) : nil
        let width = Float(max(p.sideRadius, 1))
        if p.style.reachesOutside {
            coverage!.pixels.withUnsafeMutableBufferPointer { cover in
                outer.pixels.withUnsafeMutableBufferPointer { o in
                    for y in soft..<(soft + outH) {
                        coverageRow(outer: o.baseAddress! + y * gw + soft, width: width,
                                    into: cover.baseAddress! + (y - soft) * outW, count: outW)
                    }
                    guard p.style != .outer else {
                        for y in 0..<gh { combineRow(.outer, inner: nil, outer: o.baseAddress! + y * gw,
                                                     into: o.baseAddress! + y * gw, count: gw) }
                        return
                    }
                    inner.pixels.withUnsafeMutableBufferPointer { i in
                        for y in 0..<gh { combineRow(p.style, inner: i.baseAddress! + y * gw, outer: o.baseAddress! + y * gw,
                                                     into: i.baseAddress! + y * gw, count: gw) }
                    }
                }
            }
        }
        let combined = p.style == .outer ? outer : inner
        guard soft > 0 else { return (combined, coverage) }
        return (soften(combined, p, origin: (origin.x + halo - soft, origin.y + halo - soft)), coverage)
    }

    /// `styled` with the Core Image profile, streamed: each side's cascade runs over the rows of a
    /// width × height window (`readRows` gives the mask's; the outer side reads 1 − mask), and its
    /// rows land in the output grown by the soften taps, combined as they come. `weights`: the
    /// side's full-resolution levels (`p.fineWeights`), built once; `coarse`:
    /// its coarse levels' seeds for this window (none without).
    public static func styledStream(_ p: HeightFieldParameters, weights: [[Float]], width w: Int, height h: Int,
                                    origin: (x: Int, y: Int), seeds: CoarseSeedPair,
                                    readRows: (Int, Int, UnsafeMutablePointer<Float>) -> Void)
        -> (heights: Plane, coverage: Plane?) {
        let soft = p.softenReach, sideHalo = p.streamHalo - soft
        let rowsOrigin = (origin.x + sideHalo, origin.y + sideHalo) // the sides' rows' first pixel
        let rw = w - 2 * sideHalo, rh = h - 2 * sideHalo
        let outW = rw - 2 * soft, outH = rh - 2 * soft
        // Emboss and pillow read the mask for both sides: once, into the window's plane.
        let bothSides = p.style == .emboss || p.style == .pillow
        let mask = LargeBuffer.floats(bothSides ? w * h : 0) { buffer, count in
            if bothSides { readRows(0, h, buffer.baseAddress!) }
            count = buffer.count
        }
        func readMask(_ first: Int, _ count: Int, _ into: UnsafeMutablePointer<Float>) {
            guard bothSides else { return readRows(first, count, into) }
            mask.withUnsafeBufferPointer { into.update(from: $0.baseAddress! + first * w, count: count * w) }
        }
        // Every row of the planes is written when the cascade emits all of them (as it does unless
        // the window is too small for its halo: then they stay 0).
        let complete = emitsEveryRow(width: w, height: h, weights: weights)
        func plane(_ width: Int, _ height: Int) -> Plane {
            complete ? Plane.unfilled(width: width, height: height) : Plane(width: width, height: height)
        }
        // With a soften, each row of the style's heights goes to it as it is made: the inner and
        // outer styles keep no plane of them.
        var softened = soft > 0 ? SoftenRows(p, width: rw, height: rh, origin: rowsOrigin) : nil
        func finishSoften() -> Plane {
            // (No rows come when the window is too small for the cascade: the heights are 0.)
            let zeros = [Float](repeating: 0, count: softened!.added < rh ? rw : 0)
            while softened!.added < rh { softened!.add(zeros) }
            return softened!.finish()
        }
        let keepsInner = p.style == .emboss || p.style == .pillow || (p.style == .inner && soft == 0)
        var inner = plane(keepsInner ? rw : 0, keepsInner ? rh : 0)
        if p.style != .outer {
            inner.pixels.withUnsafeMutableBufferPointer { dst in
                coreImageRows(width: w, height: h, weights: weights, seed: seeds.inner, readRows: readMask) { y, row in
                    guard keepsInner else { return softened!.add(row) }
                    (dst.baseAddress! + y * rw).update(from: row, count: rw)
                }
            }
        }
        guard p.style.reachesOutside else {
            return (soft > 0 ? finishSoften() : inner, nil)
        }
        func readInverted(_ first: Int, _ count: Int, _ into: UnsafeMutablePointer<Float>) {
            readMask(first, count, into)
            invertMask(into, count: count * w)
        }
        // Emboss and pillow combine into the inner side's rows, in place; the outer style into a
        // row of its own when a soften takes each.
        let ownRow = p.style == .outer && soft > 0
        var combined = p.style == .outer ? plane(ownRow ? 0 : rw, ownRow ? 0 : rh) : inner
        inner = Plane(width: 0, height: 0)
        var coverage = plane(outW, outH)
        let width = Float(max(p.sideRadius, 1))
        withUnsafeTemporaryAllocation(of: Float.self, capacity: ownRow ? rw : 0) { single in
            combined.pixels.withUnsafeMutableBufferPointer { c in
                coverage.pixels.withUnsafeMutableBufferPointer { cover in
                    coreImageRows(width: w, height: h, weights: weights, seed: seeds.outer,
                                  readRows: readInverted) { y, outer in
                        let row = ownRow ? single.baseAddress! : c.baseAddress! + y * rw
                        combineRow(p.style, inner: p.style == .outer ? nil : row, outer: outer, into: row, count: rw)
                        softened?.add(row)
                        guard y >= soft, y < soft + outH else { return }
                        coverageRow(outer: outer + soft, width: width, into: cover.baseAddress! + (y - soft) * outW,
                                    count: outW)
                    }
                }
            }
        }
        return (soft > 0 ? finishSoften() : combined, coverage)
    }

    /// `count` mask values made 1 − the sanitized mask (`sanitizedMask`), in place.
    static func invertMask(_ m: UnsafeMutablePointer<Float>, count: Int) {
        let one = V4(repeating: 1), zero = V4()
        var x = 0
        while x + V4.scalarCount <= count {
            let v = vload(m + x)
            var r = vmin(v, one)
            r.replace(with: zero, where: .!(v .> zero)) // as `sanitizedMask`: NaN and −0 land on 0
            UnsafeMutableRawPointer(m + x).storeBytes(of: one - r, as: V4.self)
            x += V4.scalarCount
        }
        while x < count { m[x] = 1 - sanitizedMask(m[x]); x += 1 }
    }

    /// One row of a style's height from its sides' rows (see `BevelStyle`), eight values at a time
    /// with the scalar tail's arithmetic (the same bits).
    @inline(__always)
    static func combineRow(_ style: BevelStyle, inner: UnsafePointer<Float>?, outer: UnsafePointer<Float>?,
                           into row: UnsafeMutablePointer<Float>, count: Int) {
        @inline(__always) func each(_ vector: (Int) -> V4, _ scalar: (Int) -> Float) {
            var x = 0
            while x + V4.scalarCount <= count {
                UnsafeMutableRawPointer(row + x).storeBytes(of: vector(x), as: V4.self)
                x += V4.scalarCount
            }
            while x < count { row[x] = scalar(x); x += 1 }
        }
        let one = V4(repeating: 1), half = V4(repeating: 0.5)
        switch style {
        case .inner: row.update(from: inner!, count: count)
        case .outer: each({ one - vload(outer! + $0) }, { 1 - outer![$0] })
        case .emboss: each({ half * vload(inner! + $0) + half * (one - vload(outer! + $0)) },
                           { 0.5 * inner![$0] + 0.5 * (1 - outer![$0]) })
        case .pillow: each({ vload(inner! + $0) + vload(outer! + $0) }, { inner![$0] + outer![$0] })
        }
    }

    /// One row of an outside style's coverage, min(1, W·(1 − outer)) and 0 below the floor, from
    /// the outer side's row (whose values are finite).
    @inline(__always)
    static func coverageRow(outer: UnsafePointer<Float>, width: Float, into row: UnsafeMutablePointer<Float>, count: Int) {
        let floor = BevelStyle.coverageFloor
        let one = V4(repeating: 1), zero = V4(), w = V4(repeating: width), below = V4(repeating: floor)
        var x = 0
        while x + V4.scalarCount <= count {
            var c = vmin(w * (one - vload(outer + x)), one)
            c.replace(with: zero, where: c .< below)
            UnsafeMutableRawPointer(row + x).storeBytes(of: c, as: V4.self)
            x += V4.scalarCount
        }
        while x < count {
            let c = min(1, width * (1 - outer[x]))
            row[x] = c < floor ? 0 : c
            x += 1
        }
    }

    /// `p`'s soften of `plane` (its first pixel at `origin` in the image): the result is
    /// `p.softenReach` smaller on every side.
    static func soften(_ plane: Plane, _ p: HeightFieldParameters, origin: (x: Int, y: Int)) -> Plane {
        var rows = SoftenRows(p, width: plane.width, height: plane.height, origin: origin)
        rows.add(plane)
        return rows.finish()
    }

    /// A Gaussian blur of σ over `plane`, cut at `taps`: the result is `taps` smaller on every side.
    static func soften(_ plane: Plane, sigma: Double, taps: Int) -> Plane {
        var rows = SoftenRows(sigma: sigma, taps: taps, width: plane.width, height: plane.height)
        rows.add(plane)
        return rows.finish()
    }

    /// A soften fed the heights a row at a time, top to bottom (`width` × `height`, the first pixel
    /// at `origin` in the image), that keeps only what it needs of them: the cell means of the
    /// image's grid of spacing 2 for a large σ (`HeightFieldParameters.softenLevel`), else the rows
    /// blurred across. `finish` gives the result, `reach` smaller on every side.
    struct SoftenRows {
        let width: Int, height: Int, reach: Int
        /// The first pixel of the result in the image.
        let ox: Int, oy: Int
        let weights: [Float]
        /// On the grid: the cells the means are taken over and those blurred, the means (nil: at
        /// full resolution), and the last even image row's pixels over the means' columns.
        let meansArea: IntRect, blurredArea: IntRect
        let means: Grid?
        var evenRow: [Float]
        /// At full resolution: the rows blurred across.
        var across: Plane
        /// The rows added so far; where the means' columns start in a row.
        var added = 0
        let meansColumn: Int

        init(_ p: HeightFieldParameters, width: Int, height: Int, origin: (x: Int, y: Int)) {
            if let level = p.softenLevel {
                self.init(level: level, reach: p.softenReach, width: width, height: height, origin: origin)
            } else {
                self.init(sigma: p.effectiveSoften, taps: p.softenTaps, width: width, height: height)
            }
        }

        private init(level: CoarseLevel, reach: Int, width: Int, height: Int, origin: (x: Int, y: Int)) {
            precondition(level.spacing == 2) // (σ ≤ 16 < 4·softenRatio)
            let t = level.taps
            self.width = width
            self.height = height
            self.reach = reach
            ox = origin.x + reach
            oy = origin.y + reach
            weights = level.weights
            let outW = width - 2 * reach, outH = height - 2 * reach
            let (ox, oy) = (self.ox, self.oy)
            blurredArea = IntRect(x: Self.first(ox), y: Self.first(oy), width: Self.first(ox + outW - 1) + 4 - Self.first(ox),
                                  height: Self.first(oy + outH - 1) + 4 - Self.first(oy))
            meansArea = IntRect(x: blurredArea.x - t, y: blurredArea.y - t, width: blurredArea.width + 2 * t,
                                height: blurredArea.height + 2 * t)
            precondition(2 * meansArea.x >= origin.x && 2 * meansArea.maxX <= origin.x + width
                         && 2 * meansArea.y >= origin.y && 2 * meansArea.maxY <= origin.y + height,
                         "the soften's reach covers its cells")
            means = Grid(meansArea)
            meansColumn = 2 * meansArea.x - origin.x
            evenRow = [Float](repeating: 0, count: 2 * meansArea.width)
            across = Plane(width: 0, height: 0)
        }

        init(sigma: Double, taps: Int, width: Int, height: Int) {
            self.width = width
            self.height = height
            reach = taps
            (ox, oy) = (0, 0)
            weights = Gaussian.weights(sigma: sigma, taps: taps)
            meansArea = IntRect(x: 0, y: 0, width: 0, height: 0)
            blurredArea = meansArea
            means = nil
            meansColumn = 0
            evenRow = []
            // (Every pixel is written: blurred, or +0 where all it reads is.)
            across = Plane.unfilled(width: width - 2 * taps, height: height)
        }

        /// Pixel x of the result reads cells first(x) ..< first(x) + 4: cell c's centre lies at
        /// 2c + ½, so an even x = 2k lies ¾ of the way from cell k − 1 to k, an odd one ¼ of the way
        /// from k to k + 1.
        @inline(__always) static func first(_ x: Int) -> Int { (x >> 1) - 2 + (x & 1) }

        /// Every row of `plane` (as wide and tall as the soften's input).
        mutating func add(_ plane: Plane) {
            plane.pixels.withUnsafeBufferPointer { src in
                for y in 0..<plane.height { add(src.baseAddress! + y * plane.width) }
            }
        }

        /// The next row of the input, from an array of `width` values.
        mutating func add(_ row: [Float]) {
            row.withUnsafeBufferPointer { add($0.baseAddress!) }
        }

        /// The next row of the input (`width` values).
        mutating func add(_ row: UnsafePointer<Float>) {
            precondition(added < height)
            defer { added += 1 }
            guard let means else {
                // Output x reads row[x ... x + 2·taps]: a run of +0 values longer than the span
                // gives +0 outputs.
                let taps = reach, outW = across.width, y = added
                across.pixels.withUnsafeMutableBufferPointer { dst in
                    weights.withUnsafeBufferPointer { w in
                        let into = dst.baseAddress! + y * outW
                        HeightField.forEachStretch(count: outW, zeroSpan: 2 * taps + 1, isZero: { row[$0].bitPattern == 0 },
                                                   length: width) { from, to, zero in
                            if zero { (into + from).update(repeating: 0, count: to - from) }
                            else { HeightField.blurRow(row + taps, into: into, from: from, to: to, weights: w) }
                        }
                    }
                }
                return
            }
            // Image row 2r is kept; row 2r + 1 makes the means of cell row r with it.
            let imageRow = oy - reach + added, r = (imageRow >> 1) - meansArea.y
            guard r >= 0, r < meansArea.height else { return }
            let cells = row + meansColumn, mw = meansArea.width
            evenRow.withUnsafeMutableBufferPointer { up in
                guard imageRow & 1 == 1 else { return up.baseAddress!.update(from: cells, count: 2 * mw) }
                let into = means.base + r * mw
                // (× ¼, a power of two: the same bits as the division.)
                for c in 0..<mw { into[c] = ((up[2 * c] + cells[2 * c]) + (up[2 * c + 1] + cells[2 * c + 1])) * 0.25 }
            }
        }

        /// The soften of the rows added (all `height` of them).
        func finish() -> Plane {
            precondition(added == height)
            guard let means else { return blurDown() }
            return Self.readBack(CoarseLoops.blur(means, to: blurredArea, weights: weights, forEach: serially),
                                 ox: ox, oy: oy, width: width - 2 * reach, height: height - 2 * reach)
        }

        /// The full-resolution soften's pass down the rows blurred across. Where every value a
        /// pixel reads is +0 (a flat background), the sum is +0 and is written without adding its
        /// taps; the other pixels are summed as everywhere, so the result is the same.
        func blurDown() -> Plane {
            let taps = reach, outW = across.width, outH = height - 2 * reach, span = 2 * taps + 1
            var out = Plane.unfilled(width: outW, height: outH)
            across.pixels.withUnsafeBufferPointer { src in
                out.pixels.withUnsafeMutableBufferPointer { dst in
                    weights.withUnsafeBufferPointer { weights in
                        // Per column: how many of the rows the output row reads are not +0.
                        let live = UnsafeMutablePointer<Int32>.allocate(capacity: outW)
                        defer { live.deallocate() }
                        live.initialize(repeating: 0, count: outW)
                        func tally(_ y: Int, _ by: Int32) {
                            let row = src.baseAddress! + y * outW
                            for x in 0..<outW { live[x] &+= row[x].bitPattern == 0 ? 0 : by }
                        }
                        for y in 0..<(span - 1) { tally(y, 1) }
                        withUnsafeTemporaryAllocation(of: UnsafePointer<Float>.self, capacity: span) { table in
                            for y in 0..<outH {
                                tally(y + span - 1, 1)
                                let into = dst.baseAddress! + y * outW
                                HeightField.ringRows(src.baseAddress!, width: outW, span: height, centre: y + taps, radius: taps,
                                                     into: table.baseAddress!)
                                HeightField.forEachStretch(count: outW, zeroSpan: 1, isZero: { live[$0] == 0 }, length: outW) {
                                    from, to, zero in
                                    if zero { (into + from).update(repeating: 0, count: to - from) }
                                    else { HeightField.blurColumns(table.baseAddress!, into: into, from: from, to: to, weights: weights) }
                                }
                                tally(y, -1)
                            }
                        }
                    }
                }
            }
            return out
        }

        /// The `width` × `height` pixels from (ox, oy) on, read back from the blurred cells through
        /// the cubic B-spline, whose slopes are smooth, as the shading needs them. The cells and
        /// their arithmetic do not depend on where the input starts, so any tiling gives the same
        /// bits.
        static func readBack(_ blurred: Grid, ox: Int, oy: Int, width outW: Int, height outH: Int) -> Plane {
            func spline(_ t: Float) -> SIMD4<Float> {
                let u = 1 - t
                return SIMD4(u * u * u, 3 * t * t * t - 6 * t * t + 4, -3 * t * t * t + 3 * t * t + 3 * t + 1, t * t * t) / 6
            }
            let even = spline(0.75), odd = spline(0.25)
            @inline(__always) func readBack(_ a: UnsafePointer<Float>, _ w: SIMD4<Float>) -> Float {
                (w[0] * a[0] + w[1] * a[1]) + (w[2] * a[2] + w[3] * a[3])
            }
            var out = Plane.unfilled(width: outW, height: outH) // (every pixel is written below)
            let blurredArea = blurred.area, bw = blurredArea.width
            out.pixels.withUnsafeMutableBufferPointer { dst in
                withUnsafeTemporaryAllocation(of: Float.self, capacity: bw) { scratch in
                    // across[c]: the row's cells' column, read back down; pixel x reads its four from
                    // across + first(x) − first(ox).
                    let across = scratch.baseAddress! - blurredArea.x
                    for y in 0..<outH {
                        let k = (oy + y) & 1 == 0 ? even : odd
                        let r0 = UnsafePointer(blurred.base) + (first(oy + y) - blurredArea.y) * bw, r1 = r0 + bw, r2 = r1 + bw, r3 = r2 + bw
                        for i in 0..<bw {
                            scratch[i] = (k[0] * r0[i] + k[1] * r1[i]) + (k[2] * r2[i] + k[3] * r3[i])
                        }
                        let into = dst.baseAddress! - ox + y * outW, end = ox + outW
                        @inline(__always) func one(_ x: Int) { into[x] = readBack(across + first(x), x & 1 == 0 ? even : odd) }
                        var x = ox
                        if x & 1 == 1, x < end { one(x); x += 1 }
                        // Eight pairs at a time, as vectors: x = 2m (even) reads cells m − 2 ... m + 1, x + 1
                        // cells m − 1 ... m + 2; then the lanes interleaved. The row's last pixels one by one.
                        @inline(__always) func cells(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
                            UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
                        }
                        while x + 15 < end {
                            let a = across + (x >> 1) - 2
                            let c0 = cells(a), c1 = cells(a + 1), c2 = cells(a + 2), c3 = cells(a + 3), c4 = cells(a + 4)
                            let e = (even[0] * c0 + even[1] * c1) + (even[2] * c2 + even[3] * c3)
                            let o = (odd[0] * c1 + odd[1] * c2) + (odd[2] * c3 + odd[3] * c4)
                            UnsafeMutableRawPointer(into + x).storeBytes(
                                of: SIMD16(e[0], o[0], e[1], o[1], e[2], o[2], e[3], o[3], e[4], o[4], e[5], o[5], e[6], o[6], e[7], o[7]),
                                as: SIMD16<Float>.self)
                            x += 16
                        }
                        while x < end { one(x); x += 1 }
                    }
                }
            }
            return withExtendedLifetime(blurred) { out }
        }
    }

    /// Cuts outputs 0 ..< count into stretches, in order: `zero` where output x reads only inputs
    /// x ..< x + zeroSpan for which `isZero` holds (inputs 0 ..< length), else not. Zero stretches
    /// shorter than `minimumZeroRun` are left with their neighbours (not worth a stretch of their own).
    @inline(__always)
    static func forEachStretch(count: Int, zeroSpan: Int, isZero: (Int) -> Bool, length: Int,
                               _ body: (_ from: Int, _ to: Int, _ zero: Bool) -> Void) {
        let minimumZeroRun = 16
        var done = 0, i = 0
        while i < length {
            guard isZero(i) else { i += 1; continue }
            var end = i + 1
            while end < length && isZero(end) { end += 1 }
            // Inputs i ..< end are zero: outputs i ..< end − zeroSpan + 1 read only those.
            let first = i, last = min(end - zeroSpan + 1, count)
            if last - first >= minimumZeroRun {
                if first > done { body(done, first, false) }
                body(first, last, true)
                done = last
            }
            i = end
        }
        if done < count { body(done, count, false) }
    }

    // MARK: Core Image profile

    public static func coarseCascade(levels: [CoarseLevel], window: IntRect, bounds: IntRect?, forEach: ForEach,
                                     read: (IntRect, UnsafeMutablePointer<Float>) -> Void) -> CoarseCascade {
        CoarseLoops.cascade(levels: levels, window: window, bounds: bounds, forEach: forEach, read: read)
    }

    public static func coarseSeedGrids(_ cascade: CoarseCascade, inner: Bool, outer: Bool,
                                       forEach: ForEach) -> CoarseCascade.SeedGrids {
        CoarseLoops.seedGrids(cascade, inner: inner, outer: outer, forEach: forEach)
    }

    /// The coarse levels of a whole window (its origin in the image given) for its inner window
    /// `inset` pixels in on every side, the mask read from the window itself; nil without levels.
    static func coarseCascade(_ levels: [CoarseLevel], window: Plane, origin: (x: Int, y: Int), inset: Int) -> CoarseCascade? {
        guard !levels.isEmpty else { return nil }
        let inner = IntRect(x: origin.x + inset, y: origin.y + inset, width: window.width - 2 * inset, height: window.height - 2 * inset)
        let whole = IntRect(x: origin.x, y: origin.y, width: window.width, height: window.height)
        return window.pixels.withUnsafeBufferPointer { m in
            CoarseLoops.cascade(levels: levels, window: inner, bounds: whole) { rect, into in
                for r in 0..<rect.height {
                    let from = m.baseAddress! + (rect.y - origin.y + r) * window.width + (rect.x - origin.x)
                    (into + r * rect.width).update(from: from, count: rect.width)
                }
            }
        }
    }

    static func coreImage(mask: Plane, weights: [[Float]], halo: Int, seed: CoarseCascade.Seed? = nil) -> Plane {
        var out = Plane(width: mask.width - 2 * halo, height: mask.height - 2 * halo)
        mask.pixels.withUnsafeBufferPointer { m in
            out.pixels.withUnsafeMutableBufferPointer { o in
                coreImageRows(width: mask.width, height: mask.height, weights: weights, seed: seed, readRows: { first, count, into in
                    into.update(from: m.baseAddress! + first * mask.width, count: count * mask.width)
                }, emit: { y, row in
                    (o.baseAddress! + y * out.width).update(from: row, count: out.width)
                })
            }
        }
        return out
    }

    /// Rows of mask fetched from the reader at a time.
    public static let readBatch = 32

    /// Streams Core Image's cascade over a mask window, one output row at a time.
    ///
    /// Rows flow through the levels as they are made. The mask is read `readBatch` rows at a time
    /// into a ring that holds only the rows still needed (halo + first radius + a batch), and each
    /// level keeps only the 2r + 1 rows of its horizontal pass that its vertical pass needs, so the
    /// working set grows with the window's width and the radius, never with its height.
    ///
    /// Work is skipped in chunks of `Chunks.width` columns, tracked in bitmaps a row:
    /// - where the mask is 0 (the product is 0 there whatever the blur gives): each row's vertical
    ///   pass covers the chunks where its mask is not 0, and the horizontal pass the chunks that
    ///   the rows within ±r need, storing +0 without adding taps where its row is 0 within ±r;
    /// - where every value a pass reads is the same constant: the mask is exactly 1 over a chunk and
    ///   the window of each level around it. There each pass gives one value, the same for every
    ///   pixel, which is computed once by the same loops on a constant row and stored (the outside
    ///   of an outer bevel, the inside of thick shapes).
    ///
    /// `readRows(first, count, into)` must write `count` mask rows of `width` values (any floats:
    /// they are sanitized here). `emit(y, row)` receives output row y (0-based, `width − 2·halo`
    /// values) in increasing order.
    /// `weights`: one-sided Gaussian weights per level (`HeightFieldParameters.fineWeights`), built once.
    public static func coreImageRows(width w: Int, height h: Int, weights: [[Float]], seed: CoarseCascade.Seed? = nil,
                                     readRows: (Int, Int, UnsafeMutablePointer<Float>) -> Void,
                                     emit: (Int, UnsafePointer<Float>) -> Void) {
        guard emitsEveryRow(width: w, height: h, weights: weights) else { return }
        let radii = weights.map { $0.count - 1 }
        let halo = radii.reduce(0, +)
        let cascade = Cascade(width: w, weights: weights, seeded: seed != nil)
        defer { cascade.deallocate() }
        // With coarse levels before these, the first level's input is their seed row, not the mask.
        let seedRow = UnsafeMutablePointer<Float>.allocate(capacity: seed == nil ? 1 : w + seed!.scratchCount)
        defer { seedRow.deallocate() }
        var fetched = 0
        func fetch(through row: Int) {
            while fetched <= row && fetched < h {
                let count = min(readBatch, h - fetched)
                var done = 0
                while done < count { // split where the ring wraps
                    let y = fetched + done
                    let run = min(count - done, cascade.maskRows - y % cascade.maskRows)
                    readRows(y, run, cascade.maskRow(y))
                    done += run
                }
                for y in fetched..<(fetched + count) {
                    sanitize(cascade.maskRow(y), count: w, occupied: cascade.occupied(y), ones: cascade.constant(0, y))
                }
                fetched += count
            }
        }
        // An outer side's fold: the levels skip the chunks it stands for (see `Far`).
        let far = seed.flatMap { seed in seed.fold.map { Far($0, seed: seed, radii: radii, height: h, words: cascade.words) } }
        defer { far?.deallocate() }
        var received = [Int](repeating: 0, count: weights.count)
        for j in 0..<h {
            // (A batch every readBatch rows: the call, which retains what it captures, only then.)
            let needed = min(j + radii[0], h - 1)
            if fetched <= needed { fetch(through: needed) }
            var rowIndex = j
            var src = UnsafePointer(cascade.maskRow(j))
            if let seed {
                CoarseLoops.seedRow(seed, j, mask: src, into: seedRow, scratch: seedRow + w)
                src = UnsafePointer(seedRow)
            }
            var complete = true
            for k in 0..<weights.count {
                cascade.horizontalPass(level: k, row: rowIndex, source: src, height: h, skip: far?.skip(2 * k, row: rowIndex))
                received[k] += 1
                guard received[k] >= 2 * radii[k] + 1 else { complete = false; break }
                rowIndex -= radii[k]
                src = cascade.verticalPass(level: k, row: rowIndex, skip: far?.skip(2 * k + 1, row: rowIndex))
            }
            guard complete else { continue }
            far?.replace(row: rowIndex, in: UnsafeMutablePointer(mutating: src), halo: halo)
            emit(rowIndex - halo, src + halo)
        }
    }

    /// Where an outer side's mask is 1 all through the full-resolution levels' reach, their result
    /// is its fold's grid read back (`CoarseCascade.Fold`): those pixels take it, and each level
    /// skips the chunks that no other pixel needs. With the blocks' distances (`FarBlocks`, whose
    /// block at distance d has mask 0 over d − 1 blocks around it):
    /// - a pixel takes the fold where its block is farther than ⌈D/b⌉ blocks, D the levels' reach and
    ///   b the blocks' side;
    /// - the level k output each needed pixel reads lies within r_k down (its vertical pass), then
    ///   r_k across (its horizontal pass): ⌈r_k/b⌉ blocks more each.
    /// A chunk is skipped where every one of its pixels is farther than its pass's distance. The
    /// choice is the image's (its blocks), so any tiling gives the same bits.
    struct Far {
        let fold: CoarseCascade.Seed
        /// The blocks' side (`FarBlocks.size`).
        let size: Int
        let words: Int, firstBlockRow: Int, firstBlock: Int, blocksAcross: Int, thresholds: Int, replaceBeyond: Int
        /// The blocks' distances under the window: a row of them per block row.
        let distances: UnsafeMutablePointer<UInt8>
        /// Per block row of the window, per pass (level k's horizontal pass 2k, vertical 2k + 1): the
        /// chunks to skip.
        let table: UnsafeMutablePointer<UInt64>
        /// A row of the fold's grid between its two cell rows.
        let between: UnsafeMutablePointer<Float>

        init(_ fold: CoarseCascade.Fold, seed: CoarseCascade.Seed, radii: [Int], height h: Int, words: Int) {
            let size = fold.far.size, window = seed.window, w = window.width
            self.fold = CoarseCascade.Seed(grid: fold.grid, spacing: seed.spacing, window: window)
            self.size = size
            self.words = words
            // Back from the last level's output: each pass's distance in blocks.
            let reach = radii.reduce(0, +)
            var beyond = [Int](repeating: 0, count: 2 * radii.count), d = (reach + size - 1) / size
            for k in stride(from: radii.count - 1, through: 0, by: -1) {
                beyond[2 * k + 1] = d
                d += (radii[k] + size - 1) / size
                beyond[2 * k] = d
                d += (radii[k] + size - 1) / size
            }
            replaceBeyond = beyond.last!
            thresholds = beyond.count
            firstBlockRow = floorDiv(window.y, size)
            firstBlock = floorDiv(window.x, size)
            blocksAcross = floorDiv(window.maxX - 1, size) - firstBlock + 1
            let blockRows = floorDiv(window.y + h - 1, size) - firstBlockRow + 1
            distances = .allocate(capacity: blockRows * blocksAcross)
            for r in 0..<blockRows {
                for b in 0..<blocksAcross { distances[r * blocksAcross + b] = fold.far.distance(firstBlock + b, firstBlockRow + r) }
            }
            table = .allocate(capacity: blockRows * thresholds * words)
            table.initialize(repeating: 0, count: blockRows * thresholds * words)
            let chunks = min(words * 64, (w + Chunks.width - 1) / Chunks.width)
            for r in 0..<blockRows {
                let bits = table + r * thresholds * words, row = distances + r * blocksAcross - firstBlock
                for i in 0..<chunks {
                    let a = window.x + i * Chunks.width, b = min(a + Chunks.width, window.maxX) - 1
                    var nearest = UInt8.max
                    for bx in floorDiv(a, size)...floorDiv(b, size) { nearest = min(nearest, row[bx]) }
                    for t in 0..<thresholds where Int(nearest) > beyond[t] {
                        bits[t * words + (i >> 6)] |= 1 << UInt64(i & 63)
                    }
                }
            }
            between = .allocate(capacity: self.fold.scratchCount)
        }

        func deallocate() {
            distances.deallocate()
            table.deallocate()
            between.deallocate()
        }

        /// The chunks pass `t` skips in window row y.
        @inline(__always) func skip(_ t: Int, row y: Int) -> UnsafePointer<UInt64> {
            let r = floorDiv(fold.window.y + y, size) - firstBlockRow
            return UnsafePointer(table + (r * thresholds + t) * words)
        }

        /// Window row y of the last level's output (valid from `halo` to its width − `halo`): the
        /// fold's grid read back (`CoarseLoops.field`; the mask there is 1) where the pixel's block
        /// is far enough.
        func replace(row y: Int, in out: UnsafeMutablePointer<Float>, halo: Int) {
            let window = fold.window
            let distance = distances + (floorDiv(window.y + y, size) - firstBlockRow) * blocksAcross - firstBlock
            let first = floorDiv(window.x + halo, size), last = floorDiv(window.maxX - halo - 1, size)
            var bx = first
            while bx <= last {
                guard Int(distance[bx]) > replaceBeyond else { bx += 1; continue }
                // A run of such blocks, as window columns.
                var end = bx + 1
                while end <= last && Int(distance[end]) > replaceBeyond { end += 1 }
                CoarseLoops.field(fold, y, from: max(bx * size - window.x, halo), to: min(end * size - window.x, window.width - halo),
                                  into: out, scratch: between)
                bx = end
            }
        }
    }

    /// Whether `coreImageRows` emits every output row (else none: the window is no wider or taller
    /// than twice its halo).
    static func emitsEveryRow(width w: Int, height h: Int, weights: [[Float]]) -> Bool {
        let halo = weights.reduce(0) { $0 + $1.count - 1 }
        return !weights.isEmpty && w > 2 * halo && h > 2 * halo
    }

    /// The memory of one `coreImageRows` call and where each part of it lies, with the cascade's
    /// two passes over it. One scratch block: the mask ring, each level's ring of horizontally
    /// blurred rows, each level's output row, then each level's weights; the loops touch only its
    /// pointers (no array, whose reference count two threads would bounce between them, is read
    /// per row). Bitmaps of `words` words a row (see `Chunks`), each kept only while its rows are
    /// (so they grow with the width and the radius, not the height): where the mask is not 0 and
    /// where it is 1, for the rows of the mask ring; where each level's horizontal pass is its
    /// constant, for the rows of its ring; where each level's output row is its constant; and three
    /// rows' worth for the runs of a row.
    struct Cascade {
        let w: Int, levels: Int, words: Int, maskRows: Int
        let radii: [Int]
        /// inset[k]: columns/rows [inset[k], size − inset[k]) are valid in the output of level k
        /// (level 0 is the mask itself).
        let inset: [Int]
        let ringOffsets: [Int], rowsOffset: Int, acrossOffsets: [Int], levelOffset: Int
        let scratch: UnsafeMutablePointer<Float>, bitmaps: UnsafeMutablePointer<UInt64>
        let levelWeights: [UnsafeBufferPointer<Float>]
        let constants: [(across: Float, output: Float)]
        /// The vertical pass's rows y − r ... y + r, found once a row (not once a run).
        let rowTable: UnsafeMutablePointer<UnsafePointer<Float>>
        /// A row's runs: chunks to compute, to fill with the constant, to fill with 0.
        let pick: UnsafeMutablePointer<UInt64>, fill: UnsafeMutablePointer<UInt64>, zero: UnsafeMutablePointer<UInt64>

        /// Whether level 0 reads a seed (the coarse levels' rows): then it is never constant.
        let seeded: Bool

        init(width w: Int, weights: [[Float]], seeded: Bool) {
            self.seeded = seeded
            let radii = weights.map { $0.count - 1 }, levels = weights.count
            let maskRows = radii.reduce(0, +) + radii[0] + readBatch + 1, words = Chunks.words(w)
            let ringOffsets = radii.reduce(into: [maskRows * w]) { $0.append($0.last! + (2 * $1 + 1) * w) }
            let rowsOffset = ringOffsets.last!, weightsOffset = rowsOffset + levels * w
            let scratch = UnsafeMutablePointer<Float>.allocate(capacity: weightsOffset + weights.reduce(0) { $0 + $1.count })
            scratch.initialize(repeating: 0, count: weightsOffset)
            var tables: [UnsafeBufferPointer<Float>] = [], next = scratch + weightsOffset
            for level in weights {
                next.initialize(from: level, count: level.count)
                tables.append(UnsafeBufferPointer(start: next, count: level.count))
                next += level.count
            }
            let acrossOffsets = radii.reduce(into: [2 * maskRows * words]) { $0.append($0.last! + (2 * $1 + 1) * words) }
            let levelOffset = acrossOffsets.last!, bitmapCount = levelOffset + (levels + 3) * words
            let bitmaps = UnsafeMutablePointer<UInt64>.allocate(capacity: bitmapCount)
            bitmaps.initialize(repeating: 0, count: bitmapCount)
            self.w = w
            self.radii = radii
            self.levels = levels
            self.words = words
            self.maskRows = maskRows
            inset = radii.reduce(into: [0]) { $0.append($0.last! + $1) }
            self.ringOffsets = ringOffsets
            self.rowsOffset = rowsOffset
            self.acrossOffsets = acrossOffsets
            self.levelOffset = levelOffset
            self.scratch = scratch
            self.bitmaps = bitmaps
            levelWeights = tables
            constants = constantLevels(tables)
            rowTable = .allocate(capacity: 2 * radii.max()! + 1)
            pick = bitmaps + levelOffset + levels * words
            fill = pick + words
            zero = fill + words
        }

        func deallocate() {
            scratch.deallocate()
            bitmaps.deallocate()
            rowTable.deallocate()
        }

        @inline(__always) func maskRow(_ y: Int) -> UnsafeMutablePointer<Float> { scratch + (y % maskRows) * w }
        @inline(__always) func occupied(_ y: Int) -> UnsafeMutablePointer<UInt64> { bitmaps + (y % maskRows) * words }
        /// Level k's output row y (the last made) is its constant; level 0: the mask is 1.
        @inline(__always) func constant(_ k: Int, _ y: Int) -> UnsafeMutablePointer<UInt64> {
            k == 0 ? bitmaps + (maskRows + y % maskRows) * words : bitmaps + levelOffset + (k - 1) * words
        }
        @inline(__always) func constantAcross(_ k: Int, _ y: Int) -> UnsafeMutablePointer<UInt64> {
            bitmaps + acrossOffsets[k] + (y % (2 * radii[k] + 1)) * words
        }

        /// Level k's horizontal pass of its incoming row (image row `row` of a window `height`
        /// rows high) into its ring slot, over the columns its vertical pass will need: the chunks
        /// occupied in any row within ±r. Where the incoming row is its level's constant ± r around
        /// a chunk, the chunk is the pass's. Where it is 0 ± r around a chunk (its mask is, and
        /// every level's input is 0 where the mask is), the pass gives +0 there, so +0 is stored:
        /// the rows near the shapes' tops and bottoms, and the gaps between them.
        func horizontalPass(level k: Int, row: Int, source src: UnsafePointer<Float>, height h: Int,
                            skip: UnsafePointer<UInt64>? = nil) {
            let r = radii[k], span = 2 * r + 1
            let x0 = inset[k + 1], x1 = w - inset[k + 1]
            let reach = (r + Chunks.width - 1) / Chunks.width
            let across = constantAcross(k, row)
            if k == 0 && seeded {
                across.update(repeating: 0, count: words)
            } else {
                Chunks.erode(constant(k, row), words: words, by: reach, into: across)
            }
            // `zero` first holds the chunks with the incoming row's mask set within ±r.
            Chunks.dilate(occupied(row), words: words, by: reach, into: zero)
            let first = max(inset[k + 1], row - r), count = min(h - inset[k + 1], row + r + 1) - first
            // The rows' slots in the mask ring: up to its end, then from its start.
            let firstSlot = first % maskRows
            let beforeWrap = min(count, maskRows - firstSlot), afterWrap = count - beforeWrap
            for i in 0..<words {
                // Gathered in a register (an or into memory waits on the store before it).
                var union: UInt64 = 0
                var word = UnsafePointer(bitmaps + firstSlot * words + i)
                for _ in 0..<beforeWrap { union |= word.pointee; word += words }
                word = UnsafePointer(bitmaps + i)
                for _ in 0..<afterWrap { union |= word.pointee; word += words }
                let near = zero[i], needed = union & ~(skip?[i] ?? 0)
                pick[i] = needed & ~across[i] & near
                fill[i] = needed & across[i]
                zero[i] = needed & ~across[i] & ~near
            }
            let slot = scratch + ringOffsets[k] + (row % span) * w, wk = levelWeights[k], value = constants[k].across
            Chunks.forEachRun(pick, words: words, from: x0, to: x1) { a, b in
                blurRow(src, into: slot, from: a, to: b, weights: wk)
            }
            Chunks.forEachRun(fill, words: words, from: x0, to: x1) { a, b in (slot + a).update(repeating: value, count: b - a) }
            Chunks.forEachRun(zero, words: words, from: x0, to: x1) { a, b in (slot + a).update(repeating: 0, count: b - a) }
        }

        /// Level k's output row y: its vertical pass × the mask, over the row's occupied chunks; the
        /// chunks where the mask is 1 and every row within ±r was the pass's constant take the
        /// level's. Returns the row (valid over its inset columns).
        func verticalPass(level k: Int, row y: Int, skip: UnsafePointer<UInt64>? = nil) -> UnsafePointer<Float> {
            let r = radii[k], span = 2 * r + 1
            let x0 = inset[k + 1], x1 = w - inset[k + 1]
            let out = scratch + rowsOffset + k * w, wk = levelWeights[k], value = constants[k].output
            let same = constant(k + 1, y)
            // Rows y ± r of the horizontal pass are its ring's 2r + 1 slots, in some order.
            let acrossRing = bitmaps + acrossOffsets[k]
            var anyPicked: UInt64 = 0
            for i in 0..<words {
                var all = constant(0, y)[i], slot = 0
                while all != 0 && slot < span {
                    all &= acrossRing[slot * words + i]
                    slot += 1
                }
                same[i] = all
                pick[i] = occupied(y)[i] & ~all & ~(skip?[i] ?? 0)
                anyPicked |= pick[i]
            }
            for x in x0..<x1 { out[x] = 0 }
            let mrow = maskRow(y)
            if anyPicked != 0 { ringRows(scratch + ringOffsets[k], width: w, span: span, centre: y, radius: r, into: rowTable) }
            Chunks.forEachRun(pick, words: words, from: x0, to: x1) { a, b in
                blurColumns(rowTable, into: out, from: a, to: b, weights: wk)
                for x in a..<b { out[x] *= mrow[x] }
            }
            Chunks.forEachRun(same, words: words, from: x0, to: x1) { a, b in (out + a).update(repeating: value, count: b - a) }
            return UnsafePointer(out)
        }
    }

    /// Each level's values where everything it reads is constant, starting from a mask of 1: its
    /// horizontal pass, then its output (the vertical pass × the mask's 1), made by the same loops
    /// as the rows, so the same bits.
    static func constantLevels(_ weights: [UnsafeBufferPointer<Float>]) -> [(across: Float, output: Float)] {
        var value: Float = 1
        return weights.map { wk in
            let r = wk.count - 1, span = 2 * r + 1
            // A row of the value, and a ring of rows of the horizontal pass's, a chunk wide.
            let chunk = Chunks.width, width = span + chunk
            let row = [Float](repeating: value, count: width)
            var result = [Float](repeating: 0, count: width)
            row.withUnsafeBufferPointer { src in
                result.withUnsafeMutableBufferPointer { blurRow(src.baseAddress!, into: $0.baseAddress!, from: r, to: r + chunk, weights: wk) }
            }
            let across = result[r]
            let ring = [Float](repeating: across, count: span * chunk)
            ring.withUnsafeBufferPointer { rows in
                result.withUnsafeMutableBufferPointer { out in
                    withUnsafeTemporaryAllocation(of: UnsafePointer<Float>.self, capacity: span) { table in
                        ringRows(rows.baseAddress!, width: chunk, span: span, centre: r, radius: r, into: table.baseAddress!)
                        blurColumns(table.baseAddress!, into: out.baseAddress!, from: 0, to: chunk, weights: wk)
                    }
                }
            }
            value = result[0] * 1
            return (across, value)
        }
    }

    /// `sanitizedMask` of a row of `count` values in place, eight at a time (the same result for
    /// each). Writes every word of the row's `bits` and `ones`: a chunk's bit is set where it holds,
    /// after it, a value other than 0, and where it is all exactly 1 (a last, partial chunk never is).
    @inline(__always)
    static func sanitize(_ m: UnsafeMutablePointer<Float>, count: Int, occupied bits: UnsafeMutablePointer<UInt64>,
                         ones: UnsafeMutablePointer<UInt64>) {
        var occupied = Chunks.Writer(bits), full = Chunks.Writer(ones)
        var x = 0
        let one = V4(repeating: 1), zero = V4()
        while x + Chunks.width <= count {
            let v = vload(m + x)
            var r = vmin(v, one)
            r.replace(with: zero, where: .!(v .> zero)) // NaN fails `> 0` and lands on 0, as does −0
            UnsafeMutableRawPointer(m + x).storeBytes(of: r, as: V4.self)
            let any = mercurial_any_not8(r, 0) != 0
            occupied.append(any)
            // (Only asked of chunks with something in them: most of a text layer's have not.)
            full.append(any && mercurial_any_not8(r, 1) == 0)
            x += Chunks.width
        }
        if x < count {
            var tail = false
            while x < count {
                m[x] = sanitizedMask(m[x])
                tail = tail || m[x] != 0
                x += 1
            }
            occupied.append(tail)
            full.append(false)
        }
        occupied.finish()
        full.finish()
    }

    /// dst[x] = Σ_k w[|k|]·src[x+k] for x in [from, to).
    @inline(__always)
    static func blurRow(_ src: UnsafePointer<Float>, into dst: UnsafeMutablePointer<Float>,
                        from: Int, to: Int, weights: UnsafeBufferPointer<Float>) {
        SymmetricTaps.along(src + from, stride: 1, weights: weights, into: dst + from, count: to - from)
    }

    /// Into `table`, the rows y − r ... y + r of a ring of `span` rows of `width` values, row i of
    /// the image in slot i mod span (y − r ≥ 0).
    @inline(__always)
    static func ringRows(_ ring: UnsafePointer<Float>, width: Int, span: Int, centre y: Int, radius r: Int,
                         into table: UnsafeMutablePointer<UnsafePointer<Float>>) {
        var slot = (y - r) % span
        for t in 0...(2 * r) {
            table[t] = ring + slot * width
            slot = slot + 1 == span ? 0 : slot + 1
        }
    }

    /// dst[x] = Σ_k w[|k|]·rows[r + k][x] for x in [from, to), k in −r...r (r = weights.count − 1).
    @inline(__always)
    static func blurColumns(_ rows: UnsafePointer<UnsafePointer<Float>>, into dst: UnsafeMutablePointer<Float>,
                            from: Int, to: Int, weights: UnsafeBufferPointer<Float>) {
        SymmetricTaps.down(rows, weights: weights, into: dst, from: from, to: to)
    }
}

extension HeightField: HeightFieldKernel {}
