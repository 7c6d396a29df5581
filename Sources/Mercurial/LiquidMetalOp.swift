import Glibc
import GeglBridge
import MercurialKernels

/// mercurial:liquid-metal — one filter: a text or shape layer becomes liquid-metal letters.
/// Inner graph: input → shaded material from mask (the layer's alpha made a height field and shaded
/// in one pass, lit by the internal hemisphere render, cut to the layer's own coverage) → optional foil.
enum LiquidMetalOp: MetaOperation {
    // MARK: Properties

    struct Properties: PropertySet {
        var page = Page.bevel
        var preset = MaterialPreset.brightChrome
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
        var technique = BevelTechnique.smooth
        var direction = BevelDirection.up
        var soften = 0.0
        var customLight = false
        var lightAngle = 120.0
        var lightAltitude = 30.0
        var glossContour = GlossContour.linear

        /// The dialog's pages: GIMP shows one at a time (GEGL keeps every value whatever the page).
        enum Page: Int, CaseIterable, PropertyEnum {
            case bevel = 0, light, foil
            static let typeName = "MercurialLiquidMetalPage"
            var label: EnumCase {
                switch self {
                case .bevel: EnumCase("bevel", "Bevel")
                case .light: EnumCase("light", "Light")
                case .foil: EnumCase("foil", "Foil")
                }
            }
        }

        // Names stay as graphs and saved files know them; the dialog shows Photoshop's words.
        static let declarations: [PropertyDeclaration<Properties>] = [
            .choice(\.page, "page", "Show", "Which group of controls the dialog shows."),
            .choice(\.style, "style", "Style", "Where the bevel lies: inside the shape, around it, or both.")
                .visible("page {bevel}"),
            .choice(\.technique, "technique", "Technique",
                    "Smooth: a soft rounded rise. Chisel: a straight or rounded chamfer from the exact edge.")
                .visible("page {bevel}"),
            .choice(\.profile, "profile", "Profile", "The bevel's cross-section.")
                .visible("page {bevel} & technique {profile}"),
            .double(\.radius, "radius", "Size", range: 0...HeightFieldParameters.maximumRadius, ui: 0...HeightFieldParameters.maximumRadius,
                    gamma: 2, digits: 1, unit: .pixelDistance, "How far from the edge the bevel reaches.")
                .visible("page {bevel}"),
            .double(\.relief, "relief", "Depth", range: -1000...1000, ui: -40...40, digits: 1,
                    "How steep the bevel looks (negative: engraved).")
                .visible("page {bevel}"),
            .choice(\.direction, "direction", "Direction", "Up raises the bevel; down sinks it.")
                .visible("page {bevel}"),
            .double(\.soften, "soften", "Soften", range: 0...HeightFieldParameters.maximumSoften, ui: 0...16, digits: 1,
                    unit: .pixelDistance, "Blurs the bevel's surface before it is lit.")
                .visible("page {bevel}"),
            .choice(\.mask, "mask", "Shape from", "Which part of the layer is the shape.")
                .visible("page {bevel}"),
            .choice(\.preset, "preset", "Look", "The metal and the lights on it.")
                .visible("page {light}"),
            .double(\.brightness, "brightness", "Brightness", range: 0...10, ui: 0...3, digits: 2,
                    "Multiplies every light.")
                .visible("page {light}"),
            .double(\.hueShift, "hue-shift", "Colour shift", range: -180...180, unit: .degree,
                    "Turns the colour of every light around the colour wheel.")
                .visible("page {light}"),
            .double(\.shininess, "shininess", "Shininess", range: 1...1000, ui: 1...200, gamma: 2, digits: 1,
                    "Low: broad, soft highlights; high: small, sharp ones.")
                .visible("page {light}"),
            .choice(\.glossContour, "gloss-contour", "Gloss contour", "A curve that remaps the metal's light.")
                .visible("page {light}"),
            .boolean(\.customLight, "custom-light", "Set the light angle",
                     "Off: the look's own key light. On: the angle and altitude below.")
                .visible("page {light}"),
            .double(\.lightAngle, "light-angle", "Angle", range: -180...180, unit: .degree,
                    "Where the light comes from: 0 right, 90 top, 120 upper left.")
                .visible("page {light} & custom-light"),
            .double(\.lightAltitude, "light-altitude", "Altitude", range: 0...90, unit: .degree,
                    "How high the light stands: 0 grazing, 90 straight in front.")
                .visible("page {light} & custom-light"),
            .double(\.foil, "foil", "Holographic foil", range: 0...1, ui: 0...0.5, gamma: 1.5, digits: 3,
                    "Strength of a rainbow foil over the metal (0: none).")
                .visible("page {foil}"),
            .double(\.foilTilt, "foil-tilt", "Foil tilt", range: -1...1, digits: 3,
                    "Turns the foil's colours, as tilting the card does.")
                .visible("page {foil}"),
        ]
    }

    // MARK: Graph

    static func attach(_ graph: MetaGraph) {
        let metal = MetalSurface.add(to: graph), surface = metal.surface, sphere = metal.sphere
        let foil = graph.add("mercurial:holographic-hue")
        graph.link(graph.input, surface, foil, graph.output)
        // One-to-one properties: GEGL forwards them (now and on every change).
        graph.redirect(\Properties.radius, to: surface, \ShadedMaskControls.height.radius)
        graph.redirect(\Properties.mask, to: surface, \ShadedMaskControls.height.mask)
        graph.redirect(\Properties.style, to: surface, \ShadedMaskControls.height.style)
        graph.redirect(\Properties.soften, to: surface, \ShadedMaskControls.height.soften)
        graph.redirect(\Properties.glossContour, to: sphere, \HemisphereControls.glossContour)
        graph.redirect(\Properties.shininess, to: sphere, \HemisphereControls.shininess)
        graph.redirect(\Properties.foil, to: foil, \HolographicControls.strength)
        graph.redirect(\Properties.foilTilt, to: foil, \HolographicControls.offset)
    }

    /// The look's lights, turned and scaled by the light controls, onto the inner hemisphere; the
    /// technique's profile onto the height field; the depth, signed by the direction, onto the shading.
    static func update(_ graph: MetaGraph, _ p: Properties) {
        guard let metal = MetalSurface.find(in: graph) else { return }
        let profile = p.technique.profile ?? p.profile
        graph.set(metal.surface, \ShadedMaskControls.height.profile, profile)
        graph.setCachePolicy(metal.surface, HeightFieldEngine.cachePolicy(
            HeightFieldParameters(radius: p.radius, profile: profile, style: p.style, soften: p.soften)))
        graph.set(metal.surface, \ShadedMaskControls.shading.scale, p.direction == .up ? p.relief : -p.relief)
        p.preset.look.light(metal.sphere, in: graph, hueShift: p.hueShift, brightness: p.brightness,
                            keyLight: p.customLight ? (p.lightAngle, p.lightAltitude) : nil)
    }

    // MARK: Keys

    static let info = OperationInfo(
        name: "mercurial:liquid-metal", title: "Liquid Metal",
        categories: ["light", "decor"],
        description: "Turns a text or shape layer into bevelled liquid-metal letters.",
        keys: [("gimp:menu-path", "<Image>/Filters/Decor"),
               ("gimp:menu-label", "Liquid Metal…")])
}
