import GeglBridge
import MercurialKernels

/// mercurial:shaded-material — shades a height field with a lit-hemisphere image (CIShadedMaterial).
enum ShadedMaterialOp: ComposerOperation {
    // MARK: Properties

    typealias Properties = ShadingControls

    // MARK: Prepare

    static func prepare(_ context: PrepareContext) -> ShadingEngine.Prepared {
        var prepared = ShadingEngine.prepared(context, scale: context.properties.typed(Properties.self).scale, for: info.name)
        prepared.heights = context.sourceHasAlpha("input") == false ? .yFloat : .yaFloat
        context.setFormat("input", prepared.heights)
        context.setFormat("aux", .rgbaFloat)
        context.setFormat("output", .rgbaFloat)
        return prepared
    }

    static func boundingBox(_ context: OperationContext) -> Rect {
        context.sourceBounds("input") ?? .empty
    }

    /// One pixel around the output on the height field; the shading image as ShadingEngine reads it.
    static func requiredForOutput(_ context: OperationContext, pad: String, roi: Rect) -> Rect {
        pad == "aux" ? ShadingEngine.auxRequired(context) : roi.grown(by: 1)
    }

    // MARK: Process

    /// Letters make some parts of an image far costlier than others (sloped pixels look up the
    /// shading image; flat ones copy one colour): the work is handed out in blocks of whole tiles.
    static let threading = Threading.balancedByOperation
    /// The widest block, in pixels: its height field and its output stay in a core's own cache.
    static let blockWidth = 512

    static func process(_ prepared: ShadingEngine.Prepared, input: InputBuffer?, aux: InputBuffer?, output: OutputBuffer, roi: Rect) {
        guard let input, !roi.isEmpty else { return }
        let bounds = prepared.inputBounds
        let shading = ShadingEngine.image(prepared, aux: aux)
        let blocks = output.tileBlocks(roi, maxWidth: blockWidth)
        let largest = blocks.largestBlockSize
        let windowSize = (largest.width + 2) * (largest.height + 2) * 2
        // Heights without alpha are read beside the window first, then paired with alpha 1.
        let spareSize = prepared.heights == .yFloat ? (largest.width + 2) * (largest.height + 2) : 0
        Parallel.run(items: blocks.count) { next in
            // The height field around one block (one read), and the block shaded straight into
            // GEGL's tiles out of it.
            Scratch.withFloats(windowSize + spareSize) { window in
                while let i = next() {
                    let block = blocks[i]
                    let rowLength = block.width + 2
                    let inside = ShadingEngine.readGrown(input, block, bounds: bounds, format: prepared.heights, into: window,
                                           spare: window + windowSize)
                    output.fill(block, format: .rgbaFloat) { piece in
                        let r = piece.rect
                        // Nothing of the height field near this block (GEGL asked beyond the extent): transparent.
                        guard inside else { return piece.pixels.update(repeating: 0, count: r.count * 4) }
                        Kernels.shadedMaterial.shade(
                            heightAlpha: window + 2 * ((r.y - block.y) * rowLength + (r.x - block.x)),
                            rowLength: rowLength, width: r.width, height: r.height, scale: prepared.scale,
                            shading: shading, into: piece.pixels)
                    }
                }
            }
        }
    }

    // MARK: Keys

    static let info = OperationInfo(
        name: "mercurial:shaded-material", title: "Shaded Material (aux sphere)",
        categories: ["light", "map"],
        description: "Shades a height field by looking each surface normal up in the lit sphere on the aux pad "
            + "(Core Image's CIShadedMaterial).",
        auxLabel: "Shading image", auxDescription: "A lit hemisphere (e.g. mercurial:hemisphere-light-render) or any matcap")
}
