import GeglBridge
import MercurialKernels

/// The depth control of the ops that shade a height field (mercurial:shaded-material,
/// mercurial:shaded-material-from-mask).
struct ShadingControls: PropertySet {
    var scale = 10.0

    static let declarations: [PropertyDeclaration<ShadingControls>] = [
        .double(\.scale, "scale", "Depth", range: -1000...1000, ui: -50...50, digits: 1,
                "How steep the relief looks (negative: engraved)."),
    ]
}

/// mercurial:shaded-material-from-mask's controls: the height field's and the shading's, declared by
/// reference (the same names, ranges and texts); the metal ops set them on their inner surface.
struct ShadedMaskControls: PropertySet {
    var height = HeightFieldControls()
    var shading = ShadingControls()

    static let declarations: [PropertyDeclaration<ShadedMaskControls>] =
        HeightFieldControls.declarations.filter { $0.property.name != "keep-alpha" }.map { $0.lifted(into: \.height) }
        + ShadingControls.declarations.map { $0.lifted(into: \.shading) }
}

/// How a height field is shaded by the lit sphere on an aux pad: which aux image is used, how it is
/// read once per render, and how a block's heights are gathered with their edges repeated.
enum ShadingEngine {
    /// The shading image used when nothing (or an empty or infinite image) is on the aux pad: the
    /// default render of mercurial:hemisphere-light-render. Built once, on first use, never changed.
    static let defaultShading = Kernels.hemisphere.shadingImage(.studio)
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
        let image = Memo<ShadingImage>()
    }

    static func usableAux(_ r: Rect?) -> Rect? {
        guard let r, !r.isEmpty, !r.isInfinite, r.count <= maximumAuxPixels else { return nil }
        return r
    }

    /// The preparation at this scale for an op whose input is a height field's (or a mask's)
    /// extent and whose aux is the shading image.
    static func prepared(_ context: PrepareContext, scale: Double, for name: String) -> Prepared {
        if let aux = context.sourceBounds("aux"), !aux.isInfinite, aux.count > maximumAuxPixels {
            warn("\(name): the shading image (\(aux.width)×\(aux.height)) is larger than "
                 + "4096×4096 pixels; the default hemisphere is used instead")
        }
        return Prepared(scale: Float(scale), inputBounds: context.sourceBounds("input") ?? .empty,
                        auxBounds: usableAux(context.sourceBounds("aux")))
    }

    /// The whole shading image — until a process call of this preparation has read it: then
    /// nothing more, so GEGL does not render the aux image again for every later chunk.
    static func auxRequired(_ context: OperationContext) -> Rect {
        if context.prepared(as: Prepared.self)?.image.value != nil { return .empty }
        return usableAux(context.sourceBounds("aux")) ?? .empty
    }

    /// The shading image of this preparation: read from `aux` (scaled down when large) by the first
    /// caller, the default hemisphere without one.
    static func image(_ prepared: Prepared, aux: InputBuffer?) -> ShadingImage {
        prepared.image.value {
            guard let aux, let bounds = prepared.auxBounds else { return defaultShading }
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
    }

    /// Repeats the (height, alpha) pair at `first` leftwards to 0 and the one at `last` rightwards
    /// to `width` in a row of pairs: the height field's edge pixels beyond its extent.
    static func repeatEdges(_ row: UnsafeMutablePointer<Float>, first: Int, last: Int, width: Int) {
        for x in stride(from: 0, to: first, by: 1) { row[2 * x] = row[2 * first]; row[2 * x + 1] = row[2 * first + 1] }
        for x in stride(from: last + 1, to: width, by: 1) { row[2 * x] = row[2 * last]; row[2 * x + 1] = row[2 * last + 1] }
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
        for y in y0..<y1 { ShadingEngine.repeatEdges(p + 2 * y * stride, first: x0, last: x1 - 1, width: stride) }
        for y in 0..<y0 { (p + 2 * y * stride).update(from: p + 2 * y0 * stride, count: 2 * stride) }
        for y in y1..<grown.height { (p + 2 * y * stride).update(from: p + 2 * (y1 - 1) * stride, count: 2 * stride) }
    }
}
