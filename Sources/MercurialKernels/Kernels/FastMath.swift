#if MERCURIAL_KERNELS_V3
import MercurialKernels // the one set of kernel types; this copy of the loops is built for x86-64-v3
#endif
import CVector
// Vector helpers for the per-pixel kernels, written so that they compile to straight-line SSE code:
// the standard library's generic SIMD min/max/rounding/conversions are not always inlined and then
// cost a call per lane.

/// Eight lanes: two SSE registers on the baseline build, one AVX register on the x86-64-v3 build.
public typealias V4 = SIMD8<Float>
public typealias I4 = SIMD8<Int32>
/// Sixteen lanes: two AVX registers (four SSE ones), for two independent chains of operations side
/// by side where a kernel is bound by its longest chain (the lighting of lit-relief).
public typealias Lanes = SIMD16<Float>

@inline(__always) @usableFromInline func vmin(_ a: V4, _ b: V4) -> V4 { a.replacing(with: b, where: b .< a) }
@inline(__always) @usableFromInline func vmax(_ a: V4, _ b: V4) -> V4 { a.replacing(with: b, where: b .> a) }
/// Sixteen IEEE square roots, or quotients, as vector operations (see CVector's header for why
/// these are C).
@inline(__always) @usableFromInline func lsqrt(_ a: Lanes) -> Lanes { mercurial_sqrt16(a) }
@inline(__always) @usableFromInline func lmin(_ a: Lanes, _ b: Lanes) -> Lanes { a.replacing(with: b, where: b .< a) }
@inline(__always) @usableFromInline func lmax(_ a: Lanes, _ b: Lanes) -> Lanes { a.replacing(with: b, where: b .> a) }
@inline(__always) @usableFromInline func ldiv(_ a: Lanes, _ b: Lanes) -> Lanes { mercurial_div16(a, b) }
/// Eight floats from `p`, at any alignment, as one load.
@inline(__always) @usableFromInline func vload(_ p: UnsafePointer<Float>) -> V4 { mercurial_load8(p) }
@inline(__always) func vclamp(_ a: V4, _ lo: Float, _ hi: Float) -> V4 {
    vmin(vmax(a, V4(repeating: lo)), V4(repeating: hi))
}

/// `any(mask)` for eight lanes, folded in halves with vector ors (in the hemisphere renderer the
/// standard library's version called a horizontal max that was not inlined).
@inline(__always) func anyLane(_ mask: SIMDMask<I4>) -> Bool {
    let lanes = unsafeBitCast(mask, to: I4.self)
    let four = lanes.lowHalf | lanes.highHalf
    let two = four.lowHalf | four.highHalf
    return unsafeBitCast(two, to: UInt64.self) != 0
}

/// 2^x and log2 by range reduction and polynomials fitted on Chebyshev nodes (relative error
/// below 1e-6 over the ranges used here).
public enum FastMath {
    /// Converts small integers (|i| < 2²²) held in Int32 lanes to Float exactly, by bit tricks.
    @inline(__always) @usableFromInline static func float(_ i: I4) -> V4 {
        let magic: Int32 = 0x4B40_0000 // 1.5 · 2^23
        return unsafeBitCast(i &+ magic, to: V4.self) - 12_582_912
    }

    /// floor(x) of eight floats with |x| < 2²², as Int32 and as Float (exact): rounded to nearest
    /// by the 1.5·2^23 trick, then stepped down where that rounded up. (A generic version compiled
    /// its comparison lane by lane, through memory; the standard library's float-to-integer vector
    /// conversion is a generic call.)
    @inline(__always) @usableFromInline static func floorSmall(_ x: V4) -> (I4, V4) {
        let shifted = x + 12_582_912
        var n = unsafeBitCast(shifted, to: I4.self) &- 0x4B40_0000
        var r = shifted - 12_582_912
        let up = r .> x
        r.replace(with: r - 1, where: up)
        n.replace(with: n &- 1, where: up)
        return (n, r)
    }

    /// log2(x) for positive, finite x.
    @_transparent @usableFromInline static func log2(_ x: V4) -> V4 {
        let bits = unsafeBitCast(x, to: I4.self)
        var e = (bits &>> 23) &- 127
        var m = unsafeBitCast((bits & 0x007F_FFFF) | 0x3F80_0000, to: V4.self) // [1, 2)
        // Centre the mantissa on 1: [√½, √2).
        let big = m .> 1.41421356
        m.replace(with: m * 0.5, where: big)
        e.replace(with: e &+ 1, where: big)
        let t = m - 1
        var p = V4(repeating: -0.14201195)
        p = p * t + 0.23613717
        p = p * t - 0.25112047
        p = p * t + 0.28684495
        p = p * t - 0.35998223
        p = p * t + 0.48093274
        p = p * t - 0.72136118
        p = p * t + 1.44269483
        p = p * t + 4.1380279e-08
        return float(e) + p
    }

    /// 2^y for y in [-126, 0] (smaller y give 0).
    @_transparent @usableFromInline static func exp2(_ y: V4) -> V4 {
        let c = vmax(y, V4(repeating: -126))
        let (n, r) = floorSmall(c)
        let f = c - r // [0, 1)
        var q = V4(repeating: 0.00021877563)
        q = q * f + 0.0012387871
        q = q * f + 0.0096845657
        q = q * f + 0.055480440
        q = q * f + 0.24023050
        q = q * f + 0.69314693
        q = q * f + 1.0
        let scale = unsafeBitCast((n &+ 127) &<< 23, to: V4.self)
        var out = q * scale
        out.replace(with: 0, where: y .< -126)
        return out
    }

    /// x^s for x in [0, 1] and s ≥ 1 (0^s = 0).
    @_transparent public static func pow01(_ x: V4, _ s: Float) -> V4 {
        let safe = vmax(x, V4(repeating: 1e-30))
        var out = exp2(vmin(log2(safe), V4(repeating: 0)) * s) // x ≤ 1: log2 x ≤ 0
        out.replace(with: 0, where: x .<= 0)
        return out
    }
}
