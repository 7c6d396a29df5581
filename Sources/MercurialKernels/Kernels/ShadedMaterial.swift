import CVector
#if MERCURIAL_KERNELS_V3
import MercurialKernels // the one set of kernel types; this copy of the loops is built for x86-64-v3
#else
/// The entry points the plug-in calls, in whichever build suits the CPU (both builds conform). (The
/// shading image's type is shared: ShadingImage.swift.)
public protocol ShadedMaterialKernel {
    static func shade(heightAlpha: UnsafePointer<Float>, rowLength: Int?, width: Int, height: Int,
                      scale: Float, shading: ShadingImage, into out: UnsafeMutablePointer<Float>)
}
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

    /// Bilinear samples waiting to be taken, one array per field, filled eight at a time with vector
    /// stores: the byte offset of each sample's top-left shading pixel and the steps to the pixels
    /// right of and below it (0 at the last column or row, where the weight is 0 too: the steps
    /// only keep the reads inside the image), the blend weights (until the sample is placed: the
    /// normal's x and y), the output pixel and the factor for its alpha. The arithmetic is
    /// `ShadingImage.bilinear`'s: the same result.
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
    @inline(__always) static func alphaFactors(_ alpha: SIMD8<Float>) -> SIMD8<Float> {
        var a = alpha
        a.replace(with: 0, where: .!((a .> -.infinity) .& (a .< .infinity)))
        a.replace(with: 0, where: a .< 0)
        a.replace(with: 1, where: a .> 1)
        return a
    }

    /// Shades a block. `heightAlpha` holds (height, alpha) pairs for the block grown by one pixel on
    /// every side (`(width + 2) × (height + 2)`), with pixels beyond the height field's extent
    /// already clamped to its edge. Writes width × height RGBA pixels: the shading image's colour,
    /// alpha = its alpha × the input's alpha. Non-finite heights count as flat, and so does every
    /// pixel whose alpha factor is 0 (input alpha ≤ 0 or not finite): nothing of it shows.
    /// `rowLength` (default width + 2) is the distance between rows of `heightAlpha` in pixels, so a
    /// block can be shaded out of a wider window.
    ///
    /// Sloped pixels are done in two stages. The first (`Block.shadeGroup`) computes their normals
    /// eight at a time and queues them; the second (`Block.takePending`), once up to a thousand
    /// wait, finds where each one's bilinear sample lies and asks the processor to fetch those
    /// shading pixels (prefetch), then blends them all. Lookups land all over the shading image
    /// (4 MB at 512²), so without this each one waited for memory in turn; those of gentle slopes,
    /// near the centre, are in the cache and not fetched. Flat pixels skip both: they all take the
    /// centre's sample.
    public static func shade(heightAlpha ha: UnsafePointer<Float>, rowLength: Int? = nil, width: Int, height: Int,
                             scale: Float, shading: ShadingImage, into out: UnsafeMutablePointer<Float>) {
        withUnsafeTemporaryAllocation(byteCount: 7 * 4 * pendingCapacity, alignment: 16) { memory in
            shading.rgba.withUnsafeBytes { image in
                var block = Block(image: image.baseAddress!, shading: shading, scale: scale,
                                  pending: Taps(memory.baseAddress!, capacity: pendingCapacity),
                                  heightAlpha: ha, stride: rowLength ?? width + 2, width: width, out: out)
                for y in 0..<height { block.shadeRow(y) }
                block.takePending()
            }
        }
    }

    /// One block being shaded: the shading image, the block's rows, and the taps waiting for their
    /// lookups. Its methods are the stages of `shade`.
    struct Block {
        let image: UnsafeRawPointer
        let shadingWidth: Int, shadingHeight: Int
        let halfW: Float, halfH: Float
        /// The slope gain (0 when not finite).
        let gain: Float
        let pending: Taps
        var count = 0
        let ha: UnsafePointer<Float>
        let stride: Int, width: Int
        let out: UnsafeMutablePointer<Float>
        /// The sample every flat pixel takes (the centre's), and four of it for four opaque pixels,
        /// then for four clear ones (alpha 0: the sample's alpha × 0, as `emit` makes it).
        let flat: SIMD4<Float>, flat4: SIMD16<Float>, clear4: SIMD16<Float>
        /// Constants of the vector stages, made once (Swift does not always fold SIMD literals).
        let heightLanes = SIMD8<Int32>(1, 0, 1, 0, 1, 0, 1, 0) .!= 0
        let lanes = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7)
        let lastU: SIMD8<Float>, lastV: SIMD8<Float>, shadingWidth8: SIMD8<Int32>, shadingHeight8: SIMD8<Int32>
        let gain8: SIMD8<Float>, halfWidth8: SIMD8<Float>, halfHeight8: SIMD8<Float>
        /// Where a flat pixel samples (the centre), as the sloped ones' u and v.
        let flatU8: SIMD8<Float>, flatV8: SIMD8<Float>
        /// Lookups closer than this (in texels, each way) to the centre are not prefetched.
        let nearCentre = SIMD8<Float>(repeating: 16)

        init(image: UnsafeRawPointer, shading: ShadingImage, scale: Float, pending: Taps,
             heightAlpha: UnsafePointer<Float>, stride: Int, width: Int, out: UnsafeMutablePointer<Float>) {
            self.image = image
            shadingWidth = shading.width; shadingHeight = shading.height
            halfW = Float(shading.width) / 2; halfH = Float(shading.height) / 2
            gain = scale.isFinite ? scale : 0
            self.pending = pending
            ha = heightAlpha
            self.stride = stride
            self.width = width
            self.out = out
            // A flat pixel (zero gradient) looks up the centre: the same sample for all of them.
            flat = bilinear(image, width: shadingWidth, height: shadingHeight, u: halfW - 0.5, v: halfH - 0.5)
            flat4 = SIMD16(lowHalf: SIMD8(lowHalf: flat, highHalf: flat), highHalf: SIMD8(lowHalf: flat, highHalf: flat))
            var clear = flat
            clear.w *= 0
            clear4 = SIMD16(lowHalf: SIMD8(lowHalf: clear, highHalf: clear), highHalf: SIMD8(lowHalf: clear, highHalf: clear))
            lastU = SIMD8(repeating: Float(shadingWidth - 1)); lastV = SIMD8(repeating: Float(shadingHeight - 1))
            shadingWidth8 = SIMD8(repeating: Int32(shadingWidth)); shadingHeight8 = SIMD8(repeating: Int32(shadingHeight))
            gain8 = SIMD8(repeating: gain); halfWidth8 = SIMD8(repeating: halfW); halfHeight8 = SIMD8(repeating: halfH)
            flatU8 = SIMD8(repeating: halfW - 0.5); flatV8 = SIMD8(repeating: halfH - 0.5)
        }

        /// One output row's three input rows (above, at, below; each starts at the block's first
        /// column) and where its pixels go.
        struct Row {
            let up, mid, down: UnsafePointer<Float>
            let out: UnsafeMutableRawPointer
            let index: Int

            /// (height, alpha) of the four pixels from x, one vector.
            @inline(__always) func load(_ p: UnsafePointer<Float>, _ x: Int) -> SIMD8<Float> {
                UnsafeRawPointer(p + 2 * x).loadUnaligned(as: SIMD8<Float>.self)
            }
            /// Whether the four pixels from x are flat (zero gradient: equal neighbours), and their
            /// neighbours' alphas equal too — so that one vector test per side decides. It may say
            /// no for a flat group; the general path handles that one.
            @inline(__always) func isEvenlyFlat(_ x: Int) -> Bool {
                all((load(mid, x - 1) .== load(mid, x + 1)) .& (load(up, x) .== load(down, x)))
            }
            /// Whether the four pixels from x are opaque (alpha exactly 1); `heightLanes` marks the
            /// lanes that hold heights.
            @inline(__always) func isOpaque(_ x: Int, _ heightLanes: SIMDMask<SIMD8<Int32>>) -> Bool {
                all(load(mid, x).replacing(with: 1, where: heightLanes) .== 1)
            }
            /// Whether the four pixels from x are clear (alpha +0, bit for bit: −0 would give the
            /// sample's alpha × −0). Each (height, alpha) pair read as one little-endian 64-bit
            /// word has the alpha's bits on top; the four or-ed together (integer operations: the
            /// SIMD integer comparison became a loop over lanes).
            @inline(__always) func isClear(_ x: Int) -> Bool {
                let pairs = UnsafeRawPointer(mid + 2 * x)
                let any = pairs.loadUnaligned(as: UInt64.self) | pairs.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                    | pairs.loadUnaligned(fromByteOffset: 16, as: UInt64.self) | pairs.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
                return any >> 32 == 0
            }
        }

        @inline(__always) func row(_ y: Int) -> Row {
            Row(up: ha + 2 * (y * stride + 1), mid: ha + 2 * ((y + 1) * stride + 1),
                down: ha + 2 * ((y + 2) * stride + 1), out: UnsafeMutableRawPointer(out + 4 * y * width), index: y)
        }

        /// Shades row y: four pixels at a time where they are flat or clear (runs of flat opaque
        /// groups stored at once), eight at a time where they slope (queued), leftover pixels one
        /// by one.
        @inline(__always) mutating func shadeRow(_ y: Int) {
            let r = row(y)
            var x = 0
            while x + 4 <= width {
                // Most of a height field is flat, and opaque or clear: a run of such groups is one
                // colour, stored four pixels at a time.
                while x + 4 <= width, r.isEvenlyFlat(x) {
                    if r.isOpaque(x, heightLanes) {
                        r.out.storeBytes(of: flat4, toByteOffset: 16 * x, as: SIMD16<Float>.self)
                    } else if r.isClear(x) {
                        r.out.storeBytes(of: clear4, toByteOffset: 16 * x, as: SIMD16<Float>.self)
                    } else {
                        break
                    }
                    x += 4
                }
                guard x + 4 <= width else { break }
                if r.isEvenlyFlat(x) {
                    // Flat but translucent (a transparent background): the centre sample, alpha per pixel.
                    for i in 0..<4 { emit(flat, r, x + i) }
                    x += 4
                } else if r.isClear(x) {
                    // Sloped but clear (a softened bevel's slopes beyond the shape): nothing shows.
                    r.out.storeBytes(of: clear4, toByteOffset: 16 * x, as: SIMD16<Float>.self)
                    x += 4
                } else if width >= 8 {
                    // Eight from x; near the row's end, its last eight (the sloped path gives flat
                    // and clear pixels the same values as above, so those shaded twice keep theirs).
                    let from = min(x, width - 8)
                    shadeGroup(r, from)
                    x = from + 8
                } else {
                    for i in 0..<4 { shadePixel(r, x + i) }
                    x += 4
                }
            }
            while x < width {
                shadePixel(r, x)
                x += 1
            }
        }

        /// Eight sloped-looking pixels from x: their normals' x and y as vectors, queued (or done at
        /// once when they turn out flat or their slopes too steep for the vector arithmetic).
        @inline(__always) mutating func shadeGroup(_ r: Row, _ x: Int) {
            let left = mercurial_evens8(r.mid + 2 * (x - 1)), right = mercurial_evens8(r.mid + 2 * (x + 1))
            let above = mercurial_evens8(r.up + 2 * x), below = mercurial_evens8(r.down + 2 * x)
            var gx = (right - left) * 0.5, gy = (below - above) * 0.5
            // Non-finite gradients count as flat (NaN fails every comparison).
            gx.replace(with: 0, where: .!((gx .> -.infinity) .& (gx .< .infinity)))
            gy.replace(with: 0, where: .!((gy .> -.infinity) .& (gy .< .infinity)))
            if !any((gx .!= 0) .| (gy .!= 0)) {
                for i in 0..<8 { emit(flat, r, x + i) }
                return
            }
            var nx = -gain8 * gx, ny = -gain8 * gy
            if any((nx .> 1e15) .| (nx .< -1e15) .| (ny .> 1e15) .| (ny .< -1e15)) {
                for i in 0..<8 { shadePixel(r, x + i) }
                return
            }
            // Pixels of alpha factor 0 take the flat sample (the centre: a zero normal's x and y),
            // whatever their slope.
            let alpha = alphaFactors(mercurial_odds8(r.mid + 2 * x)), hidden = alpha .== 0
            nx.replace(with: 0, where: hidden)
            ny.replace(with: 0, where: hidden)
            if count + 8 > pendingCapacity { takePending() }
            Taps.store(nx, pending.ax, at: count)
            Taps.store(ny, pending.ay, at: count)
            Taps.store(alpha, pending.alpha, at: count)
            Taps.store(Int32(r.index * width + x) &+ lanes, pending.pixel, at: count)
            count += 8
        }

        /// The second stage, for every waiting tap: where its sample lies (from its normal's x and
        /// y, in the weights' arrays), with the shading pixels of each four prefetched unless all
        /// four lie near the centre; then the blends. The sample lies clamped to the outermost pixel
        /// centres; the pixel left of and above it (rounded down) and the weights are as in
        /// `bilinear`. Each loop's steps are independent of each other, so the processor overlaps
        /// the square roots and the memory reads of several.
        mutating func takePending() {
            let zero8 = SIMD8<Float>()
            for i in Swift.stride(from: 0, to: count, by: 8) {
                let nx = mercurial_load8(pending.ax + i), ny = mercurial_load8(pending.ay + i)
                let inv = mercurial_inverse_sqrt8(nx * nx + ny * ny + 1)
                var cu = (nx * inv + 1) * halfWidth8 - 0.5, cv = (ny * inv + 1) * halfHeight8 - 0.5
                cu.replace(with: zero8, where: cu .< zero8)
                cu.replace(with: lastU, where: cu .> lastU)
                cv.replace(with: zero8, where: cv .< zero8)
                cv.replace(with: lastV, where: cv .> lastV)
                let (ix, fx) = FastMath.floorSmall(cu), (iy, fy) = FastMath.floorSmall(cv)
                let at = 16 &* (iy &* shadingWidth8 &+ ix)
                let dx = SIMD8<Int32>().replacing(with: 16, where: ix &+ 1 .< shadingWidth8)
                let dy = SIMD8<Int32>().replacing(with: 16 &* shadingWidth8, where: iy &+ 1 .< shadingHeight8)
                Taps.store(at, pending.offset, at: i)
                Taps.store(dx, pending.dx, at: i)
                Taps.store(dy, pending.dy, at: i)
                Taps.store(cu - fx, pending.ax, at: i)
                Taps.store(cv - fy, pending.ay, at: i)
                // Gentle slopes look up texels near the centre, which every such pixel reads: cached.
                let du = cu - flatU8, dv = cv - flatV8
                let near = (du .< nearCentre) .& (du .> -nearCentre) .& (dv .< nearCentre) .& (dv .> -nearCentre)
                let atRight = at &+ dx, atBelow = at &+ dy, atAcross = atBelow &+ dx
                for half in 0..<2 {
                    if near[4 * half] && near[4 * half + 1] && near[4 * half + 2] && near[4 * half + 3] { continue }
                    for k in 4 * half..<4 * half + 4 {
                        mercurial_prefetch(image + Int(at[k]))
                        mercurial_prefetch(image + Int(atRight[k]))
                        mercurial_prefetch(image + Int(atBelow[k]))
                        mercurial_prefetch(image + Int(atAcross[k]))
                    }
                }
            }
            // The blends, two taps at a time, one in each half of eight lanes.
            @inline(__always) func texels(_ first: Int, _ second: Int) -> SIMD8<Float> {
                SIMD8(lowHalf: (image + first).loadUnaligned(as: SIMD4<Float>.self),
                      highHalf: (image + second).loadUnaligned(as: SIMD4<Float>.self))
            }
            @inline(__always) func pair(_ p: UnsafeMutablePointer<Float>, _ i: Int) -> SIMD8<Float> {
                SIMD8(lowHalf: SIMD4(repeating: p[i]), highHalf: SIMD4(repeating: p[i + 1]))
            }
            let alphaLanes = SIMD8<Int32>(0, 0, 0, 1, 0, 0, 0, 1) .!= 0
            var i = 0
            while i < count {
                let o0 = Int(pending.offset[i]), o1 = Int(pending.offset[i + 1])
                let dx0 = Int(pending.dx[i]), dx1 = Int(pending.dx[i + 1]), dy0 = Int(pending.dy[i]), dy1 = Int(pending.dy[i + 1])
                let a = texels(o0, o1), b = texels(o0 + dx0, o1 + dx1)
                let c = texels(o0 + dy0, o1 + dy1), d = texels(o0 + dy0 + dx0, o1 + dy1 + dx1)
                let ax = pair(pending.ax, i), ay = pair(pending.ay, i)
                let top = a + (b - a) * ax, bottom = c + (d - c) * ax
                var colour = top + (bottom - top) * ay
                colour.replace(with: colour * pair(pending.alpha, i), where: alphaLanes)
                UnsafeMutableRawPointer(out + 4 * Int(pending.pixel[i])).storeBytes(of: colour.lowHalf, as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(out + 4 * Int(pending.pixel[i + 1])).storeBytes(of: colour.highHalf, as: SIMD4<Float>.self)
                i += 2
            }
            count = 0
        }

        /// One pixel, in scalars (the tail of a row, and overflowing slopes), sampled at once.
        func shadePixel(_ r: Row, _ x: Int) {
            guard alphaFactors(SIMD8(repeating: r.mid[2 * x + 1]))[0] != 0 else { return emit(flat, r, x) }
            var gx = (r.mid[2 * (x + 1)] - r.mid[2 * (x - 1)]) * 0.5
            var gy = (r.down[2 * x] - r.up[2 * x]) * 0.5
            if !gx.isFinite { gx = 0 }
            if !gy.isFinite { gy = 0 }
            var nx = -gain * gx, ny = -gain * gy, nz: Float = 1
            // Steep or huge slopes: scale down first so the squares cannot overflow.
            let m = max(abs(nx), abs(ny))
            if m > 1e15 { nx /= m; ny /= m; nz /= m }
            let inv = 1 / (nx * nx + ny * ny + nz * nz).squareRoot()
            var fx = (nx * inv + 1) * halfW - 0.5, fy = (ny * inv + 1) * halfH - 0.5
            if fx.isNaN || fy.isNaN { fx = halfW - 0.5; fy = halfH - 0.5 } // overflowed slopes: flat
            emit(bilinear(image, width: shadingWidth, height: shadingHeight, u: fx, v: fy), r, x)
        }

        /// Stores pixel x: the sample, its alpha × the input's alpha factor.
        @inline(__always) func emit(_ sample: SIMD4<Float>, _ r: Row, _ x: Int) {
            var colour = sample
            colour.w *= alphaFactors(SIMD8(repeating: r.mid[2 * x + 1]))[0]
            r.out.storeBytes(of: colour, toByteOffset: 16 * x, as: SIMD4<Float>.self)
        }
    }
}

extension ShadedMaterial: ShadedMaterialKernel {}
