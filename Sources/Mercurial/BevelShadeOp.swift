import GeglBridge
import MercurialKernels

/// mercurial:bevel-shade — Bevel & Emboss's shading: the layer on the input keeps its colours and
/// takes a highlight and a shadow from the slopes of the height field on the aux pad.
enum BevelShadeOp: ComposerOperation {
    // MARK: Properties

    typealias Properties = BevelShadeControls

    // MARK: Prepare

    struct Prepared: Sendable {
        var parameters: BevelShadeParameters
        var heightBounds: Rect?
    }

    static func prepare(_ context: PrepareContext) -> Prepared {
        context.setFormat("input", .perceptualRGBAFloat)
        context.setFormat("aux", .yaFloat)
        context.setFormat("output", .perceptualRGBAFloat)
        let bounds = context.sourceBounds("aux").flatMap { $0.isEmpty ? nil : $0 }
        return Prepared(parameters: context.properties.typed(Properties.self).parameters, heightBounds: bounds)
    }

    /// Without a height field every slope is flat: the layer as it is.
    static func passesThrough(_ prepared: Prepared) -> Bool { prepared.heightBounds == nil }

    static func boundingBox(_ context: OperationContext) -> Rect {
        context.sourceBounds("input") ?? .empty
    }

    /// The layer under the output; the height field one pixel around it.
    static func requiredForOutput(_ context: OperationContext, pad: String, roi: Rect) -> Rect {
        pad == "aux" ? roi.grown(by: 1) : roi
    }

    // MARK: Process

    static let threading = Threading.balancedByOperation
    static let blockWidth = 512

    static func process(_ prepared: Prepared, input: InputBuffer?, aux: InputBuffer?, output: OutputBuffer, roi: Rect) {
        guard let input, !roi.isEmpty else { return }
        let blocks = output.tileBlocks(roi, maxWidth: blockWidth)
        let largest = blocks.largestBlockSize
        let windowSize = (largest.width + 2) * (largest.height + 2) * 2
        Parallel.run(items: blocks.count) { next in
            // The height field around one block (its edge pixels repeated beyond its extent), then
            // the block shaded from it and the layer, straight into GEGL's tiles.
            Scratch.withFloats(windowSize) { window in
                while let i = next() {
                    let block = blocks[i], rowLength = block.width + 2
                    let near = aux.map { aux in
                        prepared.heightBounds.map {
                            ShadingEngine.readGrown(aux, block, bounds: $0, format: .yaFloat, into: window, spare: window)
                        } ?? false
                    } ?? false
                    if near {
                        BevelShade.shapeHeights(prepared.parameters, heights: window, rowLength: rowLength,
                                                rows: block.height + 2, x0: block.x - 1, y0: block.y - 1)
                    }
                    output.fill(block, format: .perceptualRGBAFloat, reading: input, format: .perceptualRGBAFloat) { piece in
                        let r = piece.rect
                        // No height field near this block: flat, so the layer as it is.
                        guard near else { return piece.pixels.update(from: piece.input, count: 4 * r.count) }
                        BevelShade.shade(prepared.parameters,
                                         heights: window + 2 * ((r.y - block.y) * rowLength + (r.x - block.x)),
                                         rowLength: rowLength, layer: piece.input, width: r.width, height: r.height,
                                         into: piece.pixels)
                    }
                }
            }
        }
    }

    // MARK: Keys

    static let info = OperationInfo(
        name: "mercurial:bevel-shade", title: "Bevel Shade (aux height)",
        categories: ["light"],
        description: "Keeps the layer's colours and adds a highlight and a shadow from the slopes of the height field "
            + "on the aux pad.",
        auxLabel: "Height field", auxDescription: "Heights and their coverage (mercurial:height-field-from-mask with keep-alpha)")
}
