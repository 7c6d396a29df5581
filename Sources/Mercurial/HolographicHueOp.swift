import GeglBridge
import MercurialKernels

/// mercurial:holographic-hue — trading-card foil: Voronoi cells turned into hue, mixed over the input.
enum HolographicHueOp: PointComposerOperation {
    // MARK: Properties

    typealias Properties = HolographicControls

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
        Kernels.holographic.apply(prepared.plan, input: input, aux: aux, output: output, x: roi.x, y: roi.y, width: roi.width,
                              count: count)
    }

    // MARK: Keys

    static let info = OperationInfo(
        name: "mercurial:holographic-hue", title: "Holographic Hue (aux pattern)",
        categories: ["light", "artistic"],
        description: "Trading-card foil: cells of rainbow hue (from a Voronoi pattern or the aux pattern) mixed "
            + "over the picture.",
        keys: [("position-dependent", "true")],
        auxLabel: "Pattern", auxDescription: "Optional pattern whose luminance replaces the Voronoi cell values")
}
