import GeglBridge
import MercurialKernels

/// mercurial:bevel-emboss — Bevel & Emboss as artists know it from layer styles: the layer keeps
/// its colours, with a highlight on the lit slopes and a shadow on the far ones. Inner graph:
/// input → mercurial:height-field-from-mask (the shape's heights and their coverage) → aux of
/// mercurial:bevel-shade, whose input is the layer (for a stroke emboss: the layer over a stroke of
/// the bevel's width). With a metal material, the metal surface of liquid-metal replaces the shading.
enum BevelEmbossOp: MetaOperation {
    // MARK: Properties

    struct Properties: PropertySet {
        var page = Page.structure
        var style = Style.inner
        var strokeColor = SIMD4<Float>(0.5, 0.5, 0.5, 1)
        var material = Material.layer
        var look = MaterialPreset.brightChrome
        var textureFile = ""
        var technique = BevelTechnique.smooth
        var profile = BevelProfile.coreImage
        var depth = 100.0
        var direction = BevelDirection.up
        var size = 5.0
        var soften = 0.0
        var mask = MaskChannel.alpha
        var shading = BevelShadeControls()

        /// Photoshop's styles: the height field's four, and the stroke emboss (an outer bevel on a
        /// stroke of the bevel's width, in the stroke's colour).
        enum Style: Int, CaseIterable, Sendable, PropertyEnum {
            case inner = 0, outer, emboss, pillow, stroke
            static let typeName = "MercurialBevelEmbossStyle"
            var label: EnumCase {
                switch self {
                case .stroke: EnumCase("stroke-emboss", "Stroke emboss")
                default: heights.label
                }
            }
            /// The height field's style.
            var heights: BevelStyle { BevelStyle(rawValue: rawValue) ?? .outer }
        }

        /// The layer's own colours, or a metal look (liquid-metal's surface, its looks by `look`).
        enum Material: Int, CaseIterable, Sendable, PropertyEnum {
            case layer = 0, metal
            static let typeName = "MercurialBevelEmbossMaterial"
            var label: EnumCase {
                switch self {
                case .layer: EnumCase("layer", "Layer colours")
                case .metal: EnumCase("metal", "Metal")
                }
            }
        }

        enum Page: Int, CaseIterable, Sendable, PropertyEnum {
            case structure = 0, shading, surface, secondLight
            static let typeName = "MercurialBevelEmbossPage"
            var label: EnumCase {
                switch self {
                case .structure: EnumCase("structure", "Structure")
                case .shading: EnumCase("shading", "Shading")
                case .surface: EnumCase("surface", "Contour and texture")
                case .secondLight: EnumCase("second-light", "Second light")
                }
            }

            /// The page a shading control shows on.
            static func of(_ name: String) -> Page {
                if ["contour", "range"].contains(name) || name.hasPrefix("texture") || name == "invert-texture" { return .surface }
                return name.hasPrefix("light2") || name == "second-light" ? .secondLight : .shading
            }
        }

        /// The shading's own controls (depth and inside-only are set from the structure).
        static let forwarded = BevelShadeControls.declarations.filter { !["depth", "inside-only"].contains($0.property.name) }

        /// Those controls by reference, each on its page (and, within it, shown as the shading says).
        static let shadingControls = forwarded.map { d -> PropertyDeclaration<Properties> in
            var page = "page {\(Page.of(d.property.name).label.nick)}"
            // A metal material brings its own light and colours: only the key light's direction acts.
            if !["angle", "altitude"].contains(d.property.name) { page += " & material {layer}" }
            let shown = d.property.keys.first { $0.0 == "visible" }.map { "\(page) & \($0.1)" } ?? page
            return d.lifted(into: \Properties.shading).visible(shown)
        }

        static let declarations: [PropertyDeclaration<Properties>] = [
            .choice(\.page, "page", "Show", "Which group of controls the dialog shows."),
            .choice(\.style, "style", "Style",
                    "Where the bevel lies: inside the shape, around it, both, or on a stroke around it.")
                .visible("page {structure}"),
            .color(\.strokeColor, "stroke-color", "Stroke colour", default: "rgb(0.5, 0.5, 0.5)",
                   "The stroke's colour (stroke emboss).").visible("page {structure} & style {stroke-emboss}"),
            .choice(\.material, "material", "Material", "The layer's own colours, or metal.")
                .visible("page {structure}"),
            .choice(\.look, "look", "Look", "The metal and the lights on it.")
                .visible("page {structure} & material {metal}"),
            .choice(\.technique, "technique", "Technique",
                    "Smooth: a soft rounded rise. Chisel: a straight or rounded chamfer from the exact edge.")
                .visible("page {structure}"),
            .choice(\.profile, "profile", "Profile", "The bevel's cross-section.")
                .visible("page {structure} & technique {profile}"),
            .double(\.depth, "depth", "Depth", range: 1...1000, ui: 1...500, gamma: 1.5, digits: 0,
                    "How steep the bevel looks, in per cent.").visible("page {structure}"),
            .choice(\.direction, "direction", "Direction", "Up raises the bevel; down sinks it.")
                .visible("page {structure}"),
            .double(\.size, "size", "Size", range: 0...HeightFieldParameters.maximumRadius, ui: 0...HeightFieldParameters.maximumRadius, gamma: 2,
                    digits: 1, unit: .pixelDistance, "How far from the edge the bevel reaches.").visible("page {structure}"),
            .double(\.soften, "soften", "Soften", range: 0...HeightFieldParameters.maximumSoften, ui: 0...16, digits: 1,
                    unit: .pixelDistance, "Blurs the bevel's surface before it is lit.").visible("page {structure}"),
            .choice(\.mask, "mask", "Shape from", "Which part of the layer is the shape.").visible("page {structure}"),
        ] + shadingControls + [
            // Last: GIMP 3.0's plug-in API cannot carry a file-path property and drops every one after it.
            .filePath(\.textureFile, "texture-file", "Texture file",
                      "A picture, tiled, whose brightness is pressed into the surface (unreadable: none).")
                .visible("page {surface} & texture {file}"),
        ]
    }

    // MARK: Graph

    static func attach(_ graph: MetaGraph) {
        let heights = graph.add("mercurial:height-field-from-mask")
        let shade = graph.add("mercurial:bevel-shade")
        // The stroke: the heights' coverage in the stroke's colour, under the layer.
        let strokeFill = graph.add("gegl:color-overlay"), strokeUnder = graph.add("gegl:over")
        let metal = MetalSurface.add(to: graph)
        // A texture file: tiled, its brightness scaled by the depth, added to the heights.
        let tile = graph.add("gegl:tile"), scaled = graph.add("gegl:multiply"), textured = graph.add("gegl:add")
        graph.link(tile, scaled)
        graph.connect(scaled, to: textured, pad: "aux")
        graph.link(heights, textured)
        graph.link(graph.input, heights)
        graph.link(strokeFill, strokeUnder)
        graph.connect(graph.input, to: strokeUnder, pad: "aux")
        graph.connect(heights, to: shade, pad: "aux")
        graph.link(graph.input, metal.surface)
        for (node, name) in [(heights, "heights"), (shade, "shade"), (strokeFill, "stroke-fill"), (strokeUnder, "stroke-under"),
                             (tile, "tile"), (scaled, "texture-scaled"), (textured, "textured")] {
            graph.name(node, name)
        }
        graph.set(heights, \HeightFieldControls.keepAlpha, true)
        graph.redirect(\Properties.size, to: heights, \HeightFieldControls.radius)
        graph.redirect(\Properties.soften, to: heights, \HeightFieldControls.soften)
        graph.redirect(\Properties.mask, to: heights, \HeightFieldControls.mask)
        graph.redirect(\Properties.size, to: metal.surface, \ShadedMaskControls.height.radius)
        graph.redirect(\Properties.soften, to: metal.surface, \ShadedMaskControls.height.soften)
        graph.redirect(\Properties.mask, to: metal.surface, \ShadedMaskControls.height.mask)
        graph.redirect(Properties.shadingControls, to: shade, Properties.forwarded)
    }

    /// The style and the technique's profile onto the heights; the depth (per cent, signed by the
    /// direction) and whether the effects stay inside onto the shading; the stroke in or out of the
    /// shading's input; the material's surface or the shading onto the output.
    static func update(_ graph: MetaGraph, _ p: Properties) {
        guard let heights = graph.child("heights"), let shade = graph.child("shade"),
              let strokeFill = graph.child("stroke-fill"), let strokeUnder = graph.child("stroke-under"),
              let tile = graph.child("tile"), let scaled = graph.child("texture-scaled"),
              let textured = graph.child("textured"), let metal = MetalSurface.find(in: graph) else { return }
        // The heights as they reach the shading: with the texture file added, or as made (never
        // through a conversion when there is no file).
        let file = p.shading.texture == .file
            && graph.connectImageFile(p.textureFile, to: tile, pad: "input", fallback: nil)
        if file {
            graph.set(scaled, "value", (p.shading.invertTexture ? 1 : -1) * p.shading.textureDepth / 100)
        }
        let surface = file ? textured : heights
        graph.connect(surface, to: shade, pad: "aux")
        graph.link(surface, strokeFill)
        let profile = p.technique.profile ?? p.profile
        let depth = (p.direction == .up ? 1 : -1) * p.depth / 10
        graph.set(heights, \HeightFieldControls.style, p.style.heights)
        graph.set(heights, \HeightFieldControls.profile, profile)
        let policy = HeightFieldEngine.cachePolicy(HeightFieldParameters(radius: p.size, profile: profile, style: p.style.heights,
                                                                         soften: p.soften))
        graph.setCachePolicy(heights, policy)
        graph.setCachePolicy(metal.surface, policy)
        graph.set(shade, \BevelShadeControls.depth, depth)
        graph.set(shade, \BevelShadeControls.insideOnly, p.style == .inner || p.style == .stroke)
        graph.setColor(strokeFill, "value", p.strokeColor)
        graph.link(p.style == .stroke ? strokeUnder : graph.input, shade)
        if p.material == .metal {
            graph.set(metal.surface, \ShadedMaskControls.height.style, p.style.heights)
            graph.set(metal.surface, \ShadedMaskControls.height.profile, profile)
            graph.set(metal.surface, \ShadedMaskControls.shading.scale, depth)
            p.look.look.light(metal.sphere, in: graph, keyLight: (p.shading.angle, p.shading.altitude))
            graph.link(metal.surface, graph.output)
        } else {
            graph.link(shade, graph.output)
        }
    }

    // MARK: Keys

    static let info = OperationInfo(
        name: "mercurial:bevel-emboss", title: "Bevel & Emboss",
        categories: ["light", "decor"],
        description: "Bevels the layer's shape and keeps its colours, with a highlight on the lit slopes and a shadow "
            + "on the far ones.",
        keys: [("gimp:menu-path", "<Image>/Filters/Light and Shadow"),
               ("gimp:menu-label", "Bevel & Emboss…")])
}
