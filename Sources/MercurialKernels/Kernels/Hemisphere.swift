import Glibc
#if MERCURIAL_KERNELS_V3
import MercurialKernels // the types below are compiled once, in MercurialKernels; this copy is the x86-64-v3 loops
#else

// MARK: Types (compiled once, into MercurialKernels)

// The lit hemisphere's parameters. A lit hemisphere ("lit sphere", "matcap"): a unit sphere seen orthographically, filling a square
// of `size` pixels, shaded by up to four omni lights with SceneKit's Blinn model.
//
// Coordinates: image x right, y down, z towards the viewer. Pixel (px, py) has its centre at
// u = 2(px + ½)/size − 1, v = 2(py + ½)/size − 1; inside the unit disc the surface point and normal
// are P = N = (u, v, √(1 − u² − v²)); the viewer direction is E = (0, 0, 1).

/// An omni light: a position in sphere units and a linear-light colour (already × intensity).
public struct OmniLight: Sendable, Equatable {
    public var position: SIMD3<Float>
    public var color: SIMD3<Float>
    public init(position: SIMD3<Float>, color: SIMD3<Float>) {
        self.position = position
        self.color = color
    }
}

public struct HemisphereParameters: Sendable, Equatable {
    public var size: Int
    public var lights: [OmniLight]
    /// Linear-light RGB.
    public var diffuse: SIMD3<Float>
    public var specular: SIMD3<Float>
    /// The Blinn exponent.
    public var shininess: Float
    /// Ambient level: ambient × diffuse is added everywhere.
    public var ambient: Float

    public static let maximumSize = 8192
    public static let shininessRange: ClosedRange<Float> = 1...1000

    public init(size: Int, lights: [OmniLight], diffuse: SIMD3<Float>, specular: SIMD3<Float>,
                shininess: Float, ambient: Float) {
        self.size = size
        self.lights = lights
        self.diffuse = diffuse
        self.specular = specular
        self.shininess = shininess
        self.ambient = ambient
    }

    /// The studio set-up the plug-in ships as its default: polished chrome.
    public static let studio = HemisphereParameters(
        size: 512, lights: LightSpec.studio.map(\.light),
        diffuse: SIMD3(repeating: 0.1), specular: SIMD3(repeating: 1), shininess: 40, ambient: 0.08)
}

/// A light as a user sets it: position in sphere units, hue (degrees), saturation, brightness.
public struct LightSpec: Sendable, Equatable {
    public var position: SIMD3<Float>
    public var hue: Float
    public var saturation: Float
    public var brightness: Float
    public var enabled: Bool

    public init(position: SIMD3<Float>, hue: Float, saturation: Float, brightness: Float, enabled: Bool = true) {
        self.position = position
        self.hue = hue
        self.saturation = saturation
        self.brightness = brightness
        self.enabled = enabled
    }

    public var light: OmniLight { OmniLight(position: position, color: Color.hsb(hue, saturation, enabled ? brightness : 0)) }

    /// Key (upper left, warm white), fill (right, cool), rim (behind, top), bounce (below, warm).
    public static let studio = [
        LightSpec(position: SIMD3(-1.1, -1.3, 2.4), hue: 40, saturation: 0.06, brightness: 1.2),
        LightSpec(position: SIMD3(2.2, -0.4, 1.2), hue: 210, saturation: 0.35, brightness: 0.55),
        LightSpec(position: SIMD3(0.4, -2.5, -0.6), hue: 200, saturation: 0.1, brightness: 1.2),
        LightSpec(position: SIMD3(0.3, 2.4, 0.6), hue: 30, saturation: 0.45, brightness: 0.45),
    ]
}

public enum Color {
    /// sRGB transfer curve: encoded → linear.
    @inlinable
    public static func linear(_ c: Float) -> Float {
        c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// Hue (degrees), saturation and value in the sRGB-encoded space, as colour pickers mean them.
    @inlinable
    public static func hsvEncoded(_ hue: Float, _ s: Float, _ v: Float) -> SIMD3<Float> {
        v * ((1 - s) + s * hueRGB(hue / 360))
    }

    /// A light colour: hue (degrees) and saturation pick the chroma (as in an sRGB colour picker),
    /// brightness scales it linearly (0 = off; above 1 is brighter than white).
    @inlinable
    public static func hsb(_ hue: Float, _ saturation: Float, _ brightness: Float) -> SIMD3<Float> {
        let c = hsvEncoded(hue, min(max(saturation, 0), 1), 1)
        return SIMD3(linear(c.x), linear(c.y), linear(c.z)) * max(brightness, 0)
    }

    /// The fully saturated colour of hue h (turns, any real; wraps): the six-sector hue circle,
    /// 0 red, 1/6 yellow, 2/6 green, 3/6 cyan, 4/6 blue, 5/6 magenta, linear in between.
    @inlinable
    public static func hueRGB(_ h: Float) -> SIMD3<Float> {
        let f = fract(h) // NaN, ∞ give 0
        let x = f * 6
        let r = min(max(abs(x - 3) - 1, 0), 1)
        let g = min(max(2 - abs(x - 2), 0), 1)
        let b = min(max(2 - abs(x - 4), 0), 1)
        return SIMD3(r, g, b)
    }

    /// floor(x) as an integer, without a libm call (x86-64's baseline has no rounding instruction).
    /// |x| must be below 2^62.
    @inlinable
    public static func floorInt(_ x: Float) -> Int {
        let i = Int(x) // truncates towards zero
        return Float(i) > x ? i - 1 : i
    }

    /// fract(x) in [0, 1); non-finite or huge (≥ 2^62) x gives 0.
    @inlinable
    public static func fract(_ x: Float) -> Float {
        guard abs(x) < 4.6e18 else { return 0 }
        let f = x - Float(floorInt(x))
        return f >= 0 && f < 1 ? f : 0
    }
}

/// A gloss contour (Photoshop's Bevel & Emboss "Gloss Contour"): a curve that remaps each colour
/// component c of the lit sphere, clamped to [0, 1] first (linear leaves it as it is, unclamped):
/// - linear: c;  half-round: √(1 − (1 − c)²);  cone: 1 − |2c − 1|;  cone-inverted: |2c − 1|;
/// - ring: ½ − ½·cos(3πc) (dark, bright at ⅓, dark at ⅔, bright again: a second highlight ring);
/// - gaussian: c²(3 − 2c) (a soft S, deeper shadows and fuller highlights).
public enum GlossContour: Int, CaseIterable, Sendable {
    case linear = 0, halfRound, cone, coneInverted, ring, gaussian

    public func callAsFunction(_ value: Float) -> Float {
        guard self != .linear else { return value }
        let c = value.isNaN ? 0 : min(max(value, 0), 1)
        switch self {
        case .linear: return value
        case .halfRound: let u = 1 - c; return (1 - u * u).squareRoot()
        case .cone: return 1 - abs(2 * c - 1)
        case .coneInverted: return abs(2 * c - 1)
        case .ring: return 0.5 - 0.5 * cos(3 * .pi * c)
        case .gaussian: return c * c * (3 - 2 * c)
        }
    }
}


/// The entry points the plug-in calls, in whichever build suits the CPU (both builds conform).
public protocol HemisphereKernel {
    static func render(_ p: HemisphereParameters, x: Int, y: Int, width: Int, count: Int,
                       into out: UnsafeMutablePointer<Float>)
    static func shadingImage(_ p: HemisphereParameters) -> ShadingImage
}

#endif

// MARK: Loops (compiled for each CPU build)

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

extension Hemisphere: HemisphereKernel {}
