import CPrefetch

// Shading a height field by looking each surface normal up in a picture of a lit hemisphere
// (CIShadedMaterial; the "lit sphere" technique).
//
// n = normalize(−scale·∂h/∂x, −scale·∂h/∂y, 1) with central differences; the shading image is
// sampled bilinearly at ((n.x + 1)/2 · W, (n.y + 1)/2 · H) in continuous pixel coordinates of the
// shading image (pixel i spans [i, i + 1), its centre at i + ½; samples beyond the last centre take
// the edge pixel).

/// A shading image in memory: RGBA (straight alpha), row-major.
public struct ShadingImage: Sendable {
    public let width: Int
    public let height: Int
    public let rgba: [Float]

    public init(width: Int, height: Int, rgba: [Float]) {
        precondition(rgba.count == width * height * 4 && width > 0 && height > 0)
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    /// The default hemisphere of `mercurial:hemisphere-light-render`.
    public static func render(_ p: HemisphereParameters) -> ShadingImage {
        var pixels = [Float](repeating: 0, count: p.size * p.size * 4)
        pixels.withUnsafeMutableBufferPointer {
            Hemisphere.render(p, x: 0, y: 0, width: p.size, count: p.size * p.size, into: $0.baseAddress!)
        }
        return ShadingImage(width: p.size, height: p.size, rgba: pixels)
    }

    /// Bilinear sample at continuous coordinates (x, y); NaN reads as the centre.
    public func sample(_ x: Float, _ y: Float, into o: UnsafeMutablePointer<Float>) {
        let fx = x.isNaN ? Float(width) / 2 : x, fy = y.isNaN ? Float(height) / 2 : y
        let colour = rgba.withUnsafeBytes {
            ShadingImage.bilinear($0.baseAddress!, width: width, height: height, u: fx - 0.5, v: fy - 0.5)
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
}

public enum ShadedMaterial {
    /// One bilinear sample to take: the byte offset of its top-left shading pixel and the steps to
    /// the pixels right of and below it (0 at the last column or row, where the weight is 0 too:
    /// the steps only keep the reads inside the image), the blend weights, the output pixel and
    /// the factor for its alpha. The arithmetic is `ShadingImage.bilinear`'s: the same result.
    struct Tap {
        var offset: Int, dy: Int, pixel: Int
        var dx: Int32, ax: Float, ay: Float, alpha: Float
    }
    /// How many taps wait for their lookups at most (then they are taken, and the list restarts).
    static let pendingCapacity = 1024

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
        withUnsafeTemporaryAllocation(of: Tap.self, capacity: pendingCapacity) { pending in
            shading.rgba.withUnsafeBytes { image in
                let img = image.baseAddress!
                var count = 0
                /// The second pass: blends and stores every waiting tap.
                func takePending() {
                    for t in pending[..<count] {
                        let o = img + t.offset
                        let a = o.loadUnaligned(as: SIMD4<Float>.self)
                        let b = o.loadUnaligned(fromByteOffset: Int(t.dx), as: SIMD4<Float>.self)
                        let c = o.loadUnaligned(fromByteOffset: t.dy, as: SIMD4<Float>.self)
                        let d = o.loadUnaligned(fromByteOffset: t.dy + Int(t.dx), as: SIMD4<Float>.self)
                        let ax = SIMD4(repeating: t.ax), ay = SIMD4(repeating: t.ay)
                        let top = a + (b - a) * ax, bottom = c + (d - c) * ax
                        var colour = top + (bottom - top) * ay
                        colour.w *= t.alpha
                        (out + 4 * t.pixel).withMemoryRebound(to: SIMD4<Float>.self, capacity: 1) { $0.pointee = colour }
                    }
                    count = 0
                }
                let sv = SIMD4<Float>(repeating: s)
                // A flat pixel (zero gradient) looks up the centre: the same sample for all of them.
                let flat = ShadingImage.bilinear(img, width: sw, height: sh, u: halfW - 0.5, v: halfH - 0.5)
                let hw = SIMD4<Float>(repeating: halfW), hh = SIMD4<Float>(repeating: halfH)
                // Four flat opaque pixels, and which lanes of a (height, alpha) × 4 vector hold alphas.
                let flat4 = SIMD16(lowHalf: SIMD8(lowHalf: flat, highHalf: flat), highHalf: SIMD8(lowHalf: flat, highHalf: flat))
                let alphaLanes = SIMD8<Int32>(0, 1, 0, 1, 0, 1, 0, 1) .!= 0
                let heightLanes = .!alphaLanes
                for y in 0..<height {
                    let up = ha + 2 * (y * stride + 1), mid = ha + 2 * ((y + 1) * stride + 1)
                    let down = ha + 2 * ((y + 2) * stride + 1)
                    let row = UnsafeMutableRawPointer(out + 4 * y * width)
                    var x = 0
                    // Four pixels at a time: the normal and the sample position as vectors, then one
                    // RGBA vector per bilinear corner.
                    while x + 4 <= width {
                        // (height, alpha) of four pixels and of their neighbours, one vector each.
                        let l8 = UnsafeRawPointer(mid + 2 * x - 2).loadUnaligned(as: SIMD8<Float>.self)
                        let r8 = UnsafeRawPointer(mid + 2 * x + 2).loadUnaligned(as: SIMD8<Float>.self)
                        let u8 = UnsafeRawPointer(up + 2 * x).loadUnaligned(as: SIMD8<Float>.self)
                        let d8 = UnsafeRawPointer(down + 2 * x).loadUnaligned(as: SIMD8<Float>.self)
                        // Most of a height field is flat (equal neighbours: zero gradient). Such groups
                        // take the centre sample; opaque ones (alpha exactly 1) need no per-pixel work.
                        if allLanes(((l8 .== r8) .& (u8 .== d8)) .| alphaLanes) {
                            let c8 = UnsafeRawPointer(mid + 2 * x).loadUnaligned(as: SIMD8<Float>.self)
                            if allLanes((c8 .== 1) .| heightLanes) {
                                row.storeBytes(of: flat4, toByteOffset: 16 * x, as: SIMD16<Float>.self)
                            } else {
                                for i in 0..<4 { emit(flat, x + i) }
                            }
                            x += 4
                            continue
                        }
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
                        for i in 0..<4 {
                            let cu = min(max(uv[i], 0), fw1), cv = min(max(vv[i], 0), fh1)
                            let ix = Int(cu), iy = Int(cv)
                            let at = iy * sw + ix
                            let dx = ix + 1 < sw ? 16 : 0, dy = iy + 1 < sh ? 16 * sw : 0
                            pending[count] = Tap(offset: 16 * at, dy: dy, pixel: y * width + x + i, dx: Int32(dx),
                                                 ax: cu - Float(ix), ay: cv - Float(iy), alpha: alphaFactor(x + i))
                            count += 1
                            mercurial_prefetch(img + 16 * at)
                            mercurial_prefetch(img + 16 * at + dx)
                            mercurial_prefetch(img + 16 * at + dy)
                            mercurial_prefetch(img + 16 * at + dy + dx)
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
                        emit(ShadingImage.bilinear(img, width: sw, height: sh, u: fx, v: fy), x)
                    }

                    /// The input's alpha at x, clamped to [0, 1]; a non-finite alpha counts as 0.
                    @inline(__always) func alphaFactor(_ x: Int) -> Float {
                        let alpha = mid[2 * x + 1]
                        return alpha.isFinite ? min(max(alpha, 0), 1) : 0
                    }

                    /// Stores pixel x: the sample, its alpha × the input's alpha factor.
                    @inline(__always) func emit(_ sample: SIMD4<Float>, _ x: Int) {
                        var colour = sample
                        colour.w *= alphaFactor(x)
                        row.storeBytes(of: colour, toByteOffset: 16 * x, as: SIMD4<Float>.self)
                    }
                }
                takePending()
            }
        }
    }
}
