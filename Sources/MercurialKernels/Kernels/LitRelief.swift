import Glibc
import CVector
#if MERCURIAL_KERNELS_V3
import MercurialKernels // the types below are compiled once, in MercurialKernels; this copy is the x86-64-v3 loops
#else

// MARK: Types (compiled once, into MercurialKernels)

// A colour layer lit through its own relief: the parameters.

/// What mercurial:lit-relief writes.
public enum ReliefOutput: Int, CaseIterable, Sendable {
    /// The layer's colour lit by the lights.
    case lit = 0
    /// The tangent-space normal map, (n + 1)/2 in RGB, green = up (OpenGL, Blender, Unity).
    case normalMap
    /// The same with green = down (DirectX, Unreal).
    case normalMapDirectX
}

/// One light, in image space (x right, y down, z towards the viewer; pixels).
public struct ReliefLight: Sendable, Equatable {
    public enum Kind: Int, CaseIterable, Sendable {
        /// At a place: `position`, with intensity × (1 + d / `reach`)^−falloff at distance d.
        case point = 0
        /// From a direction (`direction`, unit, towards the light), with no falloff.
        case directional
    }
    public var kind: Kind
    public var position: SIMD3<Float>
    public var direction: SIMD3<Float>
    /// Linear RGB, already × intensity.
    public var color: SIMD3<Float>
    public var falloff: Float
    /// The distance at which the falloff halves an exponent-1 light (the layer's longer side).
    public var reach: Float

    public init(kind: Kind, position: SIMD3<Float> = .zero, direction: SIMD3<Float> = SIMD3(0, 0, 1),
                color: SIMD3<Float>, falloff: Float = 0, reach: Float = 1024) {
        self.kind = kind
        self.position = position
        self.direction = direction
        self.color = color
        self.falloff = falloff
        self.reach = reach
    }

    /// The direction of a light at azimuth (degrees, counter-clockwise from the right, as
    /// gegl:bump-map) and elevation (degrees above the surface), in image space (y down).
    public static func direction(azimuth: Float, elevation: Float) -> SIMD3<Float> {
        let a = azimuth * .pi / 180, e = elevation * .pi / 180
        return SIMD3(cosf(a) * cosf(e), -sinf(a) * cosf(e), sinf(e))
    }
}

public struct LitReliefParameters: Sendable, Equatable {
    /// 0…1: the height is blurred with σ = 4 · smoothness pixels before differencing (0: none).
    public var smoothness: Float
    /// Slope gain: n = normalize(−contrast · ∂h/∂x, −contrast · ∂h/∂y, 1).
    public var contrast: Float
    /// Heights count downwards (strokes sink in).
    public var invert: Bool
    public var lights: [ReliefLight]
    /// Linear RGB: ambient × the layer's colour is added everywhere.
    public var ambient: SIMD3<Float>
    /// Linear RGB of the Blinn highlight (its strength too).
    public var specular: SIMD3<Float>
    public var shininess: Float
    /// Linear RGBA: added, × alpha, where the lights do not reach (1 − the summed diffuse lighting).
    public var shadow: SIMD4<Float>
    public var output: ReliefOutput

    public static let maximumSmoothing: Float = 4

    public init(smoothness: Float = 0.75, contrast: Float = 3, invert: Bool = false, lights: [ReliefLight],
                ambient: SIMD3<Float> = SIMD3(repeating: 0.2), specular: SIMD3<Float> = SIMD3(repeating: 0.5),
                shininess: Float = 30, shadow: SIMD4<Float> = .zero, output: ReliefOutput = .lit) {
        self.smoothness = smoothness
        self.contrast = contrast
        self.invert = invert
        self.lights = lights
        self.ambient = ambient
        self.specular = specular
        self.shininess = shininess
        self.shadow = shadow
        self.output = output
    }

    /// σ of the smoothing blur, in pixels (NaN reads as 0).
    public var sigma: Float {
        smoothness > 0 ? min(smoothness, 1) * Self.maximumSmoothing : 0
    }

    /// One-sided taps of the smoothing blur (0 when there is none).
    public var taps: Int { sigma > 0 ? Int((sigma * 3).rounded(.up)) : 0 }

    /// Pixels around an output pixel that its value depends on: the blur and the differences.
    public var halo: Int { taps + 1 }

    /// Normalised one-sided Gaussian weights w[0...taps] of the smoothing blur ([1] for none).
    public var weights: [Float] {
        taps > 0 ? Gaussian.weights(sigma: Double(sigma), taps: taps) : [1]
    }
}


/// The entry points the plug-in calls, in whichever build suits the CPU (both builds conform).
public protocol LitReliefKernel {
    static func render(_ p: LitReliefParameters, weights: [Float], heights: UnsafePointer<Float>,
                       color: UnsafePointer<Float>, x: Int, y: Int, width: Int, height: Int,
                       into out: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>?)
    static func scratchCount(_ p: LitReliefParameters, width: Int, height: Int) -> Int
    static func smooth(_ p: LitReliefParameters, weights: [Float], heights: UnsafePointer<Float>, width: Int, height: Int,
                       into smooth: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>)
    static func smoothScratchCount(_ p: LitReliefParameters, width: Int, height: Int) -> Int
    static func shade(_ p: LitReliefParameters, smooth s: UnsafePointer<Float>, columns: Int, color: UnsafePointer<Float>,
                      x: Int, y: Int, width: Int, height: Int, into out: UnsafeMutablePointer<Float>)
}

#endif

// MARK: Loops (compiled for each CPU build)

// A colour layer lit through its own relief, as SpriteKit lights a sprite through a normal map
// generated from a bump map (BristlePaint's look).
//
// Height → normal: non-finite heights count as 0; the heights are blurred with a Gaussian of
// σ = 4 · smoothness pixels (cut at 3σ; none at smoothness 0); then with central differences
// ∂h/∂x = (h(x+1) − h(x−1)) / 2, likewise ∂h/∂y, the normal is
//   n = normalize(−g · ∂h/∂x, −g · ∂h/∂y, 1),   g = contrast (−contrast when inverted),
// in image space: x right, y down, z towards the viewer.
//
// Lighting, per pixel with colour C (linear RGB) at P = (x + ½, y + ½, 0), viewer V = (0, 0, 1):
//   out = ambient · C + Σ_lights a · colour · (max(n·L, 0) · C + [n·L > 0] · max(n·H, 0)^shininess · specular)
//         + shadow.rgb · shadow.a · (1 − min(1, Σ_lights a · max(n·L, 0)))
// with, for a point light at Q: L = (Q − P)/|Q − P|, a = (1 + |Q − P| / reach)^−falloff; for a
// directional light: L its direction, a = 1; H = normalize(L + V). Alpha is the layer's.
// Normal-map output: RGB = (n + 1)/2 with green = (1 − n.y)/2 (green up) or (1 + n.y)/2 (DirectX).

public enum LitRelief {
    /// Lights a block of width × height pixels whose first pixel is (x, y) in image coordinates.
    /// `heights`: the height field over the block grown by `p.halo` on every side, row-major, rows
    /// of width + 2·halo. `color`: the block's RGBA (straight alpha, linear). `weights`: `p.weights`.
    /// Writes width × height RGBA pixels. `scratch`, when given, is working memory of at least
    /// `scratchCount` floats (a caller lighting many blocks passes the same one to each).
    public static func render(_ p: LitReliefParameters, weights: [Float], heights: UnsafePointer<Float>,
                              color: UnsafePointer<Float>, x: Int, y: Int, width: Int, height: Int,
                              into out: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>? = nil) {
        guard width > 0, height > 0 else { return }
        guard let scratch else {
            let count = scratchCount(p, width: width, height: height)
            let memory = UnsafeMutablePointer<Float>.allocate(capacity: count)
            defer { memory.deallocate() }
            render(p, weights: weights, heights: heights, color: color, x: x, y: y, width: width, height: height,
                   into: out, scratch: memory)
            return
        }
        let smoothed = scratch
        smooth(p, weights: weights, heights: heights, width: width, height: height, into: smoothed,
               scratch: smoothed + (height + 2) * (width + 2))
        shade(p, smooth: smoothed, columns: width + 2, color: color, x: x, y: y, width: width, height: height, into: out)
    }

    /// The floats of working memory `render` needs for a block of width × height.
    public static func scratchCount(_ p: LitReliefParameters, width: Int, height: Int) -> Int {
        (height + 2) * (width + 2) + smoothScratchCount(p, width: width, height: height)
    }

    /// `render`'s first stage on its own: the smoothed heights of the block grown by one pixel,
    /// (height + 2) × (width + 2), from `heights` as `render` takes them. `scratch` holds
    /// `smoothScratchCount` floats. A caller can then light any part of the block with `shade`.
    public static func smooth(_ p: LitReliefParameters, weights: [Float], heights: UnsafePointer<Float>, width: Int,
                              height: Int, into smooth: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>) {
        guard width > 0, height > 0 else { return }
        smoothHeights(heights, halo: p.halo, taps: p.taps, weights: weights, rows: height + 2, columns: width + 2,
                      into: smooth, scratch: scratch)
    }

    /// The working memory of `smooth` for a block of width × height.
    public static func smoothScratchCount(_ p: LitReliefParameters, width: Int, height: Int) -> Int {
        let rows = height + 2, columns = width + 2, taps = p.taps
        let windowRows = rows + 2 * taps, stride = columns + 2 * taps
        // The floats, then the bitmaps' words (two floats each, and one more to align them).
        let words = Chunks.words(stride) + (windowRows + 1) * Chunks.words(columns)
        return taps > 0 ? stride + windowRows * columns + 2 * words + 1 : 0
    }

    /// The blurred heights over the block grown by one pixel: `rows` × `columns`. Each pass runs
    /// tap by tap over whole rows (so the loops vectorise), adding the taps in the same order for
    /// every pixel. `scratch` holds `smoothScratchCount` floats: one cleaned window row, the
    /// horizontal pass's rows, and bitmaps of their chunks.
    ///
    /// Where every value a pass reads is +0 it gives +0 (each tap adds +0 · w to +0): such chunks of
    /// eight columns are stored as +0, not summed (a painted layer on transparency is mostly +0).
    /// Each cleaned window row and each row of the horizontal pass has a bitmap of the chunks that
    /// hold anything else (−0 included); a chunk of the pass is summed where the cleaned chunks it
    /// reads have a bit, a chunk of the result where the pass's rows it reads have one.
    static func smoothHeights(_ h: UnsafePointer<Float>, halo: Int, taps: Int, weights: [Float], rows: Int, columns: Int,
                              into s: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>) {
        guard taps > 0 else {
            for i in 0..<(rows * columns) { s[i] = h[i].isFinite ? h[i] : 0 }
            return
        }
        let stride = columns + 2 * taps // = the window's row length
        let windowRows = rows + 2 * taps
        let clean = scratch, across = clean + stride
        let chunk = Chunks.width
        let cleanWords = Chunks.words(stride), words = Chunks.words(columns)
        let bitsStart = UnsafeMutableRawPointer(across + windowRows * columns)
        let aligned = (Int(bitPattern: bitsStart) + 7) & ~7
        let cleanBits = UnsafeMutablePointer<UInt64>(bitPattern: aligned)!
        let acrossBits = cleanBits + cleanWords, union = acrossBits + windowRows * words
        // A chunk of the horizontal pass reads the cleaned chunks from its own to `reach` further.
        let reach = (chunk - 1 + 2 * taps) / chunk
        weights.withUnsafeBufferPointer { w in
            // Horizontal pass over every window row, for the block's columns (grown by one), each
            // row cleaned first into one row's space (it stays in the nearest cache).
            for r in 0..<windowRows {
                cleanRow(h + r * stride, count: stride, into: clean, bits: cleanBits)
                let bits = acrossBits + r * words, row = across + r * columns
                for i in 0..<words { bits[i] = 0 }
                Chunks.orSpread(cleanBits, sourceWords: cleanWords, reach: reach, into: bits, words: words)
                var done = 0
                Chunks.forEachRun(bits, words: words, from: 0, to: columns) { a, b in
                    (row + done).update(repeating: 0, count: a - done)
                    blurRowAcross(w, taps: taps, count: b - a, from: clean + taps + a, into: row + a)
                    done = b
                }
                (row + done).update(repeating: 0, count: columns - done)
            }
            // Vertical pass, two rows at a time, then a last row alone, over the chunks that any
            // of the pass's rows they read has.
            @inline(__always) func down(_ r: Int, rowCount: Int, _ body: (Int, Int) -> Void) {
                for i in 0..<words { union[i] = 0 }
                for k in r..<(r + rowCount + 2 * taps) {
                    for i in 0..<words { union[i] |= acrossBits[k * words + i] }
                }
                var done = 0
                Chunks.forEachRun(union, words: words, from: 0, to: columns) { a, b in
                    for j in 0..<rowCount { (s + (r + j) * columns + done).update(repeating: 0, count: a - done) }
                    body(a, b)
                    done = b
                }
                for j in 0..<rowCount { (s + (r + j) * columns + done).update(repeating: 0, count: columns - done) }
            }
            var r = 0
            while r + 2 <= rows {
                down(r, rowCount: 2) { a, b in
                    blurRowPairDown(w, taps: taps, count: b - a, stride: columns, from: across + (r + taps) * columns + a,
                                    into: s + r * columns + a)
                }
                r += 2
            }
            if r < rows {
                down(r, rowCount: 1) { a, b in
                    let centre = across + (r + taps) * columns + a
                    blurRow(w, taps: taps, count: b - a, into: s + r * columns + a) { UnsafePointer(centre + $0) } _: { $0 * columns }
                }
            }
        }
    }

    /// A window row with non-finite heights as +0, into `clean`, eight values at a time, and the
    /// bitmap of its chunks that hold anything but +0 (every word of `bits` written).
    @inline(__always)
    static func cleanRow(_ row: UnsafePointer<Float>, count: Int, into clean: UnsafeMutablePointer<Float>,
                         bits: UnsafeMutablePointer<UInt64>) {
        var occupied = Chunks.Writer(bits)
        let zero = V4()
        var x = 0
        while x + Chunks.width <= count {
            let v = vload(row + x)
            var c = v
            c.replace(with: zero, where: .!(v - v .== zero)) // v − v is NaN for NaN and ±∞
            UnsafeMutableRawPointer(clean + x).storeBytes(of: c, as: V4.self)
            let lanes = unsafeBitCast(c, to: SIMD8<UInt32>.self)
            let four = lanes.lowHalf | lanes.highHalf, two = four.lowHalf | four.highHalf
            occupied.append(unsafeBitCast(two, to: UInt64.self) != 0)
            x += Chunks.width
        }
        if x < count {
            var tail: UInt32 = 0
            while x < count {
                let v = row[x].isFinite ? row[x] : 0
                clean[x] = v
                tail |= v.bitPattern
                x += 1
            }
            occupied.append(tail != 0)
        }
        occupied.finish()
    }

    /// `blurRow` along a row (x(c ± k) at c ± k), sixteen values at a time where it can: the two
    /// groups of eight share each weight's broadcast. The same operations in the same order.
    @inline(__always)
    static func blurRowAcross(_ w: UnsafeBufferPointer<Float>, taps: Int, count: Int, from source: UnsafePointer<Float>,
                              into target: UnsafeMutablePointer<Float>) {
        let eight = V4.scalarCount
        var c = 0
        while c + 2 * eight <= count {
            let p = UnsafePointer(source + c)
            var a = w[0] * vload(p), b = w[0] * vload(p + eight)
            for k in 1...taps {
                let wk = V4(repeating: w[k])
                a += wk * (vload(p - k) + vload(p + k))
                b += wk * (vload(p + eight - k) + vload(p + eight + k))
            }
            UnsafeMutableRawPointer(target + c).storeBytes(of: a, as: V4.self)
            UnsafeMutableRawPointer(target + c + eight).storeBytes(of: b, as: V4.self)
            c += 2 * eight
        }
        blurRow(w, taps: taps, count: count - c, into: target + c) { UnsafePointer(source + c + $0) } _: { $0 }
    }

    /// `blurRow` down `count` columns for two consecutive rows (rows `columns` apart, in the source
    /// and in `target`; `centre` is the first row's). Row r needs x(r ± k) and row
    /// r + 1 needs x(r + 1 ± k): going outwards, each tap loads two rows and hands each row the
    /// other's previous one, half the loads of two rows alone, with the same operations in the
    /// same order for each value.
    @inline(__always)
    static func blurRowPairDown(_ w: UnsafeBufferPointer<Float>, taps: Int, count: Int, stride columns: Int,
                                from centre: UnsafePointer<Float>, into target: UnsafeMutablePointer<Float>) {
        let eight = V4.scalarCount
        var c = 0
        while c + eight <= count {
            let p = centre + c
            var up = vload(p), down = vload(p + columns) // x(r + 1 − k) and x(r + k) for k = 1
            var a = w[0] * up, b = w[0] * down
            for k in 1...taps {
                let wk = V4(repeating: w[k])
                let above = vload(p - k * columns), below = vload(p + (k + 1) * columns) // x(r − k), x(r + 1 + k)
                a += wk * (above + down)
                b += wk * (up + below)
                up = above
                down = below
            }
            UnsafeMutableRawPointer(target + c).storeBytes(of: a, as: V4.self)
            UnsafeMutableRawPointer(target + columns + c).storeBytes(of: b, as: V4.self)
            c += eight
        }
        guard c < count else { return }
        for row in 0..<2 {
            let rowCentre = centre + row * columns + c
            blurRow(w, taps: taps, count: count - c, into: target + row * columns + c) { UnsafePointer(rowCentre + $0) } _: { $0 * columns }
        }
    }

    /// One blurred row of `count` values: value c = w₀·x(c) + Σₖ wₖ·(x(c − k) + x(c + k)), where x(c ± k)
    /// lies at `at(c) ± step(k)`. Eight values at a time, summed in registers; the row's last
    /// values one by one with the same operations in the same order (so any split agrees).
    @inline(__always)
    static func blurRow(_ w: UnsafeBufferPointer<Float>, taps: Int, count: Int, into target: UnsafeMutablePointer<Float>,
                        _ at: (Int) -> UnsafePointer<Float>, _ step: (Int) -> Int) {
        @inline(__always) func load(_ p: UnsafePointer<Float>) -> V4 { vload(p) }
        var c = 0
        while c + V4.scalarCount <= count {
            let p = at(c)
            var sum = w[0] * load(p)
            for k in 1...taps {
                let d = step(k)
                sum += w[k] * (load(p - d) + load(p + d))
            }
            UnsafeMutableRawPointer(target + c).storeBytes(of: sum, as: V4.self)
            c += V4.scalarCount
        }
        while c < count {
            let p = at(c)
            var sum = w[0] * p[0]
            for k in 1...taps {
                let d = step(k)
                sum += w[k] * (p[-d] + p[d])
            }
            target[c] = sum
            c += 1
        }
    }

    /// The surface normal from the smoothed heights around (c, r) of the grown block.
    @inline(__always)
    public static func normal(_ s: UnsafePointer<Float>, columns: Int, c: Int, r: Int, gain: Float) -> SIMD3<Float> {
        let dx = (s[r * columns + c + 1] - s[r * columns + c - 1]) * 0.5
        let dy = (s[(r + 1) * columns + c] - s[(r - 1) * columns + c]) * 0.5
        let n = SIMD3(-gain * dx, -gain * dy, 1)
        return n / (n * n).sum().squareRoot()
    }

    /// `render`'s second stage: lights width × height pixels from (x, y) in image coordinates.
    /// `s` points at the smoothed height one row above and one column left of the first pixel, in
    /// rows of `columns` values (`smooth`'s output, at any offset inside it); `color` and `out` are
    /// rows of `width` RGBA pixels.
    public static func shade(_ p: LitReliefParameters, smooth s: UnsafePointer<Float>, columns: Int, color: UnsafePointer<Float>,
                             x: Int, y: Int, width: Int, height: Int, into out: UnsafeMutablePointer<Float>) {
        let gain = p.invert ? -p.contrast : p.contrast
        guard p.output == .lit else {
            for j in 0..<height {
                for i in 0..<width {
                    let o = 4 * (j * width + i)
                    let n = normal(s, columns: columns, c: i + 1, r: j + 1, gain: gain)
                    let green = p.output == .normalMap ? -n.y : n.y
                    out[o] = (n.x + 1) * 0.5
                    out[o + 1] = (green + 1) * 0.5
                    out[o + 2] = (n.z + 1) * 0.5
                    out[o + 3] = color[o + 3]
                }
            }
            return
        }
        // Lit colour, sixteen pixels at a time (two independent chains of vector operations side by
        // side: the lighting is bound by its longest chain of dependent operations): the lights give
        // each pixel a factor F for its colour and a term A added to it (ambient, diffuse, gloss,
        // shadow; computed across the lanes), then out = C ⊙ F + A pixel by pixel on RGBA as it lies
        // in memory. A row's last group, when shorter, goes through the same arithmetic on
        // zero-padded heights, so every pixel is computed the same way whatever block it falls in
        // (tiles and threads agree).
        let lanes = Lanes.scalarCount
        let colours = Terms.colours(p)
        // Per light, the lanes' diffuse and gloss weights, then the lanes' unlit share. A run of up
        // to `groupsPerRun` groups of a row gets its weights first, then its colours: the weights
        // of one group do not wait for another's, so the processor overlaps several groups' long
        // chains (with the colours in between, one group's work filled its window of instructions).
        let weightCount = (2 * p.lights.count + 1) * lanes
        let groupsPerRun = 16
        let gloss = Power(p.shininess, forUnitRange: true), shadow = Terms.hasShadow(p)
        withUnsafeTemporaryAllocation(of: Float.self, capacity: weightCount * groupsPerRun) { weights in
            let w = weights.baseAddress!
            colours.withUnsafeBufferPointer { colours in
            p.lights.withUnsafeBufferPointer { lights in
                let terms = Terms(p, colours: colours.baseAddress!)
                for j in 0..<height {
                    let r = j + 1
                    let py = Float(y + j) + 0.5
                    var start = 0
                    while start < width {
                        let end = min(width, start + groupsPerRun * lanes)
                        var i = start, g = 0
                        while i < end {
                            let count = min(lanes, end - i)
                            // The group's colours and output lie in memory (GEGL's tiles, far beyond
                            // the caches): ask for their cache lines now, to arrive while the run's
                            // weights are computed.
                            let first = 4 * (j * width + i)
                            for line in Swift.stride(from: first, to: first + 4 * count, by: 16) {
                                mercurial_prefetch(color + line)
                                mercurial_prefetch_write(out + line)
                            }
                            let centre = s + r * columns + i + 1
                            let n = count == lanes ? neighbours(centre, columns: columns)
                                                   : paddedNeighbours(centre, columns: columns, count: count)
                            lightWeights(lights, gain: gain, gloss: gloss, shadow: shadow, heights: n,
                                         px: Lanes(lowHalf: pixelCentres(x + i), highHalf: pixelCentres(x + i + V4.scalarCount)),
                                         py: py, into: w + g * weightCount)
                            i += count
                            g += 1
                        }
                        i = start
                        g = 0
                        while i < end {
                            let count = min(lanes, end - i)
                            let first = 4 * (j * width + i)
                            terms.apply(weights: w + g * weightCount, color: color + first, into: out + first, count: count)
                            i += count
                            g += 1
                        }
                        start = end
                    }
                }
            }
            }
        }
    }

    /// The x of eight pixel centres from x0: each lane's from its own integer position (the same
    /// Float whatever group the pixel falls in; far from the origin, x0 + lane in Float would
    /// round differently), by exact bit tricks below 2²², lane by lane beyond.
    @inline(__always)
    static func pixelCentres(_ x0: Int) -> V4 {
        if x0 > -4_000_000, x0 < 4_000_000 {
            return mercurial_centres8(Int32(x0))
        }
        var px = V4()
        for l in 0..<V4.scalarCount { px[l] = Float(x0 + l) + 0.5 }
        return px
    }

    /// The four neighbours' heights of sixteen pixels starting at `centre`.
    @inline(__always)
    static func neighbours(_ centre: UnsafePointer<Float>, columns: Int) -> (Lanes, Lanes, Lanes, Lanes) {
        @inline(__always) func load(_ p: UnsafePointer<Float>) -> Lanes {
            Lanes(lowHalf: vload(p), highHalf: vload(p + V4.scalarCount))
        }
        return (load(centre - 1), load(centre + 1), load(centre - columns), load(centre + columns))
    }

    /// `neighbours` for a row's last, short group: lanes from `count` on are 0.
    static func paddedNeighbours(_ centre: UnsafePointer<Float>, columns: Int, count: Int) -> (Lanes, Lanes, Lanes, Lanes) {
        var left = Lanes(), right = Lanes(), up = Lanes(), down = Lanes()
        for l in 0..<count {
            left[l] = centre[l - 1]; right[l] = centre[l + 1]
            up[l] = centre[l - columns]; down[l] = centre[l + columns]
        }
        return (left, right, up, down)
    }

    /// The normals (x, y, z) of sixteen pixels from their four neighbours' heights (left, right,
    /// up, down).
    @_transparent
    static func normals(_ heights: (Lanes, Lanes, Lanes, Lanes), gain: Float) -> (Lanes, Lanes, Lanes) {
        // (h(x+1) − h(x−1))·½·(−gain) with the two constant factors as one (½ is exact: the same bits).
        let slope = Lanes(repeating: -0.5 * gain)
        let nx0 = (heights.1 - heights.0) * slope, ny0 = (heights.3 - heights.2) * slope
        let inverse = ldiv(Lanes(repeating: 1), lsqrt(nx0 * nx0 + ny0 * ny0 + 1))
        return (nx0 * inverse, ny0 * inverse, inverse)
    }

    /// The lighting formula's weights for sixteen pixels (see the top of this file), into `w`: for
    /// light k, lanes 32k..<32k+16 hold a·max(n·L, 0) and 32k+16..<32k+32 a·[n·L > 0]·max(n·H, 0)^s;
    /// with `shadow`, the last sixteen hold the unlit share 1 − min(1, Σ a·max(n·L, 0)). Powers by
    /// `Power`.
    @_transparent // (@inline(__always) left it a call once the caller grew: its sixteen-lane
                  // arguments then went through memory)
    static func lightWeights(_ lights: UnsafeBufferPointer<ReliefLight>, gain: Float, gloss shininess: Power,
                             shadow: Bool, heights: (Lanes, Lanes, Lanes, Lanes), px: Lanes, py: Float,
                             into w: UnsafeMutablePointer<Float>) {
        let lanes = Lanes.scalarCount
        @inline(__always) func store(_ v: Lanes, _ at: Int) {
            UnsafeMutableRawPointer(w + at).storeBytes(of: v, as: Lanes.self)
        }
        let one = Lanes(repeating: 1)
        let (nx, ny, nz) = normals(heights, gain: gain)
        var lit = Lanes()
        for k in 0..<lights.count {
            let light = lights[k]
            var lx = Lanes(repeating: light.direction.x), ly = Lanes(repeating: light.direction.y)
            var lz = Lanes(repeating: light.direction.z), a = one
            if light.kind == .point {
                let dx = Lanes(repeating: light.position.x) - px, dy = light.position.y - py, dz = light.position.z
                let distance = lsqrt(dx * dx + Lanes(repeating: dy * dy + dz * dz))
                let inv = ldiv(one, lmax(distance, Lanes(repeating: 1e-30)))
                lx = dx * inv; ly = dy * inv; lz = dz * inv
                if light.falloff != 0 {
                    a = Power(light.falloff).ofReciprocal(1 + ldiv(distance, Lanes(repeating: light.reach)))
                }
            }
            let nl = nx * lx + ny * ly + nz * lz
            let diffuse = a * lmax(nl, Lanes())
            // H = normalize(L + V), V = (0, 0, 1).
            let hz = lz + 1
            let nh = lmin(lmax(ldiv(nx * lx + ny * ly + nz * hz, lsqrt(lx * lx + ly * ly + hz * hz)), Lanes()), one)
            var gloss = a * shininess.of01(nh)
            gloss.replace(with: 0, where: nl .<= 0)
            store(diffuse, 2 * lanes * k)
            store(gloss, 2 * lanes * k + lanes)
            lit += diffuse
        }
        if shadow { store(1 - lmin(lit, one), 2 * lanes * lights.count) }
    }

    /// x^e for a fixed exponent e ≥ 0. A whole e up to `maximumWhole` (the usual shininess and
    /// falloff) goes by repeated squaring, exact to a few ulps; any other by FastMath's exp2 and
    /// log2 (relative error below 1e-6).
    struct Power {
        let exponent: Float
        /// e when it is a whole number in 1...maximumWhole, else 0.
        let whole: Int
        /// For powers of x in [0, 1] by squaring: 2^(−120/e), below which x^e < 2^−120.
        let cutoff: Float
        static let maximumWhole = 1024

        /// `forUnitRange`: the power will be taken of numbers in [0, 1] (`of01`).
        @inline(__always) init(_ e: Float, forUnitRange: Bool = false) {
            exponent = e
            whole = e >= 1 && e <= Float(Self.maximumWhole) && e == e.rounded() ? Int(e) : 0
            cutoff = forUnitRange && whole > 0 ? Float(Glibc.exp2(-120 / Double(whole))) : 0
        }

        /// x^whole by squaring, x's bits of the exponent from the lowest.
        @inline(__always) func squaring(_ x: Lanes) -> Lanes {
            var result = x, base = x, e = whole
            // The lowest set bit starts the product (no multiplication by 1).
            while e & 1 == 0 { base *= base; e >>= 1 }
            result = base
            e >>= 1
            while e != 0 {
                base *= base
                if e & 1 != 0 { result *= base }
                e >>= 1
            }
            return result
        }

        /// x^e for x in [0, 1] (0^e = 0). By squaring, lanes below 2^(−120/e), whose power is below
        /// 2^−120, count as 0, so that no step falls into slow subnormal numbers. Otherwise by
        /// FastMath, eight lanes at a time.
        @_transparent func of01(_ x: Lanes) -> Lanes {
            guard whole > 0 else {
                return Lanes(lowHalf: FastMath.pow01(x.lowHalf, exponent), highHalf: FastMath.pow01(x.highHalf, exponent))
            }
            var clean = x
            clean.replace(with: 0, where: x .< Lanes(repeating: cutoff))
            return squaring(clean)
        }

        /// x^−e for x ≥ 1.
        @_transparent func ofReciprocal(_ x: Lanes) -> Lanes {
            guard whole > 0 else {
                @inline(__always) func power(_ v: V4) -> V4 { FastMath.exp2(FastMath.log2(v) * -exponent) }
                return Lanes(lowHalf: power(x.lowHalf), highHalf: power(x.highHalf))
            }
            return ldiv(Lanes(repeating: 1), squaring(x))
        }
    }

    /// The colour side of the formula, as RGBA vectors with alpha lanes that keep the layer's alpha:
    /// ambient (alpha lane 1); the shadow colour × its alpha; per light, its colour and its colour ⊙
    /// specular (alpha lanes 0). `colours` holds the lights' pairs; it lives as long as the caller's
    /// array it points into.
    struct Terms {
        let ambient: SIMD4<Float>, shadow: SIMD4<Float>
        let colours: UnsafePointer<SIMD4<Float>>, lights: Int

        /// The lights' (colour, colour ⊙ specular) pairs, in order.
        static func colours(_ p: LitReliefParameters) -> [SIMD4<Float>] {
            p.lights.flatMap { [SIMD4($0.color, 0), SIMD4($0.color * p.specular, 0)] }
        }

        /// Whether the shadow colour adds anything (its term is +0 everywhere otherwise).
        static func hasShadow(_ p: LitReliefParameters) -> Bool {
            SIMD4(p.shadow.x * p.shadow.w, p.shadow.y * p.shadow.w, p.shadow.z * p.shadow.w, 0) != SIMD4<Float>()
        }

        init(_ p: LitReliefParameters, colours: UnsafePointer<SIMD4<Float>>) {
            ambient = SIMD4(p.ambient, 1)
            shadow = SIMD4(p.shadow.x * p.shadow.w, p.shadow.y * p.shadow.w, p.shadow.z * p.shadow.w, 0)
            self.colours = colours
            lights = p.lights.count
        }

        /// out = C ⊙ (ambient + Σ diffuse·colour) + Σ gloss·colour⊙specular + unlit·shadow, for
        /// `count` pixels (weights laid out as `lightWeights` writes them); alpha is the layer's,
        /// exactly. Two pixels per eight-lane vector (their weights broadcast into its halves), four
        /// such pairs at a time while eight pixels are left, then pair by pair, a last odd pixel
        /// alone: the same operations on each pixel's lanes in the same order every way, so the bits
        /// do not depend on the grouping. Without a shadow colour its term (+0 everywhere) is left
        /// out.
        @inline(__always)
        func apply(weights w: UnsafePointer<Float>, color: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>,
                   count: Int) {
            @inline(__always) func twice(_ v: SIMD4<Float>) -> V4 { V4(lowHalf: v, highHalf: v) }
            @inline(__always) func pair(_ at: Int) -> V4 {
                V4(lowHalf: SIMD4(repeating: w[at]), highHalf: SIMD4(repeating: w[at + 1]))
            }
            let lanes = Lanes.scalarCount
            let unlit = 2 * lanes * lights, shaded = shadow != SIMD4<Float>()
            let ambient2 = twice(ambient), shadow2 = twice(shadow)
            var l = 0
            // Four pairs side by side: each light's colours are loaded once for eight pixels, and
            // the four chains overlap.
            while l + 8 <= count {
                let c0 = vload(color + 4 * l), c1 = vload(color + 4 * l + 8)
                let c2 = vload(color + 4 * l + 16), c3 = vload(color + 4 * l + 24)
                var factor0 = ambient2, factor1 = ambient2, factor2 = ambient2, factor3 = ambient2
                var added0 = shaded ? pair(unlit + l) * shadow2 : V4()
                var added1 = shaded ? pair(unlit + l + 2) * shadow2 : V4()
                var added2 = shaded ? pair(unlit + l + 4) * shadow2 : V4()
                var added3 = shaded ? pair(unlit + l + 6) * shadow2 : V4()
                for k in 0..<lights {
                    let colour = twice(colours[2 * k]), gloss = twice(colours[2 * k + 1])
                    let d = 2 * lanes * k + l, g = d + lanes
                    factor0 += pair(d) * colour
                    factor1 += pair(d + 2) * colour
                    factor2 += pair(d + 4) * colour
                    factor3 += pair(d + 6) * colour
                    added0 += pair(g) * gloss
                    added1 += pair(g + 2) * gloss
                    added2 += pair(g + 4) * gloss
                    added3 += pair(g + 6) * gloss
                }
                let o0 = mercurial_with_alpha8(c0 * factor0 + added0, c0)
                let o1 = mercurial_with_alpha8(c1 * factor1 + added1, c1)
                let o2 = mercurial_with_alpha8(c2 * factor2 + added2, c2)
                let o3 = mercurial_with_alpha8(c3 * factor3 + added3, c3)
                UnsafeMutableRawPointer(out + 4 * l).storeBytes(of: o0, as: V4.self)
                UnsafeMutableRawPointer(out + 4 * l + 8).storeBytes(of: o1, as: V4.self)
                UnsafeMutableRawPointer(out + 4 * l + 16).storeBytes(of: o2, as: V4.self)
                UnsafeMutableRawPointer(out + 4 * l + 24).storeBytes(of: o3, as: V4.self)
                l += 8
            }
            while l + 2 <= count {
                let c = vload(color + 4 * l)
                var factor = ambient2
                var added = shaded ? pair(unlit + l) * shadow2 : V4()
                for k in 0..<lights {
                    factor += pair(2 * lanes * k + l) * twice(colours[2 * k])
                    added += pair(2 * lanes * k + lanes + l) * twice(colours[2 * k + 1])
                }
                let o = mercurial_with_alpha8(c * factor + added, c)
                UnsafeMutableRawPointer(out + 4 * l).storeBytes(of: o, as: V4.self)
                l += 2
            }
            if l < count {
                let c = UnsafeRawPointer(color + 4 * l).loadUnaligned(as: SIMD4<Float>.self)
                var factor = ambient
                var added = shaded ? w[unlit + l] * shadow : SIMD4<Float>()
                for k in 0..<lights {
                    factor += w[2 * lanes * k + l] * colours[2 * k]
                    added += w[2 * lanes * k + lanes + l] * colours[2 * k + 1]
                }
                var o = c * factor + added
                o.w = c.w
                UnsafeMutableRawPointer(out + 4 * l).storeBytes(of: o, as: SIMD4<Float>.self)
            }
        }
    }
}

extension LitRelief: LitReliefKernel {}
