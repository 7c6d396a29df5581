import Glibc
#if MERCURIAL_KERNELS_V3
import MercurialKernels // the types below are compiled once, in MercurialKernels; this copy is the x86-64-v3 loops
#else

// MARK: Types (compiled once, into MercurialKernels)

// Holographic foil, as the "rare card" shaders do it: a Voronoi pattern gives every cell a value v;
// hue = fract(v · displacement + offset), where offset follows the card's tilt; that hue, fully
// saturated, is mixed lightly over the picture.
//
// Voronoi: one seed per grid square of `cellSize` pixels, jittered inside its square by a hash of
// the square's coordinates and the seed; every pixel takes the value of its nearest seed
// (Euclidean, from the pixel's centre), a uniform value in [0, 1) hashed from that square. All
// positions are absolute image coordinates, so any tile computes the same pixels.

public struct HolographicParameters: Sendable, Equatable {
    /// Tilt: shifts every hue by this many turns (offset and offset + 1 give the same image).
    public var offset: Float
    /// How much of the hue colour is mixed over the input (0 = the input unchanged).
    public var strength: Float
    public var cellSize: Float
    /// Spread of the cell values: hue = fract(v · displacement + offset).
    public var displacement: Float
    public var seed: UInt32
    /// Sweep: the offset also grows by `sweep` turns across the image along `sweepAngle` (degrees,
    /// 0 = left to right, 90 = top to bottom), as a tilting card would shimmer.
    public var sweep: Float
    public var sweepAngle: Float

    public static let cellSizeRange: ClosedRange<Float> = 2...4096

    public init(offset: Float = 0, strength: Float = 0.04, cellSize: Float = 40, displacement: Float = 1,
                seed: UInt32 = 0, sweep: Float = 0, sweepAngle: Float = 45) {
        self.offset = offset
        self.strength = strength
        self.cellSize = cellSize
        self.displacement = displacement
        self.seed = seed
        self.sweep = sweep
        self.sweepAngle = sweepAngle
    }
}

/// What `process` needs beyond the parameters: the sweep's direction scaled to turns per pixel.
public struct HolographicPlan: Sendable {
    public let parameters: HolographicParameters
    public let sweepX: Float, sweepY: Float
    public let originX: Float, originY: Float
    public let cell: Float

    /// `extent`: the image's extent (x, y, width, height) for the sweep; nil or infinite: the
    /// sweep spans 1024 pixels.
    public init(_ p: HolographicParameters, extent: (x: Int, y: Int, width: Int, height: Int)?) {
        parameters = p
        cell = p.cellSize.isFinite ? min(max(p.cellSize, HolographicParameters.cellSizeRange.lowerBound),
                                         HolographicParameters.cellSizeRange.upperBound) : 40
        let a = (p.sweepAngle.isFinite ? p.sweepAngle : 0) * .pi / 180
        let c = cos(a), s = sin(a)
        var length: Float = 1024
        var ox: Float = 0, oy: Float = 0
        if let e = extent, e.width > 0, e.height > 0, e.width < 1 << 28, e.height < 1 << 28 {
            length = max(abs(Float(e.width) * c) + abs(Float(e.height) * s), 1)
            ox = Float(e.x); oy = Float(e.y)
        }
        let sweep = p.sweep.isFinite ? p.sweep : 0
        sweepX = sweep * c / length
        sweepY = sweep * s / length
        originX = ox
        originY = oy
    }
}


/// The entry points the plug-in calls, in whichever build suits the CPU (both builds conform).
public protocol HolographicKernel {
    static func apply(_ plan: HolographicPlan, input: UnsafePointer<Float>, aux: UnsafePointer<Float>?,
                      output: UnsafeMutablePointer<Float>, x: Int, y: Int, width: Int, count: Int)
}

#endif

// MARK: Loops (compiled for each CPU build)

// Holographic foil: the loops (the parameters and plan are in HolographicParameters.swift).

public enum Holographic {
    // MARK: hashing

    /// A 32-bit integer mix of a grid square and the seed (xorshift-multiply finaliser).
    @inline(__always)
    public static func hash(_ i: Int32, _ j: Int32, _ seed: UInt32, _ stream: UInt32) -> UInt32 {
        var h = UInt32(bitPattern: i) &* 0x9E37_79B1
        h ^= UInt32(bitPattern: j) &* 0x85EB_CA77
        h ^= seed &* 0xC2B2_AE3D
        h ^= stream &* 0x27D4_EB2F
        h ^= h >> 15
        h &*= 0x2C1B_3C6D
        h ^= h >> 12
        h &*= 0x297A_2D39
        h ^= h >> 15
        return h
    }

    /// A uniform value in [0, 1) from the top 24 bits of a hash (exact in Float).
    @inline(__always)
    public static func unit(_ h: UInt32) -> Float { Float(h >> 8) * (1 / 16_777_216) }

    /// The seed point of grid square (i, j), in pixels.
    @inline(__always)
    public static func seedPoint(_ i: Int32, _ j: Int32, cell: Float, seed: UInt32) -> (Float, Float) {
        ((Float(i) + unit(hash(i, j, seed, 1))) * cell, (Float(j) + unit(hash(i, j, seed, 2))) * cell)
    }

    /// The cell value of grid square (i, j).
    @inline(__always)
    public static func cellValue(_ i: Int32, _ j: Int32, seed: UInt32) -> Float { unit(hash(i, j, seed, 3)) }

    /// The Voronoi value at pixel (x, y): the value of the nearest seed; ties go to the first in
    /// row-major order. The nearest seed is always within the 5×5 squares around the pixel's own:
    /// its own square's seed is at most √2 cells away, any square three columns or rows off at
    /// least two. (This is the plain search; `apply` finds the same seed faster.)
    public static func voronoi(x: Int, y: Int, cell: Float, seed: UInt32) -> Float {
        let px = Float(x) + 0.5, py = Float(y) + 0.5
        let ci = Int32(truncatingIfNeeded: Color.floorInt(px / cell)), cj = Int32(truncatingIfNeeded: Color.floorInt(py / cell))
        var best = Float.infinity, value: Float = 0
        for dj in Int32(-2)...2 {
            for di in Int32(-2)...2 {
                let (sx, sy) = seedPoint(ci + di, cj + dj, cell: cell, seed: seed)
                let d = (sx - px) * (sx - px) + (sy - py) * (sy - py)
                if d < best { best = d; value = cellValue(ci + di, cj + dj, seed: seed) }
            }
        }
        return value
    }

    // MARK: the foil

    /// The hue (turns) at pixel (x, y) with cell value v.
    @inline(__always)
    public static func hue(_ plan: HolographicPlan, value v: Float, x: Int, y: Int) -> Float {
        let p = plan.parameters
        let sweep = (Float(x) + 0.5 - plan.originX) * plan.sweepX + (Float(y) + 0.5 - plan.originY) * plan.sweepY
        return Color.fract(v * p.displacement + p.offset + sweep)
    }

    /// Applies the foil to a row-major run of `count` pixels of a rectangle whose first pixel is
    /// (x, y) and whose rows are `width` long. Input and output are RGBA with perceptual (sRGB)
    /// components; `aux`, when given, holds one value per pixel that replaces the Voronoi value.
    /// Output colour = input · (1 − strength) + hue colour · strength; alpha is the input's.
    ///
    /// The stages: per pixel row, the seeds of the squares around it (`Seeds.fill`, when the row
    /// of squares changes); per pixel, the nearest seed's value (`Seeds.nearest`, or eight pixels
    /// at a time in `Seeds.nearestEight`), its hue and the mix.
    public static func apply(_ plan: HolographicPlan, input: UnsafePointer<Float>, aux: UnsafePointer<Float>?,
                             output: UnsafeMutablePointer<Float>, x: Int, y: Int, width: Int, count: Int) {
        let p = plan.parameters
        let strength = p.strength.isFinite ? min(max(p.strength, 0), 1) : 0
        if strength == 0 {
            output.update(from: input, count: 4 * count)
            return
        }
        let mix = Mix(input: input, output: output, strength: strength)
        var seeds = Seeds(plan, firstX: x, lastX: x + width - 1)
        defer { seeds.deallocate() }
        var done = 0
        while done < count {
            let row = done / width, column = done % width
            let run = min(width - column, count - done)
            let py = y + row
            seeds.fill(row: py)
            var c = 0
            // Eight pixels at a time, one per lane, computing exactly what the one-pixel path
            // below computes (same operations in the same order, so the grouping never shows).
            // Used where pixel centres are exact in Float arithmetic.
            let lanes = V4.scalarCount
            if aux == nil, abs(Float(x + column)) < 2_000_000, abs(Float(x + column + run)) < 2_000_000,
               abs(seeds.fy) < 2_000_000 {
                while c + lanes <= run {
                    let fxv = V4(repeating: Float(x + column + c) + 0.5) + V4(0, 1, 2, 3, 4, 5, 6, 7)
                    let value = seeds.nearestEight(fxv)
                    let sweep = (fxv - plan.originX) * plan.sweepX
                        + V4(repeating: (seeds.fy - plan.originY) * plan.sweepY)
                    let turns = vectorFract(value * p.displacement + p.offset + sweep)
                    let x6 = turns * 6
                    let red = vclamp(vabs(x6 - 3) - 1, 0, 1)
                    let green = vclamp(2 - vabs(x6 - 2), 0, 1)
                    let blue = vclamp(2 - vabs(x6 - 4), 0, 1)
                    for l in 0..<lanes { mix(done + c + l, SIMD3(red[l], green[l], blue[l])) }
                    c += lanes
                }
            }
            while c < run {
                let px = x + column + c
                let v = aux.map { $0[done + c] } ?? seeds.nearest(Float(px) + 0.5)
                mix(done + c, Color.hueRGB(hue(plan, value: v, x: px, y: py)))
                c += 1
            }
            done += run
        }
    }

    /// The mix of a hue colour over an input pixel.
    struct Mix {
        let input: UnsafePointer<Float>
        let output: UnsafeMutablePointer<Float>
        let strength: Float, keep: Float

        init(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, strength: Float) {
            self.input = input
            self.output = output
            self.strength = strength
            keep = 1 - strength
        }

        /// Pixel i of the run: input · keep + colour · strength, the input's alpha.
        @inline(__always) func callAsFunction(_ i: Int, _ colour: SIMD3<Float>) {
            let o = 4 * i
            output[o] = input[o] * keep + colour.x * strength
            output[o + 1] = input[o + 1] * keep + colour.y * strength
            output[o + 2] = input[o + 2] * keep + colour.z * strength
            output[o + 3] = input[o + 3]
        }
    }

    /// The seeds of the five rows of grid squares around the current pixel row, for every column
    /// of squares the rectangle's rows touch, and the nearest-seed searches over them.
    struct Seeds {
        let cell: Float
        let seed: UInt32
        /// The first column of squares held, and how many.
        let firstI: Int32, n: Int
        /// For each square column k and row r (0..<5, row 2 is this pixel row's): seed x, seed y,
        /// value.
        let values: UnsafeMutablePointer<Float>
        /// The row of squares held (nil before the first fill).
        var row: Int32? = nil
        /// The current pixel row's centre, and the top and bottom of the inner 3×3 block of squares.
        var fy: Float = 0, top: Float = 0, bottom: Float = 0

        init(_ plan: HolographicPlan, firstX: Int, lastX: Int) {
            cell = plan.cell
            seed = plan.parameters.seed
            firstI = Int32(truncatingIfNeeded: Color.floorInt((Float(firstX) + 0.5) / cell)) - 2
            let lastI = Int32(truncatingIfNeeded: Color.floorInt((Float(lastX) + 0.5) / cell)) + 2
            n = Int(lastI - firstI) + 1
            values = UnsafeMutablePointer<Float>.allocate(capacity: 15 * n)
        }

        func deallocate() { values.deallocate() }

        /// Makes pixel row py current; fills the seeds when its row of squares changed.
        mutating func fill(row py: Int) {
            fy = Float(py) + 0.5
            let cj = Int32(truncatingIfNeeded: Color.floorInt(fy / cell))
            top = Float(cj - 1) * cell
            bottom = Float(cj + 2) * cell
            guard row != cj else { return }
            for k in 0..<n {
                for r in 0..<5 {
                    let i = firstI + Int32(k), j = cj + Int32(r) - 2
                    let (sx, sy) = seedPoint(i, j, cell: cell, seed: seed)
                    values[15 * k + 3 * r] = sx
                    values[15 * k + 3 * r + 1] = sy
                    values[15 * k + 3 * r + 2] = cellValue(i, j, seed: seed)
                }
            }
            row = cj
        }

        /// The nearest seed's value at fx on the current row with `voronoi`'s tie rule (first in
        /// row-major order of the 5×5 squares), whatever order they are examined in: the inner 3×3
        /// first (a side column only when it could hold something nearer), the outer ring only when
        /// the 3×3 block's edge is nearer than the best seed so far.
        func nearest(_ fx: Float) -> Float {
            let square = Color.floorInt(fx / cell)
            let ci = square - Int(firstI)
            var best = Float.infinity, bestKey = 25
            var v: Float = 0
            @inline(__always) func consider(_ column: Int, rows: ClosedRange<Int>) {
                for r in rows {
                    let s = 15 * (ci + column - 2) + 3 * r
                    let dx = values[s] - fx, dy = values[s + 1] - fy
                    let d = dx * dx + dy * dy
                    let key = 5 * r + column
                    if d < best || (d == best && key < bestKey) { best = d; bestKey = key; v = values[s + 2] }
                }
            }
            consider(2, rows: 1...3)
            let toLeft = fx - Float(square) * cell, toRight = Float(square + 1) * cell - fx
            if toLeft * toLeft <= best { consider(1, rows: 1...3) }
            if toRight * toRight <= best { consider(3, rows: 1...3) }
            let edge = min(toLeft + cell, toRight + cell, fy - top, bottom - fy)
            if edge * edge <= best {
                for column in 0..<5 { consider(column, rows: 0...4) }
            }
            return v
        }

        /// `nearest` for eight pixel centres at once (|fx| < 2²¹): the inner rows of squares over
        /// the eight pixels' columns and one beyond each side, then the full search for any lane
        /// whose 3×3 block edge is nearer than its best seed.
        @inline(__always) func nearestEight(_ fxv: V4) -> V4 {
            let s0 = Color.floorInt(fxv[0] / cell), s7 = Color.floorInt(fxv[V4.scalarCount - 1] / cell)
            var best = V4(repeating: .infinity), value = V4(repeating: 0)
            // Rows, then columns, in increasing order: strict < keeps the first of equals.
            for r in 1...3 {
                for square in (s0 - 1)...(s7 + 1) {
                    let s = 15 * (square - Int(firstI)) + 3 * r
                    let dx = V4(repeating: values[s]) - fxv
                    let dy = values[s + 1] - fy
                    let d = dx * dx + V4(repeating: dy * dy)
                    let closer = d .< best
                    best.replace(with: d, where: closer)
                    value.replace(with: values[s + 2], where: closer)
                }
            }
            // The edge computed as `nearest` computes it; floor by the rounding trick, exact here
            // since |fx / cell| < 2^22.
            let q = fxv / cell
            let rounded = (q + 12_582_912) - 12_582_912
            let square = rounded.replacing(with: rounded - 1, where: rounded .> q)
            let toLeft = fxv - square * cell, toRight = (square + 1) * cell - fxv
            let edge = vmin(vmin(toLeft + cell, toRight + cell), V4(repeating: min(fy - top, bottom - fy)))
            let full = edge * edge .<= best
            if any(full) {
                for l in 0..<V4.scalarCount where full[l] { value[l] = nearest(fxv[l]) }
            }
            return value
        }
    }
}

/// |v| lane by lane.
@inline(__always) func vabs(_ v: V4) -> V4 { v.replacing(with: -v, where: v .< 0) }

/// fract lane by lane, equal to `Holographic.fract` for every value (lanes beyond ±2^22 take the
/// scalar function; below, floor comes from rounding with the 1.5·2^23 trick).
@inline(__always) func vectorFract(_ x: V4) -> V4 {
    let small = (x .> -4_194_304) .& (x .< 4_194_304)
    let rounded = (x + 12_582_912) - 12_582_912
    let floor = rounded.replacing(with: rounded - 1, where: rounded .> x)
    var f = x - floor
    f.replace(with: 0, where: .!((f .>= 0) .& (f .< 1)))
    if !all(small) {
        for l in 0..<V4.scalarCount where !small[l] { f[l] = Color.fract(x[l]) }
    }
    return f
}

extension Holographic: HolographicKernel {}
