import GeglBridge
import MercurialKernels

/// mercurial:height-field-from-mask — a smooth height field from a mask (CIHeightFieldFromMask).
enum HeightFieldFromMaskOp: AreaFilterOperation {
    // MARK: Properties

    typealias Properties = HeightFieldControls

    // MARK: Prepare

    static func prepare(_ context: PrepareContext) -> HeightFieldEngine.Prepared {
        let p = context.properties.typed(Properties.self)
        let prepared = HeightFieldEngine.prepared(p, bounds: context.sourceBounds("input"))
        context.setFormat("input", .yaFloat)
        context.setFormat("output", p.keepAlpha ? .yaFloat : .yFloat)
        context.setHalo(prepared.parameters.halo)
        return prepared
    }

    /// Large sizes: the whole layer at once (see `HeightFieldEngine.cachedRegion`).
    static let cachedRegion: (@Sendable (OperationContext, Rect) -> Rect)? = { context, roi in
        HeightFieldEngine.cachedRegion(context.properties.typed(Properties.self).parameters,
                                       bounds: context.sourceBounds("input"), roi: roi)
    }

    // MARK: Process

    static func process(_ prepared: HeightFieldEngine.Prepared, input: InputBuffer, output: OutputBuffer, roi: Rect) {
        let seeds = HeightFieldEngine.coarseSeeds(prepared, input: input, region: roi)
        HeightFieldEngine.heights(prepared, input: input, roi: roi, seeds: seeds) { output.write($0, format: $1, from: $2) }
    }

    // MARK: Keys

    static let info = OperationInfo(
        name: "mercurial:height-field-from-mask", title: "Height Field from Mask",
        categories: ["map", "light"],
        description: "Turns a shape into a smooth height map, 0 outside it rising to 1 inside.",
        keys: [("gimp:menu-path", "<Image>/Filters/Light and Shadow/Mercurial"),
               ("gimp:menu-label", "Height Field from Mask…")])
}
