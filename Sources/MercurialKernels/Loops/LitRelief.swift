import Glibc
#if MERCURIAL_KERNELS_V3
import MercurialKernels // the one set of kernel types; this copy of the loops is built for x86-64-v3
#endif

// A colour layer lit through its own relief, as SpriteKit lights a sprite through a normal map
// generated from a bump map (BristlePaint's look).
//
// Height → normal: non-finite heights count as 0; the heights are blurred with a Gaussian of
// σ = 4 · smoothness pixels (cut at 3σ; none at smoothness 0); then with central differences
// ∂h/∂x = (h(x+1) − h(x−1)) / 2, likewise ∂h/∂y, the normal is
//   n = normalize(−g · ∂h/∂x, −g · ∂h/∂y, 1),   g = contrast (−contrast when inverted),
// in image space: x right, y down, z towards the viewer.
//
// Lighting, per pixel with colour C (linear RGB) at P = (x + ½, y + ½, 0), viewer V = (0, 0, 1):
//   out = ambient · C + Σ_lights a · colour · (max(n·L, 0) · C + [n·L > 0] · max(n·H, 0)^shininess · specular)
//         + shadow.rgb · shadow.a · (1 − min(1, Σ_lights a · max(n·L, 0)))
// with, for a point light at Q: L = (Q − P)/|Q − P|, a = (1 + |Q − P| / reach)^−falloff; for a
// directional light: L its direction, a = 1; H = normalize(L + V). Alpha is the layer's.
// Normal-map output: RGB = (n + 1)/2 with green = (1 − n.y)/2 (green up) or (1 + n.y)/2 (DirectX).

public enum LitRelief {
    /// Lights a block of width × height pixels whose first pixel is (x, y) in image coordinates.
    /// `heights`: the height field over the block grown by `p.halo` on every side, row-major, rows
    /// of width + 2·halo. `color`: the block's RGBA (straight alpha, linear). `weights`: `p.weights`.
    /// Writes width × height RGBA pixels.
    public static func render(_ p: LitReliefParameters, weights: [Float], heights: UnsafePointer<Float>,
                              color: UnsafePointer<Float>, x: Int, y: Int, width: Int, height: Int,
                              into out: UnsafeMutablePointer<Float>) {
        guard width > 0, height > 0 else { return }
        let rows = height + 2, columns = width + 2
        var smooth = [Float](repeating: 0, count: rows * columns)
        smooth.withUnsafeMutableBufferPointer { s in
            smoothHeights(heights, halo: p.halo, taps: p.taps, weights: weights, rows: rows, columns: columns,
                          into: s.baseAddress!)
            shade(p, smooth: s.baseAddress!, columns: columns, color: color, x: x, y: y, width: width, height: height,
                  into: out)
        }
    }

    /// The blurred heights over the block grown by one pixel: `rows` × `columns`. Each pass runs
    /// tap by tap over whole rows (so the loops vectorise), adding the taps in the same order for
    /// every pixel.
    static func smoothHeights(_ h: UnsafePointer<Float>, halo: Int, taps: Int, weights: [Float], rows: Int, columns: Int,
                              into s: UnsafeMutablePointer<Float>) {
        @inline(__always) func height(_ v: Float) -> Float { v.isFinite ? v : 0 }
        guard taps > 0 else {
            for i in 0..<(rows * columns) { s[i] = height(h[i]) }
            return
        }
        let stride = columns + 2 * taps // = the window's row length
        let windowRows = rows + 2 * taps
        var scratch = [Float](repeating: 0, count: windowRows * stride + windowRows * columns)
        scratch.withUnsafeMutableBufferPointer { buffer in
            let clean = buffer.baseAddress!, across = clean + windowRows * stride
            for i in 0..<(windowRows * stride) { clean[i] = height(h[i]) }
            weights.withUnsafeBufferPointer { w in
                // Horizontal pass over every window row, for the block's columns (grown by one).
                for r in 0..<windowRows {
                    let source = clean + r * stride + taps, target = across + r * columns
                    for c in 0..<columns { target[c] = w[0] * source[c] }
                    for k in 1...taps {
                        let wk = w[k]
                        for c in 0..<columns { target[c] += wk * (source[c - k] + source[c + k]) }
                    }
                }
                // Vertical pass.
                for r in 0..<rows {
                    let centre = across + (r + taps) * columns, target = s + r * columns
                    for c in 0..<columns { target[c] = w[0] * centre[c] }
                    for k in 1...taps {
                        let wk = w[k], above = centre - k * columns, below = centre + k * columns
                        for c in 0..<columns { target[c] += wk * (above[c] + below[c]) }
                    }
                }
            }
        }
    }

    /// The surface normal from the smoothed heights around (c, r) of the grown block.
    @inline(__always)
    public static func normal(_ s: UnsafePointer<Float>, columns: Int, c: Int, r: Int, gain: Float) -> SIMD3<Float> {
        let dx = (s[r * columns + c + 1] - s[r * columns + c - 1]) * 0.5
        let dy = (s[(r + 1) * columns + c] - s[(r - 1) * columns + c]) * 0.5
        let n = SIMD3(-gain * dx, -gain * dy, 1)
        return n / (n * n).sum().squareRoot()
    }

    static func shade(_ p: LitReliefParameters, smooth s: UnsafePointer<Float>, columns: Int, color: UnsafePointer<Float>,
                      x: Int, y: Int, width: Int, height: Int, into out: UnsafeMutablePointer<Float>) {
        let gain = p.invert ? -p.contrast : p.contrast
        guard p.output == .lit else {
            for j in 0..<height {
                for i in 0..<width {
                    let o = 4 * (j * width + i)
                    let n = normal(s, columns: columns, c: i + 1, r: j + 1, gain: gain)
                    let green = p.output == .normalMap ? -n.y : n.y
                    out[o] = (n.x + 1) * 0.5
                    out[o + 1] = (green + 1) * 0.5
                    out[o + 2] = (n.z + 1) * 0.5
                    out[o + 3] = color[o + 3]
                }
            }
            return
        }
        // Lit colour, eight pixels at a time. A row's last group, when shorter, goes through the
        // same arithmetic on zero-padded copies, so every pixel is computed the same way whatever
        // block it falls in (tiles and threads give the same bytes).
        let lanes = V4.scalarCount
        var pad = Lanes()
        for j in 0..<height {
            let r = j + 1
            var i = 0
            while i < width {
                let count = min(lanes, width - i)
                // Each lane's x from its own integer position: the same Float whatever group the
                // pixel falls in (far from the origin, Float(x) + lane would round differently).
                var px = V4()
                for l in 0..<lanes { px[l] = Float(x + i + l) + 0.5 }
                let py = Float(y + j) + 0.5
                let rgba: (V4, V4, V4, V4)
                if count == lanes {
                    let n = neighbours(s + r * columns + i + 1, columns: columns)
                    rgba = light(p, gain: gain, heights: n, color: deinterleave(color + 4 * (j * width + i)), px: px, py: py)
                } else {
                    pad.fill(from: s + r * columns + i + 1, columns: columns, color: color + 4 * (j * width + i), count: count)
                    rgba = light(p, gain: gain, heights: pad.heights, color: pad.color, px: px, py: py)
                }
                store(rgba, into: out + 4 * (j * width + i), count: count)
                i += count
            }
        }
    }

    /// Zero-padded inputs of a row's last, short group.
    struct Lanes {
        var left = V4(), right = V4(), up = V4(), down = V4()
        var r = V4(), g = V4(), b = V4(), a = V4()
        var heights: (V4, V4, V4, V4) { (left, right, up, down) }
        var color: (V4, V4, V4, V4) { (r, g, b, a) }

        mutating func fill(from centre: UnsafePointer<Float>, columns: Int, color: UnsafePointer<Float>, count: Int) {
            self = Lanes()
            for l in 0..<count {
                left[l] = centre[l - 1]; right[l] = centre[l + 1]
                up[l] = centre[l - columns]; down[l] = centre[l + columns]
                r[l] = color[4 * l]; g[l] = color[4 * l + 1]; b[l] = color[4 * l + 2]; a[l] = color[4 * l + 3]
            }
        }
    }

    /// The four neighbours' heights of eight pixels starting at `centre`.
    @inline(__always)
    static func neighbours(_ centre: UnsafePointer<Float>, columns: Int) -> (V4, V4, V4, V4) {
        @inline(__always) func load(_ p: UnsafePointer<Float>) -> V4 {
            UnsafeRawPointer(p).loadUnaligned(as: V4.self)
        }
        return (load(centre - 1), load(centre + 1), load(centre - columns), load(centre + columns))
    }

    @inline(__always)
    static func deinterleave(_ p: UnsafePointer<Float>) -> (V4, V4, V4, V4) {
        var r = V4(), g = V4(), b = V4(), a = V4()
        for l in 0..<V4.scalarCount {
            r[l] = p[4 * l]; g[l] = p[4 * l + 1]; b[l] = p[4 * l + 2]; a[l] = p[4 * l + 3]
        }
        return (r, g, b, a)
    }

    @inline(__always)
    static func store(_ rgba: (V4, V4, V4, V4), into o: UnsafeMutablePointer<Float>, count: Int) {
        for l in 0..<count {
            o[4 * l] = rgba.0[l]; o[4 * l + 1] = rgba.1[l]; o[4 * l + 2] = rgba.2[l]; o[4 * l + 3] = rgba.3[l]
        }
    }

    /// The lighting formula for eight pixels (see the top of this file); powers by FastMath's
    /// exp2/log2 (relative error below 1e-6).
    @inline(__always)
    static func light(_ p: LitReliefParameters, gain: Float, heights: (V4, V4, V4, V4), color: (V4, V4, V4, V4),
                      px: V4, py: Float) -> (V4, V4, V4, V4) {
        let half = V4(repeating: 0.5)
        let nx0 = (heights.1 - heights.0) * half * -gain, ny0 = (heights.3 - heights.2) * half * -gain
        let inverse = 1 / (nx0 * nx0 + ny0 * ny0 + 1).squareRoot()
        let nx = nx0 * inverse, ny = ny0 * inverse, nz = inverse
        let (cr, cg, cb, alpha) = color
        var r = cr * p.ambient.x, g = cg * p.ambient.y, b = cb * p.ambient.z
        var lit = V4()
        for light in p.lights {
            var lx = V4(repeating: light.direction.x), ly = V4(repeating: light.direction.y)
            var lz = V4(repeating: light.direction.z), a = V4(repeating: 1)
            if light.kind == .point {
                let dx = V4(repeating: light.position.x) - px, dy = light.position.y - py, dz = light.position.z
                let distance = (dx * dx + V4(repeating: dy * dy + dz * dz)).squareRoot()
                let inv = 1 / vmax(distance, V4(repeating: 1e-30))
                lx = dx * inv; ly = dy * inv; lz = dz * inv
                if light.falloff != 0 {
                    a = FastMath.exp2(FastMath.log2(1 + distance / light.reach) * -light.falloff)
                }
            }
            let nl = nx * lx + ny * ly + nz * lz
            let lit1 = vmax(nl, V4())
            // H = normalize(L + V), V = (0, 0, 1).
            let hz = lz + 1
            let nh = vclamp((nx * lx + ny * ly + nz * hz) / (lx * lx + ly * ly + hz * hz).squareRoot(), 0, 1)
            var specular = FastMath.pow01(nh, p.shininess)
            specular.replace(with: 0, where: nl .<= 0)
            let weight = a * lit1
            r += a * light.color.x * (lit1 * cr + specular * p.specular.x)
            g += a * light.color.y * (lit1 * cg + specular * p.specular.y)
            b += a * light.color.z * (lit1 * cb + specular * p.specular.z)
            lit += weight
        }
        let unlit = 1 - vmin(lit, V4(repeating: 1))
        let shade = p.shadow.w
        r += unlit * (p.shadow.x * shade); g += unlit * (p.shadow.y * shade); b += unlit * (p.shadow.z * shade)
        return (r, g, b, alpha)
    }
}
