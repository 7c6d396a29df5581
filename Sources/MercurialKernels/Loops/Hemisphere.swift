import Glibc
#if MERCURIAL_KERNELS_V3
import MercurialKernels // the one set of kernel types; this copy of the loops is built for x86-64-v3
#endif

public enum Hemisphere {
    /// Renders `count` pixels of the row-major rectangle whose first pixel is (x, y) and whose rows
    /// are `width` long, into RGBA (straight alpha, linear light). Each pixel depends on its own
    /// position only. Eight pixels of a row are shaded at a time, one per vector lane; the specular
    /// power uses FastMath's exp2 and log2 (relative error below 1e-5 at shininess 40).
    public static func render(_ p: HemisphereParameters, x: Int, y: Int, width: Int,
                              count: Int, into out: UnsafeMutablePointer<Float>) {
        guard count > 0, width > 0 else { return }
        var done = 0
        while done < count {
            let row = done / width, column = done % width
            let run = min(width - column, count - done)
            renderRun(p, x: x + column, y: y + row, count: run, into: out + 4 * done)
            done += run
        }
    }

    static func renderRun(_ p: HemisphereParameters, x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<Float>) {
        let size = Float(p.size)
        let scale = 2 / size, halfSize = size / 2
        let v = (Float(y) + 0.5) * scale - 1
        let vv = V4(repeating: v)
        let ambient = p.ambient * p.diffuse
        let shininess = min(max(p.shininess.isNaN ? 1 : p.shininess, HemisphereParameters.shininessRange.lowerBound),
                            HemisphereParameters.shininessRange.upperBound)
        let lights = p.lights
        let lane = V4(0, 1, 2, 3, 4, 5, 6, 7)
        // Below this N·H the specular term is under 2^-14 of the light: it is taken as 0 (lane by
        // lane, so a pixel's value never depends on its neighbours), and groups of four pixels that
        // are all below it skip the power altogether.
        let cutoff = Float(Glibc.exp2(-14 / Double(shininess)))
        let cutoff2 = V4(repeating: cutoff * cutoff)
        var i = 0
        while i < count {
            let u = (V4(repeating: Float(x + i)) + lane + 0.5) * scale - 1
            let r2 = u * u + vv * vv
            let r = r2.squareRoot()
            let coverage = vclamp((1 - r) * halfSize + 0.5, 0, 1)
            let n = min(V4.scalarCount, count - i)
            if !anyLane(coverage .> 0) || p.size <= 0 {
                for k in 0..<(4 * n) { out[4 * i + k] = 0 }
                i += V4.scalarCount
                continue
            }
            // Inside the disc N = (u, v, √(1 − r²)); in the rim's outer half-pixel, the rim's normal.
            let inside = r2 .<= 1
            let safeR = vmax(r, V4(repeating: 1e-30))
            var nx = u, ny = vv
            nx.replace(with: u / safeR, where: .!inside)
            ny.replace(with: vv / safeR, where: .!inside)
            let nz = vmax(1 - r2, V4(repeating: 0)).squareRoot()
            var cr = V4(repeating: ambient.x), cg = V4(repeating: ambient.y), cb = V4(repeating: ambient.z)
            for light in lights {
                var lx = light.position.x - nx, ly = light.position.y - ny, lz = light.position.z - nz
                let il = 1 / vmax(lx * lx + ly * ly + lz * lz, V4(repeating: 1e-30)).squareRoot()
                lx *= il; ly *= il; lz *= il
                let nl = vmax(nx * lx + ny * ly + nz * lz, V4(repeating: 0))
                // H = L + E, not normalised: N·Ĥ = (N·H)/|H|, so the cut-off test needs no square
                // root, and the power is exp2(s·(log2(N·H) − ½·log2|H|²)).
                let hz = lz + 1
                let h2 = vmax(lx * lx + ly * ly + hz * hz, V4(repeating: 1e-30))
                let nDotH = nx * lx + ny * ly + nz * hz
                var spec = V4(repeating: 0)
                let lit = (nDotH .> 0) .& (nDotH * nDotH .> cutoff2 * h2)
                if anyLane(lit) {
                    let logNH = FastMath.log2(vmax(nDotH, V4(repeating: 1e-30))) - 0.5 * FastMath.log2(h2)
                    spec = FastMath.exp2(vmin(logNH, V4(repeating: 0)) * shininess)
                    spec.replace(with: 0, where: .!lit)
                }
                cr += (p.diffuse.x * nl + p.specular.x * spec) * light.color.x
                cg += (p.diffuse.y * nl + p.specular.y * spec) * light.color.y
                cb += (p.diffuse.z * nl + p.specular.z * spec) * light.color.z
            }
            // Fully transparent pixels are transparent black, whatever their neighbours.
            let clear = coverage .<= 0
            cr.replace(with: 0, where: clear)
            cg.replace(with: 0, where: clear)
            cb.replace(with: 0, where: clear)
            for k in 0..<n {
                let o = out + 4 * (i + k)
                o[0] = cr[k]; o[1] = cg[k]; o[2] = cb[k]; o[3] = coverage[k]
            }
            i += V4.scalarCount
        }
    }

    /// The whole hemisphere of `p` as a shading image (mercurial:shaded-material's default).
    public static func shadingImage(_ p: HemisphereParameters) -> ShadingImage {
        var pixels = [Float](repeating: 0, count: p.size * p.size * 4)
        pixels.withUnsafeMutableBufferPointer {
            render(p, x: 0, y: 0, width: p.size, count: p.size * p.size, into: $0.baseAddress!)
        }
        return ShadingImage(width: p.size, height: p.size, rgba: pixels)
    }
}
