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

    /// The blurred heights over the block grown by one pixel: `rows` × `columns`.
    static func smoothHeights(_ h: UnsafePointer<Float>, halo: Int, taps: Int, weights: [Float], rows: Int, columns: Int,
                              into s: UnsafeMutablePointer<Float>) {
        let stride = columns + 2 * taps // = the window's row length
        @inline(__always) func height(_ i: Int) -> Float { let v = h[i]; return v.isFinite ? v : 0 }
        guard taps > 0 else {
            for i in 0..<(rows * columns) { s[i] = height(i) }
            return
        }
        // Horizontal pass over every window row, for the block's columns (grown by one).
        let windowRows = rows + 2 * taps
        var across = [Float](repeating: 0, count: windowRows * columns)
        weights.withUnsafeBufferPointer { w in
            for r in 0..<windowRows {
                let row = r * stride
                for c in 0..<columns {
                    let centre = row + c + taps
                    var sum = w[0] * height(centre)
                    for k in 1...taps { sum += w[k] * (height(centre - k) + height(centre + k)) }
                    across[r * columns + c] = sum
                }
            }
            // Vertical pass.
            for r in 0..<rows {
                for c in 0..<columns {
                    let centre = (r + taps) * columns + c
                    var sum = w[0] * across[centre]
                    for k in 1...taps { sum += w[k] * (across[centre - k * columns] + across[centre + k * columns]) }
                    s[r * columns + c] = sum
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
        let view = SIMD3<Float>(0, 0, 1)
        let shadow = SIMD3(p.shadow.x, p.shadow.y, p.shadow.z) * p.shadow.w
        for j in 0..<height {
            for i in 0..<width {
                let o = 4 * (j * width + i)
                let n = normal(s, columns: columns, c: i + 1, r: j + 1, gain: gain)
                switch p.output {
                case .normalMap, .normalMapDirectX:
                    let green = p.output == .normalMap ? -n.y : n.y
                    out[o] = (n.x + 1) * 0.5
                    out[o + 1] = (green + 1) * 0.5
                    out[o + 2] = (n.z + 1) * 0.5
                    out[o + 3] = color[o + 3]
                    continue
                case .lit:
                    break
                }
                let c = SIMD3(color[o], color[o + 1], color[o + 2])
                let point = SIMD3(Float(x + i) + 0.5, Float(y + j) + 0.5, 0)
                var rgb = p.ambient * c
                var lit: Float = 0
                for light in p.lights {
                    var l = light.direction, a: Float = 1
                    if light.kind == .point {
                        let d = light.position - point
                        let distance = (d * d).sum().squareRoot()
                        l = distance > 0 ? d / distance : view
                        if light.falloff != 0 { a = powf(1 + distance / light.reach, -light.falloff) }
                    }
                    let nl = (n * l).sum()
                    guard nl > 0 else { continue }
                    let h = l + view
                    let nh = max((n * h).sum() / (h * h).sum().squareRoot(), 0)
                    let specular = powf(nh, p.shininess)
                    rgb += a * light.color * (nl * c + specular * p.specular)
                    lit += a * nl
                }
                rgb += shadow * (1 - min(lit, 1))
                out[o] = rgb.x
                out[o + 1] = rgb.y
                out[o + 2] = rgb.z
                out[o + 3] = color[o + 3]
            }
        }
    }
}
