import GeglBridge
import MercurialKernels
import MercurialKernelsV3

/// mercurial:height-field-from-mask — a smooth height field from a mask (CIHeightFieldFromMask).
enum HeightFieldFromMask: AreaFilterOperation {
    // MARK: Properties

    struct Properties: PropertySet {
        var mask = MaskChannel.alpha
        var radius = 10.0
        var profile = BevelProfile.coreImage
        var style = BevelStyle.inner
        var soften = 0.0
        var keepAlpha = false

        static let declarations: [PropertyDeclaration<Properties>] = [
            .choice(\.mask, "mask", "Shape from",
                    "Which part of the input is the shape: opacity for text and shape layers, brightness for "
                    + "white-on-black masks."),
            .double(\.radius, "radius", "Size", range: 0...HeightFieldParameters.maximumRadius, ui: 0...100,
                    gamma: 1.5, steps: (1, 5), digits: 1, unit: .pixelDistance,
                    "How far from the edge the surface takes to reach its full height."),
            .choice(\.profile, "profile", "Profile", "The bevel's cross-section."),
            .choice(\.style, "style", "Style", "Where the bevel lies: inside the shape, around it, or both."),
            .double(\.soften, "soften", "Soften", range: 0...HeightFieldParameters.maximumSoften, ui: 0...16,
                    digits: 1, unit: .pixelDistance, "Blurs the height field after the profile."),
            .boolean(\.keepAlpha, "keep-alpha", "Keep the layer's shape",
                     "Off: an opaque height field. On: the height keeps the input's alpha."),
        ]
    }

    /// The kernel, in the build for this CPU.
    static let kernel: any HeightFieldKernel.Type = Accelerated.choose(MercurialKernels.HeightField.self,
                                                                       MercurialKernelsV3.HeightField.self)

    // MARK: Prepare

    struct Prepared: Sendable {
        var channel: MaskChannel
        var parameters: HeightFieldParameters
        /// Core Image profile: the Gaussian weights of each level, built once per render (for a
        /// style's sides: of the side's width).
        var weights: [[Float]]
        /// Whether the output carries the input's alpha beside the height (Y A) or is opaque (Y).
        var keepAlpha: Bool
    }

    /// The kernel's parameters for these properties.
    static func parameters(_ p: Properties) -> HeightFieldParameters {
        HeightFieldParameters(radius: p.radius, profile: p.profile, style: p.style, soften: p.soften)
    }

    /// The preparation for these properties (also shaded-material-from-mask's, which makes the
    /// heights the same way).
    static func prepared(_ p: Properties) -> Prepared {
        let parameters = parameters(p)
        let levels = parameters.isPlainInner ? parameters.sigmas : parameters.side(radius: parameters.sideRadius).sigmas
        return Prepared(channel: p.mask, parameters: parameters,
                        weights: levels.map(MercurialKernels.HeightField.gaussianWeights), keepAlpha: p.keepAlpha)
    }

    static func prepare(_ context: PrepareContext) -> Prepared {
        let p = context.properties.typed(Properties.self)
        let prepared = prepared(p)
        context.setFormat("input", .yaFloat)
        context.setFormat("output", p.keepAlpha ? .yaFloat : .yFloat)
        context.setHalo(prepared.parameters.halo)
        return prepared
    }

    // MARK: Process

    /// The exact-distance profiles work on whole windows: blocks whose window (block + halo) stays
    /// under this many pixels, so memory per thread is bounded whatever region GEGL asks for.
    static let windowPixelBudget = 4 << 20
    /// The Core Image profile streams rows through rings as wide as the window, whatever its
    /// height: its blocks are as wide as this window allows and as tall as the region (a style's
    /// blocks hold their sides' heights: at most `styledBlockPixels`). Wide, tall blocks keep the
    /// halo's share of the work small even at the largest radius (halo ≈ 7R).
    static let streamWindowWidth = 4096
    static let styledBlockPixels = 2 << 20
    /// Rows read from the input (and written to the output) per GeglBuffer call.
    static let stripRows = 64

    /// Whether the Core Image cascade streams (every style; the exact-distance profiles and a
    /// radius under one pixel work on whole windows).
    static func streams(_ p: HeightFieldParameters) -> Bool { p.profile == .coreImage && !p.returnsMask }

    static func process(_ prepared: Prepared, input: InputBuffer, output: OutputBuffer, roi: Rect) {
        heights(prepared, input: input, roi: roi) { output.write($0, format: $1, from: $2) }
    }

    /// Where the heights of a region go: rectangles of it, each as rows of its width in the format
    /// given (Y float, or YA float with keep-alpha), every pixel of the region once.
    typealias Sink = (Rect, PixelFormat, UnsafePointer<Float>) -> Void

    /// Where a caller that keeps rows itself takes the plain Core Image stream's heights: image row
    /// y, `width` heights from column x, and with keep-alpha the input's alpha of the same pixels
    /// (nil without). The pointers are good only during the call.
    typealias RowSink = (_ y: Int, _ x: Int, _ width: Int, _ heights: UnsafePointer<Float>, _ alpha: UnsafePointer<Float>?) -> Void

    /// The blocks `heights` cuts a region of `roiHeight` rows into, at most this wide and tall.
    static func blockSize(_ p: HeightFieldParameters, roiHeight: Int) -> (width: Int, height: Int) {
        let halo = p.halo
        guard streams(p) else {
            let side = max(128, Int(Double(windowPixelBudget).squareRoot()) - 2 * halo)
            return (side, side)
        }
        let width = max(256, streamWindowWidth - 2 * halo)
        return (width, p.isPlainInner ? roiHeight : max(64, styledBlockPixels / width))
    }

    /// The heights of `roi` (the input read around it as the halo needs), handed to `emit` in
    /// strips of at most `stripRows` rows. A region no wider than `blockSize` comes as one column of
    /// blocks: strips as wide as the region, top to bottom.
    /// With `rows`, the plain Core Image stream hands its rows there as they come instead (no
    /// strips gathered: one copy fewer); the other profiles and styles still go to `emit`.
    static func heights(_ prepared: Prepared, input: InputBuffer, roi: Rect, emit: Sink, rows: RowSink? = nil) {
        let (width, height) = blockSize(prepared.parameters, roiHeight: roi.height)
        for by in stride(from: roi.y, to: roi.maxY, by: height) {
            for bx in stride(from: roi.x, to: roi.maxX, by: width) {
                let block = Rect(x: bx, y: by, width: min(width, roi.maxX - bx), height: min(height, roi.maxY - by))
                processBlock(prepared, input: input, block: block, emit: emit, rows: rows)
            }
        }
    }

    static func processBlock(_ prepared: Prepared, input: InputBuffer, block: Rect, emit: Sink, rows rowSink: RowSink?) {
        let window = block.grown(by: prepared.parameters.halo)
        let inset = block.x - window.x, top = block.y - window.y
        // With keep-alpha: the input's alpha of the block's rows, kept as the mask rows pass by, in a
        // ring of rows tagged with the block row each holds (a row gone from the ring is read again).
        // The plain streaming path needs a few strips' worth; the others keep the block's (they
        // write the block once its heights are all made).
        let streamsRows = streams(prepared.parameters) && prepared.parameters.isPlainInner
        let ringRows = !prepared.keepAlpha ? 0
            : streamsRows ? min(block.height, 2 * (prepared.parameters.halo + MercurialKernels.HeightField.readBatch + stripRows))
            : block.height
        let kept = UnsafeMutablePointer<Float>.allocate(capacity: max(ringRows * block.width, 1))
        defer { kept.deallocate() }
        var alphaRow = [Int](repeating: -1, count: ringRows)
        /// Block row y's kept alpha, while the ring still holds it.
        func keptRow(_ y: Int) -> UnsafePointer<Float>? {
            ringRows > 0 && alphaRow[y % ringRows] == y ? UnsafePointer(kept + (y % ringRows) * block.width) : nil
        }
        // Mask rows, outside the input's extent 0: the alpha mask straight from the layer's tiles
        // (no copy, no conversion when it lies as RGBA float); the luminance masks read luminance
        // and alpha through babl.
        var ya = [Float](repeating: 0, count: prepared.channel == .alpha ? 0 : window.width * MercurialKernels.HeightField.readBatch * 2)
        func readMask(_ first: Int, _ count: Int, _ into: UnsafeMutablePointer<Float>) {
            guard prepared.channel != .alpha else {
                readAlpha(Rect(x: window.x, y: window.y + first, width: window.width, height: count), into: into,
                          rowStride: window.width)
                if prepared.keepAlpha { keepAlpha(into + inset, rowStride: window.width, step: 1, windowRow: first, rows: count) }
                return
            }
            ya.withUnsafeMutableBufferPointer { buffer in
                var done = 0
                while done < count {
                    let rows = min(MercurialKernels.HeightField.readBatch, count - done)
                    input.read(Rect(x: window.x, y: window.y + first + done, width: window.width, height: rows),
                               format: .yaFloat, into: buffer.baseAddress!)
                    if prepared.keepAlpha {
                        keepAlpha(buffer.baseAddress! + 2 * inset + 1, rowStride: 2 * window.width, step: 2,
                                  windowRow: first + done, rows: rows)
                    }
                    MercurialKernels.Mask.extract(prepared.channel, luminanceAlpha: buffer.baseAddress!,
                                                  into: into + done * window.width, count: rows * window.width)
                    done += rows
                }
            }
        }
        /// The input's alpha of `rect`, as the mask reads it.
        func readAlpha(_ rect: Rect, into destination: UnsafeMutablePointer<Float>, rowStride: Int, step: Int = 1) {
            let format = prepared.channel == .alpha ? PixelFormat.rgbaFloat : .yaFloat
            input.readComponent(rect, format: format, component: format.components - 1, into: destination,
                                rowStride: rowStride, step: step)
        }
        /// Keeps the alpha of window rows from `windowRow` on (`alpha` at the block's first column,
        /// rows `rowStride` apart, values `step` apart) where they are rows of the block.
        func keepAlpha(_ alpha: UnsafePointer<Float>, rowStride: Int, step: Int, windowRow: Int, rows: Int) {
            for r in 0..<rows {
                let y = windowRow + r - top
                guard y >= 0, y < block.height else { continue }
                let source = alpha + r * rowStride
                let destination = kept + (y % ringRows) * block.width
                for x in 0..<block.width { destination[x] = source[step * x] }
                alphaRow[y % ringRows] = y
            }
        }
        // (Y, A) pairs of a strip, written before they are read; made once for the block (once per
        // strip, each allocation came back as fresh pages from the thread's arena).
        let pairCount = prepared.keepAlpha ? 2 * block.width * min(block.height, stripRows) : 1
        let pair = UnsafeMutablePointer<Float>.allocate(capacity: pairCount)
        defer { pair.deallocate() }
        /// Writes `rect` (rows of the block) from row-major heights, with the kept alpha if asked
        /// (a strip of rows at a time; a strip whose alpha left the ring reads it again), raised to
        /// `coverage` (rows of rect.width) where given.
        func write(_ rect: Rect, _ heights: UnsafePointer<Float>, coverage: UnsafePointer<Float>? = nil) {
            guard prepared.keepAlpha else {
                emit(rect, .yFloat, heights)
                return
            }
            for first in stride(from: 0, to: rect.height, by: stripRows) {
                let strip = Rect(x: rect.x, y: rect.y + first, width: rect.width,
                                 height: min(stripRows, rect.height - first))
                let y0 = strip.y - block.y
                if (y0..<(y0 + strip.height)).allSatisfy({ keptRow($0) != nil }) {
                    for r in 0..<strip.height {
                        let a = keptRow(y0 + r)!, row = pair + 2 * r * strip.width
                        for x in 0..<strip.width { row[2 * x + 1] = a[x] }
                    }
                } else {
                    // Read again as the mask read it (the same alpha, whichever way it came).
                    readAlpha(strip, into: pair + 1, rowStride: 2 * strip.width, step: 2)
                }
                let h = heights + first * rect.width
                for i in 0..<(strip.width * strip.height) { pair[2 * i] = h[i] }
                if let coverage {
                    let c = coverage + first * rect.width
                    for i in 0..<(strip.width * strip.height) { pair[2 * i + 1] = max(pair[2 * i + 1], c[i]) }
                }
                emit(strip, .yaFloat, pair)
            }
        }

        /// Writes a style's heights over the block, with their coverage when the style has one.
        func write(_ result: (heights: Plane, coverage: Plane?)) {
            result.heights.pixels.withUnsafeBufferPointer { h in
                guard let coverage = result.coverage else { return write(block, h.baseAddress!) }
                coverage.pixels.withUnsafeBufferPointer { write(block, h.baseAddress!, coverage: $0.baseAddress!) }
            }
        }
        guard streams(prepared.parameters) else {
            var mask = Plane(width: window.width, height: window.height)
            mask.pixels.withUnsafeMutableBufferPointer { readMask(0, window.height, $0.baseAddress!) }
            return write(kernel.styled(window: mask, parameters: prepared.parameters))
        }
        guard prepared.parameters.isPlainInner else {
            return write(kernel.styledStream(prepared.parameters, weights: prepared.weights, width: window.width,
                                             height: window.height, readRows: readMask))
        }
        if let rowSink {
            // Core Image, row by row to the caller, with the kept alpha of each row (read again if
            // it has left the ring).
            var reread = [Float](repeating: 0, count: prepared.keepAlpha ? block.width : 0)
            kernel.coreImageRows(width: window.width, height: window.height, weights: prepared.weights,
                                 readRows: readMask) { j, row in
                let y = block.y + j
                guard prepared.keepAlpha else { return rowSink(y, block.x, block.width, row, nil) }
                if let alpha = keptRow(j) {
                    rowSink(y, block.x, block.width, row, alpha)
                } else {
                    reread.withUnsafeMutableBufferPointer { buffer in
                        readAlpha(Rect(x: block.x, y: y, width: block.width, height: 1), into: buffer.baseAddress!,
                                  rowStride: block.width)
                        rowSink(y, block.x, block.width, row, buffer.baseAddress!)
                    }
                }
            }
            return
        }
        // Core Image: the mask streams in and height rows stream out; write them a strip at a time.
        var rows = [Float](repeating: 0, count: block.width * stripRows)
        var pending = 0, firstRow = 0
        rows.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            func flush() {
                guard pending > 0 else { return }
                write(Rect(x: block.x, y: block.y + firstRow, width: block.width, height: pending), base)
                firstRow += pending
                pending = 0
            }
            kernel.coreImageRows(width: window.width, height: window.height, weights: prepared.weights,
                                      readRows: readMask) { _, row in
                (base + pending * block.width).update(from: row, count: block.width)
                pending += 1
                if pending == stripRows { flush() }
            }
            flush()
        }
    }

    // MARK: Keys

    static let info = OperationInfo(
        name: "mercurial:height-field-from-mask", title: "Height Field from Mask",
        categories: ["map", "light"],
        description: "Turns a shape into a smooth height map, 0 outside it rising to 1 inside.",
        keys: [("gimp:menu-path", "<Image>/Filters/Light and Shadow/Mercurial"),
               ("gimp:menu-label", "Height Field from Mask…")])
}
