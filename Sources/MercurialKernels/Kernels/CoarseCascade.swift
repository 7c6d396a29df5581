// The large levels of Core Image's cascade on coarse grids, so that a level costs the same
// whatever its σ.
//
// Level k blurs the previous level's heights h by σ and multiplies by the mask. Where σ is at least
// `HeightFieldParameters.coarseRatio` pixels per cell of a grid of spacing s (each level's twice the
// next one's, the finest 2 or 3), the blur is made on that grid, aligned to the image's own origin
// (cell i covers pixels [i·s, i·s + s)):
// - the cell's value is the mean of h over it, less the differences of its neighbours' first
//   moments (Σh·(dx − (s − 1)/2), and down): each cell's offset of mass from its centre, moved to
//   the cells on either side as a pair of opposite weights, so that where an edge crosses a cell the
//   blur sees where in the cell its mass lies;
// - the grid is blurred by σ_c, chosen so that those values (which, where h is smooth, stand for h
//   less a box's variance (s² − 1)/12), the blur and the bilinear interpolation back (which adds
//   about s²/6 on average) make σ² in all;
// - the blurred grid is read back bilinearly, cell centres at i·s + (s − 1)/2.
// The next level's h = mask × that bilinear field. Its cell sums come out of four moments of the
// mask over each cell (Σm, Σm·dx, Σm·dy, Σm·dx·dy): a cell of the next grid (half the spacing) lies
// within one interpolation cell, where the field is a + b·t + c·v + d·t·v. So no level but the last
// is ever made at full resolution: the last (`Seed`) hands the fine cascade its rows.
//
// Every value depends only on the cells it reads, with the same arithmetic wherever a window starts:
// any tiling gives the same bits.

import CVector
#if MERCURIAL_KERNELS_V3
import MercurialKernels // the types below are compiled once, in MercurialKernels; this copy is the x86-64-v3 loops
#else
import Glibc

// MARK: Types (compiled once, into MercurialKernels)

/// One level of the cascade made on a coarse grid.
public struct CoarseLevel: Sendable, Equatable {
    public let sigma: Double
    /// The grid's spacing in pixels (at least 2; a cascade's levels each twice the next one's).
    public let spacing: Int
    /// One-sided Gaussian weights of the blur on the grid.
    public let weights: [Float]

    /// The last level of an outer side: one-sided weights of a further blur of its grid standing
    /// for the full-resolution levels after it, where the layer's mask is 0 (the side's 1) all
    /// through their reach (empty: none; see `CoarseCascade.Fold`).
    public let fold: [Float]

    /// `readBack`: the variance, in cells², the reading back at full resolution adds (about 1/6 for
    /// bilinear interpolation, 1/3 for the cubic B-spline). `firstMoments`: the cells' values take
    /// their first moments in (the cascade's), which leaves them a box's variance short of h's where
    /// h is smooth; without, their means add it.
    public init(sigma: Double, spacing: Int, readBack: Double = 1.0 / 6, firstMoments: Bool = true, fold: [Float] = []) {
        self.sigma = sigma
        self.spacing = spacing
        self.fold = fold
        let s = Double(spacing), box = (s * s - 1) / (12 * s * s)
        let variance = (sigma / s) * (sigma / s) + (firstMoments ? box : -box) - readBack
        let coarseSigma = variance.squareRoot()
        weights = Gaussian.weights(sigma: coarseSigma, taps: Int((coarseSigma * HeightFieldParameters.truncation).rounded(.up)))
    }

    public var taps: Int { weights.count - 1 }
    /// The one-sided width of `fold` (0 without).
    public var foldTaps: Int { max(fold.count - 1, 0) }
}

/// A rectangle of integer pixels or cells (absolute coordinates).
public struct IntRect: Sendable, Equatable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public func intersection(_ o: IntRect) -> IntRect {
        let x0 = max(x, o.x), y0 = max(y, o.y)
        return IntRect(x: x0, y: y0, width: max(0, min(maxX, o.maxX) - x0), height: max(0, min(maxY, o.maxY) - y0))
    }
}

@inline(__always)
package func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

/// A grid of floats over a rectangle of cells. Its memory comes uninitialised: every loop that
/// makes a grid writes each of its cells (the moments are zeroed first, by the threads that add
/// into them), so no thread fills it with zeros while the others wait. Threads write disjoint
/// cells through `base`; the storage is shared, never copied.
package struct Grid: Sendable {
    package let area: IntRect
    package let storage: Storage
    package init(_ area: IntRect) {
        self.area = area
        storage = Storage(floats: max(area.width, 0) * max(area.height, 0), from: .heap)
    }
    package var base: UnsafeMutablePointer<Float> { storage.base }
    package var count: Int { storage.count }

    /// (A large grid's cells may lie in huge pages: see `LargeBuffer`.)
    package typealias Storage = LargeBuffer
}

/// Blocks of `size` × `size` pixels on the image's grid over a rectangle of them, each with its
/// distance (in blocks, the larger of across and down, at most 255) to the nearest block that holds
/// a pixel of mask other than 0, or lies outside the rectangle: every pixel within d − 1 blocks of
/// a block at distance d has a mask of 0.
public struct FarBlocks: Sendable {
    /// The blocks' side: four cells of the last level's grid (8 or 12 pixels).
    package let size: Int
    package let area: IntRect
    package let distance: [UInt8]

    /// Cells of the last level a block spans each way.
    package static let cells = 4

    package init(size: Int, area: IntRect, distance: [UInt8]) {
        self.size = size
        self.area = area
        self.distance = distance
    }

    /// The distance of block (bx, by); 0 outside the rectangle.
    @inline(__always)
    package func distance(_ bx: Int, _ by: Int) -> UInt8 {
        let x = bx - area.x, y = by - area.y
        return x >= 0 && x < area.width && y >= 0 && y < area.height ? distance[y * area.width + x] : 0
    }
}

/// Runs body(i) for every i in 0..<count, each once, on any threads (the host's pool); returns
/// when all are done. Items write disjoint memory, so the result does not depend on the split.
public typealias ForEach = (_ count: Int, _ body: (Int) -> Void) -> Void

/// One thread, in order: for callers with no pool.
public let serially: ForEach = { count, body in for i in 0..<count { body(i) } }

/// The coarse levels of one window: the cells each level needs, and the mask's moments over them.
public struct CoarseCascade {
    public let levels: [CoarseLevel]
    /// The fine window (absolute pixels) whose every pixel the seed gives.
    public let window: IntRect
    /// Cells of each level's blurred grid needed (the last level's: under the window; each other's:
    /// under the next level's cells), of each level's cell values (that ± the level's taps), and of
    /// its moments (that ± 1: a value reads its neighbours' first moments).
    package let blurred: [IntRect], means: [IntRect], moments: [IntRect]
    /// The cells of the last level's folded grid: `blurred.last` less its fold's reach.
    package let foldArea: IntRect
    /// Per level, the mask's moments over `moments[k]` (`Moment`): the first three for level 0, whose
    /// h is the mask; all for the others, whose h is the mask times a bilinear field.
    package var grids: [[Grid]]

    /// The mask's sums over a cell, dx and dy from its first pixel: Σm, Σm·dx, Σm·dy, Σm·dx·dy.
    package enum Moment: Int, CaseIterable {
        case m, x, y, xy
        /// How many of them level k needs.
        static func count(level k: Int) -> Int { k == 0 ? 3 : allCases.count }
    }

    /// The pixels whose mask the levels read: level 0's moments' (the widest).
    public var reach: IntRect {
        var r = IntRect(x: 0, y: 0, width: 0, height: 0)
        for (k, c) in moments.enumerated() {
            let t = levels[k].spacing
            let f = IntRect(x: c.x * t, y: c.y * t, width: c.width * t, height: c.height * t)
            if k == 0 { r = f; continue }
            let x0 = min(r.x, f.x), y0 = min(r.y, f.y)
            r = IntRect(x: x0, y: y0, width: max(r.maxX, f.maxX) - x0, height: max(r.maxY, f.maxY) - y0)
        }
        return r
    }

    /// The widest a window's reach lies beyond it on any side, for these levels (an upper bound,
    /// whatever the window's alignment).
    public static func reach(_ levels: [CoarseLevel]) -> Int {
        guard let first = levels.first else { return 0 }
        // Every alignment of a window's edges to the coarsest grid, both sides.
        var widest = 0
        for offset in 0..<first.spacing {
            let moments = ranges(levels, from: offset, to: offset + 1).moments
            for (k, level) in levels.enumerated() {
                widest = max(widest, offset - moments[k].0 * level.spacing, (moments[k].1 + 1) * level.spacing - (offset + 1))
            }
        }
        return widest
    }

    /// The cells each level needs under `window`, by the rule above, one axis at a time.
    static func ranges(_ levels: [CoarseLevel], from lo: Int, to hi: Int)
        -> (blurred: [(Int, Int)], means: [(Int, Int)], moments: [(Int, Int)]) {
        var blurred = [(Int, Int)](repeating: (0, 0), count: levels.count), means = blurred, moments = blurred
        let s = levels.last!.spacing
        var need = (floorDiv(2 * lo - s + 1, 2 * s), floorDiv(2 * (hi - 1) - s + 1, 2 * s) + 1)
        for k in stride(from: levels.count - 1, through: 0, by: -1) {
            // (The last level's grid reaches as far again as its fold reads.)
            let f = levels[k].foldTaps
            blurred[k] = (need.0 - f, need.1 + f)
            let t = levels[k].taps
            means[k] = (blurred[k].0 - t, blurred[k].1 + t)
            moments[k] = (means[k].0 - 1, means[k].1 + 1)
            need = (floorDiv(moments[k].0 - 1, 2), floorDiv(moments[k].1 - 1, 2) + 1)
        }
        return (blurred, means, moments)
    }

    /// Lays out the cells each level needs under `window`, the moments uninitialised (the loops
    /// zero them, then add the mask's: `CoarseLoops.cascade`).
    package init(levels: [CoarseLevel], window: IntRect) {
        precondition(!levels.isEmpty && !window.isEmpty)
        // Each grid half the last one's spacing, down to 2 or 3 (as `HeightFieldParameters` makes them).
        precondition(zip(levels, levels.dropFirst()).allSatisfy { $0.spacing == 2 * $1.spacing } && (2...3).contains(levels.last!.spacing))
        self.levels = levels
        self.window = window
        let xs = Self.ranges(levels, from: window.x, to: window.maxX)
        let ys = Self.ranges(levels, from: window.y, to: window.maxY)
        func rects(_ x: [(Int, Int)], _ y: [(Int, Int)]) -> [IntRect] {
            zip(x, y).map { IntRect(x: $0.0, y: $1.0, width: $0.1 - $0.0 + 1, height: $1.1 - $1.0 + 1) }
        }
        blurred = rects(xs.blurred, ys.blurred)
        means = rects(xs.means, ys.means)
        moments = rects(xs.moments, ys.moments)
        let f = levels.last!.foldTaps, last = blurred.last!
        foldArea = IntRect(x: last.x + f, y: last.y + f, width: last.width - 2 * f, height: last.height - 2 * f)
        // Each grid its own storage: the loops write through pointers, with no copy on write.
        grids = moments.enumerated().map { k, area in (0..<Moment.count(level: k)).map { _ in Grid(area) } }
    }

    /// Where each level's moment grids lie (taken once, so that bands on several threads write
    /// into them without touching the arrays' reference counts).
    package struct Pointers {
        package let grids: [[UnsafeMutablePointer<Float>]]
        package init(_ c: CoarseCascade) {
            grids = c.grids.map { $0.map(\.base) }
        }
    }

    /// An outer side's last grid blurred further by its level's fold (over `foldArea`), and where
    /// the mask is 0 far around: there the full-resolution levels give what this grid read back
    /// gives, up to their approximations, and are not run.
    public struct Fold: Sendable {
        package let grid: Grid
        package let far: FarBlocks
        package init(grid: Grid, far: FarBlocks) {
            self.grid = grid
            self.far = far
        }
    }

    /// The last level's blurred grid, read back by `Seed`s of windows inside the window it was
    /// made for.
    public struct SeedGrid: Sendable {
        package let grid: Grid
        package let spacing: Int
        public let covers: IntRect
        package let fold: Fold?

        package init(grid: Grid, spacing: Int, covers: IntRect, fold: Fold? = nil) {
            self.grid = grid
            self.spacing = spacing
            self.covers = covers
            self.fold = fold
        }

        /// The seed rows of `window`, which must lie inside `covers`.
        public func seed(_ window: IntRect) -> Seed {
            precondition(window.intersection(covers) == window, "a seed's window lies inside its grid's")
            return Seed(grid: grid, spacing: spacing, window: window, fold: fold)
        }
    }

    /// The last blurred grids of a style's sides (nil: a side not asked for).
    public struct SeedGrids: Sendable {
        public let inner: SeedGrid?, outer: SeedGrid?

        package init(inner: SeedGrid?, outer: SeedGrid?) {
            self.inner = inner
            self.outer = outer
        }
    }

    /// The last coarse level read back at full resolution: row y of the window (0-based) is
    /// mask × the bilinear field, the fine cascade's first input.
    public struct Seed: Sendable {
        package let grid: Grid
        package let spacing: Int
        package let window: IntRect
        /// Per window column: the left cell and the weight of the right one.
        package let cell: [Int], weight: [Float]
        package let fold: Fold?

        package init(grid: Grid, spacing s: Int, window: IntRect, fold: Fold? = nil) {
            self.grid = grid
            self.spacing = s
            self.window = window
            self.fold = fold
            var cell = [Int](), weight = [Float]()
            for x in window.x..<window.maxX {
                let (i, t) = Seed.position(x, spacing: s)
                cell.append(i - grid.area.x)
                weight.append(t)
            }
            self.cell = cell
            self.weight = weight
        }

        /// Where pixel x lies between cell centres: the left cell, and how far towards the next.
        @inline(__always)
        package static func position(_ x: Int, spacing s: Int) -> (Int, Float) {
            let n = 2 * x - s + 1, i = floorDiv(n, 2 * s)
            return (i, Float(n - 2 * s * i) / Float(2 * s))
        }

        /// Floats of scratch `CoarseLoops.field` (and so `seedRow`) needs.
        public var scratchCount: Int { grid.area.width }
    }
}

#endif

// MARK: Loops (compiled for each CPU build)

/// The coarse cascade's loops: its moments, levels, blurs and seed rows.
public enum CoarseLoops {
    /// The coarse levels over `window` with the mask's moments over every level's cells.
    /// `read(rect, into)` writes the raw mask of `rect` (rows of rect.width; any floats, sanitized
    /// here); it is asked only for pixels inside `bounds`, the mask being 0 outside.
    public static func cascade(levels: [CoarseLevel], window: IntRect, bounds: IntRect?, forEach: ForEach = serially,
                               read: (IntRect, UnsafeMutablePointer<Float>) -> Void) -> CoarseCascade {
        let cascade = CoarseCascade(levels: levels, window: window)
        let grids = CoarseCascade.Pointers(cascade)
        // Every moment 0, in pieces on the pool's threads.
        var pieces: [(UnsafeMutablePointer<Float>, Int)] = []
        for grid in cascade.grids.joined() {
            for first in stride(from: 0, to: grid.count, by: zeroPiece) {
                pieces.append((grid.base + first, min(zeroPiece, grid.count - first)))
            }
        }
        forEach(pieces.count) { i in pieces[i].0.initialize(repeating: 0, count: pieces[i].1) }
        var area = cascade.reach
        if let bounds { area = area.intersection(bounds) }
        guard !area.isEmpty else { return cascade }
        // Bands of rows on the coarsest grid's cell rows (so on every grid's): each band adds into
        // cells of its own, in the same order as one pass would.
        let s0 = levels[0].spacing, bandRows = 8 * s0
        let firstBand = floorDiv(area.y, bandRows), bands = floorDiv(area.maxY - 1, bandRows) - firstBand + 1
        withoutActuallyEscaping(read) { read in
            forEach(bands) { b in
                let y0 = max(area.y, (firstBand + b) * bandRows), y1 = min(area.maxY, (firstBand + b + 1) * bandRows)
                accumulate(IntRect(x: area.x, y: y0, width: area.width, height: y1 - y0), levels: levels,
                           moments: cascade.moments, grids: grids, read: read)
            }
        }
        return cascade
    }

    /// Rows of mask read at a time.
    static let batch = 16
    /// Floats zeroed by one piece of work.
    static let zeroPiece = 1 << 16

    /// Adds the mask of `area` into the moments, a batch of rows at a time.
    static func accumulate(_ area: IntRect, levels: [CoarseLevel], moments: [IntRect], grids: CoarseCascade.Pointers,
                           read: (IntRect, UnsafeMutablePointer<Float>) -> Void) {
        let finest = levels.count - 1, sf = levels[finest].spacing
        // Columns from the first cell of the coarsest grid that `area` touches (a cell of every grid).
        let x0 = floorDiv(area.x, levels[0].spacing) * levels[0].spacing
        let lead = area.x - x0, columns = area.maxX - x0
        let cellCounts = levels.map { (columns + $0.spacing - 1) / $0.spacing }
        // A row of mask; per level, the row's sums over each cell: Σm (a) and Σm·dx (b).
        let rows = UnsafeMutablePointer<Float>.allocate(capacity: batch * area.width)
        let row = UnsafeMutablePointer<Float>.allocate(capacity: cellCounts[finest] * sf)
        let sums = cellCounts.map { UnsafeMutablePointer<Float>.allocate(capacity: 2 * $0 + 2) }
        defer { rows.deallocate(); row.deallocate(); sums.forEach { $0.deallocate() } }
        row.initialize(repeating: 0, count: cellCounts[finest] * sf)
        for first in stride(from: area.y, to: area.maxY, by: batch) {
            let count = min(batch, area.maxY - first)
            read(IntRect(x: area.x, y: first, width: area.width, height: count), rows)
            for r in 0..<count {
                // Any value but +0 (what sanitizing makes of nothing) sets a bit: a loop with no
                // branch, which the compiler vectorizes.
                var bits: UInt32 = 0
                let source = rows + r * area.width, into = row + lead
                for x in 0..<area.width {
                    let v = sanitizedMask(source[x])
                    into[x] = v
                    bits |= v.bitPattern
                }
                guard bits != 0 else { continue }
                addRow(first + r, row: row, sums: sums, cellCounts: cellCounts, firstColumn: x0, levels: levels,
                       moments: moments, grids: grids)
            }
        }
    }

    /// Adds one sanitized mask row (image row y, from column x0, whole cells of the finest grid)
    /// into each level's moments: the finest grid's cell sums from the row, each coarser one's
    /// from its two halves.
    static func addRow(_ y: Int, row: UnsafePointer<Float>, sums: [UnsafeMutablePointer<Float>], cellCounts: [Int],
                       firstColumn x0: Int, levels: [CoarseLevel], moments: [IntRect], grids: CoarseCascade.Pointers) {
        let finest = levels.count - 1
        let a = sums[finest], b = sums[finest] + cellCounts[finest] + 1
        // The finest grid's spacing is 2 or 3: a cell's Σm and Σm·dx are u + v and v, or u + v + w
        // and v + 2w.
        if levels[finest].spacing == 2 {
            for c in 0..<cellCounts[finest] {
                a[c] = row[2 * c] + row[2 * c + 1]
                b[c] = row[2 * c + 1]
            }
        } else {
            precondition(levels[finest].spacing == 3)
            for c in 0..<cellCounts[finest] {
                a[c] = row[3 * c] + row[3 * c + 1] + row[3 * c + 2]
                b[c] = row[3 * c + 1] + 2 * row[3 * c + 2]
            }
        }
        a[cellCounts[finest]] = 0
        b[cellCounts[finest]] = 0
        for k in stride(from: finest - 1, through: 0, by: -1) {
            let half = Float(levels[k + 1].spacing), n = cellCounts[k]
            let fa = sums[k + 1], fb = sums[k + 1] + cellCounts[k + 1] + 1
            let ka = sums[k], kb = sums[k] + n + 1
            for c in 0..<n {
                let l = 2 * c, h = min(2 * c + 1, cellCounts[k + 1]) // past the end: the 0 kept there
                ka[c] = fa[l] + fa[h]
                kb[c] = fb[l] + fb[h] + half * fa[h]
            }
            ka[n] = 0
            kb[n] = 0
        }
        typealias M = CoarseCascade.Moment
        for k in 0..<levels.count {
            let s = levels[k].spacing, area = moments[k]
            let j = floorDiv(y, s)
            guard j >= area.y, j < area.maxY else { continue }
            let dy = Float(y - j * s)
            let c0 = x0 / s
            let i0 = max(area.x, c0), i1 = min(area.maxX, c0 + cellCounts[k])
            guard i0 < i1 else { continue }
            let base = (j - area.y) * area.width + (i0 - area.x), n = i1 - i0
            let ka = sums[k] + (i0 - c0), kb = sums[k] + cellCounts[k] + 1 + (i0 - c0)
            let g = grids.grids[k]
            let z = g[M.m.rawValue] + base, zx = g[M.x.rawValue] + base, zy = g[M.y.rawValue] + base
            for i in 0..<n { z[i] += ka[i] }
            for i in 0..<n { zx[i] += kb[i] }
            for i in 0..<n { zy[i] += dy * ka[i] }
            guard k > 0 else { continue }
            let zxy = g[M.xy.rawValue] + base
            for i in 0..<n { zxy[i] += dy * kb[i] }
        }
    }

    /// The seed of the cascade's window, from the mask (the plain inner profile's).
    public static func seed(_ cascade: CoarseCascade) -> CoarseCascade.Seed {
        seedGrids(cascade, inner: true, outer: false).inner!.seed(cascade.window)
    }

    /// The last level's blurred grid of each side asked for, from the mask (inner) and from
    /// 1 − mask (outer): the seed of the cascade's window and of any window inside it. Every blur
    /// of both sides passes across through one scratch grid in turn, so that fresh memory (which
    /// the system clears page by page) is taken once.
    public static func seedGrids(_ c: CoarseCascade, inner: Bool, outer: Bool,
                                 forEach: ForEach = serially) -> CoarseCascade.SeedGrids {
        let cells = zip(c.means, c.blurred).map { $0.height * $1.width }.max() ?? 0
        let across = Grid.Storage(floats: cells, from: .heap)
        return withExtendedLifetime(across) {
            CoarseCascade.SeedGrids(
                inner: inner ? seedGrid(c, inverted: false, across: across.base, forEach: forEach) : nil,
                outer: outer ? seedGrid(c, inverted: true, across: across.base, forEach: forEach) : nil)
        }
    }

    /// Rows of values a band of a level's pass across makes at a time.
    static let cellBand = 32

    /// One side's last blurred grid (`seedGrids`). Each level's pass across takes bands of rows,
    /// each with its cells' sums and first moments in scratch of its own, a row at a time, and
    /// its values from them; `across` holds the widest pass.
    static func seedGrid(_ c: CoarseCascade, inverted: Bool, across: UnsafeMutablePointer<Float>,
                         forEach: ForEach) -> CoarseCascade.SeedGrid {
        let levels = c.levels
        var previous = Grid(IntRect(x: 0, y: 0, width: 0, height: 0))
        for k in 0..<levels.count {
            let s = levels[k].spacing, area = c.means[k], w = area.width, mw = c.moments[k].width
            // Multiplying by reciprocals (the division's bits only for powers of two): the same
            // arithmetic wherever a window starts.
            let perCell = 1 / Float(s * s), perPair = 1 / Float(2 * s)
            let parent = previous, columns = k == 0 ? [] : parentWeights(c, level: k)
            previous = withExtendedLifetime((parent, columns)) {
                blur(area, to: c.blurred[k], weights: levels[k].weights, across: across, forEach: forEach,
                     band: cellBand) { band, each in
                    // Value row j reads the cells of moment rows j ..< j + 3: three rows in turn,
                    // each made once but for the band's first two. Then a row of values, and
                    // nextCells' four rows of parent values.
                    withUnsafeTemporaryAllocation(of: Float.self, capacity: 13 * mw + max(w, 1)) { scratch in
                        let ring = scratch.baseAddress!, into = ring + 9 * mw, gathered = into + max(w, 1)
                        func cells(_ r: Int) -> Cells {
                            let at = ring + (r % 3) * 3 * mw
                            return Cells(sum: at, x: at + mw, y: at + 2 * mw)
                        }
                        func make(_ r: Int) {
                            if k == 0 {
                                firstCells(c, row: r, inverted: inverted, into: cells(r))
                            } else {
                                columns.withUnsafeBufferPointer { t in
                                    nextCells(c, level: k, row: r, parent: parent, inverted: inverted, columns: t.baseAddress!,
                                              scratch: gathered, into: cells(r))
                                }
                            }
                        }
                        make(band.lowerBound)
                        make(band.lowerBound + 1)
                        for j in band {
                            make(j + 2)
                            // Cell i of the row is cell i + 1 of the moments' row j + 1.
                            let mid = cells(j + 1), h = mid.sum + 1, x = mid.x + 1
                            let up = cells(j).y + 1, down = cells(j + 2).y + 1
                            for i in 0..<w {
                                into[i] = (h[i] - (x[i + 1] - x[i - 1]) * perPair - (down[i] - up[i]) * perPair) * perCell
                            }
                            each(j, into)
                        }
                    }
                }
            }
        }
        let last = levels.last!
        guard inverted, !last.fold.isEmpty else {
            return CoarseCascade.SeedGrid(grid: previous, spacing: last.spacing, covers: c.window)
        }
        let cells = UnsafePointer(previous.base), gw = previous.area.width
        let folded = withExtendedLifetime(previous) {
            blur(previous.area, to: c.foldArea, weights: last.fold, across: across, forEach: forEach) { band, each in
                for j in band { each(j, cells + j * gw) }
            }
        }
        return CoarseCascade.SeedGrid(grid: previous, spacing: last.spacing, covers: c.window,
                                      fold: CoarseCascade.Fold(grid: folded, far: farBlocks(c)))
    }

    /// Each cell's Σh and its first moments about its centre (Σh·(dx − (s − 1)/2), and down), over
    /// a row of a level's moments' cells.
    struct Cells {
        let sum, x, y: UnsafeMutablePointer<Float>
    }

    /// Level 0's cells of moment row `row` (0-based): h is the mask (or 1 − mask).
    static func firstCells(_ c: CoarseCascade, row: Int, inverted: Bool, into cells: Cells) {
        typealias M = CoarseCascade.Moment
        let w = c.moments[0].width, s = c.levels[0].spacing
        let cellArea = Float(s * s), centre = Float(s - 1) / 2
        let g = c.grids[0], line = row * w
        let (m0, mx, my) = (UnsafePointer(g[M.m.rawValue].base) + line, UnsafePointer(g[M.x.rawValue].base) + line,
                            UnsafePointer(g[M.y.rawValue].base) + line)
        let (sum, x, y) = (cells.sum, cells.x, cells.y)
        // (1 − m)'s moments about the centre are m's negated: a whole cell's are 0.
        let sign: Float = inverted ? -1 : 1
        withExtendedLifetime(g) {
            for i in 0..<w {
                let m = m0[i]
                sum[i] = inverted ? cellArea - m : m
                x[i] = sign * (mx[i] - centre * m)
                y[i] = sign * (my[i] - centre * m)
            }
        }
    }

    /// Where a cell of spacing s starts in its parent's interpolation cell (the same across and
    /// down): for an even index and an odd one.
    static func startInParent(spacing s: Int) -> (even: Float, odd: Float) {
        let s = Float(s)
        return ((1 + 2 * s) / (4 * s), 1 / (4 * s))
    }

    /// `startInParent` for each column of level k's moments (k ≥ 1): `nextCells`' t0, the same for
    /// every row.
    static func parentWeights(_ c: CoarseCascade, level k: Int) -> [Float] {
        let (even, odd) = startInParent(spacing: c.levels[k].spacing)
        return (c.moments[k].x..<c.moments[k].maxX).map { $0 & 1 == 0 ? even : odd }
    }

    /// Level k's cells (k ≥ 1) of moment row `row` (0-based): h is the mask times the parent's
    /// blurred grid read back bilinearly, over the parent's interpolation cell each cell lies in.
    /// `columns`: `parentWeights(c, level: k)`; `scratch`: four rows of the moments' width.
    static func nextCells(_ c: CoarseCascade, level k: Int, row: Int, parent: Grid, inverted: Bool,
                          columns t: UnsafePointer<Float>, scratch: UnsafeMutablePointer<Float>, into cells: Cells) {
        typealias M = CoarseCascade.Moment
        let area = c.moments[k], w = area.width, s = c.levels[k].spacing
        let sFloat = Float(s), cellArea = Float(s * s), centre = Float(s - 1) / 2
        // Σ dx over a cell's dx = 0 ..< s, and Σ dx² over a row of it divided by s.
        let half = sFloat * Float(s - 1) / 2, square = Float((s - 1) * (2 * s - 1)) / 6
        let p = 1 / Float(2 * s), p2 = p * p
        // Where the row's cells start in their parents' interpolation cells, down (across: `columns`).
        let (even, odd) = startInParent(spacing: s)
        let g = c.grids[k]
        let (m0, mx, my, mxy) = (UnsafePointer(g[M.m.rawValue].base), UnsafePointer(g[M.x.rawValue].base),
                                 UnsafePointer(g[M.y.rawValue].base), UnsafePointer(g[M.xy.rawValue].base))
        let up0 = UnsafePointer(parent.base), parentArea = parent.area
        let (sums, xOuts, yOuts) = (cells.sum, cells.x, cells.y)
        withExtendedLifetime(g) {
            let j = area.y + row
            let pj = floorDiv(j - 1, 2), v0 = j & 1 == 0 ? even : odd
            let up = up0 + (pj - parentArea.y) * parentArea.width - parentArea.x, down = up + parentArea.width
            // Each cell's four parent values laid out along the row, so that the loop below reads
            // only consecutive values (and vectorizes).
            let u0 = scratch, u1 = u0 + w, d0 = u1 + w, d1 = d0 + w
            @inline(__always) func gather(_ c: Int) {
                let pi = (area.x + c - 1) >> 1 // ⌊·/2⌋, negatives too
                u0[c] = up[pi]; u1[c] = up[pi + 1]; d0[c] = down[pi]; d1[c] = down[pi + 1]
            }
            // Cells come in pairs with the same parents: sixteen cells from eight
            // parents at a time, each stored twice (a first cell whose pair began
            // before the row, alone).
            var c = 0
            if w > 0, area.x & 1 == 0 { gather(0); c = 1 }
            while c + 16 <= w {
                let pi = (area.x + c - 1) >> 1
                let a = mercurial_load8(up + pi), b = mercurial_load8(up + pi + 1)
                let e = mercurial_load8(down + pi), f = mercurial_load8(down + pi + 1)
                mercurial_store_interleaved8(u0 + c, a, a)
                mercurial_store_interleaved8(u1 + c, b, b)
                mercurial_store_interleaved8(d0 + c, e, e)
                mercurial_store_interleaved8(d1 + c, f, f)
                c += 16
            }
            while c < w { gather(c); c += 1 }
            let line = row * w
            let (zs, xs, ys, xys) = (m0 + line, mx + line, my + line, mxy + line)
            for c in 0..<w {
                var z = zs[c], zx = xs[c], zy = ys[c], zxy = xys[c]
                if inverted {
                    z = cellArea - z; zx = sFloat * half - zx; zy = sFloat * half - zy; zxy = half * half - zxy
                }
                // The field over the cell from its first pixel: f + fx·dx + fy·dy + fxy·dx·dy.
                let c00 = u0[c], t0 = t[c]
                let db = u1[c] - c00, dc = d0[c] - c00, dd = d1[c] - u1[c] - dc
                let f = c00 + t0 * db + v0 * (dc + t0 * dd)
                let fx = (db + v0 * dd) * p, fy = (dc + t0 * dd) * p, fxy = dd * p2
                // Σm·dx² and Σm·dy² as if the cell's mask were spread evenly along its rows
                // and columns (exact where it is): only the field's slope weighs them.
                let h = f * z + fx * zx + fy * zy + fxy * zxy
                let hx = f * zx + fx * square * z + fy * zxy + fxy * square * zy
                let hy = f * zy + fx * zxy + fy * square * z + fxy * square * zx
                // No mask in the cell: nothing (+0, whatever the parent's values).
                sums[c] = z == 0 ? 0 : h
                xOuts[c] = z == 0 ? 0 : hx - centre * h
                yOuts[c] = z == 0 ? 0 : hy - centre * h
            }
        }
    }

    /// The blocks (`FarBlocks`) wholly inside the last level's cells whose mask is all 0: a cell's
    /// Σm is 0 only then (its values are never negative).
    static func farBlocks(_ c: CoarseCascade) -> FarBlocks {
        let cells = c.moments.last!, grid = c.grids.last![CoarseCascade.Moment.m.rawValue]
        let per = FarBlocks.cells, size = per * c.levels.last!.spacing
        let bx0 = floorDiv(cells.x + per - 1, per), by0 = floorDiv(cells.y + per - 1, per)
        let area = IntRect(x: bx0, y: by0, width: max(0, floorDiv(cells.maxX, per) - bx0),
                           height: max(0, floorDiv(cells.maxY, per) - by0))
        let w = area.width, h = area.height
        guard w > 0, h > 0 else { return FarBlocks(size: size, area: area, distance: []) }
        // The distances with a border of 0 (the blocks outside), so that no pass checks its bounds.
        let pw = w + 2
        var padded = [UInt8](repeating: 0, count: pw * (h + 2))
        padded.withUnsafeMutableBufferPointer { buffer in
            let d = buffer.baseAddress! + pw + 1
            // A block is far where the bits of its cells' sums or-ed together are 0 (+0 each).
            withExtendedLifetime(grid) {
                let m0 = UnsafeRawPointer(grid.base + (by0 * per - cells.y) * cells.width + (bx0 * per - cells.x))
                    .assumingMemoryBound(to: UInt32.self)
                let bits = UnsafeMutablePointer<UInt32>.allocate(capacity: w)
                defer { bits.deallocate() }
                for by in 0..<h {
                    bits.initialize(repeating: 0, count: w)
                    for j in 0..<per {
                        let row = m0 + (by * per + j) * cells.width
                        for bx in 0..<w {
                            let c = row + bx * per
                            bits[bx] |= (c[0] | c[1]) | (c[2] | c[3])
                        }
                    }
                    for bx in 0..<w { d[by * pw + bx] = bits[bx] == 0 ? 255 : 0 }
                }
            }
            BlockDistances.chessboard(d, width: w, height: h)
        }
        let distance = [UInt8](unsafeUninitializedCapacity: w * h) { out, count in
            padded.withUnsafeBufferPointer { p in
                for y in 0..<h { (out.baseAddress! + y * w).update(from: p.baseAddress! + (y + 1) * pw + 1, count: w) }
            }
            count = w * h
        }
        return FarBlocks(size: size, area: area, distance: distance)
    }

    /// `grid` blurred by the one-sided `weights`, over `area` (grid covers area ± taps).
    static func blur(_ grid: Grid, to area: IntRect, weights: [Float], forEach: ForEach) -> Grid {
        let src = UnsafePointer(grid.base), gw = grid.area.width
        let across = Grid.Storage(floats: grid.area.height * area.width, from: .heap)
        return withExtendedLifetime((grid, across)) {
            blur(grid.area, to: area, weights: weights, across: across.base, forEach: forEach) { band, each in
                for j in band { each(j, src + j * gw) }
            }
        }
    }

    /// The values over `cells` blurred by the one-sided `weights`, over `area` (cells covers area ±
    /// taps): `rows(band, each)` calls each(j, row j) for every row j of `cells` (0-based) in
    /// `band`, bands of `band` rows on the pool's threads. `across` (cells.height × area.width
    /// floats) holds the pass across. Each pass writes +0 with no taps added over every stretch of
    /// `skipSpan` values whose taps read only zeros (an inner side's cells away from the shapes).
    static func blur(_ cells: IntRect, to area: IntRect, weights: [Float], across mid: UnsafeMutablePointer<Float>,
                     forEach: ForEach, band: Int = 1,
                     rows: (Range<Int>, (Int, UnsafePointer<Float>) -> Void) -> Void) -> Grid {
        let t = weights.count - 1, count = cells.height, w = area.width, cw = cells.width
        // live[j]: per stretch of row j of the pass across, a bit set where it may hold a value ≠ 0.
        let spans = (w + skipSpan - 1) / skipSpan, words = (spans + 63) / 64
        let live = UnsafeMutablePointer<UInt64>.allocate(capacity: max(count * words, 1))
        live.initialize(repeating: 0, count: max(count * words, 1))
        defer { live.deallocate() }
        let offset = area.x - cells.x
        withoutActuallyEscaping(rows) { rows in
            forEach((count + band - 1) / band) { b in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: cw + 1) { before in
                    rows(b * band..<min(count, (b + 1) * band)) { j, whole in
                        // before[i]: how many of the row's first i values are not 0.
                        var n: Int32 = 0
                        for i in 0..<cw {
                            before[i] = n
                            n &+= whole[i] == 0 ? 0 : 1
                        }
                        before[cw] = n
                        let into = mid + j * w, bits = live + j * words
                        guard n > 0 else { return into.initialize(repeating: 0, count: w) }
                        runs(spans, width: w, bits: bits, into: into, zero: { first, end in
                            before[min(cw, offset + end + t)] == before[max(0, offset + first - t)]
                        }) { first, end in
                            taps(whole + offset + first, stride: 1, weights: weights, into: into + first, count: end - first)
                        }
                    }
                }
            }
        }
        let out = Grid(area)
        let dst = out.base
        forEach(area.height) { r in
            let row = area.y + r - cells.y, into = dst + r * w
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: max(words, 1)) { reach in
                // A stretch is live below where it is live in any row in reach.
                reach.initialize(repeating: 0)
                for j in row - t...row + t {
                    for k in 0..<words { reach[k] |= live[j * words + k] }
                }
                runs(spans, width: w, bits: nil, into: into, zero: { first, _ in
                    let s = first / skipSpan
                    return reach[s >> 6] & (1 << UInt64(s & 63)) == 0
                }) { first, end in
                    taps(mid + row * w + first, stride: w, weights: weights, into: into + first, count: end - first)
                }
            }
        }
        return out
    }

    /// Values a pass of `blur` skips or makes together.
    static let skipSpan = 32

    /// Over `width` values in `spans` stretches of `skipSpan`: +0 into the stretches `zero(first,
    /// end)` says read only zeros, `make(first, end)` over each run of the others (whose bits are
    /// set in `bits`, if given).
    @inline(__always)
    static func runs(_ spans: Int, width w: Int, bits: UnsafeMutablePointer<UInt64>?, into: UnsafeMutablePointer<Float>,
                     zero: (Int, Int) -> Bool, make: (Int, Int) -> Void) {
        var s = 0
        while s < spans {
            let first = s * skipSpan
            if zero(first, min(w, first + skipSpan)) {
                (into + first).initialize(repeating: 0, count: min(w, first + skipSpan) - first)
                s += 1
                continue
            }
            var e = s + 1
            while e < spans && !zero(e * skipSpan, min(w, (e + 1) * skipSpan)) { e += 1 }
            if let bits { for k in s..<e { bits[k >> 6] |= 1 << UInt64(k & 63) } }
            make(first, min(w, e * skipSpan))
            s = e
        }
    }

    /// dst[i] = Σ_k w[|k|]·centre[i + k·stride] for i in 0..<count.
    @inline(__always)
    static func taps(_ centre: UnsafePointer<Float>, stride: Int, weights: [Float], into dst: UnsafeMutablePointer<Float>,
                     count: Int) {
        weights.withUnsafeBufferPointer { SymmetricTaps.along(centre, stride: stride, weights: $0, into: dst, count: count) }
    }

    /// Window row y of `seed`: mask[x] × the field, into `into` (the window's width of values).
    /// `mask` is sanitized; where it is 0 the seed is +0. `scratch`: seed.scratchCount floats.
    static func seedRow(_ seed: CoarseCascade.Seed, _ y: Int, mask: UnsafePointer<Float>, into: UnsafeMutablePointer<Float>,
                        scratch: UnsafeMutablePointer<Float>) {
        guard seed.window.width > 0 else { return }
        field(seed, y, from: 0, to: seed.window.width, into: into, scratch: scratch)
        // (A select, not a branch.)
        for x in 0..<seed.window.width { into[x] = mask[x] == 0 ? 0 : mask[x] * into[x] }
    }

    /// Window row y of `seed`'s grid read back bilinearly, over window columns a ..< b (a < b), into
    /// the same columns of `into`; `scratch`: seed.scratchCount floats. Each pixel's value is the
    /// same whatever the range.
    @inline(__always)
    static func field(_ seed: CoarseCascade.Seed, _ y: Int, from a: Int, to b: Int, into: UnsafeMutablePointer<Float>,
                      scratch: UnsafeMutablePointer<Float>) {
        let (grid, spacing, window, cell, weight) = (seed.grid, seed.spacing, seed.window, seed.cell, seed.weight)
        let (j, v) = CoarseCascade.Seed.position(window.y + y, spacing: spacing)
        let w = grid.area.width
        cell.withUnsafeBufferPointer { cells in
            // Only the cells these columns read (a region's grid is wider than a block's window).
            withExtendedLifetime(grid) {
                let top = UnsafePointer(grid.base) + (j - grid.area.y) * w, bottom = top + w
                for i in cells[a]...(cells[b - 1] + 1) { scratch[i] = top[i] + v * (bottom[i] - top[i]) }
            }
            weight.withUnsafeBufferPointer { weights in
                @inline(__always) func field(_ x: Int) -> Float {
                    let i = cells[x], t = weights[x]
                    return scratch[i] + t * (scratch[i + 1] - scratch[i])
                }
                if spacing == 3 {
                    // Spacing 3: pixel 3q lies ⅔ of the way from cell q − 1 to q, the next on q, the
                    // one after ⅓ of the way from q to q + 1 (the weights `field` reads, the same
                    // arithmetic): twenty-four pixels from eight cells at a time, stored as three
                    // interleaved streams (as a normal map's R, G and B). (Leading pixels alone, to
                    // the first 3q.)
                    var x = a
                    while x < b && ((window.x + x) % 3 + 3) % 3 != 0 { into[x] = field(x); x += 1 }
                    let twoThirds = SIMD8<Float>(repeating: Float(4) / Float(6)), zero = SIMD8<Float>()
                    let third = SIMD8<Float>(repeating: Float(2) / Float(6))
                    while x + 24 <= b {
                        let p = mercurial_load8(scratch + cells[x]), q = mercurial_load8(scratch + cells[x] + 1)
                        let r = mercurial_load8(scratch + cells[x] + 2)
                        mercurial_store_rgb8(into + x, p + twoThirds * (q - p), q + zero * (r - q), q + third * (r - q))
                        x += 24
                    }
                    while x < b { into[x] = field(x); x += 1 }
                    return
                }
                guard spacing == 2 else {
                    for x in a..<b { into[x] = field(x) }
                    return
                }
                // Spacing 2: an even pixel 2q lies ¾ of the way from cell q − 1 to q, the odd one after
                // it ¼ of the way from q to q + 1 (the same weights `field` reads): sixteen pixels
                // from eight cells at a time. (An odd first pixel alone, then pairs.)
                var x = a
                if (window.x + x) & 1 == 1 { into[x] = field(x); x += 1 }
                let quarter = SIMD8<Float>(repeating: 0.25), threeQuarters = SIMD8<Float>(repeating: 0.75)
                while x + 16 <= b {
                    let p = mercurial_load8(scratch + cells[x]), q = mercurial_load8(scratch + cells[x] + 1)
                    let r = mercurial_load8(scratch + cells[x] + 2)
                    mercurial_store_interleaved8(into + x, p + threeQuarters * (q - p), q + quarter * (r - q))
                    x += 16
                }
                while x < b { into[x] = field(x); x += 1 }
            }
        }
    }
}
