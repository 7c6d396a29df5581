import Glibc

// A colour layer lit through its own relief (see Loops/LitRelief.swift): the parameters.

/// What mercurial:lit-relief writes.
public enum ReliefOutput: Int, CaseIterable, Sendable {
    /// The layer's colour lit by the lights.
    case lit = 0
    /// The tangent-space normal map, (n + 1)/2 in RGB, green = up (OpenGL, Blender, Unity).
    case normalMap
    /// The same with green = down (DirectX, Unreal).
    case normalMapDirectX
}

/// One light, in image space (x right, y down, z towards the viewer; pixels).
public struct ReliefLight: Sendable, Equatable {
    public enum Kind: Int, CaseIterable, Sendable {
        /// At a place: `position`, with intensity × (1 + d / `reach`)^−falloff at distance d.
        case point = 0
        /// From a direction (`direction`, unit, towards the light), with no falloff.
        case directional
    }
    public var kind: Kind
    public var position: SIMD3<Float>
    public var direction: SIMD3<Float>
    /// Linear RGB, already × intensity.
    public var color: SIMD3<Float>
    public var falloff: Float
    /// The distance at which the falloff halves an exponent-1 light (the layer's longer side).
    public var reach: Float

    public init(kind: Kind, position: SIMD3<Float> = .zero, direction: SIMD3<Float> = SIMD3(0, 0, 1),
                color: SIMD3<Float>, falloff: Float = 0, reach: Float = 1024) {
        self.kind = kind
        self.position = position
        self.direction = direction
        self.color = color
        self.falloff = falloff
        self.reach = reach
    }

    /// The direction of a light at azimuth (degrees, counter-clockwise from the right, as
    /// gegl:bump-map) and elevation (degrees above the surface), in image space (y down).
    public static func direction(azimuth: Float, elevation: Float) -> SIMD3<Float> {
        let a = azimuth * .pi / 180, e = elevation * .pi / 180
        return SIMD3(cosf(a) * cosf(e), -sinf(a) * cosf(e), sinf(e))
    }
}

public struct LitReliefParameters: Sendable, Equatable {
    /// 0…1: the height is blurred with σ = 4 · smoothness pixels before differencing (0: none).
    public var smoothness: Float
    /// Slope gain: n = normalize(−contrast · ∂h/∂x, −contrast · ∂h/∂y, 1).
    public var contrast: Float
    /// Heights count downwards (strokes sink in).
    public var invert: Bool
    public var lights: [ReliefLight]
    /// Linear RGB: ambient × the layer's colour is added everywhere.
    public var ambient: SIMD3<Float>
    /// Linear RGB of the Blinn highlight (its strength too).
    public var specular: SIMD3<Float>
    public var shininess: Float
    /// Linear RGBA: added, × alpha, where the lights do not reach (1 − the summed diffuse lighting).
    public var shadow: SIMD4<Float>
    public var output: ReliefOutput

    public static let maximumSmoothing: Float = 4

    public init(smoothness: Float = 0.75, contrast: Float = 3, invert: Bool = false, lights: [ReliefLight],
                ambient: SIMD3<Float> = SIMD3(repeating: 0.2), specular: SIMD3<Float> = SIMD3(repeating: 0.5),
                shininess: Float = 30, shadow: SIMD4<Float> = .zero, output: ReliefOutput = .lit) {
        self.smoothness = smoothness
        self.contrast = contrast
        self.invert = invert
        self.lights = lights
        self.ambient = ambient
        self.specular = specular
        self.shininess = shininess
        self.shadow = shadow
        self.output = output
    }

    /// σ of the smoothing blur, in pixels (NaN reads as 0).
    public var sigma: Float {
        smoothness > 0 ? min(smoothness, 1) * Self.maximumSmoothing : 0
    }

    /// One-sided taps of the smoothing blur (0 when there is none).
    public var taps: Int { sigma > 0 ? Int((sigma * 3).rounded(.up)) : 0 }

    /// Pixels around an output pixel that its value depends on: the blur and the differences.
    public var halo: Int { taps + 1 }

    /// Normalised one-sided Gaussian weights w[0...taps] of the smoothing blur ([1] for none).
    public var weights: [Float] {
        taps > 0 ? Gaussian.weights(sigma: Double(sigma), taps: taps) : [1]
    }
}
