import CVector
#if MERCURIAL_KERNELS_V3
import MercurialKernels // the types below are compiled once, in MercurialKernels; this copy is the x86-64-v3 loops
#else

// MARK: Types (compiled once, into MercurialKernels)

/// The maps a renderer lights a sprite or texture with, all from one height field.
public enum MaterialMap: Int, CaseIterable, Sendable {
    /// The height itself, 0 (low) to 1 (high).
    case height = 0
    /// The tangent-space normal, (n + 1)/2 in RGB, green up (OpenGL, Blender, Godot, Unity).
    case normalGL
    /// The same with green down (DirectX, Unreal).
    case normalDX
    /// How much of the sky each point sees: 1 open, 0 fully shut in.
    case ambientOcclusion
    /// 0.5 flat, above on ridges, below in hollows.
    case curvature
}

public struct MaterialMapParameters: Sendable, Equatable {
    public var map: MaterialMap
    /// Height in pixels of a height of 1 (negative: the relief sinks in).
    public var relief: Float
    /// Height 1 − h (and the relief sinks in).
    public var invert: Bool
    /// Normals: how much steeper the slopes look than they are.
    public var normalStrength: Float
    /// Ambient occlusion: how far (pixels) each point looks for what hides its sky, and how dark that makes it.
    public var occlusionRadius: Int
    public var occlusionStrength: Float
    /// Curvature: the distance (pixels) over which the slope's change is measured, and its gain.
    public var curvatureRadius: Int
    public var curvatureScale: Float

    public static let maximumOcclusionRadius = 128
    public static let maximumCurvatureRadius = 32

    public init(map: MaterialMap, relief: Float, invert: Bool = false, normalStrength: Float = 1,
                occlusionRadius: Int = 16, occlusionStrength: Float = 1, curvatureRadius: Int = 2, curvatureScale: Float = 1) {
        func finite(_ v: Float, _ fallback: Float) -> Float { v.isFinite ? v : fallback }
        self.map = map
        self.relief = min(max(finite(relief, 0), -1e4), 1e4)
        self.invert = invert
        self.normalStrength = min(max(finite(normalStrength, 0), -1e3), 1e3)
        self.occlusionRadius = min(max(occlusionRadius, 1), Self.maximumOcclusionRadius)
        self.occlusionStrength = min(max(finite(occlusionStrength, 0), 0), 100)
        self.curvatureRadius = min(max(curvatureRadius, 1), Self.maximumCurvatureRadius)
        self.curvatureScale = min(max(finite(curvatureScale, 0), -1e3), 1e3)
    }

    /// Floats per output pixel: R'G'B' for the normals, one grey value for the others.
    public var components: Int { map == .normalGL || map == .normalDX ? 3 : 1 }

    /// Pixels of height around an output pixel that its value depends on.
    public var halo: Int {
        switch map {
        case .height: 0
        case .normalGL, .normalDX: 1
        case .ambientOcclusion: occlusionRadius
        case .curvature: curvatureRadius
        }
    }

    /// The relief in pixels with the sign of `invert`.
    public var signedRelief: Float { invert ? -relief : relief }

    /// The distances (pixels along each direction) at which the occlusion looks for its horizon:
    /// `steps` of them, denser near the point (where a crevice is narrow), the last at the radius.
    public var occlusionDistances: [Int] {
        let r = occlusionRadius
        let steps = min(r, min(16, max(4, Int((2 * Double(r).squareRoot()).rounded(.up)))))
        var out: [Int] = []
        for k in 1...steps {
            let t = Double(r) * Double(k * k) / Double(steps * steps)
            out.append(max((out.last ?? 0) + 1, Int(t.rounded())))
        }
        out[out.count - 1] = r
        return out
    }
}

/// The entry points the plug-in calls, in whichever build suits the CPU (both builds conform).
public protocol MaterialMapsKernel {
    static func clean(_ heights: UnsafeMutablePointer<Float>, count: Int)
    static func render(_ p: MaterialMapParameters, heights: UnsafePointer<Float>, columns: Int, width: Int, height: Int,
                       into out: UnsafeMutablePointer<Float>)
}

#endif

// MARK: Loops (compiled for each CPU build)

// Maps from a height field h ∈ [0, 1] (non-finite: 0), in image space (x right, y down, z towards
// the viewer), with z = h · relief pixels (−relief inverted):
//
// Height: h (1 − h inverted), grey.
// Normal: n = normalize(−g ∂h/∂x, −g ∂h/∂y, 1) by central differences (lit-relief's normals), with
//   g = relief · strength; RGB = (n + 1)/2 with green (1 − n.y)/2 (OpenGL, green up) or (1 + n.y)/2
//   (DirectX). A flat pixel is (0.5, 0.5, 1).
// Ambient occlusion (horizon-based): in 8 directions (the axes and diagonals) the highest horizon
//   seen within the radius, tan θ = max(0, max over the samples of (z(q) − z(p)) / |q − p|) at the
//   distances `occlusionDistances`; the sky hidden in that direction is sin θ (the share of a
//   uniform hemisphere below the horizon), and AO = clamp(1 − strength · mean sin θ, 0, 1): 1 on
//   open flat ground.
// Curvature: an isotropic Laplacian at step s = radius, ∇²z ≈ (½ Σ axial + ¼ Σ diagonal − 3 z)/s²,
//   and C = clamp(0.5 − ½ · scale · s · ∇²z, 0, 1): above 0.5 on ridges, below in hollows.
// Normals are written as R'G'B', the other maps as one grey value Y' (no alpha: every map is
// opaque, and the narrower pixels halve to quarter what is written). Each pixel is computed from its own neighbours with the same operations in
// the same order whatever block it falls in, so tiles and threads give the same bits.

public enum MaterialMaps {
    /// Heights as the maps read them: clamped to [0, 1], non-finite ones 0.
    public static func clean(_ heights: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count {
            let h = heights[i]
            heights[i] = h > 0 ? min(h, 1) : 0
        }
    }

    /// width × height pixels of the map into `out` (rows of `p.components` floats a pixel), from the
    /// cleaned heights:
    /// `heights` points at the first pixel's, in rows of `columns`, with the map's halo around
    /// (and 16 floats to spare after the last row).
    public static func render(_ p: MaterialMapParameters, heights: UnsafePointer<Float>, columns: Int, width: Int, height: Int,
                              into out: UnsafeMutablePointer<Float>) {
        switch p.map {
        case .height:
            let flip = p.invert
            for j in 0..<height {
                for i in 0..<width {
                    let h = heights[j * columns + i]
                    out[j * width + i] = flip ? 1 - h : h
                }
            }
        case .normalGL, .normalDX:
            normals(p, heights: heights, columns: columns, width: width, height: height, into: out)
        case .ambientOcclusion:
            occlusion(p, heights: heights, columns: columns, width: width, height: height, into: out)
        case .curvature:
            curvature(p, heights: heights, columns: columns, width: width, height: height, into: out)
        }
    }

    /// Sixteen heights from `p` (any alignment).
    @inline(__always)
    static func load16(_ p: UnsafePointer<Float>) -> Lanes { Lanes(lowHalf: vload(p), highHalf: vload(p + 8)) }

    /// Sixteen pixels (or the first `count`, for a row's last group) from their red, green and
    /// blue lanes, as RGB.
    @inline(__always)
    static func store(_ r: Lanes, _ g: Lanes, _ b: Lanes, count: Int, into out: UnsafeMutablePointer<Float>) {
        guard count == 16 else {
            for l in 0..<count { out[3 * l] = r[l]; out[3 * l + 1] = g[l]; out[3 * l + 2] = b[l] }
            return
        }
        mercurial_store_rgb8(out, r.lowHalf, g.lowHalf, b.lowHalf)
        mercurial_store_rgb8(out + 24, r.highHalf, g.highHalf, b.highHalf)
    }

    /// Sixteen grey values (or the first `count`).
    @inline(__always)
    static func store(_ v: Lanes, count: Int, into out: UnsafeMutablePointer<Float>) {
        guard count == 16 else {
            for l in 0..<count { out[l] = v[l] }
            return
        }
        mercurial_store16(out, v)
    }

    static func normals(_ p: MaterialMapParameters, heights: UnsafePointer<Float>, columns: Int, width: Int, height: Int,
                        into out: UnsafeMutablePointer<Float>) {
        let gain = p.signedRelief * p.normalStrength
        let greenSign: Float = p.map == .normalGL ? -0.5 : 0.5
        let half = Lanes(repeating: 0.5)
        for j in 0..<height {
            var i = 0
            while i < width {
                let count = min(16, width - i)
                let centre = heights + j * columns + i
                let n = LitRelief.normals((load16(centre - 1), load16(centre + 1), load16(centre - columns),
                                           load16(centre + columns)), gain: gain)
                let r = n.0 * half + half, g = n.1 * Lanes(repeating: greenSign) + half, b = n.2 * half + half
                store(r, g, b, count: count, into: out + 3 * (j * width + i))
                i += count
            }
        }
    }

    static func occlusion(_ p: MaterialMapParameters, heights: UnsafePointer<Float>, columns: Int, width: Int, height: Int,
                          into out: UnsafeMutablePointer<Float>) {
        let directions: [(Int, Int)] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)]
        let distances = p.occlusionDistances
        // Per sample: its offset in the heights, and relief / its length (so that the height
        // difference times it is the tangent of the angle it is seen under).
        var offsets: [Int] = [], scales: [Float] = []
        for (dx, dy) in directions {
            for t in distances {
                offsets.append(t * (dy * columns + dx))
                scales.append(p.signedRelief / (Float(t) * (dx != 0 && dy != 0 ? Float(2).squareRoot() : 1)))
            }
        }
        let steps = distances.count
        let keep = Lanes(repeating: -p.occlusionStrength / Float(directions.count))
        offsets.withUnsafeBufferPointer { offsets in
        scales.withUnsafeBufferPointer { scales in
            for j in 0..<height {
                var i = 0
                while i < width {
                    let count = min(16, width - i)
                    let centre = heights + j * columns + i
                    let h0 = load16(centre)
                    var hidden = Lanes(repeating: 0)
                    for d in 0..<directions.count {
                        var horizon = Lanes(repeating: 0)
                        for k in (d * steps)..<((d + 1) * steps) {
                            horizon = lmax(horizon, (load16(centre + offsets[k]) - h0) * Lanes(repeating: scales[k]))
                        }
                        // sin θ from tan θ.
                        hidden += ldiv(horizon, lsqrt(horizon * horizon + 1))
                    }
                    let ao = lmin(lmax(hidden * keep + 1, Lanes(repeating: 0)), Lanes(repeating: 1))
                    store(ao, count: count, into: out + j * width + i)
                    i += count
                }
            }
        }
        }
    }

    static func curvature(_ p: MaterialMapParameters, heights: UnsafePointer<Float>, columns: Int, width: Int, height: Int,
                          into out: UnsafeMutablePointer<Float>) {
        let s = p.curvatureRadius, down = s * columns
        // ½ · scale · s · relief / s² = ½ · scale · relief / s.
        let gain = Lanes(repeating: -0.5 * p.curvatureScale * p.signedRelief / Float(s))
        for j in 0..<height {
            var i = 0
            while i < width {
                let count = min(16, width - i)
                let c = heights + j * columns + i
                let axial = (load16(c - s) + load16(c + s)) + (load16(c - down) + load16(c + down))
                let diagonal = (load16(c - down - s) + load16(c - down + s)) + (load16(c + down - s) + load16(c + down + s))
                let laplacian = axial * Lanes(repeating: 0.5) + diagonal * Lanes(repeating: 0.25) - load16(c) * Lanes(repeating: 3)
                let v = lmin(lmax(laplacian * gain + Lanes(repeating: 0.5), Lanes(repeating: 0)), Lanes(repeating: 1))
                store(v, count: count, into: out + j * width + i)
                i += count
            }
        }
    }
}

extension MaterialMaps: MaterialMapsKernel {}
