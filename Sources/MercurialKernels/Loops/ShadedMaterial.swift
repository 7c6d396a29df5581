import CPrefetch
#if MERCURIAL_KERNELS_V3
import MercurialKernels // the one set of kernel types; this copy of the loops is built for x86-64-v3
#endif

// Shading a height field by looking each surface normal up in a picture of a lit hemisphere
// (CIShadedMaterial; the "lit sphere" technique).
//
// n = normalize(−scale·∂h/∂x, −scale·∂h/∂y, 1) with central differences; the shading image is
// sampled bilinearly at ((n.x + 1)/2 · W, (n.y + 1)/2 · H) in continuous pixel coordinates of the
// shading image (pixel i spans [i, i + 1), its centre at i + ½; samples beyond the last centre take
// the edge pixel).

public enum ShadedMaterial {
    /// Bilinear sample at continuous coordinates (x, y); NaN reads as the centre.
    public static func sample(_ image: ShadingImage, _ x: Float, _ y: Float, into o: UnsafeMutablePointer<Float>) {
        let fx = x.isNaN ? Float(image.width) / 2 : x, fy = y.isNaN ? Float(image.height) / 2 : y
        let colour = image.rgba.withUnsafeBytes {
            bilinear($0.baseAddress!, width: image.width, height: image.height, u: fx - 0.5, v: fy - 0.5)
        }
        for k in 0..<4 { o[k] = colour[k] }
    }

    /// Bilinear interpolation of an RGBA image at (u, v) in pixel-centre coordinates (pixel i's
    /// centre at i), clamped to the outermost centres. u and v must not be NaN.
    @inline(__always)
    static func bilinear(_ image: UnsafeRawPointer, width: Int, height: Int, u: Float, v: Float) -> SIMD4<Float> {
        @inline(__always) func pixel(_ x: Int, _ y: Int) -> SIMD4<Float> {
            image.loadUnaligned(fromByteOffset: 16 * (y * width + x), as: SIMD4<Float>.self)
        }
        let cu = min(max(u, 0), Float(width - 1)), cv = min(max(v, 0), Float(height - 1))
        let ix = Int(cu), iy = Int(cv)
        let jx = min(ix + 1, width - 1), jy = min(iy + 1, height - 1)
        let ax = SIMD4(repeating: cu - Float(ix)), ay = SIMD4(repeating: cv - Float(iy))
        let a = pixel(ix, iy), b = pixel(jx, iy), c = pixel(ix, jy), d = pixel(jx, jy)
        let top = a + (b - a) * ax, bottom = c + (d - c) * ax
        return top + (bottom - top) * ay
    }

    /// Bilinear samples waiting to be taken, one array per field, filled four at a time with vector
    /// stores: the byte offset of each sample's top-left shading pixel and the steps to the pixels
    /// right of and below it (0 at the last column or row, where the weight is 0 too: the steps
    /// only keep the reads inside the image), the blend weights, the output pixel and the factor
    /// for its alpha. The arithmetic is `ShadingImage.bilinear`'s: the same result.
    struct Taps {
        let offset, dx, dy, pixel: UnsafeMutablePointer<Int32>
        let ax, ay, alpha: UnsafeMutablePointer<Float>

        /// Lays the arrays out in `memory`, which holds 7 × capacity 4-byte values.
        init(_ memory: UnsafeMutableRawPointer, capacity: Int) {
            func ints(_ k: Int) -> UnsafeMutablePointer<Int32> {
                (memory + 4 * k * capacity).bindMemory(to: Int32.self, capacity: capacity)
            }
            func floats(_ k: Int) -> UnsafeMutablePointer<Float> {
                (memory + 4 * k * capacity).bindMemory(to: Float.self, capacity: capacity)
            }
            (offset, dx, dy, pixel) = (ints(0), ints(1), ints(2), ints(3))
            (ax, ay, alpha) = (floats(4), floats(5), floats(6))
        }

        @inline(__always) static func store<V: SIMD>(_ v: V, _ p: UnsafeMutablePointer<V.Scalar>, at i: Int) {
            UnsafeMutableRawPointer(p + i).storeBytes(of: v, as: V.self)
        }
    }
    /// How many taps wait for their lookups at most (then they are taken, and the list restarts).
    static let pendingCapacity = 1024

    /// The factor an input alpha gives the output's: clamped to [0, 1], a non-finite alpha as 0.
    @inline(__always) static func alphaFactors(_ alpha: SIMD4<Float>) -> SIMD4<Float> {
        var a = alpha
        a.replace(with: 0, where: .!((a .> -.infinity) .& (a .< .infinity)))
        a.replace(with: 0, where: a .< 0)
        a.replace(with: 1, where: a .> 1)
        return a
    }

    /// Shades a block. `heightAlpha` holds (height, alpha) pairs for the block grown by one pixel on
    /// every side (`(width + 2) × (height + 2)`), with pixels beyond the height field's extent
    /// already clamped to its edge. Writes width × height RGBA pixels: the shading image's colour,
    /// alpha = its alpha × the input's alpha. Non-finite heights count as flat.
    /// `rowLength` (default width + 2) is the distance between rows of `heightAlpha` in pixels, so a
    /// block can be shaded out of a wider window.
    public static func shade(heightAlpha ha: UnsafePointer<Float>, rowLength: Int? = nil, width: Int, height: Int,
                             scale: Float, shading: ShadingImage, into out: UnsafeMutablePointer<Float>) {
        let stride = rowLength ?? width + 2
        let halfW = Float(shading.width) / 2, halfH = Float(shading.height) / 2
        let s = scale.isFinite ? scale : 0
        let sw = shading.width, sh = shading.height
        let fw1 = Float(sw - 1), fh1 = Float(sh - 1)
        // Sloped pixels are done in two passes. The first computes each one's normal and where its
        // bilinear sample lies, and asks the processor to fetch those shading pixels (prefetch);
        // the second, up to a thousand pixels later, blends them. Lookups land all over the
        // shading image (4 MB at 512²), so without this each one waited for memory in turn.
        withUnsafeTemporaryAllocation(byteCount: 7 * 4 * pendingCapacity, alignment: 16) { memory in
            let pending = Taps(memory.baseAddress!, capacity: pendingCapacity)
            shading.rgba.withUnsafeBytes { image in
                let img = image.baseAddress!
                var count = 0
                /// The second pass: blends and stores every waiting tap.
                func takePending() {
                    for i in 0..<count {
                        let o = img + Int(pending.offset[i])
                        let dx = Int(pending.dx[i]), dy = Int(pending.dy[i])
                        let a = o.loadUnaligned(as: SIMD4<Float>.self)
                        let b = o.loadUnaligned(fromByteOffset: dx, as: SIMD4<Float>.self)
                        let c = o.loadUnaligned(fromByteOffset: dy, as: SIMD4<Float>.self)
                        let d = o.loadUnaligned(fromByteOffset: dy + dx, as: SIMD4<Float>.self)
                        let ax = SIMD4(repeating: pending.ax[i]), ay = SIMD4(repeating: pending.ay[i])
                        let top = a + (b - a) * ax, bottom = c + (d - c) * ax
                        var colour = top + (bottom - top) * ay
                        colour.w *= pending.alpha[i]
                        UnsafeMutableRawPointer(out + 4 * Int(pending.pixel[i])).storeBytes(of: colour, as: SIMD4<Float>.self)
                    }
                    count = 0
                }
                // Vector forms of the image's sizes, for four taps at once.
                let zero4 = SIMD4<Float>(), lastU = SIMD4(repeating: fw1), lastV = SIMD4(repeating: fh1)
                let sw4 = SIMD4<Int32>(repeating: Int32(sw)), sh4 = SIMD4<Int32>(repeating: Int32(sh))
                let lanes = SIMD4<Int32>(0, 1, 2, 3)
                let sv = SIMD4<Float>(repeating: s)
                // A flat pixel (zero gradient) looks up the centre: the same sample for all of them.
                let flat = bilinear(img, width: sw, height: sh, u: halfW - 0.5, v: halfH - 0.5)
                let hw = SIMD4<Float>(repeating: halfW), hh = SIMD4<Float>(repeating: halfH)
                // Four flat opaque pixels; which lanes of a (height, alpha) × 4 vector hold heights.
                let flat4 = SIMD16(lowHalf: SIMD8(lowHalf: flat, highHalf: flat), highHalf: SIMD8(lowHalf: flat, highHalf: flat))
                let heightLanes = SIMD8<Int32>(1, 0, 1, 0, 1, 0, 1, 0) .!= 0
                for y in 0..<height {
                    let up = ha + 2 * (y * stride + 1), mid = ha + 2 * ((y + 1) * stride + 1)
                    let down = ha + 2 * ((y + 2) * stride + 1)
                    let row = UnsafeMutableRawPointer(out + 4 * y * width)
                    var x = 0
                    /// (height, alpha) of the four pixels from x, one vector.
                    @inline(__always) func load(_ p: UnsafePointer<Float>, _ x: Int) -> SIMD8<Float> {
                        UnsafeRawPointer(p + 2 * x).loadUnaligned(as: SIMD8<Float>.self)
                    }
                    /// Whether the four pixels from x are flat (zero gradient: equal neighbours), and
                    /// their neighbours' alphas equal too — so that one vector test per side decides.
                    /// It may say no for a flat group; the general path below handles that one.
                    @inline(__always) func isEvenlyFlat(_ x: Int) -> Bool {
                        all((load(mid, x - 1) .== load(mid, x + 1)) .& (load(up, x) .== load(down, x)))
                    }
                    /// Whether the four pixels from x are opaque (alpha exactly 1).
                    @inline(__always) func isOpaque(_ x: Int) -> Bool {
                        all(load(mid, x).replacing(with: 1, where: heightLanes) .== 1)
                    }
                    // Four pixels at a time: the normal and the sample position as vectors, then one
                    // RGBA vector per bilinear corner.
                    while x + 4 <= width {
                        // Most of a height field is flat and opaque: a run of such groups is one
                        // colour, stored four pixels at a time.
                        while x + 4 <= width, isEvenlyFlat(x), isOpaque(x) {
                            row.storeBytes(of: flat4, toByteOffset: 16 * x, as: SIMD16<Float>.self)
                            x += 4
                        }
                        guard x + 4 <= width else { break }
                        // Flat but translucent (a transparent background): the centre sample, alpha per pixel.
                        if isEvenlyFlat(x) {
                            for i in 0..<4 { emit(flat, x + i) }
                            x += 4
                            continue
                        }
                        let l8 = load(mid, x - 1), r8 = load(mid, x + 1), u8 = load(up, x), d8 = load(down, x)
                        let c8 = load(mid, x)
                        let left = SIMD4(l8[0], l8[2], l8[4], l8[6])
                        let right = SIMD4(r8[0], r8[2], r8[4], r8[6])
                        let above = SIMD4(u8[0], u8[2], u8[4], u8[6])
                        let below = SIMD4(d8[0], d8[2], d8[4], d8[6])
                        var gx = (right - left) * 0.5, gy = (below - above) * 0.5
                        // Non-finite gradients count as flat (NaN fails every comparison).
                        gx.replace(with: 0, where: .!((gx .> -.infinity) .& (gx .< .infinity)))
                        gy.replace(with: 0, where: .!((gy .> -.infinity) .& (gy .< .infinity)))
                        if !any((gx .!= 0) .| (gy .!= 0)) {
                            for i in 0..<4 { emit(flat, x + i) }
                            x += 4
                            continue
                        }
                        let nx = -sv * gx, ny = -sv * gy
                        if any((nx .> 1e15) .| (nx .< -1e15) .| (ny .> 1e15) .| (ny .< -1e15)) {
                            for i in 0..<4 { shadePixel(x + i) }
                            x += 4
                            continue
                        }
                        let inv = 1 / (nx * nx + ny * ny + 1).squareRoot()
                        let uv = (nx * inv + 1) * hw - 0.5, vv = (ny * inv + 1) * hh - 0.5
                        if count + 4 > pendingCapacity { takePending() }
                        // Where each sample lies, clamped to the outermost pixel centres; the pixel
                        // left of and above it (rounded down) and the weights, as in `bilinear`.
                        var cu = uv, cv = vv
                        cu.replace(with: zero4, where: cu .< zero4)
                        cu.replace(with: lastU, where: cu .> lastU)
                        cv.replace(with: zero4, where: cv .< zero4)
                        cv.replace(with: lastV, where: cv .> lastV)
                        let (ix, fx) = FastMath.floorSmall(cu), (iy, fy) = FastMath.floorSmall(cv)
                        let at = 16 &* (iy &* sw4 &+ ix)
                        let dx = SIMD4<Int32>().replacing(with: 16, where: ix &+ 1 .< sw4)
                        let dy = SIMD4<Int32>().replacing(with: 16 &* sw4, where: iy &+ 1 .< sh4)
                        let alpha = alphaFactors(SIMD4(c8[1], c8[3], c8[5], c8[7]))
                        Taps.store(at, pending.offset, at: count)
                        Taps.store(dx, pending.dx, at: count)
                        Taps.store(dy, pending.dy, at: count)
                        Taps.store(Int32(y * width + x) &+ lanes, pending.pixel, at: count)
                        Taps.store(cu - fx, pending.ax, at: count)
                        Taps.store(cv - fy, pending.ay, at: count)
                        Taps.store(alpha, pending.alpha, at: count)
                        count += 4
                        let atRight = at &+ dx, atBelow = at &+ dy, atAcross = atBelow &+ dx
                        for i in 0..<4 {
                            mercurial_prefetch(img + Int(at[i]))
                            mercurial_prefetch(img + Int(atRight[i]))
                            mercurial_prefetch(img + Int(atBelow[i]))
                            mercurial_prefetch(img + Int(atAcross[i]))
                        }
                        x += 4
                    }
                    while x < width {
                        shadePixel(x)
                        x += 1
                    }

                    /// One pixel, in scalars (the tail of a row, and overflowing slopes).
                    func shadePixel(_ x: Int) {
                        var gx = (mid[2 * (x + 1)] - mid[2 * (x - 1)]) * 0.5
                        var gy = (down[2 * x] - up[2 * x]) * 0.5
                        if !gx.isFinite { gx = 0 }
                        if !gy.isFinite { gy = 0 }
                        var nx = -s * gx, ny = -s * gy, nz: Float = 1
                        // Steep or huge slopes: scale down first so the squares cannot overflow.
                        let m = max(abs(nx), abs(ny))
                        if m > 1e15 { nx /= m; ny /= m; nz /= m }
                        let inv = 1 / (nx * nx + ny * ny + nz * nz).squareRoot()
                        var fx = (nx * inv + 1) * halfW - 0.5, fy = (ny * inv + 1) * halfH - 0.5
                        if fx.isNaN || fy.isNaN { fx = halfW - 0.5; fy = halfH - 0.5 } // overflowed slopes: flat
                        emit(bilinear(img, width: sw, height: sh, u: fx, v: fy), x)
                    }

                    /// Stores pixel x: the sample, its alpha × the input's alpha factor.
                    @inline(__always) func emit(_ sample: SIMD4<Float>, _ x: Int) {
                        var colour = sample
                        colour.w *= alphaFactors(SIMD4(repeating: mid[2 * x + 1]))[0]
                        row.storeBytes(of: colour, toByteOffset: 16 * x, as: SIMD4<Float>.self)
                    }
                }
                takePending()
            }
        }
    }
}
