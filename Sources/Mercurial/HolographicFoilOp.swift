import GeglBridge

/// mercurial:holographic-foil — Holographic Foil for GIMP's menu: mercurial:holographic-hue with an
/// optional pattern file instead of the aux pad (so GIMP 3 keeps it as a live filter), stronger by
/// default so that it shows on dark text.
enum HolographicFoilOp: MetaOperation {
    // MARK: Properties

    struct Properties: PropertySet {
        var controls = HolographicControls()
        var patternFile = ""

        static let controls = HolographicControls.declarations.map { declaration in
            let lifted = declaration.lifted(into: \Properties.controls)
            return declaration.property.name == "strength" ? lifted.defaulting(to: 0.5) : lifted
        }
        // The file last: GIMP 3.0's plug-in API cannot carry a file-path property and drops every one after it.
        static let declarations: [PropertyDeclaration<Properties>] = controls + [
            .filePath(\.patternFile, "pattern-file", "Pattern file",
                      "A picture whose brightness replaces the cells (none: the cells)."),
        ]
    }

    // MARK: Graph

    static func attach(_ graph: MetaGraph) {
        let foil = graph.add("mercurial:holographic-hue")
        graph.link(graph.input, foil, graph.output)
        graph.name(foil, "foil")
        graph.redirect(Properties.controls, to: foil, HolographicControls.declarations)
    }

    /// The pattern file on the foil's aux pad; without one (or one that cannot be read), the cells.
    static func update(_ graph: MetaGraph, _ p: Properties) {
        guard let foil = graph.child("foil") else { return }
        graph.connectImageFile(p.patternFile, to: foil, pad: "aux", fallback: nil)
    }

    // MARK: Keys

    static let info = OperationInfo(
        name: "mercurial:holographic-foil", title: "Holographic Foil",
        categories: ["light", "artistic"],
        description: "Trading-card foil: cells of rainbow hue mixed over the layer.",
        keys: [("gimp:menu-path", "<Image>/Filters/Light and Shadow/Mercurial"),
               ("gimp:menu-label", "Holographic Foil…"),
               ("position-dependent", "true")])
}
