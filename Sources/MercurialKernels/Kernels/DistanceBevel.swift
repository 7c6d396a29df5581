#if MERCURIAL_KERNELS_V3
import MercurialKernels // the one set of kernel types; this copy of the loops is built for x86-64-v3
#endif
import CVector
import Glibc

// Distance-based bevels.
//
// The edge is the 0.5 iso-line of the mask. Where two 4-neighbouring pixels lie on opposite sides
// (one ≥ 0.5, the other < 0.5) the edge crosses the segment between their centres; linear
// interpolation of their mask values places the crossing with sub-pixel accuracy, so an
// anti-aliased edge moves smoothly as its coverage changes. d(p) is the exact Euclidean distance
// from an inside pixel's centre to the nearest crossing.
//
// Finding it, exactly and at a cost per pixel that does not grow with the radius: the crossings on
// horizontal segments lie on pixel rows. Along each row, the squared distance from a pixel centre
// to the row's nearest crossing is exact from the nearest crossing on either side; the distance to
// any crossing of any row is then the lower envelope over rows of those values plus (Δy)²
// (Felzenszwalb–Huttenlocher, down each column). The crossings on vertical segments likewise, with
// rows and columns swapped; d² is the smaller of the two.

enum DistanceBevel {
    static func compute(mask: Plane, radius: Float, profile: BevelProfile, halo: Int) -> Plane {
        sides(mask: mask, radius: radius, profile: profile, halo: halo, inside: true, outside: false).inner
    }

    /// Both sides of the edge from one distance transform: `inner` (when asked) rises inside the
    /// mask (m ≥ 0.5) from the edge, as `compute`; `outer` (when asked) rises outside it (m < 0.5)
    /// from the same edge — the height field of the inverted mask, measured to the same crossings.
    /// At least one side is asked for; a side not asked for is empty (0 × 0).
    static func sides(mask: Plane, radius: Float, profile: BevelProfile, halo: Int,
                      inside: Bool, outside: Bool) -> (inner: Plane, outer: Plane) {
        precondition(inside || outside)
        let w = mask.width, h = mask.height, ow = w - 2 * halo, oh = h - 2 * halo
        let limit = radius + 1 // beyond, d > R: the top of the bevel
        // The squared distances become the first side asked for, in place; a second side gets a
        // plane of its own. (Every pixel of a side asked for is written below.) The inside alone
        // needs them only as far as its pixels lie from the edge (`insideReach`): worth finding
        // where the reach is beyond the direct minimum's.
        var squared = mask.pixels.withUnsafeBufferPointer { m in
            let reach = Int(limit.rounded(.up))
            guard !outside, reach > directReach, let within = insideReach(m.baseAddress!, width: w, height: h, inset: halo),
                  within < reach, within < halo else {
                return crossingDistances(m.baseAddress!, width: w, height: h, reach: reach, inset: halo)
            }
            // Every crossing within `within` of the output lies in the output grown by a pixel more.
            // (The envelopes even within the direct minimum's reach: in so narrow a window few
            // points lie in reach of a crossing, and their cost follows those points.)
            let inset = within + 1, from = halo - inset
            let window = mask.cropped(x: from, y: from, width: ow + 2 * inset, height: oh + 2 * inset)
            return window.pixels.withUnsafeBufferPointer {
                crossingDistances($0.baseAddress!, width: window.width, height: window.height, reach: within, inset: inset,
                                  directReach: 0)
            }
        }
        var second = Plane.unfilled(width: inside && outside ? ow : 0, height: inside && outside ? oh : 0)
        mask.pixels.withUnsafeBufferPointer { mb in
            let m = mb.baseAddress!
            squared.withUnsafeMutableBufferPointer { sq in
                second.pixels.withUnsafeMutableBufferPointer { sb in
                    let ib = sq.baseAddress!, ob = inside ? sb.baseAddress! : sq.baseAddress!
                    let limit2 = limit * limit
                    for y in halo..<(h - halo) {
                        let d2 = sq.baseAddress! + (y - halo) * ow, mask = m + y * w + halo, o = (y - halo) * ow
                        // Sixteen pixels at a time, as vectors (the same arithmetic as `height`'s),
                        // then the row's last ones.
                        var x = 0
                        while x + 16 <= ow {
                            let d = UnsafeRawPointer(d2 + x).loadUnaligned(as: SIMD16<Float>.self)
                            var t = mercurial_div16(mercurial_sqrt16(d), SIMD16(repeating: radius))
                            t.replace(with: 1, where: t .> 1)
                            t.replace(with: 1, where: .!(d .<= limit2))
                            var height = t
                            switch profile {
                            case .round: let u = 1 - t; height = mercurial_sqrt16(1 - u * u)
                            case .smooth: height = t * t * (3 - 2 * t)
                            case .linear, .coreImage: break
                            }
                            let isInside = UnsafeRawPointer(mask + x).loadUnaligned(as: SIMD16<Float>.self) .>= 0.5
                            if inside {
                                UnsafeMutableRawPointer(ib + o + x).storeBytes(
                                    of: SIMD16<Float>().replacing(with: height, where: isInside), as: SIMD16<Float>.self)
                            }
                            if outside {
                                UnsafeMutableRawPointer(ob + o + x).storeBytes(
                                    of: height.replacing(with: 0, where: isInside), as: SIMD16<Float>.self)
                            }
                            x += 16
                        }
                        for x in x..<ow {
                            let isInside = mask[x] >= 0.5, value = height(d2[x], limit2: limit2)
                            if inside { ib[o + x] = isInside ? value : 0 }
                            if outside { ob[o + x] = isInside ? 0 : value }
                        }
                    }
                    @inline(__always) func height(_ d2: Float, limit2: Float) -> Float {
                        d2 <= limit2 ? shape(min(d2.squareRoot() / radius, 1), profile) : 1
                    }
                }
            }
        }
        let first = Plane(width: ow, height: oh, pixels: squared), empty = Plane(width: 0, height: 0)
        return inside ? (first, outside ? second : empty) : (empty, first)
    }

    /// Side of the blocks `insideReach` sorts the pixels into, and how far around the output it
    /// looks for outside pixels.
    static let reachBlock = 8, reachMargin = 64

    /// A reach within which every inside pixel (m ≥ 0.5) of the output (the window less `inset` on
    /// every side) has its nearest crossing, with a pixel to spare; nil when no outside pixel lies
    /// within `reachMargin` of the output, or more than 254 blocks away. The output and that margin
    /// are cut into blocks of `reachBlock`; an inside pixel k blocks (across or down, the larger)
    /// from a block with an outside pixel o lies at most b(k + 1) − 1 pixels from o each way, and
    /// the path along its row and then o's column crosses the edge within |p − o| of it.
    static func insideReach(_ m: UnsafePointer<Float>, width w: Int, height h: Int, inset: Int) -> Int? {
        let b = reachBlock, margin = min(inset, reachMargin) / b * b, first = inset - margin
        let sw = w - 2 * first, sh = h - 2 * first, bw = (sw + b - 1) / b, bh = (sh + b - 1) / b
        guard sw > 2 * margin, sh > 2 * margin else { return nil }
        // 0 for a block with an outside pixel (the border beyond the margin: none), then each
        // block's distance to the nearest such block.
        var distance = [UInt8](repeating: 255, count: (bw + 2) * (bh + 2))
        let k = distance.withUnsafeMutableBufferPointer { grid -> UInt8 in
            let d = grid.baseAddress! + bw + 3
            for y in 0..<sh {
                let row = m + (first + y) * w + first, blocks = d + (y / b) * (bw + 2)
                for bx in 0..<bw {
                    let x0 = bx * b
                    let inside = x0 + b <= sw ? mercurial_all_at_least8(mercurial_load8(row + x0), 0.5) != 0
                                              : (x0..<sw).allSatisfy { row[$0] >= 0.5 }
                    if !inside { blocks[bx] = 0 }
                }
            }
            BlockDistances.chessboard(d, width: bw, height: bh)
            // The farthest of the blocks that hold output pixels.
            var k: UInt8 = 0
            for by in margin / b..<(sh - margin + b - 1) / b {
                for bx in margin / b..<(sw - margin + b - 1) / b { k = max(k, d[by * (bw + 2) + bx]) }
            }
            return k
        }
        guard k < 255 else { return nil }
        let farthest = (2.0).squareRoot() * Double(b * (Int(k) + 1) - 1)
        return Int(farthest.rounded(.up)) + 1
    }

    /// For each pixel of row y, where the edge crosses the segment to its right neighbour (or the
    /// one below): t in [0, 1] from this pixel's centre, or -1 for no crossing (and on the last
    /// column or row). Made a row at a time, as the passes below need them.
    static func crossings(_ m: UnsafePointer<Float>, width w: Int, height h: Int, row y: Int, right: Bool,
                          into t: UnsafeMutablePointer<Float>) {
        let here = m + y * w, next = right ? here + 1 : here + w
        // The pixels with a neighbour that way: all but the last (right), or all but on the last
        // row (below).
        let pairs = right ? w - 1 : (y + 1 < h ? w : 0)
        // Eight pairs at a time where none crosses (most of a mask), without the division.
        var x = 0
        while x + 8 <= pairs {
            if mercurial_any_across8(mercurial_load8(here + x), mercurial_load8(next + x), 0.5) != 0 {
                for x in x..<(x + 8) { t[x] = crossing(here[x], next[x]) }
            } else {
                (t + x).update(repeating: -1, count: 8)
            }
            x += 8
        }
        for x in x..<pairs { t[x] = crossing(here[x], next[x]) }
        for x in pairs..<w { t[x] = -1 }
    }

    /// Where the edge crosses the segment from a pixel of mask value a to its neighbour of value b:
    /// t in [0, 1] from the first's centre, or -1 where both lie on one side.
    @inline(__always)
    static func crossing(_ a: Float, _ b: Float) -> Float {
        (a >= 0.5) != (b >= 0.5) ? (a - 0.5) / (a - b) : -1
    }

    /// Calls `take` with each segment of row y that the edge crosses (to the right neighbour, or
    /// the one below), in order, and its t as `crossings` makes it, while `take` returns true;
    /// whether it always did. Eight pairs at a time where none crosses, with no row of t made (the
    /// lists' pass; the sweeps keep whole rows of t, which `crossings` makes).
    @inline(__always)
    static func forEachCrossing(_ m: UnsafePointer<Float>, width w: Int, height h: Int, row y: Int, right: Bool,
                                _ take: (Int, Float) -> Bool) -> Bool {
        let here = m + y * w, next = right ? here + 1 : here + w
        let pairs = right ? w - 1 : (y + 1 < h ? w : 0)
        // (t ≥ 0 as `forEachCrossing` over a row of t asks: -1 and a NaN t are no crossing.)
        @inline(__always) func visit(_ x: Int) -> Bool {
            let t = crossing(here[x], next[x])
            return !(t >= 0) || take(x, t)
        }
        var x = 0
        while x + 8 <= pairs {
            if mercurial_any_across8(mercurial_load8(here + x), mercurial_load8(next + x), 0.5) != 0 {
                for x in x..<(x + 8) where !visit(x) { return false }
            }
            x += 8
        }
        for x in x..<pairs where !visit(x) { return false }
        return true
    }

    @inline(__always)
    static func shape(_ t: Float, _ profile: BevelProfile) -> Float {
        switch profile {
        case .round: let u = 1 - t; return (1 - u * u).squareRoot()
        case .linear: return t
        case .smooth: return t * t * (3 - 2 * t)
        case .coreImage: return t
        }
    }

    /// Squared Euclidean distance from the centre of every pixel at least `inset` from each side of
    /// mask `m` (the output: rows of w − 2·inset, h − 2·inset of them) to the nearest crossing
    /// anywhere in `m`: exact where it is at most `reach`² (all the bevel asks), and some value
    /// above `reach`² (∞ if none) elsewhere. Every pass reads and writes whole rows: a column's work
    /// is done on rows of all columns at once, or on a few columns copied out side by side. Each
    /// keeps only what the output reads: the distances along rows in its columns, down columns in
    /// its rows.
    static func crossingDistances(_ m: UnsafePointer<Float>, width w: Int, height h: Int, reach: Int,
                                  inset: Int, directReach: Int = directReach,
                                  crossingsPerLine: Int = listedCrossingsPerLine) -> [Float] {
        // Within a small reach, each point's minimum over the points in reach costs less than the
        // envelope (and gives the same values), and needs only the rows in reach of a band.
        if reach <= directReach && inset >= reach {
            return nearestInBands(m, width: w, height: h, reach: reach, inset: inset)
        }
        // Beyond, the envelopes take their lines from lists of the crossings when the window has
        // few enough of them (0 per line: always the planes below).
        if crossingsPerLine > 0,
           let distances = fromCrossingLists(m, width: w, height: h, reach: reach, inset: inset, perLine: crossingsPerLine) {
            return distances
        }
        let ow = w - 2 * inset, oh = h - 2 * inset, columns = inset..<(w - inset), rows = inset..<(h - inset)
        // The distances along the lines, one direction then the other; two rows of crossings.
        let lines = LargeBuffer(floats: max(ow * h, w * oh), from: .mapping), f = lines.base
        let t = UnsafeMutablePointer<Float>.allocate(capacity: 2 * w)
        let scratch = EnvelopeScratch(length: max(w, h))
        defer { withExtendedLifetime(lines) {}; t.deallocate(); scratch.deallocate() }
        t.initialize(repeating: -1, count: 2 * w) // no row is read before it is made; defined all the same
        return LargeBuffer.floats(ow * oh) { o, count in
            // Horizontal segments: along every row (kept in the output's columns), then the envelope
            // down each of those columns (which writes every output pixel).
            alongRows(m, width: w, height: h, reach: reach, columns: columns, crossings: t, into: f)
            envelopeDownColumns(f, width: ow, height: h, reach: reach, rows: rows, scratch: scratch, into: o.baseAddress!)
            // Vertical segments: down every column (kept in the output's rows), then the envelope
            // along each of those rows.
            alongColumns(m, width: w, height: h, reach: reach, rows: rows, crossings: t, into: f)
            for y in 0..<oh {
                envelope(f + y * w, length: w, reach: reach, points: columns, scratch: scratch, into: o.baseAddress! + y * ow)
            }
            count = ow * oh
        }
    }

    /// The largest reach at which `nearestInBands` replaces the envelopes.
    static let directReach = 24
    /// Output rows `nearestInBands` makes at a time.
    static let bandRows = 32

    /// `crossingDistances` within a small reach (`inset` ≥ `reach`), directly: each point's minimum
    /// over the points within `reach` of it, down its column and along its row, in bands of output
    /// rows. Only the rows in reach of a band are kept (a ring of distances along rows, the band's
    /// distances to the next crossing below), so the work stays in the cache. Within `reach` the
    /// values are the envelopes', bit for bit; beyond, some value above reach², as theirs. A band's
    /// chunks of columns (`Chunks.width`) with no crossing in reach are left at ∞, their minima unmade.
    static func nearestInBands(_ m: UnsafePointer<Float>, width w: Int, height h: Int, reach: Int,
                               inset: Int) -> [Float] {
        let ow = w - 2 * inset, oh = h - 2 * inset, columns = inset..<(w - inset), rows = inset..<(h - inset)
        let ringRows = 2 * reach + 1, band = bandRows, reachD = Double(reach)
        // Rows along rows (ring slot r mod ringRows); the band's squared distances to the next
        // crossing below; one row of the nearer of both ways down; three rows of crossings (the
        // down sweep's two, and one for the other passes); each column's last and next crossing.
        let ring = UnsafeMutablePointer<Float>.allocate(capacity: ringRows * ow)
        let below = UnsafeMutablePointer<Float>.allocate(capacity: band * w)
        let both = UnsafeMutablePointer<Float>.allocate(capacity: w)
        let t = UnsafeMutablePointer<Float>.allocate(capacity: 3 * w), other = t + 2 * w
        let last = UnsafeMutablePointer<Double>.allocate(capacity: w), next = UnsafeMutablePointer<Double>.allocate(capacity: w)
        defer { ring.deallocate(); below.deallocate(); both.deallocate(); t.deallocate(); last.deallocate(); next.deallocate() }
        t.initialize(repeating: -1, count: 3 * w)
        last.initialize(repeating: -.infinity, count: w)
        @inline(__always) func along(_ r: Int) -> UnsafeMutablePointer<Float> { ring + (r % ringRows) * ow }
        // Each row's chunks holding a pixel inside the edge, and those holding one outside; a band's
        // chunks in reach of both (`active`; `spare`, `inside`, `outside`: the band's rows or'd).
        let words = Chunks.words(w), sides = EdgeChunks(m, width: w, height: h, words: words)
        let bits = UnsafeMutablePointer<UInt64>.allocate(capacity: 4 * words)
        let active = bits, spare = bits + words, inside = bits + 2 * words, outside = bits + 3 * words
        defer { sides.deallocate(); bits.deallocate() }
        // A crossing within `reach` of a point lies between two pixels within reach + 1 of it, each way.
        let spread = (reach + 1 + Chunks.width - 1) / Chunks.width
        // The next row to make along rows, and the down sweep's. A crossing above the sweep's first
        // row lies more than `reach` above every output row: the sweep starts with none.
        var made = rows.lowerBound - reach, p = max(0, rows.lowerBound - reach - 1)
        let first = p
        return LargeBuffer.floats(ow * oh) { o, count in
            let out = o.baseAddress!
            for y0 in Swift.stride(from: rows.lowerBound, to: rows.upperBound, by: band) {
                let y1 = min(y0 + band, rows.upperBound)
                inside.update(repeating: 0, count: words)
                outside.update(repeating: 0, count: words)
                for r in max(0, y0 - reach - 1)..<min(h, y1 + reach + 1) {
                    for i in 0..<words {
                        inside[i] |= sides.inside[r * words + i]
                        outside[i] |= sides.outside[r * words + i]
                    }
                }
                Chunks.dilate(inside, words: words, by: spread, into: active)
                Chunks.dilate(outside, words: words, by: spread, into: spare)
                var anyActive = false
                for i in 0..<words {
                    active[i] &= spare[i]
                    anyActive = anyActive || active[i] != 0
                }
                // Horizontal segments: each output row is the minimum over the rows in reach.
                for y in y0..<y1 {
                    while made <= y + reach {
                        alongRows(m + made * w, width: w, height: 1, reach: reach, columns: columns, crossings: other,
                                  into: along(made))
                        made += 1
                    }
                    let row = out + (y - inset) * ow
                    var done = 0
                    Chunks.forEachRun(active, words: words, from: columns.lowerBound, to: columns.upperBound) { a, b in
                        let o = a - inset, n = b - a
                        (row + done).update(repeating: .infinity, count: o - done)
                        (row + o).update(from: along(y) + o, count: n)
                        for k in Swift.stride(from: 1, through: reach, by: 1) {
                            lower(row + o, toNearer: along(y - k) + o, along(y + k) + o, plus: Float(k * k), count: n)
                        }
                        done = o + n
                    }
                    (row + done).update(repeating: .infinity, count: ow - done)
                }
                // Vertical segments: the next crossing below each of the band's points, from the
                // rows in reach below it (one further is more than `reach` away); kept for the
                // points in reach of an active chunk.
                if anyActive {
                    next.update(repeating: .infinity, count: w)
                    for q in Swift.stride(from: min(h - 1, y1 - 1 + reach), through: y0, by: -1) {
                        crossings(m, width: w, height: h, row: q, right: false, into: other)
                        sweepUp(next, row: other, here: q, count: w)
                        guard q < y1 else { continue }
                        let d2 = below + (q - y0) * w, here = Double(q)
                        Chunks.forEachRun(active, words: words, from: columns.lowerBound, to: columns.upperBound) { a, b in
                            for x in (a - reach)..<(b + reach) { d2[x] = squared(next[x] - here, within: reachD) }
                        }
                    }
                }
                // Then the last crossing above, down to the band's last row (as `alongColumns`: every
                // column, as it carries on to the next band), the nearer of the two, and the minimum
                // over the points in reach along the row.
                while p < y1 {
                    let row = t + (p % 2) * w, above = t + ((p + 1) % 2) * w
                    crossings(m, width: w, height: h, row: p, right: false, into: row)
                    sweepDown(last, row: row, above: p > first ? above : nil, here: p, count: w)
                    if p >= y0 {
                        let d2 = below + (p - y0) * w, here = Double(p), row = out + (p - inset) * ow
                        Chunks.forEachRun(active, words: words, from: columns.lowerBound, to: columns.upperBound) { a, b in
                            for x in (a - reach)..<(b + reach) { both[x] = min(squared(here - last[x], within: reachD), d2[x]) }
                            nearestAlongRow(both, reach: reach, points: a..<b, into: row + (a - inset))
                        }
                    }
                    p += 1
                }
            }
            count = ow * oh
        }
    }

    /// Per row of a mask, bitmaps of its chunks of `Chunks.width` columns (`words` words a row):
    /// those holding a pixel inside the edge (m ≥ 0.5), and those holding one outside.
    struct EdgeChunks {
        let inside: UnsafeMutablePointer<UInt64>, outside: UnsafeMutablePointer<UInt64>

        init(_ m: UnsafePointer<Float>, width w: Int, height h: Int, words: Int) {
            inside = .allocate(capacity: 2 * h * words)
            outside = inside + h * words
            for y in 0..<h {
                let row = m + y * w
                var ins = Chunks.Writer(inside + y * words), outs = Chunks.Writer(outside + y * words)
                var x = 0
                while x + Chunks.width <= w { // (a chunk is one mercurial_float8)
                    let v = mercurial_load8(row + x)
                    ins.append(mercurial_any_at_least8(v, 0.5) != 0)
                    outs.append(mercurial_all_at_least8(v, 0.5) == 0)
                    x += Chunks.width
                }
                if x < w {
                    ins.append((x..<w).contains { row[$0] >= 0.5 })
                    outs.append((x..<w).contains { !(row[$0] >= 0.5) })
                }
                ins.finish()
                outs.finish()
            }
        }

        func deallocate() { inside.deallocate() }
    }

    /// `envelope` along one line within a small reach, directly (f: at least `reach` points around
    /// `points`), min'd into `out` (out[0] for the first point).
    static func nearestAlongRow(_ f: UnsafePointer<Float>, reach: Int, points: Range<Int>, into out: UnsafeMutablePointer<Float>) {
        let n = points.count, centre = f + points.lowerBound
        for x in 0..<n { out[x] = min(out[x], centre[x]) }
        for k in Swift.stride(from: 1, through: reach, by: 1) {
            lower(out, toNearer: centre - k, centre + k, plus: Float(k * k), count: n)
        }
    }

    /// out[x] = min(out[x], min(a[x], b[x]) + kk) for x in 0 ..< n: the points k away on either
    /// side, k² further.
    @inline(__always)
    static func lower(_ out: UnsafeMutablePointer<Float>, toNearer a: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
                      plus kk: Float, count n: Int) {
        for x in 0..<n { out[x] = min(out[x], min(a[x], b[x]) + kk) }
    }

    /// d², or ∞ beyond `reach`: a distance along a line as every pass keeps it.
    @inline(__always)
    static func squared(_ d: Double, within reach: Double) -> Float { d <= reach ? Float(d * d) : .infinity }

    /// Point x's squared distance to the nearer of a line's crossings on either side of it.
    @inline(__always)
    static func nearer(_ x: Double, last: Double, next: Double, within reach: Double) -> Float {
        min(squared(x - last, within: reach), squared(next - x, within: reach))
    }

    /// The down sweep's step onto row `here` of every column: each column's last crossing at or
    /// above it (`row`: the row's crossings t, `above`: the row before's, nil where not made).
    @inline(__always)
    static func sweepDown(_ last: UnsafeMutablePointer<Double>, row: UnsafePointer<Float>, above: UnsafePointer<Float>?,
                          here p: Int, count w: Int) {
        let here = Double(p), before = Double(p - 1)
        if let above {
            forEachColumnNearCrossing(row, above, count: w) { x in
                let c = above[x] >= 0 ? before + Double(above[x]) : last[x]
                last[x] = row[x] == 0 ? here : c
            }
        } else {
            forEachColumnNearCrossing(row, nil, count: w) { x in last[x] = row[x] == 0 ? here : last[x] }
        }
    }

    /// The up sweep's step onto row `here` of every column: each column's next crossing at or
    /// below it (`row`: the row's crossings t).
    @inline(__always)
    static func sweepUp(_ next: UnsafeMutablePointer<Double>, row: UnsafePointer<Float>, here p: Int, count w: Int) {
        let here = Double(p)
        forEachColumnNearCrossing(row, nil, count: w) { x in next[x] = row[x] >= 0 ? here + Double(row[x]) : next[x] }
    }

    /// Calls `step` with each column of `count`, but for the runs of eight in which neither row of
    /// crossings (`a`, and `b` when given) has one (t ≥ 0): a sweep leaves those as they are.
    @inline(__always)
    static func forEachColumnNearCrossing(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>?, count w: Int,
                                          _ step: (Int) -> Void) {
        var x = 0
        while x + 8 <= w {
            if mercurial_any_at_least8(mercurial_load8(a + x), 0) != 0
                || (b.map { mercurial_any_at_least8(mercurial_load8($0 + x), 0) != 0 } ?? false) {
                for x in x..<(x + 8) { step(x) }
            }
            x += 8
        }
        for x in x..<w { step(x) }
    }

    /// Calls `take` with each segment of a line of crossings `t` that has one (t ≥ 0), in order,
    /// while it returns true; whether it always did.
    @inline(__always)
    static func forEachCrossing(_ t: UnsafePointer<Float>, count n: Int, _ take: (Int) -> Bool) -> Bool {
        var x = 0
        while x < n {
            // Eight segments at a time where none has a crossing.
            if x + 8 <= n, !any(UnsafeRawPointer(t + x).loadUnaligned(as: SIMD8<Float>.self) .>= SIMD8<Float>()) {
                x += 8
                continue
            }
            if t[x] >= 0 && !take(x) { return false }
            x += 1
        }
        return true
    }

    /// Per point of each row of mask `m`: the squared distance to the row's nearest crossing (the
    /// crossing on segment p → p + 1 lies at p + t[p], t ≥ 0), ∞ beyond `reach`; kept for the
    /// points in `columns` (rows of columns.count). `crossings`: room for a row of t.
    static func alongRows(_ m: UnsafePointer<Float>, width w: Int, height h: Int, reach: Int, columns: Range<Int>,
                          crossings t: UnsafeMutablePointer<Float>, into f: UnsafeMutablePointer<Float>) {
        let reach = Double(reach), first = columns.lowerBound, end = columns.upperBound
        let reachV = SIMD8<Double>(repeating: reach), lanes = SIMD8<Double>(0, 1, 2, 3, 4, 5, 6, 7)
        for y in 0..<h {
            crossings(m, width: w, height: h, row: y, right: true, into: t)
            let f = f + y * columns.count - first
            // Crossings are few: between one crossing's segment q and the next one's, each point p
            // has both (q < p; the next at or after it), whichever side is nearer. (A crossing at t =
            // 0 lies on point p itself: its right-hand distance is 0 already.)
            var last = -Double.infinity, p = first
            @inline(__always) func fill(to stop: Int, next: Double) {
                // The points more than `reach` from both crossings are ∞ (a point to spare at each
                // end of them, against rounding); the others eight at a time (each lane as one point
                // below), then the rest.
                let far = last == -.infinity ? p : min(max(p, Int((last + reach).rounded(.down)) + 2), stop)
                let near = next == .infinity ? stop : max(min(stop, Int((next - reach).rounded(.up)) - 1), far)
                let lastV = SIMD8<Double>(repeating: last), nextV = SIMD8<Double>(repeating: next)
                @inline(__always) func nearest(to stop: Int) {
                    while p + 8 <= stop {
                        let x = SIMD8<Double>(repeating: Double(p)) + lanes, a = x - lastV, b = nextV - x
                        let fa = SIMD8<Float>((a * a).replacing(with: .infinity, where: .!(a .<= reachV)))
                        let fb = SIMD8<Float>((b * b).replacing(with: .infinity, where: .!(b .<= reachV)))
                        UnsafeMutableRawPointer(f + p).storeBytes(of: fa.replacing(with: fb, where: fb .< fa), as: SIMD8<Float>.self)
                        p += 8
                    }
                    while p < stop {
                        f[p] = nearer(Double(p), last: last, next: next, within: reach)
                        p += 1
                    }
                }
                nearest(to: far)
                (f + p).update(repeating: .infinity, count: near - p)
                p = near
                nearest(to: stop)
            }
            // (Once the row's last output point is made, the crossings after are not needed.)
            _ = forEachCrossing(t, count: w) { q in
                let crossing = Double(q) + Double(t[q])
                if q >= first { fill(to: min(q + 1, end), next: crossing) }
                last = crossing
                return p < end
            }
            fill(to: end, next: .infinity)
        }
    }

    /// `alongRows` down the columns (the crossing on segment p → p + 1 of a column at p + t[p]),
    /// every column at once, kept for the points in `rows` (rows of w): a row of each column's last
    /// (then next) crossing goes down (then up) the rows, with the arithmetic of `alongRows` (and no
    /// branch, so the rows are done in vectors). `crossings`: room for two rows of t.
    static func alongColumns(_ m: UnsafePointer<Float>, width w: Int, height h: Int, reach: Int, rows: Range<Int>,
                             crossings t: UnsafeMutablePointer<Float>, into f: UnsafeMutablePointer<Float>) {
        let reach = Double(reach)
        let crossing = UnsafeMutablePointer<Double>.allocate(capacity: w)
        defer { crossing.deallocate() }
        crossing.initialize(repeating: -.infinity, count: w)
        // Rows p − 1 and p of t, in turn in the two halves of `t`.
        for p in 0..<rows.upperBound {
            let row = t + (p % 2) * w, above = t + ((p + 1) % 2) * w
            crossings(m, width: w, height: h, row: p, right: false, into: row)
            sweepDown(crossing, row: row, above: p > 0 ? above : nil, here: p, count: w)
            guard p >= rows.lowerBound else { continue }
            let out = f + (p - rows.lowerBound) * w, here = Double(p)
            for x in 0..<w { out[x] = squared(here - crossing[x], within: reach) }
        }
        crossing.update(repeating: .infinity, count: w)
        for p in stride(from: h - 1, through: rows.lowerBound, by: -1) {
            crossings(m, width: w, height: h, row: p, right: false, into: t)
            sweepUp(crossing, row: t, here: p, count: w)
            guard p < rows.upperBound else { continue }
            let out = f + (p - rows.lowerBound) * w, here = Double(p)
            for x in 0..<w { out[x] = min(out[x], squared(crossing[x] - here, within: reach)) }
        }
    }

    /// Room for one line's lower envelope, and for `columns` columns copied out side by side:
    /// lines `lineStride` floats apart, a cache line more than their length, so that the columns
    /// of one row land in different cache sets.
    struct EnvelopeScratch {
        static let columns = 32
        /// The envelope's parabolas: their apexes, where each starts to be the lowest, each one's
        /// f(q) and f(q) + q².
        let v: UnsafeMutablePointer<Int>, z: UnsafeMutablePointer<Double>, g: UnsafeMutablePointer<Double>,
            hv: UnsafeMutablePointer<Double>
        let lines: UnsafeMutablePointer<Float>, results: UnsafeMutablePointer<Float>
        let lineStride: Int
        init(length n: Int) {
            v = .allocate(capacity: n)
            z = .allocate(capacity: n + 1)
            g = .allocate(capacity: n)
            hv = .allocate(capacity: n)
            lineStride = n + 16
            lines = .allocate(capacity: Self.columns * lineStride)
            results = .allocate(capacity: Self.columns * lineStride)
        }
        func deallocate() {
            v.deallocate(); z.deallocate(); g.deallocate(); hv.deallocate(); lines.deallocate(); results.deallocate()
        }
    }

    /// `envelope` down every column of f (rows of `w`), kept for the points in `rows` and written
    /// into `out` (rows of `w`, rows.count of them; ∞ where above reach²): a few columns at a time,
    /// copied out into lines of their own and back.
    static func envelopeDownColumns(_ f: UnsafePointer<Float>, width w: Int, height h: Int, reach: Int, rows: Range<Int>,
                                    scratch: EnvelopeScratch, into out: UnsafeMutablePointer<Float>) {
        let group = EnvelopeScratch.columns, stride = scratch.lineStride
        for x0 in Swift.stride(from: 0, to: w, by: group) {
            let n = min(group, w - x0)
            transpose(f + x0, rowStride: w, rows: h, columns: n, into: scratch.lines, rowStride: stride)
            for c in 0..<n {
                envelope(scratch.lines + c * stride, length: h, reach: reach, points: rows, scratch: scratch,
                         into: scratch.results + c * stride, replacing: true)
            }
            transpose(scratch.results, rowStride: stride, rows: n, columns: rows.count, into: out + x0, rowStride: w)
        }
    }

    /// dst[c·dstStride + r] = src[r·srcStride + c] for r in 0..<rows, c in 0..<columns: blocks of
    /// 8 × 8 as vectors (`mercurial_transpose8`), the edges one value at a time.
    static func transpose(_ src: UnsafePointer<Float>, rowStride srcStride: Int, rows: Int, columns: Int,
                          into dst: UnsafeMutablePointer<Float>, rowStride dstStride: Int) {
        let fullRows = rows & ~7, fullColumns = columns & ~7
        for r in Swift.stride(from: 0, to: fullRows, by: 8) {
            for c in Swift.stride(from: 0, to: fullColumns, by: 8) {
                mercurial_transpose8(src + r * srcStride + c, srcStride, dst + c * dstStride + r, dstStride)
            }
            for c in fullColumns..<columns {
                for i in 0..<8 { dst[c * dstStride + r + i] = src[(r + i) * srcStride + c] }
            }
        }
        for r in fullRows..<rows {
            for c in 0..<columns { dst[c * dstStride + r] = src[r * srcStride + c] }
        }
    }

    /// The lower envelope of the parabolas (p − q)² + f(q) over one line of `n` points, at the
    /// points in `points`: min'd into `out` (out[0] for the first of them) where it is at most
    /// `reach`² (written into it, `replacing`, with ∞ beyond).
    static func envelope(_ f: UnsafePointer<Float>, length n: Int, reach: Int, points: Range<Int>, scratch: EnvelopeScratch,
                         into out: UnsafeMutablePointer<Float>, replacing: Bool = false) {
        let v = scratch.v, z = scratch.z, g = scratch.g, hv = scratch.hv
        // The stack's top (entry k) is kept in tv, th, tz (its v, hv, z), out of memory; the entries
        // below it are in the arrays.
        var k = -1, next = 0, tv = 0, th = 0.0, tz = 0.0
        while next < n {
            let q = next, fq = Double(f[q])
            next += 1
            guard fq < .infinity else {
                // Past the points with no crossing in reach, eight at a time (long runs of them).
                while next + 8 <= n && mercurial_all_at_least8(mercurial_load8(f + next), .infinity) != 0 { next += 8 }
                continue
            }
            let hq = fq + Double(q * q)
            if k < 0 {
                k = 0; tv = q; th = hq; tz = -.infinity; g[0] = fq
                continue
            }
            var s: Double
            repeat {
                s = (hq - th) / Double(2 * (q - tv))
                guard s <= tz else { break }
                k -= 1
                if k >= 0 { tv = v[k]; th = hv[k]; tz = z[k] }
            } while k >= 0
            if k >= 0 { v[k] = tv; hv[k] = th; z[k] = tz }
            k += 1
            tv = q; th = hq; tz = s; g[k] = fq
        }
        if k >= 0 { v[k] = tv; hv[k] = th; z[k] = tz; z[k + 1] = .infinity }
        guard k >= 0 else {
            if replacing { out.update(repeating: .infinity, count: points.count) }
            return
        }
        // Parabola j is the lowest at the points p with z[j] < p ≤ z[j + 1]. Only those within
        // `reach` of its apex can be at most reach²: the others are skipped (∞ when replacing).
        let first = points.lowerBound, end = points.upperBound
        let o = out - first
        var p = first, j = 0
        while p < end && j <= k {
            defer { j += 1 }
            let upper = z[j + 1]
            let stop = upper >= Double(end) ? end : (upper < Double(p) ? p : Int(upper.rounded(.down)) + 1)
            guard stop > p else { continue }
            let apex = v[j], gj = g[j]
            let lo = min(max(p, apex - reach), stop), hi = max(min(stop, apex + reach + 1), lo)
            if replacing {
                (o + p).update(repeating: .infinity, count: lo - p)
                (o + hi).update(repeating: .infinity, count: stop - hi)
            }
            for x in lo..<hi {
                let dp = Double(Int32(truncatingIfNeeded: x - apex)) // |x − apex| ≤ reach
                let value = Float(dp * dp + gj)
                o[x] = replacing ? value : min(o[x], value)
            }
            p = stop
        }
    }
}
