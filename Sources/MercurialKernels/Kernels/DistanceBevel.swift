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
// Finding it, exactly and at a cost per pixel that does not grow with the radius: the crossings on
// horizontal segments lie on pixel rows. Along each row, the squared distance from a pixel centre
// to the row's nearest crossing is exact from the nearest crossing on either side; the distance to
// any crossing of any row is then the lower envelope over rows of those values plus (Δy)²
// (Felzenszwalb–Huttenlocher, down each column). The crossings on vertical segments likewise, with
// rows and columns swapped; d² is the smaller of the two.

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
        var inner = Plane(width: w - 2 * halo, height: h - 2 * halo)
        var outer = Plane(width: outside ? w - 2 * halo : 0, height: outside ? h - 2 * halo : 0)
        mask.pixels.withUnsafeBufferPointer { mb in
            tx.withUnsafeMutableBufferPointer { txb in
                ty.withUnsafeMutableBufferPointer { tyb in
                    do {
                        let m = mb.baseAddress!, tx = txb.baseAddress!, ty = tyb.baseAddress!
                        for y in 0..<h {
                            for x in 0..<w {
                                let i = y * w + x
                                let a = m[i]
                                if x + 1 < w, (a >= 0.5) != (m[i + 1] >= 0.5) {
                                    tx[i] = (a - 0.5) / (a - m[i + 1])
                                }
                                if y + 1 < h, (a >= 0.5) != (m[i + w] >= 0.5) {
                                    ty[i] = (a - 0.5) / (a - m[i + w])
                                }
                            }
                        }
                        let limit = radius + 1 // beyond, d > R: the top of the bevel
                        let squared = crossingDistances(tx: UnsafePointer(tx), ty: UnsafePointer(ty), width: w, height: h,
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
                                            let d2 = sq[i]
                                            if d2 <= limit * limit { height = shape(min(d2.squareRoot() / radius, 1), profile) }
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

    @inline(__always) static func sq(_ v: Float) -> Float { v * v }

    /// Squared Euclidean distance from every pixel centre to the nearest crossing: exact where it is
    /// at most `reach`² (all the bevel asks), and some value above `reach`² (∞ if none) elsewhere.
    static func crossingDistances(tx: UnsafePointer<Float>, ty: UnsafePointer<Float>, width w: Int, height h: Int,
                                  reach: Int) -> [Float] {
        var out = [Float](repeating: infinity, count: w * h)
        out.withUnsafeMutableBufferPointer { o in
            // Horizontal segments: along rows, then the envelope down each column.
            let along = alongLines(tx, count: h, length: w, stride: w, step: 1, reach: reach)
            envelope(along, lines: w, length: h, lineStride: 1, step: w, into: o.baseAddress!)
            // Vertical segments: along columns, then the envelope across each row.
            let down = alongLines(ty, count: w, length: h, stride: 1, step: w, reach: reach)
            envelope(down, lines: h, length: w, lineStride: w, step: 1, into: o.baseAddress!)
        }
        return out
    }

    /// For each of `count` lines (line i starts at i·stride, its points `step` apart): per point,
    /// the squared distance to the line's nearest crossing (crossing at position p + t[p], t ≥ 0),
    /// ∞ beyond `reach`. Laid out as the input.
    static func alongLines(_ t: UnsafePointer<Float>, count: Int, length: Int, stride: Int, step: Int, reach: Int) -> [Float] {
        var f = [Float](repeating: .infinity, count: count * length)
        f.withUnsafeMutableBufferPointer { fb in
            let f = fb.baseAddress!
            for line in 0..<count {
                let base = line * stride
                // The crossing on segment p → p + 1 lies at p + t[p]. Left to right: the last crossing
                // at or before each point (segment p − 1's, or p's own at t = 0); then right to left:
                // the first at or after it (segment p's).
                var last = -Double.infinity
                for p in 0..<length {
                    if p > 0, t[base + (p - 1) * step] >= 0 { last = Double(p - 1) + Double(t[base + (p - 1) * step]) }
                    if t[base + p * step] == 0 { last = Double(p) }
                    let d = Double(p) - last
                    if d <= Double(reach) { f[base + p * step] = Float(d * d) }
                }
                var next = Double.infinity
                for p in Swift.stride(from: length - 1, through: 0, by: -1) {
                    let v = t[base + p * step]
                    if v >= 0 { next = Double(p) + Double(v) }
                    let d = next - Double(p)
                    if d <= Double(reach) { f[base + p * step] = min(f[base + p * step], Float(d * d)) }
                }
            }
        }
        return f
    }

    /// For each of `lines` lines (line i starts at i·lineStride, its points `step` apart): the
    /// lower envelope of the parabolas (p − q)² + f(q), min'd into `into`.
    static func envelope(_ f: [Float], lines: Int, length n: Int, lineStride: Int, step: Int, into out: UnsafeMutablePointer<Float>) {
        var v = [Int](repeating: 0, count: n), z = [Double](repeating: 0, count: n + 1), g = [Double](repeating: 0, count: n)
        f.withUnsafeBufferPointer { fb in
            for line in 0..<lines {
                let base = line * lineStride
                var k = -1
                for q in 0..<n {
                    let fq = Double(fb[base + q * step])
                    g[q] = fq
                    guard fq < .infinity else { continue }
                    if k < 0 {
                        k = 0; v[0] = q; z[0] = -.infinity; z[1] = .infinity
                        continue
                    }
                    var s: Double
                    repeat {
                        let p = v[k]
                        s = ((fq + Double(q * q)) - (g[p] + Double(p * p))) / Double(2 * (q - p))
                        if s <= z[k] { k -= 1 } else { break }
                    } while k >= 0
                    k += 1
                    v[k] = q
                    z[k] = s
                    z[k + 1] = .infinity
                }
                guard k >= 0 else { continue }
                var j = 0
                for p in 0..<n {
                    while z[j + 1] < Double(p) { j += 1 }
                    let dp = Double(p - v[j])
                    let value = Float(dp * dp + g[v[j]])
                    let o = base + p * step
                    out[o] = min(out[o], value)
                }
            }
        }
    }
}
