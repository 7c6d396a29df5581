import GeglBridge
import MercurialKernels

/// mercurial:bevel-emboss — Bevel & Emboss as artists know it from layer styles: the layer keeps
/// its colours, with a highlight on the lit slopes and a shadow on the far ones. Inner graph:
/// input → mercurial:height-field-from-mask (the shape's heights and their coverage) → aux of
/// mercurial:bevel-shade, whose input is the layer.
enum BevelEmbossOp: MetaOperation {
    // MARK: Properties

    struct Properties: PropertySet {
        var page = Page.structure
        var style = BevelStyle.inner
        var technique = BevelTechnique.smooth
        var profile = BevelProfile.coreImage
        var depth = 100.0
        var direction = BevelDirection.up
        var size = 5.0
        var soften = 0.0
        var mask = MaskChannel.alpha
        var shading = BevelShadeControls()

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
            let page = "page {\(Page.of(d.property.name).label.nick)}"
            let shown = d.property.keys.first { $0.0 == "visible" }.map { "\(page) & \($0.1)" } ?? page
            return d.lifted(into: \Properties.shading).replacingKey("visible", shown)
        }

        static let declarations: [PropertyDeclaration<Properties>] = [
            .choice(\.page, "page", "Show", "Which group of controls the dialog shows."),
            .choice(\.style, "style", "Style", "Where the bevel lies: inside the shape, around it, or both.")
                .visible("page {structure}"),
            .choice(\.technique, "technique", "Technique",
                    "Smooth: a soft rounded rise. Chisel: a straight or rounded chamfer from the exact edge.")
                .visible("page {structure}"),
            .choice(\.profile, "profile", "Profile", "The bevel's cross-section.")
                .visible("page {structure} & technique {profile}"),
            .double(\.depth, "depth", "Depth", range: 1...1000, ui: 1...500, gamma: 1.5, digits: 0,
                    "How steep the bevel looks, in per cent.").visible("page {structure}"),
            .choice(\.direction, "direction", "Direction", "Up raises the bevel; down sinks it.")
                .visible("page {structure}"),
            .double(\.size, "size", "Size", range: 0...HeightFieldParameters.maximumRadius, ui: 0...60, gamma: 1.5,
                    digits: 1, unit: .pixelDistance, "How far from the edge the bevel reaches.").visible("page {structure}"),
            .double(\.soften, "soften", "Soften", range: 0...HeightFieldParameters.maximumSoften, ui: 0...16, digits: 1,
                    unit: .pixelDistance, "Blurs the bevel's surface before it is lit.").visible("page {structure}"),
            .choice(\.mask, "mask", "Shape from", "Which part of the layer is the shape.").visible("page {structure}"),
        ] + shadingControls
    }

    // MARK: Graph

    static func attach(_ graph: MetaGraph) {
        let heights = graph.add("mercurial:height-field-from-mask")
        let shade = graph.add("mercurial:bevel-shade")
        graph.link(graph.input, shade, graph.output)
        graph.link(graph.input, heights)
        graph.connect(heights, to: shade, pad: "aux")
        graph.name(heights, "heights")
        graph.name(shade, "shade")
        graph.set(heights, \HeightFieldControls.keepAlpha, true)
        graph.redirect(\Properties.style, to: heights, \HeightFieldControls.style)
        graph.redirect(\Properties.size, to: heights, \HeightFieldControls.radius)
        graph.redirect(\Properties.soften, to: heights, \HeightFieldControls.soften)
        graph.redirect(\Properties.mask, to: heights, \HeightFieldControls.mask)
        graph.redirect(Properties.shadingControls, to: shade, Properties.forwarded)
    }

    /// The technique's profile onto the heights; the depth (per cent, signed by the direction) and
    /// whether the effects stay inside (inner bevel) onto the shading.
    static func update(_ graph: MetaGraph, _ p: Properties) {
        guard let heights = graph.child("heights"), let shade = graph.child("shade") else { return }
        graph.set(heights, \HeightFieldControls.profile, p.technique.profile ?? p.profile)
        let depth = p.depth / 10
        graph.set(shade, \BevelShadeControls.depth, p.direction == .up ? depth : -depth)
        graph.set(shade, \BevelShadeControls.insideOnly, p.style == .inner)
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
