import Glibc
import GeglBridge
import MercurialKernels

/// mercurial:liquid-metal — one filter: a text or shape layer becomes liquid-metal letters.
/// Inner graph: input → shaded material from mask (the layer's alpha made a height field and shaded
/// in one pass, lit by the internal hemisphere render, cut to the layer's own coverage) → optional foil.
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
        var style = BevelStyle.inner
        var technique = BevelTechnique.profile
        var direction = BevelDirection.up
        var soften = 0.0
        var customLight = false
        var lightAngle = 120.0
        var lightAltitude = 30.0
        var glossContour = GlossContour.linear

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
            // Photoshop's Bevel & Emboss vocabulary (size = radius, depth = relief).
            .choice(\.style, "style", "Style",
                    "Inner bevel: the letters rise from their edge. Outer bevel: the letters are the plateau and "
                    + "the metal falls away around them. Emboss: half inside, half outside. Pillow emboss: the edge "
                    + "sinks in. Outer styles draw a metal ring around the shape, within the layer: grow the layer "
                    + "first if the ring needs room."),
            .choice(\.technique, "technique", "Technique",
                    "Smooth: Core Image's soft rise. Chisel hard: a straight chamfer from the exact distance to "
                    + "the edge. Chisel soft: a rounded fillet from the exact distance. Bevel profile: as the "
                    + "Bevel profile above says."),
            .choice(\.direction, "direction", "Direction", "Up raises the bevel; down sinks it (light and shade swap)."),
            .double(\.soften, "soften", "Soften", range: 0...HeightFieldParameters.maximumSoften, ui: 0...16, digits: 1,
                    unit: .pixelDistance, "Blurs the bevel's surface by this many pixels before it is lit."),
            .boolean(\.customLight, "custom-light", "Set the light angle",
                     "Off: the look's own key light. On: the key light comes from the angle and altitude below."),
            .double(\.lightAngle, "light-angle", "Light angle", range: -180...180, unit: .degree,
                    "Where the key light comes from, as in Photoshop: 0 from the right, 90 from the top, 120 from the "
                    + "upper left."),
            .double(\.lightAltitude, "light-altitude", "Light altitude", range: 0...90, unit: .degree,
                    "How high the key light stands: 0 at the horizon (grazing), 90 straight in front."),
            .choice(\.glossContour, "gloss-contour", "Gloss contour",
                    "A curve that remaps the metal's light: linear (as lit), half-round, cone, inverted cone, ring "
                    + "or Gaussian."),
        ]
    }

    // MARK: Graph

    static func attach(_ graph: MetaGraph) {
        let input = graph.input
        // Height Field from Mask and Shaded Material in one op: no height-field buffer between
        // them. The height field carries the layer's alpha and the shading multiplies it into its
        // own, so the letters stay cut out (a gegl:dst-in after it cost 40 % of the filter's time).
        let surface = graph.add("mercurial:shaded-material-from-mask")
        let sphere = graph.add("mercurial:hemisphere-light-render")
        let foil = graph.add("mercurial:holographic-hue")
        graph.link(input, surface, foil, graph.output)
        graph.connect(sphere, to: surface, pad: "aux")
        // The surface reads the whole sphere for every region it shades: keep it rendered.
        graph.setNode(sphere, "cache-policy", 2) // GEGL_CACHE_POLICY_ALWAYS
        graph.name(sphere, "sphere")
        graph.name(surface, "surface")
        // One-to-one properties: GEGL forwards them (now and on every change).
        graph.redirect(\Properties.radius, to: surface, "radius")
        graph.redirect(\Properties.mask, to: surface, "mask")
        graph.redirect(\Properties.style, to: surface, "style")
        graph.redirect(\Properties.soften, to: surface, "soften")
        graph.redirect(\Properties.glossContour, to: sphere, "gloss-contour")
        graph.redirect(\Properties.shininess, to: sphere, "shininess")
        graph.redirect(\Properties.foil, to: foil, "strength")
        graph.redirect(\Properties.foilTilt, to: foil, "offset")
    }

    /// The look's lights, turned and scaled by the light controls, onto the inner hemisphere; the
    /// technique's profile onto the height field; the depth, signed by the direction, onto the shading.
    static func update(_ graph: MetaGraph, _ p: Properties) {
        guard let sphere = graph.child("sphere"), let surface = graph.child("surface") else { return }
        graph.set(surface, "profile", (p.technique.profile ?? p.profile).label.nick)
        graph.set(surface, "scale", p.direction == .up ? p.relief : -p.relief)
        let look = p.preset.look
        for (i, light) in look.lights.enumerated() {
            let n = i + 1
            var position = SIMD3<Double>(Double(light.position.x), Double(light.position.y), Double(light.position.z))
            if i == 0, p.customLight {
                position = keyLight(angle: p.lightAngle, altitude: p.lightAltitude,
                                    distance: (position * position).sum().squareRoot())
            }
            graph.set(sphere, "light\(n)-x", position.x)
            graph.set(sphere, "light\(n)-y", position.y)
            graph.set(sphere, "light\(n)-z", position.z)
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

    /// The key light's position for Photoshop's angle (degrees counter-clockwise from the right, as
    /// seen) and altitude (degrees above the surface), at `distance` sphere radii: x right, y down
    /// (image), z towards the viewer.
    static func keyLight(angle: Double, altitude: Double, distance: Double) -> SIMD3<Double> {
        let a = angle * .pi / 180, e = altitude * .pi / 180
        return SIMD3(cos(e) * cos(a), -cos(e) * sin(a), sin(e)) * distance
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

/// Photoshop's bevel techniques, mapped onto the height field's profiles.
enum BevelTechnique: Int, CaseIterable, Sendable {
    case profile = 0, smooth, chiselHard, chiselSoft

    /// The profile the technique stands for (nil: the Bevel profile property decides).
    var profile: BevelProfile? {
        switch self {
        case .profile: nil
        case .smooth: .coreImage
        case .chiselHard: .linear
        case .chiselSoft: .round
        }
    }
}

extension BevelTechnique: PropertyEnum {
    public static let typeName = "MercurialBevelTechnique"
    public var label: EnumCase {
        switch self {
        case .profile: EnumCase("profile", "Bevel profile")
        case .smooth: EnumCase("smooth", "Smooth")
        case .chiselHard: EnumCase("chisel-hard", "Chisel hard")
        case .chiselSoft: EnumCase("chisel-soft", "Chisel soft")
        }
    }
}

/// Up raises the bevel, down sinks it.
enum BevelDirection: Int, CaseIterable, Sendable {
    case up = 0, down
}

extension BevelDirection: PropertyEnum {
    public static let typeName = "MercurialBevelDirection"
    public var label: EnumCase {
        switch self {
        case .up: EnumCase("up", "Up")
        case .down: EnumCase("down", "Down")
        }
    }
}
