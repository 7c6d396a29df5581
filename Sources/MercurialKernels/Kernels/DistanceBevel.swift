#if MERCURIAL_KERNELS_V3
import MercurialKernels // the one set of kernel types; this copy of the loops is built for x86-64-v3
#endif
import Glibc

// Distance-based bevels.
//
// The edge is the 0.5 iso-line of the mask. Where two 4-neighbouring pixels lie on opposite sides
// (one ≥ 0.5, the other < 0.5) the edge crosses the segment between their centres; linear
// interpolation of their mask values places the crossing with sub-pixel accuracy, so an
// anti-aliased edge moves smoothly as its coverage changes. d(p) is the exact Euclidean distance
// from an inside pixel's centre to the nearest crossing.
//
// Finding it: an exact squared distance transform (Felzenszwalb–Huttenlocher lower envelopes)
// gives d_c, the distance to the nearest pixel that has a crossing on one of its four segments.
// Every crossing lies within 0.5 px of one of its two pixels, and the nearest such pixel has a
// crossing within 1 px, so the nearest crossing is among the crossings of pixels at distance
// [d_c, d_c + 1.5]: an annulus, searched exactly. The answer depends on values only (never on which
// of two equidistant pixels an algorithm happened to pick), so every tiling agrees.

enum DistanceBevel {
    static let infinity: Float = 1e20

    static func compute(mask: Plane, radius: Float, profile: BevelProfile, halo: Int) -> Plane {
        sides(mask: mask, radius: radius, profile: profile, halo: halo, inside: true, outside: false).inner
    }

    /// Both sides of the edge from one distance transform: `inner` (when asked) rises inside the
    /// mask (m ≥ 0.5) from the edge, as `compute`; `outer` (when asked) rises outside it (m < 0.5)
    /// from the same edge — the height field of the inverted mask, measured to the same crossings.
    /// A side not asked for is left 0. (The loops run over raw pointers: per-pixel array and plane
    /// subscripts, with their checks and copy-on-write tests, were a fifth of the time.)
    static func sides(mask: Plane, radius: Float, profile: BevelProfile, halo: Int,
                      inside: Bool, outside: Bool) -> (inner: Plane, outer: Plane) {
        let w = mask.width, h = mask.height
        // Crossing parameters on the segment to the right (tx) and below (ty): t in [0, 1] from this
        // pixel's centre, or -1 for no crossing.
        var tx = [Float](repeating: -1, count: w * h), ty = [Float](repeating: -1, count: w * h)
        var seed = [Bool](repeating: false, count: w * h)
        var inner = Plane(width: w - 2 * halo, height: h - 2 * halo)
        var outer = Plane(width: outside ? w - 2 * halo : 0, height: outside ? h - 2 * halo : 0)
        mask.pixels.withUnsafeBufferPointer { mb in
            tx.withUnsafeMutableBufferPointer { txb in
                ty.withUnsafeMutableBufferPointer { tyb in
                    seed.withUnsafeMutableBufferPointer { sb in
                        let m = mb.baseAddress!, tx = txb.baseAddress!, ty = tyb.baseAddress!, seed = sb.baseAddress!
                        for y in 0..<h {
                            for x in 0..<w {
                                let i = y * w + x
                                let a = m[i]
                                if x + 1 < w, (a >= 0.5) != (m[i + 1] >= 0.5) {
                                    tx[i] = (a - 0.5) / (a - m[i + 1])
                                    seed[i] = true
                                    seed[i + 1] = true
                                }
                                if y + 1 < h, (a >= 0.5) != (m[i + w] >= 0.5) {
                                    ty[i] = (a - 0.5) / (a - m[i + w])
                                    seed[i] = true
                                    seed[i + w] = true
                                }
                            }
                        }
                        let limit = radius + 1 // beyond d_c > R + 1, d > R: the top of the bevel
                        let squared = squaredDistanceTransform(seed: UnsafePointer(seed), width: w, height: h,
                                                               reach: Int(limit.rounded(.up)))
                        let ow = w - 2 * halo
                        inner.pixels.withUnsafeMutableBufferPointer { ib in
                            outer.pixels.withUnsafeMutableBufferPointer { ob in
                                squared.withUnsafeBufferPointer { sq in
                                    for y in halo..<(h - halo) {
                                        for x in halo..<(w - halo) {
                                            let i = y * w + x
                                            let isInside = m[i] >= 0.5
                                            guard isInside ? inside : outside else { continue }
                                            var height: Float = 1
                                            let dc2 = sq[i]
                                            if dc2 <= limit * limit {
                                                let d = nearestCrossing(x: x, y: y, dc2: dc2, width: w, height: h,
                                                                        seed: seed, tx: tx, ty: ty)
                                                height = shape(min(d / radius, 1), profile)
                                            }
                                            let o = (y - halo) * ow + (x - halo)
                                            if isInside { ib[o] = height } else { ob[o] = height }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return (inner, outer)
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

    /// Exact distance from pixel (x, y) to the nearest crossing, searching seed pixels whose squared
    /// distance lies in [dc2, (√dc2 + 1.5)²]: per row, only the annulus's two runs (the pixels
    /// nearer than √dc2 are never visited; dc2 is a whole number, so where they end is exact).
    static func nearestCrossing(x: Int, y: Int, dc2: Float, width w: Int, height h: Int,
                                seed: UnsafePointer<Bool>, tx: UnsafePointer<Float>, ty: UnsafePointer<Float>) -> Float {
        let outer = dc2.squareRoot() + 1.5
        let reach = Int(outer)
        let outer2 = outer * outer
        let inner2 = Int(dc2)
        var best2 = infinity
        @inline(__always) func visit(_ dx: Int, _ dy: Int, _ dy2: Float) {
            let xx = x + dx, yy = y + dy
            guard xx >= 0, xx < w else { return }
            let j = yy * w + xx
            guard seed[j] else { return }
            // The crossings on this pixel's four segments (its own right/below, and the
            // right/below of its left/upper neighbours).
            let fx = Float(dx), fy = Float(dy)
            if tx[j] >= 0 { best2 = min(best2, sq(fx + tx[j]) + fy * fy) }
            if ty[j] >= 0 { best2 = min(best2, fx * fx + sq(fy + ty[j])) }
            if xx > 0, tx[j - 1] >= 0 { best2 = min(best2, sq(fx - 1 + tx[j - 1]) + fy * fy) }
            if yy > 0, ty[j - w] >= 0 { best2 = min(best2, fx * fx + sq(fy - 1 + ty[j - w])) }
        }
        // Per |dy|: the last |dx| inside the outer circle, and the first with dx² + dy² ≥ dc2 (the
        // latter carried from row to row: it changes by a few steps). Rows dy and −dy share both.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * (reach + 1)) { bounds in
            let spans = bounds.baseAddress!, starts = spans + reach + 1
            var start = 0
            for d in stride(from: reach, through: 0, by: -1) {
                let need = inner2 - d * d
                while start * start < need { start += 1 }
                while start > 0, (start - 1) * (start - 1) >= need { start -= 1 }
                starts[d] = start
                spans[d] = Int((max(outer2 - Float(d * d), 0)).squareRoot())
            }
            for dy in -reach...reach {
                let yy = y + dy
                guard yy >= 0, yy < h else { continue }
                let dy2 = Float(dy * dy)
                let span = spans[abs(dy)], start = starts[abs(dy)]
                guard start <= span else { continue }
                for dx in start...span { visit(dx, dy, dy2) }
                if start == 0 {
                    if span >= 1 { for dx in 1...span { visit(-dx, dy, dy2) } }
                } else {
                    for dx in start...span { visit(-dx, dy, dy2) }
                }
            }
        }
        return best2.squareRoot()
    }

    @inline(__always) static func sq(_ v: Float) -> Float { v * v }

    /// Squared Euclidean distance from every pixel to the nearest seed pixel: exact where it is at
    /// most `reach`² (all the bevel asks), and some value above `reach`² (∞ if no seed) elsewhere.
    /// Seeds more than `reach` rows away in a column are left out, as they can only give more than
    /// `reach`²: rows far from every edge are then skipped, and the others' lower envelopes hold
    /// only the columns near an edge.
    static func squaredDistanceTransform(seed: UnsafePointer<Bool>, width w: Int, height h: Int, reach: Int) -> [Float] {
        // Columns: 1-D distance to the nearest seed in the same column, up to `reach`, every column
        // at once, row by row down and then up (walking one column at a time read a cache line a
        // pixel).
        var g = [Float](repeating: infinity, count: w * h)
        var last = [Int](repeating: -1, count: w)
        for y in 0..<h {
            for x in 0..<w {
                if seed[y * w + x] { last[x] = y }
                if last[x] >= 0 && y - last[x] <= reach { g[y * w + x] = Float(y - last[x]) }
            }
        }
        for x in 0..<w { last[x] = -1 }
        for y in stride(from: h - 1, through: 0, by: -1) {
            for x in 0..<w {
                if seed[y * w + x] { last[x] = y }
                if last[x] >= 0 && last[x] - y <= reach { g[y * w + x] = min(g[y * w + x], Float(last[x] - y)) }
            }
        }
        // Rows: lower envelope of parabolas (x - q)² + g(q)².
        var out = [Float](repeating: infinity, count: w * h)
        var f = [Float](repeating: 0, count: w)
        var v = [Int](repeating: 0, count: w)
        // Intersections in Double: with integer inputs every comparison below is then exact enough
        // to be decided the same way whatever the window's origin.
        var z = [Double](repeating: 0, count: w + 1)
        for y in 0..<h {
            var any = false
            for x in 0..<w {
                let gv = g[y * w + x]
                if gv < infinity { f[x] = gv * gv; any = true } else { f[x] = infinity }
            }
            guard any else { continue }
            var k = -1
            for q in 0..<w where f[q] < infinity {
                if k < 0 {
                    k = 0; v[0] = q; z[0] = -.infinity; z[1] = .infinity
                    continue
                }
                var s: Double
                repeat {
                    let p = v[k]
                    s = ((Double(f[q]) + Double(q * q)) - (Double(f[p]) + Double(p * p))) / Double(2 * (q - p))
                    if s <= z[k] { k -= 1 } else { break }
                } while k >= 0
                k += 1
                v[k] = q
                z[k] = s
                z[k + 1] = .infinity
            }
            var j = 0
            for x in 0..<w {
                while z[j + 1] < Double(x) { j += 1 }
                let dx = Float(x - v[j])
                out[y * w + x] = dx * dx + f[v[j]]
            }
        }
        return out
    }
}
