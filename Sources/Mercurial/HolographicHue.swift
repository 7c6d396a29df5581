import GeglBridge
import MercurialKernels
import MercurialKernelsV3

/// mercurial:holographic-hue — trading-card foil: Voronoi cells turned into hue, mixed over the input.
enum HolographicHue: PointComposerOperation {
    // MARK: Properties

    struct Properties: PropertySet {
        static let defaults = HolographicParameters()
        var offset = Double(defaults.offset)
        var strength = Double(defaults.strength)
        var cellSize = Double(defaults.cellSize)
        var displacement = Double(defaults.displacement)
        var seed: UInt32 = 0
        var sweep = Double(defaults.sweep)
        var sweepAngle = Double(defaults.sweepAngle)

        static let declarations: [PropertyDeclaration<Properties>] = [
            .double(\.offset, "offset", "Tilt", range: -1...1, digits: 3,
                    "Shifts every cell's hue, as tilting the card does: offset and offset + 1 give the same image."),
            .double(\.strength, "strength", "Strength", range: 0...1, ui: 0...0.5, gamma: 1.5, digits: 3,
                    "How much foil colour is mixed over the picture. 0 returns the input unchanged."),
            .double(\.cellSize, "cell-size", "Cell size",
                    range: Double(HolographicParameters.cellSizeRange.lowerBound)...Double(HolographicParameters.cellSizeRange.upperBound),
                    ui: 4...200, gamma: 1.5, digits: 1, unit: .pixelDistance,
                    "Size of the foil's cells (the Voronoi grid) in pixels."),
            .double(\.displacement, "displacement", "Displacement", range: -100...100, ui: 0...4, digits: 2,
                    "Spread of the cells' hues: hue = fract(cell value × displacement + tilt)."),
            .seed(\.seed, "seed", "Random seed", "Which random cell pattern."),
            .double(\.sweep, "sweep", "Sweep", range: -100...100, ui: -4...4, digits: 2,
                    "Extra hue turns across the image along the sweep angle: one still picture shows the shimmer a "
                    + "tilting card would."),
            .double(\.sweepAngle, "sweep-angle", "Sweep angle", range: -360...360, ui: 0...360, unit: .degree,
                    "Direction of the sweep: 0 left to right, 90 top to bottom."),
        ]
    }

    /// The kernel, in the build for this CPU.
    static let kernel: any HolographicKernel.Type = Accelerated.choose(MercurialKernels.Holographic.self,
                                                                       MercurialKernelsV3.Holographic.self)

    // MARK: Prepare

    struct Prepared: Sendable {
        var plan: HolographicPlan
    }

    static func prepare(_ context: PrepareContext) -> Prepared {
        let p = context.properties.typed(Properties.self)
        let parameters = HolographicParameters(
            offset: Float(p.offset), strength: Float(p.strength), cellSize: Float(p.cellSize),
            displacement: Float(p.displacement), seed: p.seed, sweep: Float(p.sweep), sweepAngle: Float(p.sweepAngle))
        // Strength 0 copies the input: in linear float, so the pixels come back bit for bit.
        // Otherwise the mix happens on perceptual (sRGB-encoded) components, as on screen.
        let format: PixelFormat = parameters.strength > 0 ? .perceptualRGBAFloat : .rgbaFloat
        context.setFormat("input", format)
        context.setFormat("output", format)
        context.setFormat("aux", .perceptualYFloat)
        let extent = context.sourceBounds("input").map { (x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
        return Prepared(plan: HolographicPlan(parameters, extent: extent))
    }

    /// Strength 0 changes nothing: GEGL hands the input on (no pass over the pixels).
    static func passesThrough(_ prepared: Prepared) -> Bool { !(prepared.plan.parameters.strength > 0) }

    // MARK: Process

    static func process(_ prepared: Prepared, input: UnsafePointer<Float>, aux: UnsafePointer<Float>?,
                        output: UnsafeMutablePointer<Float>, count: Int, roi: Rect) {
        kernel.apply(prepared.plan, input: input, aux: aux, output: output, x: roi.x, y: roi.y, width: roi.width,
                              count: count)
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
        keys: [("gimp:menu-path", "<Image>/Filters/Light and Shadow/Mercurial"),
               ("gimp:menu-label", "Holographic Foil…"),
               ("position-dependent", "true")],
        auxLabel: "Pattern", auxDescription: "Optional pattern whose luminance replaces the Voronoi cell values")
}
