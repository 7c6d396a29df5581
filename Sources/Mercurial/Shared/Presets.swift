import Glibc
import GeglBridge
import MercurialKernels

/// Looks for the metal filters: lights and material of the hemisphere they shade with. Raw values
/// are what GIMP saves in an XCF: new looks go at the end.
enum MaterialPreset: Int, CaseIterable, Sendable {
    /// `chrome` is the first studio set-up (a dark, gunmetal face); `brightChrome` the chrome of the
    /// Core Image demos, a bright face with dark reflections in the bevel.
    case chrome = 0, gold, mercury, neon, brightChrome

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
        case .brightChrome:
            return Look(lights: [
                LightSpec(position: SIMD3(-0.25, -0.35, 3.0), hue: 40, saturation: 0.04, brightness: 1.6),
                LightSpec(position: SIMD3(2.2, -0.4, 1.2), hue: 210, saturation: 0.25, brightness: 0.5),
                LightSpec(position: SIMD3(0.4, -2.5, -0.6), hue: 200, saturation: 0.1, brightness: 1.2),
                LightSpec(position: SIMD3(0.3, 2.4, 0.6), hue: 30, saturation: 0.35, brightness: 0.35),
            ], diffuse: SIMD3(repeating: 0.2), specular: SIMD3(repeating: 1), ambient: 0.04)
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

extension MaterialPreset.Look {
    /// Puts this look on a mercurial:hemisphere-light-render child: every light's hue turned by
    /// `hueShift` degrees and its brightness scaled by `brightness`; with `keyLight`, light 1 moves
    /// to that angle and altitude (Photoshop's: degrees counter-clockwise from the right, degrees
    /// above the surface) at its own distance.
    func light(_ sphere: GraphNode, in graph: MetaGraph, hueShift: Double = 0, brightness: Double = 1,
               keyLight: (angle: Double, altitude: Double)? = nil) {
        for (i, light) in lights.enumerated() {
            var position = SIMD3<Double>(Double(light.position.x), Double(light.position.y), Double(light.position.z))
            if i == 0, let keyLight {
                position = Self.position(angle: keyLight.angle, altitude: keyLight.altitude,
                                         distance: (position * position).sum().squareRoot())
            }
            graph.set(sphere, \HemisphereControls.lights[i].x, position.x)
            graph.set(sphere, \HemisphereControls.lights[i].y, position.y)
            graph.set(sphere, \HemisphereControls.lights[i].z, position.z)
            var hue = (Double(light.hue) + hueShift).truncatingRemainder(dividingBy: 360)
            if hue < 0 { hue += 360 }
            graph.set(sphere, \HemisphereControls.lights[i].hue, hue)
            graph.set(sphere, \HemisphereControls.lights[i].saturation, Double(light.saturation))
            graph.set(sphere, \HemisphereControls.lights[i].brightness, min(Double(light.brightness) * brightness, 100))
            graph.set(sphere, \HemisphereControls.lights[i].enabled, light.enabled)
        }
        graph.set(sphere, \HemisphereControls.diffuseColor, SIMD4(diffuse, 1))
        graph.set(sphere, \HemisphereControls.specularColor, SIMD4(specular, 1))
        graph.set(sphere, \HemisphereControls.ambient, Double(ambient))
    }

    /// A light's position for Photoshop's angle and altitude, at `distance` sphere radii: x right,
    /// y down (image), z towards the viewer.
    static func position(angle: Double, altitude: Double, distance: Double) -> SIMD3<Double> {
        let a = angle * .pi / 180, e = altitude * .pi / 180
        return SIMD3(cos(e) * cos(a), -cos(e) * sin(a), sin(e)) * distance
    }
}

/// The metal ops' inner surface: mercurial:shaded-material-from-mask (the height field made and
/// shaded in one op, no height-field buffer between them; it carries the layer's alpha, so the
/// letters stay cut out) lit by a mercurial:hemisphere-light-render on its aux pad.
struct MetalSurface {
    let surface: GraphNode, sphere: GraphNode

    /// Adds the two children, named "surface" and "sphere" for `find`.
    static func add(to graph: MetaGraph) -> MetalSurface {
        let surface = graph.add("mercurial:shaded-material-from-mask")
        let sphere = graph.add("mercurial:hemisphere-light-render")
        graph.connect(sphere, to: surface, pad: "aux")
        // The surface reads the whole sphere for every region it shades: keep it rendered.
        graph.setCachePolicy(sphere, .always)
        graph.name(sphere, "sphere")
        graph.name(surface, "surface")
        return MetalSurface(surface: surface, sphere: sphere)
    }

    /// The two children `add` made.
    static func find(in graph: MetaGraph) -> MetalSurface? {
        guard let surface = graph.child("surface"), let sphere = graph.child("sphere") else { return nil }
        return MetalSurface(surface: surface, sphere: sphere)
    }
}
