import GeglBridge
import MercurialKernels
import MercurialKernelsV3

/// mercurial:hemisphere-light-render — a sphere lit by up to four coloured omni lights, the
/// shading image that Shaded Material looks normals up in.
enum HemisphereLightRender: PointRenderOperation {
    // MARK: Properties

    /// One light as the dialog shows it.
    struct Light: Sendable {
        var enabled = true
        var x, y, z, hue, saturation, brightness: Double

        init(_ d: LightSpec) {
            (x, y, z) = (Double(d.position.x), Double(d.position.y), Double(d.position.z))
            (hue, saturation, brightness) = (Double(d.hue), Double(d.saturation), Double(d.brightness))
        }
    }

    struct Properties: PropertySet {
        var size = 512
        var lights = LightSpec.studio.map(Light.init)
        var diffuseColor = SIMD4<Float>(0.1, 0.1, 0.1, 1)
        var specularColor = SIMD4<Float>(1, 1, 1, 1)
        var shininess = Double(HemisphereParameters.studio.shininess)
        var ambient = Double(HemisphereParameters.studio.ambient)
        var glossContour = GlossContour.linear

        static let lightNames = ["Key", "Fill", "Rim", "Bounce"]

        static func lightDeclarations(_ i: Int) -> [PropertyDeclaration<Properties>] {
            let n = i + 1, name = lightNames[i]
            return [
                .boolean(\.lights[i].enabled, "light\(n)-enabled", "\(name) light", "Light \(n) (\(name.lowercased())) on or off."),
                .double(\.lights[i].x, "light\(n)-x", "\(name) X", range: -100...100, ui: -4...4, digits: 2,
                        "Light \(n) position, right of the sphere's centre, in sphere radii."),
                .double(\.lights[i].y, "light\(n)-y", "\(name) Y", range: -100...100, ui: -4...4, digits: 2,
                        "Light \(n) position, below the sphere's centre (image y points down), in sphere radii."),
                .double(\.lights[i].z, "light\(n)-z", "\(name) Z", range: -100...100, ui: -4...4, digits: 2,
                        "Light \(n) position towards the viewer, in sphere radii (negative: behind the sphere, a rim light)."),
                .double(\.lights[i].hue, "light\(n)-hue", "\(name) hue", range: 0...360, unit: .degree,
                        "Light \(n) hue in degrees (0 red, 120 green, 240 blue)."),
                .double(\.lights[i].saturation, "light\(n)-saturation", "\(name) saturation", range: 0...1,
                        "Light \(n) saturation: 0 white, 1 the pure hue."),
                .double(\.lights[i].brightness, "light\(n)-brightness", "\(name) brightness", range: 0...100, ui: 0...2,
                        "Light \(n) intensity, linear: 0 off, 1 white at full strength, above 1 brighter."),
            ]
        }

        static let declarations: [PropertyDeclaration<Properties>] = [
            .int(\.size, "size", "Size", range: 1...HemisphereParameters.maximumSize, ui: 64...2048, unit: .pixelDistance,
                 "Width and height of the square the sphere fills, in pixels."),
        ] + (0..<4).flatMap(lightDeclarations) + [
            .color(\.diffuseColor, "diffuse-color", "Diffuse colour", default: "rgb(0.1, 0.1, 0.1)",
                   "Colour of the matte part of the reflection (dark for metals)."),
            .color(\.specularColor, "specular-color", "Specular colour", default: "rgb(1, 1, 1)",
                   "Colour of the highlights (white for chrome, yellow for gold)."),
            .double(\.shininess, "shininess", "Shininess",
                    range: Double(HemisphereParameters.shininessRange.lowerBound)...Double(HemisphereParameters.shininessRange.upperBound),
                    ui: 1...200, gamma: 2, digits: 1,
                    "Blinn exponent: small values give broad, soft highlights; large values small, sharp ones."),
            .double(\.ambient, "ambient", "Ambient", range: 0...1, digits: 2,
                    "Light that comes from everywhere, as a fraction of the diffuse colour."),
            .choice(\.glossContour, "gloss-contour", "Gloss contour",
                    "A curve that remaps the sphere's light, as Photoshop's gloss contour: linear (as lit), half-round "
                    + "(brighter), cone (bright mid-tones, dark highlights), inverted cone, ring (a second bright "
                    + "ring) or Gaussian (a soft S)."),
        ]

        /// The square's side, within the kernel's limits.
        var clampedSize: Int { min(max(size, 1), HemisphereParameters.maximumSize) }
    }

    /// The kernel, in the build for this CPU.
    static let kernel: any HemisphereKernel.Type = Accelerated.choose(MercurialKernels.Hemisphere.self,
                                                                      MercurialKernelsV3.Hemisphere.self)

    // MARK: Prepare

    struct Prepared: Sendable {
        var parameters: HemisphereParameters
        var contour: GlossContour
    }

    static func parameters(_ p: Properties) -> HemisphereParameters {
        let lights = p.lights.map { l in
            LightSpec(position: SIMD3(Float(l.x), Float(l.y), Float(l.z)), hue: Float(l.hue),
                      saturation: Float(l.saturation), brightness: Float(l.brightness), enabled: l.enabled)
        }
        let diffuse = p.diffuseColor, specular = p.specularColor
        return HemisphereParameters(
            size: p.clampedSize,
            lights: lights.filter { $0.enabled && $0.brightness > 0 }.map(\.light),
            diffuse: SIMD3(diffuse.x, diffuse.y, diffuse.z), specular: SIMD3(specular.x, specular.y, specular.z),
            shininess: Float(p.shininess), ambient: Float(p.ambient))
    }

    static func prepare(_ context: PrepareContext) -> Prepared {
        context.setFormat("output", .rgbaFloat)
        let props = context.properties.typed(Properties.self)
        return Prepared(parameters: parameters(props), contour: props.glossContour)
    }

    static func boundingBox(_ context: OperationContext) -> Rect {
        let size = context.properties.typed(Properties.self).clampedSize
        return Rect(x: 0, y: 0, width: size, height: size)
    }

    // MARK: Process

    static func process(_ prepared: Prepared, output: UnsafeMutablePointer<Float>, count: Int, roi: Rect) {
        kernel.render(prepared.parameters, x: roi.x, y: roi.y, width: roi.width, count: count, into: output)
        guard prepared.contour != .linear else { return }
        for i in 0..<count {
            for k in 0..<3 { output[4 * i + k] = prepared.contour(output[4 * i + k]) }
        }
    }

    // MARK: Keys

    static let info = OperationInfo(
        name: "mercurial:hemisphere-light-render", title: "Hemisphere Light Render",
        categories: ["render", "light"],
        description: "Renders a shiny sphere filling a square, lit by up to four coloured omni lights with the "
            + "Blinn model (diffuse + specular^shininess per light, plus ambient), transparent outside with an "
            + "anti-aliased rim; an optional gloss contour remaps its light. Connect it to the aux pad of Shaded Material to light a height field.",
        keys: [("gimp:menu-path", "<Image>/Filters/Render/Mercurial"),
               ("gimp:menu-label", "Hemisphere Light…"),
               ("position-dependent", "true")])
}

extension GlossContour: PropertyEnum {
    public static let typeName = "MercurialGlossContour"
    public var label: EnumCase {
        switch self {
        case .linear: EnumCase("linear", "Linear")
        case .halfRound: EnumCase("half-round", "Half round")
        case .cone: EnumCase("cone", "Cone")
        case .coneInverted: EnumCase("cone-inverted", "Cone, inverted")
        case .ring: EnumCase("ring", "Ring")
        case .gaussian: EnumCase("gaussian", "Gaussian")
        }
    }
}
