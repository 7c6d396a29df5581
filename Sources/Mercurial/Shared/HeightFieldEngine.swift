import GeglBridge
import MercurialKernels

/// How a region's heights are made from the input: the mask read around each block, the kernel run
/// on it, the heights handed on in strips or rows. mercurial:height-field-from-mask writes them;
/// mercurial:shaded-material-from-mask shades them as they come.
enum HeightFieldEngine {
    struct Prepared: Sendable {
        var channel: MaskChannel
        var parameters: HeightFieldParameters
        /// Core Image profile: the Gaussian weights of each full-resolution level, built once per
        /// render (for a style's sides: of the side's width), and the levels made on coarse grids.
        var weights: [[Float]]
        var coarse: [CoarseLevel]
        /// The input's extent: the mask is 0 outside it (the coarse levels read no further).
        var bounds: Rect?
        /// Whether the heights carry the input's alpha beside them (Y A) or are opaque (Y).
        var keepAlpha: Bool
    }

    /// The preparation for these controls.
    static func prepared(_ controls: HeightFieldControls, bounds: Rect?) -> Prepared {
        let parameters = controls.parameters
        return Prepared(channel: controls.mask, parameters: parameters,
                        weights: parameters.fineWeights,
                        coarse: parameters.coarseLevels, bounds: bounds.flatMap { $0.isInfinite ? nil : $0 },
                        keepAlpha: controls.keepAlpha)
    }

    /// The exact-distance profiles work on whole windows: blocks whose window (block + halo) stays
    /// under this many pixels, so memory per thread is bounded whatever region GEGL asks for.
    static let windowPixelBudget = 4 << 20
    /// The Core Image profile streams rows through rings as wide as the window, whatever its
    /// height: its blocks are as wide as this window allows and as tall as the region (a style's
    /// blocks hold their sides' heights: at most `styledBlockPixels`). Wide, tall blocks keep the
    /// halo's share of the work small even at the largest radius (halo ≈ 7R).
    static let streamWindowWidth = 4096
    static let styledBlockPixels = 2 << 20
    /// With coarse levels, each block keeps its levels' grids (about 4 bytes a block pixel): blocks
    /// of at most this many pixels.
    static let coarseBlockPixels = 4 << 20
    /// Rows read from the input (and handed on) per strip.
    static let stripRows = 64

    /// Whether the Core Image cascade streams (every style; the exact-distance profiles and a
    /// radius under one pixel work on whole windows).
    static func streams(_ p: HeightFieldParameters) -> Bool { p.profile == .coreImage && !p.returnsMask }

    /// Where the heights of a region go: rectangles of it, each as rows of its width in the format
    /// given (Y float, or YA float with keep-alpha), every pixel of the region once.
    typealias Sink = (Rect, PixelFormat, UnsafePointer<Float>) -> Void

    /// Where a caller that keeps rows itself takes the heights: image row y, `width` heights from
    /// column x, and with keep-alpha the alpha of the same pixels (the input's, raised to the
    /// style's coverage; nil without). The pointers are good only during the call.
    typealias RowSink = (_ y: Int, _ x: Int, _ width: Int, _ heights: UnsafePointer<Float>, _ alpha: UnsafePointer<Float>?) -> Void

    /// The coarse levels' last grids (the inner side's, and the outer's for the styles that reach
    /// outside), made once for a region and read by each of its blocks.
    struct CoarseSeeds: Sendable {
        var inner: CoarseCascade.SeedGrid?, outer: CoarseCascade.SeedGrid?
    }

    /// A region whose coarse levels are made at once holds at most this many pixels (their grids
    /// take about 4 bytes a pixel); beyond it, each block makes its own.
    static let coarseRegionPixels = 36 << 20

    /// The coarse levels for the blocks of `region` (nil without coarse levels, or when the region
    /// is too large to make them at once).
    static func coarseSeeds(_ prepared: Prepared, input: InputBuffer, region: Rect) -> CoarseSeeds? {
        let window = region.grown(by: prepared.parameters.streamHalo)
        guard !prepared.coarse.isEmpty, !region.isEmpty, window.count <= coarseRegionPixels else { return nil }
        // Made before the region's threads start: its pieces go to GEGL's threads instead.
        let forEach: ForEach = { count, body in
            Parallel.run(items: count) { next in while let i = next() { body(i) } }
        }
        let cascade = Block.cascade(prepared, input: input, window: window, forEach: forEach)
        let style = prepared.parameters.style
        let grids = Kernels.heightField.coarseSeedGrids(cascade, inner: style != .outer, outer: style.reachesOutside,
                                                        forEach: forEach)
        return CoarseSeeds(inner: grids.inner, outer: grids.outer)
    }

    /// With coarse levels, or an exact-distance profile whose halo is at least `wideHalo`, every
    /// region reads far around itself, so that its neighbours' work is mostly its own: GEGL
    /// computes (and keeps in the node's cache) the whole input at once when it holds at most
    /// `wholeCachePixels`, else the tiles of `cacheTile` pixels (on the image's grid) that the
    /// region touches. So a preview rendered in chunks costs what one render does.
    static let wholeCachePixels = 32 << 20
    static let cacheTile = 4096
    static let wideHalo = 32

    static func sharesItsHalo(_ p: HeightFieldParameters) -> Bool {
        !p.coarseLevels.isEmpty || (!streams(p) && !p.returnsMask && p.halo >= wideHalo)
    }

    /// The cache-policy a metal op gives its child that makes heights with `p`: GEGL's own choice
    /// (a cache: every op with a cached region has one) where it shares its halo, else none. A node
    /// with a cache computes whole tiles of it (see GeglBridge's cached region), which GEGL's chunks
    /// of a render then compute twice where they meet.
    static func cachePolicy(_ p: HeightFieldParameters) -> MetaGraph.CachePolicy { sharesItsHalo(p) ? .auto : .never }

    static func cachedRegion(_ p: HeightFieldParameters, bounds: Rect?, roi: Rect) -> Rect {
        guard sharesItsHalo(p), let bounds, !bounds.isEmpty, !bounds.isInfinite, !roi.isEmpty, !roi.isInfinite
        else { return roi }
        let area = bounds.count > wholeCachePixels ? roi.aligned(toCells: cacheTile, cacheTile).intersection(bounds) : bounds
        // Never less than asked (the part of roi outside the input is 0 either way).
        return area.union(roi)
    }

    /// The blocks `heights` cuts a streamed region of `roiWidth` × `roiHeight` into, at most this
    /// wide and tall: a style's blocks as tall as their pixel budget allows at the width they have
    /// (a narrow region's: taller, so fewer of them read their halo again); for whole windows (which
    /// `heights` cuts by `windowGrid`), the square whose window fits the budget.
    static func blockSize(_ p: HeightFieldParameters, roiWidth: Int = .max, roiHeight: Int) -> (width: Int, height: Int) {
        let halo = p.streamHalo
        guard streams(p) else {
            let side = max(128, Int(Double(windowPixelBudget).squareRoot()) - 2 * halo)
            return (side, side)
        }
        let width = max(256, streamWindowWidth - 2 * halo), across = max(1, min(width, roiWidth))
        let height = p.isPlainInner ? roiHeight : max(64, styledBlockPixels / across)
        return (width, p.coarseLevels.isEmpty ? height : min(height, max(64, coarseBlockPixels / across)))
    }

    /// With several threads, `windowGrid` counts this share of a block more per thread: blocks cost
    /// what their part of the shape costs, and a thread waits on the others' last ones.
    static let lastBlockShare = 0.5
    /// How many more columns or rows of blocks than the fewest `windowGrid` weighs (none for one
    /// thread: more blocks only add halo).
    static func extraSplits(_ threads: Int) -> Int { threads == 1 ? 0 : min(4 * threads, 32) }
    /// Beyond a block a thread, `windowGrid` cuts no block narrower or shorter than this: the
    /// small regions of a preview rendered in chunks pay for every halo again.
    static let smallestSplit = 256

    /// How a region of `width` × `height` whose heights come in whole windows (the profiles that do
    /// not stream) is cut into blocks for `threads` threads, each block one window: of the grids
    /// whose every window (block + halo) fits `windowPixelBudget` and `streamWindowWidth`, the one
    /// whose windows hold the fewest pixels per thread (each window transforms its halo again; the
    /// threads take the blocks in turn, ⌈blocks / threads⌉ each at most, and `lastBlockShare` more:
    /// so smaller blocks pay for their halo where it is narrow, down to `smallestSplit`). The blocks
    /// are ⌈width / columns⌉ × ⌈height / rows⌉ (the last ones of a row or column smaller).
    static func windowGrid(_ p: HeightFieldParameters, width: Int, height: Int, threads: Int = 1) -> (columns: Int, rows: Int) {
        let halo = p.streamHalo, threads = max(threads, 1)
        guard width > 0, height > 0 else { return (1, 1) }
        var best: (columns: Int, rows: Int, cost: Double)?
        for columns in 1...width {
            let blockWidth = (width + columns - 1) / columns, across = blockWidth + 2 * halo
            // (Blocks narrower than 64 pixels are mostly halo: never the best where wider ones fit.)
            if blockWidth < 64 && best != nil { break }
            if columns > threads && blockWidth < smallestSplit && best != nil { break }
            let tallest = windowPixelBudget / across - 2 * halo
            guard across <= streamWindowWidth, tallest >= 1 else { continue }
            let fewest = (height + tallest - 1) / tallest
            for rows in fewest...min(height, fewest + extraSplits(threads)) {
                let blocks = columns * rows, pixels = (width + 2 * halo * columns) * (height + 2 * halo * rows)
                if rows > fewest && blocks > threads && (height + rows - 1) / rows < smallestSplit { break }
                let turns = Double((blocks + threads - 1) / threads) + (threads == 1 ? 0 : lastBlockShare)
                let cost = Double(pixels) * turns / Double(blocks)
                if best == nil || cost < best!.cost { best = (columns, rows, cost) }
            }
            // Past a row of `extraSplits` columns (of one, for one thread), more columns only add halo.
            if fewest == 1 && columns >= max(1, extraSplits(threads)) { break }
        }
        // (No grid fits: blocks of 128 pixels; as large a halo as any size has fits with them.)
        return best.map { ($0.columns, $0.rows) } ?? ((width + 127) / 128, (height + 127) / 128)
    }

    /// How a region is shared among `threads` threads, each part worked apart (its halo read
    /// again): `partsPerThread` parts a thread, in as many columns as keep each at least `halos`
    /// halos wide; bands that would be thinner than that are fewer, down to one part a thread,
    /// cut whichever way reads less halo.
    static func partGrid(_ roi: Rect, halo: Int, threads: Int, partsPerThread: Int, halos: Int) -> (columns: Int, rows: Int) {
        let wanted = threads == 1 ? 1 : partsPerThread * threads, span = halos * (halo + 1)
        let columns = min(wanted, max(1, roi.width / span))
        let rows = (wanted + columns - 1) / columns
        guard rows > 1, roi.height / rows < span else { return (columns, rows) }
        let fewer = max(1, roi.height / span)
        if columns * fewer >= threads { return (columns, fewer) }
        let across = (roi.width + 2 * halo * threads) * (roi.height + 2 * halo)
        let down = (roi.width + 2 * halo) * (roi.height + 2 * halo * threads)
        return across <= down ? (threads, 1) : (1, threads)
    }

    /// The heights of `roi` (the input read around it as the halo needs), handed to `emit` in
    /// strips of at most `stripRows` rows. A region no wider than `blockSize` comes as one column of
    /// blocks: strips as wide as the region, top to bottom.
    /// With `rows`, every row goes there instead, as it comes (no strips gathered: one copy
    /// fewer); `emit` is then never called.
    /// `seeds`: the coarse levels made for a region holding `roi` (nil: each block makes its own).
    static func heights(_ prepared: Prepared, input: InputBuffer, roi: Rect, seeds: CoarseSeeds? = nil, emit: Sink,
                        rows: RowSink? = nil) {
        let p = prepared.parameters, grid = streams(p) ? nil : windowGrid(p, width: roi.width, height: roi.height)
        let (width, height) = grid.map { ((roi.width + $0.columns - 1) / $0.columns, (roi.height + $0.rows - 1) / $0.rows) }
            ?? blockSize(p, roiWidth: roi.width, roiHeight: roi.height)
        for by in stride(from: roi.y, to: roi.maxY, by: height) {
            for bx in stride(from: roi.x, to: roi.maxX, by: width) {
                let block = Rect(x: bx, y: by, width: min(width, roi.maxX - bx), height: min(height, roi.maxY - by))
                Block.work(prepared, input: input, block: block, seeds: seeds) { $0.run(emit: emit, rows: rows) }
            }
        }
    }

    /// One block's work: its mask window read, its heights made and handed on; with keep-alpha,
    /// the input's alpha of the block's rows kept as the mask rows pass by, in a ring of rows
    /// tagged with the block row each holds (a row gone from the ring is read again). All its
    /// memory is the block's own, made and freed by `work`.
    struct Block {
        let prepared: Prepared, input: InputBuffer, block: Rect, window: Rect
        let seeds: CoarseSeeds?
        /// The block's first column and row in its window.
        let inset: Int, top: Int
        /// Rows of kept alpha: a few strips' worth for the plain stream, the block's for the others
        /// (they write the block once its heights are all made); 0 without keep-alpha.
        let ringRows: Int
        let kept: UnsafeMutablePointer<Float>, keptTags: UnsafeMutablePointer<Int>
        /// (luminance, alpha) rows read for the luminance masks; (Y, A) pairs of a strip to write.
        let luminanceAlpha: UnsafeMutablePointer<Float>, pairs: UnsafeMutablePointer<Float>

        /// `adoptingAlpha`: the body takes the kept alpha's memory (`kept`) for its own, to free.
        static func work(_ prepared: Prepared, input: InputBuffer, block: Rect, seeds: CoarseSeeds?, adoptingAlpha: Bool = false,
                         _ body: (Block) -> Void) {
            let window = block.grown(by: prepared.parameters.streamHalo)
            let streamsRows = streams(prepared.parameters) && prepared.parameters.isPlainInner
            let ringRows = !prepared.keepAlpha ? 0
                : streamsRows ? min(block.height, 2 * (prepared.parameters.streamHalo + MercurialKernels.HeightField.readBatch + stripRows))
                : block.height
            let kept = UnsafeMutablePointer<Float>.allocate(capacity: max(ringRows * block.width, 1))
            let tags = UnsafeMutablePointer<Int>.allocate(capacity: max(ringRows, 1))
            tags.initialize(repeating: -1, count: max(ringRows, 1))
            let readCount = prepared.channel == .alpha ? 1 : window.width * MercurialKernels.HeightField.readBatch * 2
            let luminanceAlpha = UnsafeMutablePointer<Float>.allocate(capacity: readCount)
            let pairs = UnsafeMutablePointer<Float>.allocate(
                capacity: prepared.keepAlpha ? 2 * block.width * min(block.height, stripRows) : 1)
            defer {
                if !adoptingAlpha { kept.deallocate() }
                tags.deallocate(); luminanceAlpha.deallocate(); pairs.deallocate()
            }
            body(Block(prepared: prepared, input: input, block: block, window: window, seeds: seeds, inset: block.x - window.x,
                       top: block.y - window.y, ringRows: ringRows, kept: kept, keptTags: tags,
                       luminanceAlpha: luminanceAlpha, pairs: pairs))
        }

        /// Block row y's kept alpha, while the ring still holds it.
        func keptRow(_ y: Int) -> UnsafePointer<Float>? {
            ringRows > 0 && keptTags[y % ringRows] == y ? UnsafePointer(kept + (y % ringRows) * block.width) : nil
        }

        /// Mask rows `first` ..< first + count of the window (0 outside the input's extent): the
        /// alpha mask straight from the layer's tiles (no copy, no conversion when it lies as RGBA
        /// float); the luminance masks read luminance and alpha through babl.
        func readMask(_ first: Int, _ count: Int, _ into: UnsafeMutablePointer<Float>) {
            guard prepared.channel != .alpha else {
                readAlpha(Rect(x: window.x, y: window.y + first, width: window.width, height: count), into: into,
                          rowStride: window.width)
                if prepared.keepAlpha { keepAlpha(into + inset, rowStride: window.width, step: 1, windowRow: first, rows: count) }
                return
            }
            var done = 0
            while done < count {
                let rows = min(MercurialKernels.HeightField.readBatch, count - done)
                input.read(Rect(x: window.x, y: window.y + first + done, width: window.width, height: rows),
                           format: .yaFloat, into: luminanceAlpha)
                if prepared.keepAlpha {
                    keepAlpha(luminanceAlpha + 2 * inset + 1, rowStride: 2 * window.width, step: 2,
                              windowRow: first + done, rows: rows)
                }
                MercurialKernels.Mask.extract(prepared.channel, luminanceAlpha: luminanceAlpha,
                                              into: into + done * window.width, count: rows * window.width)
                done += rows
            }
        }

        /// The coarse levels over `window`, the mask read as `readMask` reads it (keeping nothing).
        static func cascade(_ prepared: Prepared, input: InputBuffer, window: Rect,
                            forEach: @escaping ForEach = serially) -> CoarseCascade {
            let bounds = prepared.bounds.map { IntRect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
            return Kernels.heightField.coarseCascade(levels: prepared.coarse, window: IntRect(window), bounds: bounds,
                                                     forEach: forEach) { rect, into in
                let r = Rect(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
                guard prepared.channel != .alpha else {
                    let format = PixelFormat.rgbaFloat
                    return input.readComponent(r, format: format, component: 3, into: into, rowStride: r.width)
                }
                var scratch = [Float](repeating: 0, count: 2 * r.count)
                scratch.withUnsafeMutableBufferPointer { pairs in
                    input.read(r, format: .yaFloat, into: pairs.baseAddress!)
                    MercurialKernels.Mask.extract(prepared.channel, luminanceAlpha: pairs.baseAddress!, into: into, count: r.count)
                }
            }
        }

        /// The coarse levels' seeds of the block's window for the sides its style has (the
        /// region's, or its own).
        func seedPair() -> CoarseSeedPair {
            guard !prepared.coarse.isEmpty else { return CoarseSeedPair() }
            let area = IntRect(window)
            if let seeds { return CoarseSeedPair(inner: seeds.inner?.seed(area), outer: seeds.outer?.seed(area)) }
            let cascade = Self.cascade(prepared, input: input, window: window), style = prepared.parameters.style
            let grids = Kernels.heightField.coarseSeedGrids(cascade, inner: style != .outer, outer: style.reachesOutside,
                                                            forEach: serially)
            return CoarseSeedPair(inner: grids.inner?.seed(area), outer: grids.outer?.seed(area))
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
                keptTags[y % ringRows] = y
            }
        }

        /// Hands on `rect` (rows of the block) from row-major heights, with the kept alpha if asked
        /// (a strip of rows at a time; a strip whose alpha left the ring reads it again), raised to
        /// `coverage` (rows of rect.width) where given.
        func write(_ rect: Rect, _ heights: UnsafePointer<Float>, coverage: UnsafePointer<Float>? = nil, to emit: Sink) {
            guard prepared.keepAlpha else { return emit(rect, .yFloat, heights) }
            for first in stride(from: 0, to: rect.height, by: stripRows) {
                let strip = Rect(x: rect.x, y: rect.y + first, width: rect.width, height: min(stripRows, rect.height - first))
                let y0 = strip.y - block.y
                if (y0..<(y0 + strip.height)).allSatisfy({ keptRow($0) != nil }) {
                    for r in 0..<strip.height {
                        let a = keptRow(y0 + r)!, row = pairs + 2 * r * strip.width
                        for x in 0..<strip.width { row[2 * x + 1] = a[x] }
                    }
                } else {
                    // Read again as the mask read it (the same alpha, whichever way it came).
                    readAlpha(strip, into: pairs + 1, rowStride: 2 * strip.width, step: 2)
                }
                let h = heights + first * rect.width
                for i in 0..<(strip.width * strip.height) { pairs[2 * i] = h[i] }
                if let coverage {
                    let c = coverage + first * rect.width
                    for i in 0..<(strip.width * strip.height) { pairs[2 * i + 1] = max(pairs[2 * i + 1], c[i]) }
                }
                emit(strip, .yaFloat, pairs)
            }
        }

        /// Hands on a style's heights over the block, with their coverage when the style has one:
        /// row by row to `rowSink` when given, else in strips to `emit`.
        func write(_ result: (heights: Plane, coverage: Plane?), to emit: Sink, rows rowSink: RowSink?) {
            result.heights.pixels.withUnsafeBufferPointer { h in
                func hand(_ coverage: UnsafePointer<Float>?) {
                    if let rowSink { handRows(h.baseAddress!, coverage: coverage, to: rowSink) }
                    else { write(block, h.baseAddress!, coverage: coverage, to: emit) }
                }
                guard let coverage = result.coverage else { return hand(nil) }
                coverage.pixels.withUnsafeBufferPointer { hand($0.baseAddress!) }
            }
        }

        /// The block's rows of row-major heights to `rowSink`, with their alpha raised to `coverage`
        /// where given: no strip of pairs between them.
        func handRows(_ heights: UnsafePointer<Float>, coverage: UnsafePointer<Float>?, to rowSink: RowSink) {
            guard prepared.keepAlpha else {
                for j in 0..<block.height { rowSink(block.y + j, block.x, block.width, heights + j * block.width, nil) }
                return
            }
            let spare = UnsafeMutablePointer<Float>.allocate(capacity: block.width)
            defer { spare.deallocate() }
            for j in 0..<block.height {
                var alpha = alphaRow(j, spare: spare)
                if let coverage {
                    let c = coverage + j * block.width, a = alpha
                    for x in 0..<block.width { spare[x] = max(a[x], c[x]) }
                    alpha = UnsafePointer(spare)
                }
                rowSink(block.y + j, block.x, block.width, heights + j * block.width, alpha)
            }
        }

        /// Block row j's input alpha: the kept row, or read again into `spare` (block.width floats)
        /// if it has left the ring.
        func alphaRow(_ j: Int, spare: UnsafeMutablePointer<Float>) -> UnsafePointer<Float> {
            if let kept = keptRow(j) { return kept }
            readAlpha(Rect(x: block.x, y: block.y + j, width: block.width, height: 1), into: spare, rowStride: block.width)
            return UnsafePointer(spare)
        }

        /// The block's heights, by the path its profile and style take.
        func run(emit: Sink, rows rowSink: RowSink?) {
            guard streams(prepared.parameters) else { return write(styledWindow(), to: emit, rows: rowSink) }
            guard prepared.parameters.isPlainInner else {
                return write(Kernels.heightField.styledStream(prepared.parameters, weights: prepared.weights, width: window.width,
                                                              height: window.height, origin: (window.x, window.y),
                                                              seeds: seedPair(),
                                                              readRows: readMask), to: emit, rows: rowSink)
            }
            if let rowSink { streamRows(to: rowSink) } else { streamStrips(to: emit) }
        }

        /// The heights of a profile that does not stream, from the whole window's mask.
        func styledWindow() -> (heights: Plane, coverage: Plane?) {
            // (Made as it is read: no zeros written first.)
            let pixels = LargeBuffer.floats(window.count) { buffer, count in
                readMask(0, window.height, buffer.baseAddress!)
                count = window.count
            }
            let mask = Plane(width: window.width, height: window.height, pixels: pixels)
            return Kernels.heightField.styled(window: consume mask, parameters: prepared.parameters, origin: (window.x, window.y))
        }

        /// Core Image, row by row to the caller, with the kept alpha of each row (read again if it
        /// has left the ring).
        func streamRows(to rowSink: RowSink) {
            let spare = UnsafeMutablePointer<Float>.allocate(capacity: block.width)
            defer { spare.deallocate() }
            Kernels.heightField.coreImageRows(width: window.width, height: window.height, weights: prepared.weights,
                                              seed: seedPair().inner, readRows: readMask) { j, row in
                rowSink(block.y + j, block.x, block.width, row, prepared.keepAlpha ? alphaRow(j, spare: spare) : nil)
            }
        }

        /// Core Image: the mask streams in and height rows stream out, handed on a strip at a time.
        func streamStrips(to emit: Sink) {
            var rows = [Float](repeating: 0, count: block.width * stripRows)
            var pending = 0, firstRow = 0
            rows.withUnsafeMutableBufferPointer { buffer in
                let base = buffer.baseAddress!
                func flush() {
                    guard pending > 0 else { return }
                    write(Rect(x: block.x, y: block.y + firstRow, width: block.width, height: pending), base, to: emit)
                    firstRow += pending
                    pending = 0
                }
                Kernels.heightField.coreImageRows(width: window.width, height: window.height, weights: prepared.weights,
                                                  seed: seedPair().inner, readRows: readMask) { _, row in
                    (base + pending * block.width).update(from: row, count: block.width)
                    pending += 1
                    if pending == stripRows { flush() }
                }
                flush()
            }
        }
    }
}

extension HeightFieldEngine {
    /// A whole window's heights, kept after its kernel ran so that any thread can hand on its rows
    /// (as `heights` hands them to a row sink): the block's heights, the style's coverage, and with
    /// keep-alpha the block's input alpha.
    final class KeptWindow: @unchecked Sendable {
        let block: Rect
        private let heights: Plane, coverage: Plane?
        /// The block's input alpha, a row per block row (its memory this window's own), and
        /// whether the heights carry it.
        private let alpha: UnsafeMutablePointer<Float>, hasAlpha: Bool
        // (Unchecked Sendable: made by one thread, then only read.)

        init(block: Rect, heights: Plane, coverage: Plane?, alpha: UnsafeMutablePointer<Float>, hasAlpha: Bool) {
            self.block = block
            self.heights = heights
            self.coverage = coverage
            self.alpha = alpha
            self.hasAlpha = hasAlpha
        }

        deinit { alpha.deallocate() }

        /// Block row j's heights and alphas (nil without keep-alpha), the alphas raised to the
        /// coverage in `spare` (block.width floats) where the style has one.
        func row(_ j: Int, spare: UnsafeMutablePointer<Float>) -> (heights: UnsafePointer<Float>, alpha: UnsafePointer<Float>?) {
            let w = block.width
            // (The pointer outlives the closure: the planes are constants of this object, never
            // written again, so their storage stays where it is while the caller holds the window.)
            let h = heights.pixels.withUnsafeBufferPointer { $0.baseAddress! + j * w }
            guard hasAlpha else { return (h, nil) }
            let a = alpha + j * w
            guard let coverage else { return (h, UnsafePointer(a)) }
            coverage.pixels.withUnsafeBufferPointer { c in
                let c = c.baseAddress! + j * w
                for x in 0..<w { spare[x] = max(a[x], c[x]) }
            }
            return (h, UnsafePointer(spare))
        }
    }

    /// The heights of `roi` kept whole, for a profile that does not stream and a region that is
    /// one window (nil otherwise: `heights` then cuts it into several).
    static func keptWindow(_ prepared: Prepared, input: InputBuffer, roi: Rect) -> KeptWindow? {
        let p = prepared.parameters
        guard !streams(p), !roi.isEmpty else { return nil }
        let grid = windowGrid(p, width: roi.width, height: roi.height)
        guard grid.columns == 1 && grid.rows == 1 else { return nil }
        var kept: KeptWindow?
        Block.work(prepared, input: input, block: roi, seeds: nil, adoptingAlpha: true) { block in
            let result = block.styledWindow()
            kept = KeptWindow(block: roi, heights: result.heights, coverage: result.coverage, alpha: block.kept,
                              hasAlpha: prepared.keepAlpha)
        }
        return kept
    }
}

extension IntRect {
    init(_ r: Rect) { self.init(x: r.x, y: r.y, width: r.width, height: r.height) }
}
