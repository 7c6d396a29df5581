#if MERCURIAL_KERNELS_V3
import MercurialKernels // the one set of kernel types; this copy of the loops is built for x86-64-v3
#endif
import CVector

/// The inner loops of the Gaussian blurs (full-resolution levels, coarse grids): a symmetric kernel
/// of one-sided weights w (w[0] the centre), along a line or down rows. Sixteen values at a time,
/// each summed in registers and stored once; the taps four at a time, then one by one, in the same
/// order for every value: the result does not depend on where a run starts or ends.
enum SymmetricTaps {
    /// dst[i] = Σ_k w[|k|]·centre[i + k·stride] for i in 0..<count.
    @inline(__always)
    static func along(_ centre: UnsafePointer<Float>, stride s: Int, weights w: UnsafeBufferPointer<Float>,
                      into dst: UnsafeMutablePointer<Float>, count: Int) {
        let n = w.count, w0 = w[0]
        // Eight values from i. (The loop below makes sixteen as two interleaved sums rather than
        // two calls of this, which kept the processor waiting on one sum at a time.)
        @inline(__always) func eight(_ i: Int) -> V4 {
            var sum = mercurial_tap0(centre + i, w0)
            var k = 1
            while k + 3 < n {
                sum = mercurial_taps4(sum, centre + i - k * s, centre + i + k * s, s, w[k], w[k + 1], w[k + 2], w[k + 3])
                k += 4
            }
            while k < n {
                sum = mercurial_tap1(sum, centre + i - k * s, centre + i + k * s, w[k])
                k += 1
            }
            return sum
        }
        var i = 0
        while i + 16 <= count {
            var lo = mercurial_tap0(centre + i, w0), hi = mercurial_tap0(centre + i + 8, w0)
            var k = 1
            while k + 3 < n {
                let u = centre + i - k * s, v = centre + i + k * s
                lo = mercurial_taps4(lo, u, v, s, w[k], w[k + 1], w[k + 2], w[k + 3])
                hi = mercurial_taps4(hi, u + 8, v + 8, s, w[k], w[k + 1], w[k + 2], w[k + 3])
                k += 4
            }
            while k < n {
                let u = centre + i - k * s, v = centre + i + k * s
                lo = mercurial_tap1(lo, u, v, w[k])
                hi = mercurial_tap1(hi, u + 8, v + 8, w[k])
                k += 1
            }
            UnsafeMutableRawPointer(dst + i).storeBytes(of: lo, as: V4.self)
            UnsafeMutableRawPointer(dst + i + 8).storeBytes(of: hi, as: V4.self)
            i += 16
        }
        // The rest in vectors too: eight, then the last eight (again over values already made,
        // which come out the same), so that short runs are not left to the scalar loop.
        if i + 8 <= count {
            UnsafeMutableRawPointer(dst + i).storeBytes(of: eight(i), as: V4.self)
            i += 8
        }
        if i < count, count >= 8 {
            UnsafeMutableRawPointer(dst + count - 8).storeBytes(of: eight(count - 8), as: V4.self)
            return
        }
        while i < count {
            let c = centre + i
            var sum = w0 * c[0]
            var k = 1
            while k + 3 < n {
                let sa = c[-k * s] + c[k * s], sb = c[(-k - 1) * s] + c[(k + 1) * s]
                let sc = c[(-k - 2) * s] + c[(k + 2) * s], sd = c[(-k - 3) * s] + c[(k + 3) * s]
                sum += (w[k] * sa + w[k + 1] * sb) + (w[k + 2] * sc + w[k + 3] * sd)
                k += 4
            }
            while k < n { sum += w[k] * (c[-k * s] + c[k * s]); k += 1 }
            dst[i] = sum
            i += 1
        }
    }

    /// dst[x] = Σ_k w[|k|]·rows[r + k][x] for x in [from, to), k in −r...r (r = w.count − 1).
    @inline(__always)
    static func down(_ rows: UnsafePointer<UnsafePointer<Float>>, weights w: UnsafeBufferPointer<Float>,
                     into dst: UnsafeMutablePointer<Float>, from: Int, to: Int) {
        let n = w.count, centre = rows + (n - 1), w0 = w[0]
        // Eight values from x.
        @inline(__always) func eight(_ x: Int) -> V4 {
            var sum = mercurial_tap0(centre[0] + x, w0)
            var k = 1
            while k + 3 < n {
                sum = mercurial_taps4_rows(sum, centre - k, centre + k, x, w[k], w[k + 1], w[k + 2], w[k + 3])
                k += 4
            }
            while k < n {
                sum = mercurial_tap1(sum, centre[-k] + x, centre[k] + x, w[k])
                k += 1
            }
            return sum
        }
        var x = from
        while x + 16 <= to {
            var lo = mercurial_tap0(centre[0] + x, w0), hi = mercurial_tap0(centre[0] + x + 8, w0)
            var k = 1
            while k + 3 < n {
                let up = centre - k, down = centre + k
                lo = mercurial_taps4_rows(lo, up, down, x, w[k], w[k + 1], w[k + 2], w[k + 3])
                hi = mercurial_taps4_rows(hi, up, down, x + 8, w[k], w[k + 1], w[k + 2], w[k + 3])
                k += 4
            }
            while k < n {
                lo = mercurial_tap1(lo, centre[-k] + x, centre[k] + x, w[k])
                hi = mercurial_tap1(hi, centre[-k] + x + 8, centre[k] + x + 8, w[k])
                k += 1
            }
            UnsafeMutableRawPointer(dst + x).storeBytes(of: lo, as: V4.self)
            UnsafeMutableRawPointer(dst + x + 8).storeBytes(of: hi, as: V4.self)
            x += 16
        }
        // The rest in vectors too, as in `along`.
        if x + 8 <= to {
            UnsafeMutableRawPointer(dst + x).storeBytes(of: eight(x), as: V4.self)
            x += 8
        }
        if x < to, to - from >= 8 {
            UnsafeMutableRawPointer(dst + to - 8).storeBytes(of: eight(to - 8), as: V4.self)
            return
        }
        while x < to {
            var sum = w0 * centre[0][x]
            var k = 1
            while k + 3 < n {
                let sa = centre[-k][x] + centre[k][x], sb = centre[-k - 1][x] + centre[k + 1][x]
                let sc = centre[-k - 2][x] + centre[k + 2][x], sd = centre[-k - 3][x] + centre[k + 3][x]
                sum += (w[k] * sa + w[k + 1] * sb) + (w[k + 2] * sc + w[k + 3] * sd)
                k += 4
            }
            while k < n { sum += w[k] * (centre[-k][x] + centre[k][x]); k += 1 }
            dst[x] = sum
            x += 1
        }
    }
}
