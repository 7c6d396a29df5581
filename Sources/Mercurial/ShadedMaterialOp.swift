import GeglBridge
import MercurialKernels
import MercurialKernelsV3

/// mercurial:shaded-material — shades a height field with a lit-hemisphere image (CIShadedMaterial).
enum ShadedMaterialOp: ComposerOperation {
    // MARK: Properties

    struct Properties: PropertySet {
        var scale = 10.0

        static let declarations: [PropertyDeclaration<Properties>] = [
            .double(\.scale, "scale", "Depth", range: -1000...1000, ui: -50...50, digits: 1,
                    "How steep the relief looks (negative: engraved)."),
        ]
    }

    /// The kernel, in the build for this CPU.
    static let kernel: any ShadedMaterialKernel.Type = Accelerated.choose(MercurialKernels.ShadedMaterial.self,
                                                                          MercurialKernelsV3.ShadedMaterial.self)

    // MARK: Prepare

    /// The shading image used when nothing (or an empty or infinite image) is on the aux pad: the
    /// default render of mercurial:hemisphere-light-render. Built once, on first use, never changed.
    static let defaultShading = HemisphereLightRender.kernel.shadingImage(.studio)
    /// Larger aux images are read scaled down to this many pixels on their long side.
    static let maximumShadingSide = 1024
    /// GEGL renders the whole aux image at full size before the op can scale it down (an op asks
    /// for one rectangle; GEGL renders reduced levels only under GEGL_MIPMAP_RENDERING). So an aux
    /// image larger than this is not read: the default hemisphere is used, with a warning. Matcaps
    /// are rarely above 2048²; this bounds the work at about 16 Mpixels whatever is connected.
    static let maximumAuxPixels = 4096 * 4096

    struct Prepared: Sendable {
        var scale: Float
        /// The height field's format: (height, alpha), or height alone from a source without
        /// alpha (mercurial:height-field-from-mask without keep-alpha), taken as it is: a
        /// conversion to YA float would go through whichever path babl timed fastest on this
        /// machine, and some of those paths change the last bits of a height.
        var heights: PixelFormat = .yaFloat
        var inputBounds: Rect
        var auxBounds: Rect?
        /// The shading image, read from aux by the first process call of this preparation and
        /// shared by the rest (every tile reads the whole aux image).
        let shading = Memo<ShadingImage>()
    }

    static func usableAux(_ r: Rect?) -> Rect? {
        guard let r, !r.isEmpty, !r.isInfinite, r.count <= maximumAuxPixels else { return nil }
        return r
    }

    static func prepare(_ context: PrepareContext) -> Prepared {
        var prepared = prepared(context, scale: context.properties.typed(Properties.self).scale, for: info.name)
        prepared.heights = context.sourceHasAlpha("input") == false ? .yFloat : .yaFloat
        context.setFormat("input", prepared.heights)
        context.setFormat("aux", .rgbaFloat)
        context.setFormat("output", .rgbaFloat)
        return prepared
    }

    /// The preparation at this scale for an op whose input is a height field's (or a mask's)
    /// extent and whose aux is the shading image (also shaded-material-from-mask's).
    static func prepared(_ context: PrepareContext, scale: Double, for name: String) -> Prepared {
        if let aux = context.sourceBounds("aux"), !aux.isInfinite, aux.count > maximumAuxPixels {
            warn("\(name): the shading image (\(aux.width)×\(aux.height)) is larger than "
                 + "4096×4096 pixels; the default hemisphere is used instead")
        }
        return Prepared(scale: Float(scale), inputBounds: context.sourceBounds("input") ?? .empty,
                        auxBounds: usableAux(context.sourceBounds("aux")))
    }

    static func boundingBox(_ context: OperationContext) -> Rect {
        context.sourceBounds("input") ?? .empty
    }

    /// One pixel around the output on the height field; the whole shading image — until a process
    /// call of this preparation has read it: then nothing more, so GEGL does not render the aux
    /// image again for every later chunk.
    static func requiredForOutput(_ context: OperationContext, pad: String, roi: Rect) -> Rect {
        guard pad == "aux" else { return roi.grown(by: 1) }
        if context.prepared(as: Prepared.self)?.shading.value != nil { return .empty }
        return usableAux(context.sourceBounds("aux")) ?? .empty
    }

    // MARK: Process

    static func shadingImage(_ aux: InputBuffer?, bounds: Rect?) -> ShadingImage {
        guard let aux, let bounds else { return defaultShading }
        let long = max(bounds.width, bounds.height)
        let scale = long > maximumShadingSide ? Double(maximumShadingSide) / Double(long) : 1
        let w = max(1, Int((Double(bounds.width) * scale).rounded())), h = max(1, Int((Double(bounds.height) * scale).rounded()))
        // GEGL writes every pixel of the read (0 beyond the aux image): no zeroing first.
        let rgba = [Float](unsafeUninitializedCapacity: w * h * 4) { pixels, count in
            aux.read(Rect(x: Int((Double(bounds.x) * scale).rounded()), y: Int((Double(bounds.y) * scale).rounded()),
                          width: w, height: h),
                     format: .rgbaFloat, into: pixels.baseAddress!, scale: scale)
            count = w * h * 4
        }
        return ShadingImage(width: w, height: h, rgba: rgba)
    }

    /// Letters make some parts of an image far costlier than others (sloped pixels look up the
    /// shading image; flat ones copy one colour): the work is handed out in blocks of whole tiles.
    static let threading = Threading.balancedByOperation
    /// The widest block, in pixels: its height field and its output stay in a core's own cache.
    static let blockWidth = 512

    static func process(_ prepared: Prepared, input: InputBuffer?, aux: InputBuffer?, output: OutputBuffer, roi: Rect) {
        guard let input, !roi.isEmpty else { return }
        let bounds = prepared.inputBounds
        let shading = prepared.shading.value { shadingImage(aux, bounds: prepared.auxBounds) }
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
                    let inside = readGrown(input, block, bounds: bounds, format: prepared.heights, into: window,
                                           spare: window + windowSize)
                    output.fill(block, format: .rgbaFloat) { piece in
                        let r = piece.rect
                        // Nothing of the height field near this block (GEGL asked beyond the extent): transparent.
                        guard inside else { return piece.pixels.update(repeating: 0, count: r.count * 4) }
                        kernel.shade(heightAlpha: window + 2 * ((r.y - block.y) * rowLength + (r.x - block.x)),
                                          rowLength: rowLength, width: r.width, height: r.height, scale: prepared.scale,
                                          shading: shading, into: piece.pixels)
                    }
                }
            }
        }
    }

    /// Reads (height, alpha) for `block` grown by one pixel, rows of block.width + 2 pixels; outside
    /// the height field its edge pixels repeat. False when `block` is nowhere near the height field.
    /// `format`: YA float, or Y float (alpha 1), read first into `spare` (room for the grown
    /// block's pixels, one float each).
    static func readGrown(_ input: InputBuffer, _ block: Rect, bounds: Rect, format: PixelFormat,
                          into p: UnsafeMutablePointer<Float>, spare: UnsafeMutablePointer<Float>) -> Bool {
        let grown = block.grown(by: 1)
        let inside = grown.intersection(bounds)
        guard !inside.isEmpty else { return false }
        let first = p + 2 * ((inside.y - grown.y) * grown.width + (inside.x - grown.x))
        if format == .yFloat {
            input.read(inside, format: .yFloat, into: spare)
            for y in 0..<inside.height {
                let heights = spare + y * inside.width, pairs = first + 2 * y * grown.width
                for x in 0..<inside.width {
                    pairs[2 * x] = heights[x]
                    pairs[2 * x + 1] = 1
                }
            }
        } else {
            input.read(inside, format: .yaFloat, into: first, rowLength: grown.width)
        }
        clampEdges(p, grown: grown, inside: inside)
        return true
    }

    /// Fills the part of `grown` outside `inside` with the nearest pixel of `inside` (2 floats each).
    static func clampEdges(_ p: UnsafeMutablePointer<Float>, grown: Rect, inside: Rect) {
        let stride = grown.width
        let x0 = inside.x - grown.x, x1 = inside.maxX - grown.x, y0 = inside.y - grown.y, y1 = inside.maxY - grown.y
        for y in y0..<y1 {
            let row = p + 2 * y * stride
            for x in 0..<x0 { row[2 * x] = row[2 * x0]; row[2 * x + 1] = row[2 * x0 + 1] }
            for x in x1..<stride { row[2 * x] = row[2 * (x1 - 1)]; row[2 * x + 1] = row[2 * (x1 - 1) + 1] }
        }
        for y in 0..<y0 { (p + 2 * y * stride).update(from: p + 2 * y0 * stride, count: 2 * stride) }
        for y in y1..<grown.height { (p + 2 * y * stride).update(from: p + 2 * (y1 - 1) * stride, count: 2 * stride) }
    }

    // MARK: Keys

    static let info = OperationInfo(
        name: "mercurial:shaded-material", title: "Shaded Material (aux sphere)",
        categories: ["light", "map"],
        description: "Shades a height field by looking each surface normal up in the lit sphere on the aux pad "
            + "(Core Image's CIShadedMaterial).",
        auxLabel: "Shading image", auxDescription: "A lit hemisphere (e.g. mercurial:hemisphere-light-render) or any matcap")
}
