import GeglBridge
import MercurialKernels

/// mercurial:hemisphere-light-render — a sphere lit by up to four coloured omni lights, the
/// shading image that Shaded Material looks normals up in.
enum HemisphereLightRender: PointRenderOperation {
    // MARK: Properties

    static let lightNames = ["Key", "Fill", "Rim", "Bounce"]

    static func lightProperties(_ i: Int) -> [Property] {
        let n = i + 1, name = lightNames[i], d = LightSpec.studio[i]
        return [
            .boolean("light\(n)-enabled", "\(name) light", default: true, "Light \(n) (\(name.lowercased())) on or off."),
            .double("light\(n)-x", "\(name) X", default: Double(d.position.x), range: -100...100, ui: -4...4, digits: 2,
                    "Light \(n) position, right of the sphere's centre, in sphere radii."),
            .double("light\(n)-y", "\(name) Y", default: Double(d.position.y), range: -100...100, ui: -4...4, digits: 2,
                    "Light \(n) position, below the sphere's centre (image y points down), in sphere radii."),
            .double("light\(n)-z", "\(name) Z", default: Double(d.position.z), range: -100...100, ui: -4...4, digits: 2,
                    "Light \(n) position towards the viewer, in sphere radii (negative: behind the sphere, a rim light)."),
            .double("light\(n)-hue", "\(name) hue", default: Double(d.hue), range: 0...360, unit: .degree,
                    "Light \(n) hue in degrees (0 red, 120 green, 240 blue)."),
            .double("light\(n)-saturation", "\(name) saturation", default: Double(d.saturation), range: 0...1,
                    "Light \(n) saturation: 0 white, 1 the pure hue."),
            .double("light\(n)-brightness", "\(name) brightness", default: Double(d.brightness), range: 0...100,
                    ui: 0...2, "Light \(n) intensity, linear: 0 off, 1 white at full strength, above 1 brighter."),
        ]
    }

    static let properties: [Property] = [
        .int("size", "Size", default: 512, range: 1...HemisphereParameters.maximumSize, ui: 64...2048, unit: .pixelDistance,
             "Width and height of the square the sphere fills, in pixels."),
    ] + (0..<4).flatMap(lightProperties) + [
        .color("diffuse-color", "Diffuse colour", default: "rgb(0.1, 0.1, 0.1)",
               "Colour of the matte part of the reflection (dark for metals)."),
        .color("specular-color", "Specular colour", default: "rgb(1, 1, 1)",
               "Colour of the highlights (white for chrome, yellow for gold)."),
        .double("shininess", "Shininess", default: Double(HemisphereParameters.studio.shininess),
                range: Double(HemisphereParameters.shininessRange.lowerBound)...Double(HemisphereParameters.shininessRange.upperBound),
                ui: 1...200, gamma: 2, digits: 1,
                "Blinn exponent: small values give broad, soft highlights; large values small, sharp ones."),
        .double("ambient", "Ambient", default: Double(HemisphereParameters.studio.ambient), range: 0...1, digits: 2,
                "Light that comes from everywhere, as a fraction of the diffuse colour."),
    ]

    // MARK: Prepare

    struct Prepared: Sendable {
        var plan: Accelerated.HemispherePlan
    }

    static func parameters(_ p: PropertyValues) -> HemisphereParameters {
        let lights = (1...4).map { n in
            LightSpec(position: SIMD3(Float(p.double("light\(n)-x")), Float(p.double("light\(n)-y")),
                                      Float(p.double("light\(n)-z"))),
                      hue: Float(p.double("light\(n)-hue")), saturation: Float(p.double("light\(n)-saturation")),
                      brightness: Float(p.double("light\(n)-brightness")), enabled: p.bool("light\(n)-enabled"))
        }
        let diffuse = p.color("diffuse-color"), specular = p.color("specular-color")
        return HemisphereParameters(
            size: min(max(p.int("size"), 1), HemisphereParameters.maximumSize),
            lights: lights.filter { $0.enabled && $0.brightness > 0 }.map(\.light),
            diffuse: SIMD3(diffuse.x, diffuse.y, diffuse.z), specular: SIMD3(specular.x, specular.y, specular.z),
            shininess: Float(p.double("shininess")), ambient: Float(p.double("ambient")))
    }

    static func prepare(_ context: PrepareContext) -> Prepared {
        context.setFormat("output", .rgbaFloat)
        let p = parameters(context.properties)
        return Prepared(plan: Accelerated.HemispherePlan(p))
    }

    static func boundingBox(_ context: OperationContext) -> Rect {
        let size = min(max(context.properties.int("size"), 1), HemisphereParameters.maximumSize)
        return Rect(x: 0, y: 0, width: size, height: size)
    }

    // MARK: Process

    static func process(_ prepared: Prepared, output: UnsafeMutablePointer<Float>, count: Int, roi: Rect) {
        prepared.plan.render(x: roi.x, y: roi.y, width: roi.width, count: count, into: output)
    }

    // MARK: Keys

    static let info = OperationInfo(
        name: "mercurial:hemisphere-light-render", title: "Hemisphere Light Render",
        categories: ["render", "light"],
        description: "Renders a shiny sphere filling a square, lit by up to four coloured omni lights with the "
            + "Blinn model (diffuse + specular^shininess per light, plus ambient), transparent outside with an "
            + "anti-aliased rim. Connect it to the aux pad of Shaded Material to light a height field.",
        properties: properties,
        keys: [("gimp:menu-path", "<Image>/Filters/Render/Mercurial"),
               ("gimp:menu-label", "Hemisphere Light…"),
               ("position-dependent", "true")])
}
