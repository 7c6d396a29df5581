import GeglBridge

/// mercurial:relief-lighting — Lit Relief for GIMP's menu: mercurial:lit-relief with its height from
/// the layer (no aux pad, so GIMP 3 keeps it as a live filter), its controls on pages.
enum ReliefLightingOp: MetaOperation {
    // MARK: Properties

    struct Properties: PropertySet {
        var page = ReliefPage.relief
        var controls = LitReliefControls()

        static let controls = LitReliefControls.declarations(dialog: true).map { $0.lifted(into: \Properties.controls) }
        static let declarations: [PropertyDeclaration<Properties>] = [
            .choice(\.page, "page", "Show", "Which group of controls the dialog shows."),
        ] + controls
    }

    // MARK: Graph

    static func attach(_ graph: MetaGraph) {
        let relief = graph.add("mercurial:lit-relief")
        graph.link(graph.input, relief, graph.output)
        graph.redirect(Properties.controls, to: relief, LitReliefControls.declarations)
    }

    static func update(_ graph: MetaGraph, _ properties: Properties) {}

    // MARK: Keys

    static let info = OperationInfo(
        name: "mercurial:relief-lighting", title: "Lit Relief",
        categories: ["light"],
        description: "Lights a layer through its own relief with two lights and gloss, or writes its normal map.",
        keys: [("gimp:menu-path", "<Image>/Filters/Light and Shadow/Mercurial"),
               ("gimp:menu-label", "Lit Relief…"),
               ("position-dependent", "true")])
}
