import GeglBridge
import MercurialKernels

/// mercurial:liquid-metal — one filter: a text or shape layer becomes liquid-metal letters.
/// Inner graph: input → height field (from the layer's alpha) → shaded material lit by the internal
/// hemisphere render → optional foil → cut to the layer's own coverage.
enum LiquidMetal: MetaOperation {
    // MARK: Properties

    static let properties: [Property] = [
        .choice("preset", "Look", default: MaterialPreset.chrome,
                "The lights and material: polished chrome, warm gold, bright mercury or coloured neon."),
        .double("radius", "Bevel radius", default: 8, range: 0...HeightFieldParameters.maximumRadius, ui: 0...60,
                gamma: 1.5, digits: 1, unit: .pixelDistance, "How far from the edge the surface rises, in pixels."),
        .choice("profile", "Bevel profile", default: BevelProfile.coreImage,
                "Core Image's soft rise, or a round, linear or smooth bevel from the exact distance to the edge."),
        .double("relief", "Relief", default: 10, range: -1000...1000, ui: -40...40, digits: 1,
                "Depth of the relief (negative: engraved)."),
        .double("hue-shift", "Light hue", default: 0, range: -180...180, unit: .degree,
                "Turns the hue of every light by this many degrees."),
        .double("brightness", "Light brightness", default: 1, range: 0...10, ui: 0...3, digits: 2,
                "Multiplies the intensity of every light."),
        .double("shininess", "Shininess", default: 40, range: 1...1000, ui: 1...200, gamma: 2, digits: 1,
                "Small values: broad, soft highlights; large values: small, sharp ones."),
        .double("foil", "Holographic foil", default: 0, range: 0...1, ui: 0...0.5, gamma: 1.5, digits: 3,
                "Strength of a holographic foil over the metal (0 = off)."),
        .double("foil-tilt", "Foil tilt", default: 0, range: -1...1, digits: 3, "The foil's tilt (hue offset)."),
        .choice("mask", "Mask", default: MaskChannel.alpha,
                "Which part of the layer is the shape. Alpha (default) suits text and shape layers of any colour."),
    ]

    // MARK: Graph

    static func attach(_ graph: MetaGraph) {
        let input = graph.input
        let height = graph.add("mercurial:height-field-from-mask")
        let shade = graph.add("mercurial:shaded-material")
        let sphere = graph.add("mercurial:hemisphere-light-render")
        let foil = graph.add("mercurial:holographic-hue")
        let cut = graph.add("gegl:dst-in")
        graph.link(input, height, shade, foil, cut, graph.output)
        graph.connect(sphere, to: shade, pad: "aux")
        // Shaded Material reads the whole sphere for every tile it shades: keep it rendered.
        graph.setNode(sphere, "cache-policy", 2) // GEGL_CACHE_POLICY_ALWAYS
        // The layer's own coverage becomes the result's alpha: the letters stay cut out.
        graph.connect(input, to: cut, pad: "aux")
        graph.name(height, "height"); graph.name(shade, "shade"); graph.name(sphere, "sphere"); graph.name(foil, "foil")
    }

    static func update(_ graph: MetaGraph, _ p: PropertyValues) {
        guard let height = graph.child("height"), let shade = graph.child("shade"),
              let sphere = graph.child("sphere"), let foil = graph.child("foil") else { return }
        graph.set(height, "radius", p.double("radius"))
        graph.set(height, "profile", Double(p.int("profile")))
        graph.set(height, "mask", Double(p.int("mask")))
        graph.set(shade, "scale", p.double("relief"))
        let look = p.choice("preset", as: MaterialPreset.self).look
        let hueShift = p.double("hue-shift"), brightness = p.double("brightness")
        for (i, light) in look.lights.enumerated() {
            let n = i + 1
            graph.set(sphere, "light\(n)-x", Double(light.position.x))
            graph.set(sphere, "light\(n)-y", Double(light.position.y))
            graph.set(sphere, "light\(n)-z", Double(light.position.z))
            var hue = (Double(light.hue) + hueShift).truncatingRemainder(dividingBy: 360)
            if hue < 0 { hue += 360 }
            graph.set(sphere, "light\(n)-hue", hue)
            graph.set(sphere, "light\(n)-saturation", Double(light.saturation))
            graph.set(sphere, "light\(n)-brightness", min(Double(light.brightness) * brightness, 100))
            graph.set(sphere, "light\(n)-enabled", light.enabled ? 1 : 0)
        }
        graph.set(sphere, "diffuse-color", color: SIMD4(look.diffuse, 1))
        graph.set(sphere, "specular-color", color: SIMD4(look.specular, 1))
        graph.set(sphere, "ambient", Double(look.ambient))
        graph.set(sphere, "shininess", p.double("shininess"))
        graph.set(foil, "strength", p.double("foil"))
        graph.set(foil, "offset", p.double("foil-tilt"))
    }

    // MARK: Keys

    static let info = OperationInfo(
        name: "mercurial:liquid-metal", title: "Liquid Metal",
        categories: ["light", "decor"],
        description: "Turns a text or shape layer into embossed liquid-metal letters in one step: a height field "
            + "from the layer's alpha, shaded by a lit hemisphere (chrome, gold, mercury or neon), with an optional "
            + "holographic foil; the result keeps the layer's own coverage, so the letters stay cut out.",
        properties: properties,
        keys: [("gimp:menu-path", "<Image>/Filters/Decor"),
               ("gimp:menu-label", "Liquid Metal…")])
}

extension MaterialPreset: PropertyEnum {
    public static let typeName = "MercurialMaterialPreset"
    public var nick: String { ["chrome", "gold", "mercury", "neon"][rawValue] }
    public var title: String { ["Chrome", "Gold", "Mercury", "Neon"][rawValue] }
}
