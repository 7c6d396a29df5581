import GeglBridge
import MercurialKernels

/// mercurial:liquid-metal — one filter: a text or shape layer becomes liquid-metal letters.
/// Inner graph: input → height field (from the layer's alpha) → shaded material lit by the internal
/// hemisphere render → optional foil → cut to the layer's own coverage.
enum LiquidMetal: MetaOperation {
    // MARK: Properties

    struct Properties: PropertySet {
        var preset = MaterialPreset.chrome
        var radius = 8.0
        var profile = BevelProfile.coreImage
        var relief = 10.0
        var hueShift = 0.0
        var brightness = 1.0
        var shininess = 40.0
        var foil = 0.0
        var foilTilt = 0.0
        var mask = MaskChannel.alpha

        static let declarations: [PropertyDeclaration<Properties>] = [
            .choice(\.preset, "preset", "Look",
                    "The lights and material: polished chrome, warm gold, bright mercury or coloured neon."),
            .double(\.radius, "radius", "Bevel radius", range: 0...HeightFieldParameters.maximumRadius, ui: 0...60,
                    gamma: 1.5, digits: 1, unit: .pixelDistance, "How far from the edge the surface rises, in pixels."),
            .choice(\.profile, "profile", "Bevel profile",
                    "Core Image's soft rise, or a round, linear or smooth bevel from the exact distance to the edge."),
            .double(\.relief, "relief", "Relief", range: -1000...1000, ui: -40...40, digits: 1,
                    "Depth of the relief (negative: engraved)."),
            .double(\.hueShift, "hue-shift", "Light hue", range: -180...180, unit: .degree,
                    "Turns the hue of every light by this many degrees."),
            .double(\.brightness, "brightness", "Light brightness", range: 0...10, ui: 0...3, digits: 2,
                    "Multiplies the intensity of every light."),
            .double(\.shininess, "shininess", "Shininess", range: 1...1000, ui: 1...200, gamma: 2, digits: 1,
                    "Small values: broad, soft highlights; large values: small, sharp ones."),
            .double(\.foil, "foil", "Holographic foil", range: 0...1, ui: 0...0.5, gamma: 1.5, digits: 3,
                    "Strength of a holographic foil over the metal (0 = off)."),
            .double(\.foilTilt, "foil-tilt", "Foil tilt", range: -1...1, digits: 3, "The foil's tilt (hue offset)."),
            .choice(\.mask, "mask", "Mask",
                    "Which part of the layer is the shape. Alpha (default) suits text and shape layers of any colour."),
        ]
    }

    // MARK: Graph

    static func attach(_ graph: MetaGraph) {
        let input = graph.input
        let height = graph.add("mercurial:height-field-from-mask")
        let shade = graph.add("mercurial:shaded-material")
        let sphere = graph.add("mercurial:hemisphere-light-render")
        let foil = graph.add("mercurial:holographic-hue")
        graph.link(input, height, shade, foil, graph.output)
        graph.connect(sphere, to: shade, pad: "aux")
        // Shaded Material reads the whole sphere for every tile it shades: keep it rendered.
        graph.setNode(sphere, "cache-policy", 2) // GEGL_CACHE_POLICY_ALWAYS
        // The layer's own coverage becomes the result's alpha, so the letters stay cut out: the height
        // field carries the layer's alpha, and Shaded Material multiplies it into its own (in one
        // pass, where a gegl:dst-in after it cost 40 % of the filter's time).
        graph.set(height, "keep-alpha", 1)
        graph.name(sphere, "sphere")
        // One-to-one properties: GEGL forwards them (now and on every change).
        graph.redirect(\Properties.radius, to: height, "radius")
        graph.redirect(\Properties.profile, to: height, "profile")
        graph.redirect(\Properties.mask, to: height, "mask")
        graph.redirect(\Properties.relief, to: shade, "scale")
        graph.redirect(\Properties.shininess, to: sphere, "shininess")
        graph.redirect(\Properties.foil, to: foil, "strength")
        graph.redirect(\Properties.foilTilt, to: foil, "offset")
    }

    /// The look's lights, turned and scaled by the light controls, onto the inner hemisphere.
    static func update(_ graph: MetaGraph, _ p: Properties) {
        guard let sphere = graph.child("sphere") else { return }
        let look = p.preset.look
        for (i, light) in look.lights.enumerated() {
            let n = i + 1
            graph.set(sphere, "light\(n)-x", Double(light.position.x))
            graph.set(sphere, "light\(n)-y", Double(light.position.y))
            graph.set(sphere, "light\(n)-z", Double(light.position.z))
            var hue = (Double(light.hue) + p.hueShift).truncatingRemainder(dividingBy: 360)
            if hue < 0 { hue += 360 }
            graph.set(sphere, "light\(n)-hue", hue)
            graph.set(sphere, "light\(n)-saturation", Double(light.saturation))
            graph.set(sphere, "light\(n)-brightness", min(Double(light.brightness) * p.brightness, 100))
            graph.set(sphere, "light\(n)-enabled", light.enabled ? 1 : 0)
        }
        graph.set(sphere, "diffuse-color", color: SIMD4(look.diffuse, 1))
        graph.set(sphere, "specular-color", color: SIMD4(look.specular, 1))
        graph.set(sphere, "ambient", Double(look.ambient))
    }

    // MARK: Keys

    static let info = OperationInfo(
        name: "mercurial:liquid-metal", title: "Liquid Metal",
        categories: ["light", "decor"],
        description: "Turns a text or shape layer into embossed liquid-metal letters in one step: a height field "
            + "from the layer's alpha, shaded by a lit hemisphere (chrome, gold, mercury or neon), with an optional "
            + "holographic foil; the result keeps the layer's own coverage, so the letters stay cut out.",
        keys: [("gimp:menu-path", "<Image>/Filters/Decor"),
               ("gimp:menu-label", "Liquid Metal…")])
}

extension MaterialPreset: PropertyEnum {
    public static let typeName = "MercurialMaterialPreset"
    public var label: EnumCase {
        switch self {
        case .chrome: EnumCase("chrome", "Chrome")
        case .gold: EnumCase("gold", "Gold")
        case .mercury: EnumCase("mercury", "Mercury")
        case .neon: EnumCase("neon", "Neon")
        }
    }
}
