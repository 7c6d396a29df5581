import MercurialKernels

/// Looks for the liquid-metal filter: lights and material of the hemisphere it shades with.
enum MaterialPreset: Int, CaseIterable, Sendable {
    case chrome = 0, gold, mercury, neon

    struct Look: Sendable, Equatable {
        var lights: [LightSpec]
        var diffuse: SIMD3<Float>
        var specular: SIMD3<Float>
        var ambient: Float
    }

    var look: Look {
        switch self {
        case .chrome:
            return Look(lights: LightSpec.studio, diffuse: HemisphereParameters.studio.diffuse,
                        specular: HemisphereParameters.studio.specular, ambient: HemisphereParameters.studio.ambient)
        case .gold:
            return Look(lights: [
                LightSpec(position: SIMD3(-1.1, -1.3, 2.4), hue: 42, saturation: 0.25, brightness: 1.3),
                LightSpec(position: SIMD3(2.2, -0.4, 1.2), hue: 30, saturation: 0.5, brightness: 0.6),
                LightSpec(position: SIMD3(0.4, -2.5, -0.6), hue: 50, saturation: 0.2, brightness: 1.2),
                LightSpec(position: SIMD3(0.3, 2.4, 0.6), hue: 20, saturation: 0.7, brightness: 0.5),
            ], diffuse: SIMD3(0.32, 0.19, 0.04), specular: SIMD3(1.0, 0.75, 0.3), ambient: 0.15)
        case .mercury:
            return Look(lights: [
                LightSpec(position: SIMD3(-0.8, -1.0, 3.0), hue: 200, saturation: 0.04, brightness: 1.4),
                LightSpec(position: SIMD3(2.4, 0.2, 0.8), hue: 200, saturation: 0.2, brightness: 0.8),
                LightSpec(position: SIMD3(0.0, -2.5, -0.4), hue: 190, saturation: 0.05, brightness: 1.5),
                LightSpec(position: SIMD3(-0.5, 2.5, 0.3), hue: 210, saturation: 0.15, brightness: 0.6),
            ], diffuse: SIMD3(0.22, 0.23, 0.25), specular: SIMD3(1, 1, 1), ambient: 0.2)
        case .neon:
            return Look(lights: [
                LightSpec(position: SIMD3(-1.8, -1.0, 1.6), hue: 300, saturation: 0.9, brightness: 1.4),
                LightSpec(position: SIMD3(1.8, -0.6, 1.6), hue: 185, saturation: 0.9, brightness: 1.4),
                LightSpec(position: SIMD3(0.0, -2.4, -0.5), hue: 260, saturation: 0.6, brightness: 1.2),
                LightSpec(position: SIMD3(0.2, 2.4, 0.8), hue: 120, saturation: 0.8, brightness: 0.6),
            ], diffuse: SIMD3(0.05, 0.05, 0.07), specular: SIMD3(1, 1, 1), ambient: 0.05)
        }
    }
}
