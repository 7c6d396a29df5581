import GeglBridge
import MercurialKernels

/// mercurial:matcap — Shaded Material for GIMP's menu: the layer's shape bevelled and shaded by a lit
/// sphere, from one of the metal looks or a matcap picture file (no aux pad, so GIMP 3 keeps it as a
/// live filter). Inner graph: input → shaded material from mask ← hemisphere render or gegl:load.
enum MatcapOp: MetaOperation {
    // MARK: Properties

    struct Properties: PropertySet {
        var source = ShadingSource.look
        var look = MaterialPreset.brightChrome
        var file = ""
        var mask = MaskChannel.alpha
        var style = BevelStyle.inner
        var technique = BevelTechnique.smooth
        var profile = BevelProfile.coreImage
        var radius = 8.0
        var depth = 10.0
        var soften = 0.0

        static let declarations: [PropertyDeclaration<Properties>] = [
            .choice(\.source, "source", "Shading", "A built-in look, or a matcap picture (a lit sphere) from a file."),
            .choice(\.look, "look", "Look", "The metal and the lights on it.").visible("source {look}"),
            .choice(\.mask, "mask", "Shape from", "Which part of the layer is the shape."),
            .choice(\.style, "style", "Style", "Where the bevel lies: inside the shape, around it, or both."),
            .choice(\.technique, "technique", "Technique", "Smooth: a soft rounded rise. Chisel: a straight or rounded chamfer."),
            .choice(\.profile, "profile", "Profile", "The bevel's cross-section.").visible("technique {profile}"),
            .double(\.radius, "radius", "Size", range: 0...HeightFieldParameters.maximumRadius, ui: 0...HeightFieldParameters.maximumRadius,
                    gamma: 2, digits: 1, unit: .pixelDistance, "How far from the edge the bevel reaches."),
            .double(\.depth, "depth", "Depth", range: -1000...1000, ui: -40...40, digits: 1,
                    "How steep the bevel looks (negative: engraved)."),
            .double(\.soften, "soften", "Soften", range: 0...HeightFieldParameters.maximumSoften, ui: 0...16, digits: 1,
                    unit: .pixelDistance, "Blurs the bevel's surface before it is shaded."),
            // Last: GIMP 3.0's plug-in API cannot carry a file-path property and drops every one after it.
            .filePath(\.file, "file", "Matcap file",
                      "A picture of a lit sphere filling the frame (unreadable: the built-in look).")
                .visible("source {file}"),
        ]
    }

    /// Where the shading comes from.
    enum ShadingSource: Int, CaseIterable, Sendable, PropertyEnum {
        case look = 0, file
        static let typeName = "MercurialShadingSource"
        var label: EnumCase {
            switch self {
            case .look: EnumCase("look", "Built-in look")
            case .file: EnumCase("file", "Matcap file")
            }
        }
    }

    // MARK: Graph

    static func attach(_ graph: MetaGraph) {
        let surface = MetalSurface.add(to: graph).surface
        graph.link(graph.input, surface, graph.output)
        graph.redirect(\Properties.mask, to: surface, \ShadedMaskControls.height.mask)
        graph.redirect(\Properties.style, to: surface, \ShadedMaskControls.height.style)
        graph.redirect(\Properties.radius, to: surface, \ShadedMaskControls.height.radius)
        graph.redirect(\Properties.depth, to: surface, \ShadedMaskControls.shading.scale)
        graph.redirect(\Properties.soften, to: surface, \ShadedMaskControls.height.soften)
    }

    /// The look onto the sphere, the technique's profile onto the surface, and the shading image
    /// (the file's picture, or the sphere) onto its aux pad.
    static func update(_ graph: MetaGraph, _ p: Properties) {
        guard let metal = MetalSurface.find(in: graph) else { return }
        let profile = p.technique.profile ?? p.profile
        graph.set(metal.surface, \ShadedMaskControls.height.profile, profile)
        graph.setCachePolicy(metal.surface, HeightFieldEngine.cachePolicy(
            HeightFieldParameters(radius: p.radius, profile: profile, style: p.style, soften: p.soften)))
        p.look.look.light(metal.sphere, in: graph)
        graph.connectImageFile(p.source == .file ? p.file : "", to: metal.surface, pad: "aux", fallback: metal.sphere)
    }

    // MARK: Keys

    static let info = OperationInfo(
        name: "mercurial:matcap", title: "Shaded Material",
        categories: ["light", "decor"],
        description: "Bevels the layer's shape and shades it with a metal look or a matcap picture.",
        keys: [("gimp:menu-path", "<Image>/Filters/Light and Shadow/Mercurial"),
               ("gimp:menu-label", "Shaded Material…")])
}
