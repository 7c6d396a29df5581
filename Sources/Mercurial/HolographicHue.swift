import GeglBridge
import MercurialKernels

/// mercurial:holographic-hue — trading-card foil: Voronoi cells turned into hue, mixed over the input.
enum HolographicHue: PointComposerOperation {
    // MARK: Properties

    static let defaults = HolographicParameters()

    static let properties: [Property] = [
        .double("offset", "Tilt", default: Double(defaults.offset), range: -1...1, digits: 3,
                "Shifts every cell's hue, as tilting the card does: offset and offset + 1 give the same image."),
        .double("strength", "Strength", default: Double(defaults.strength), range: 0...1, ui: 0...0.5, gamma: 1.5,
                digits: 3, "How much foil colour is mixed over the picture. 0 returns the input unchanged."),
        .double("cell-size", "Cell size",
                default: Double(defaults.cellSize),
                range: Double(HolographicParameters.cellSizeRange.lowerBound)...Double(HolographicParameters.cellSizeRange.upperBound),
                ui: 4...200, gamma: 1.5, digits: 1, unit: .pixelDistance,
                "Size of the foil's cells (the Voronoi grid) in pixels."),
        .double("displacement", "Displacement", default: Double(defaults.displacement), range: -100...100, ui: 0...4,
                digits: 2, "Spread of the cells' hues: hue = fract(cell value × displacement + tilt)."),
        .seed("seed", "Random seed", default: 0, "Which random cell pattern."),
        .double("sweep", "Sweep", default: Double(defaults.sweep), range: -100...100, ui: -4...4, digits: 2,
                "Extra hue turns across the image along the sweep angle: one still picture shows the shimmer a "
                + "tilting card would."),
        .double("sweep-angle", "Sweep angle", default: Double(defaults.sweepAngle), range: -360...360, ui: 0...360,
                unit: .degree, "Direction of the sweep: 0 left to right, 90 top to bottom."),
    ]

    // MARK: Prepare

    struct Prepared: Sendable {
        var plan: Accelerated.HolographicPlan
    }

    static func prepare(_ context: PrepareContext) -> Prepared {
        let p = context.properties
        let parameters = HolographicParameters(
            offset: Float(p.double("offset")), strength: Float(p.double("strength")),
            cellSize: Float(p.double("cell-size")), displacement: Float(p.double("displacement")),
            seed: UInt32(clamping: p.int("seed")), sweep: Float(p.double("sweep")),
            sweepAngle: Float(p.double("sweep-angle")))
        // Strength 0 copies the input: in linear float, so the pixels come back bit for bit.
        // Otherwise the mix happens on perceptual (sRGB-encoded) components, as on screen.
        let format: PixelFormat = parameters.strength > 0 ? .perceptualRGBAFloat : .rgbaFloat
        context.setFormat("input", format)
        context.setFormat("output", format)
        context.setFormat("aux", .perceptualYFloat)
        return Prepared(plan: Accelerated.HolographicPlan(parameters, extent: context.sourceBounds("input")))
    }

    // MARK: Process

    static func process(_ prepared: Prepared, input: UnsafePointer<Float>, aux: UnsafePointer<Float>?,
                        output: UnsafeMutablePointer<Float>, count: Int, roi: Rect) {
        prepared.plan.apply(input: input, aux: aux, output: output, x: roi.x, y: roi.y, width: roi.width, count: count)
    }

    // MARK: Keys

    static let info = OperationInfo(
        name: "mercurial:holographic-hue", title: "Holographic Foil",
        categories: ["light", "artistic"],
        description: "Trading-card foil: a Voronoi pattern gives every cell a value v; hue = fract(v × displacement "
            + "+ tilt (+ sweep across the image)); that fully saturated hue is mixed over the picture with the given "
            + "strength. The mix happens on perceptual sRGB components, so a strength of 0.04 looks like 4 % of foil "
            + "on screen, as in the original; alpha is kept exactly. Connect any pattern (e.g. gegl:cell-noise, a "
            + "photo) to the aux pad: its perceptual luminance replaces the Voronoi value.",
        properties: properties,
        keys: [("gimp:menu-path", "<Image>/Filters/Light and Shadow/Mercurial"),
               ("gimp:menu-label", "Holographic Foil…"),
               ("position-dependent", "true")],
        auxLabel: "Pattern", auxDescription: "Optional pattern whose luminance replaces the Voronoi cell values")
}
