import GeglBridge
import MercurialKernels

/// mercurial:shaded-material-from-mask — Height Field from Mask and Shaded Material in one pass:
/// each region's heights are made into memory and shaded from there, so no height-field buffer
/// lies between the two (liquid-metal's engine). Pixels equal the two ops chained, with the
/// height field keeping the mask's alpha.
enum ShadedMaterialFromMaskOp: ComposerOperation {
    // MARK: Properties

    typealias Properties = ShadedMaskControls

    // MARK: Prepare

    struct Prepared: Sendable {
        var height: HeightFieldEngine.Prepared
        var shading: ShadingEngine.Prepared
    }

    static func prepare(_ context: PrepareContext) -> Prepared {
        var p = context.properties.typed(Properties.self)
        // The alpha goes with the heights, as liquid-metal chains them (the shape stays cut out).
        p.height.keepAlpha = true
        context.setFormat("input", .yaFloat)
        context.setFormat("aux", .rgbaFloat)
        context.setFormat("output", .rgbaFloat)
        return Prepared(height: HeightFieldEngine.prepared(p.height, bounds: context.sourceBounds("input")),
                        shading: ShadingEngine.prepared(context, scale: p.shading.scale, for: info.name))
    }

    static func boundingBox(_ context: OperationContext) -> Rect {
        context.sourceBounds("input") ?? .empty
    }

    /// The mask around the output by the height field's halo and the shading's one pixel; the
    /// shading image as Shaded Material reads it.
    static func requiredForOutput(_ context: OperationContext, pad: String, roi: Rect) -> Rect {
        guard pad == "aux" else {
            let halo = context.properties.typed(Properties.self).height.parameters.halo
            return roi.grown(by: halo + 1)
        }
        return ShadingEngine.auxRequired(context)
    }

    /// Large sizes: the whole layer at once (see `HeightFieldEngine.cachedRegion`).
    static let cachedRegion: (@Sendable (OperationContext, Rect) -> Rect)? = { context, roi in
        HeightFieldEngine.cachedRegion(context.properties.typed(Properties.self).height.parameters,
                                       bounds: context.sourceBounds("input"), roi: roi)
    }

    // MARK: Process

    /// GEGL hands each region over whole; `process` shares it out (see `columns`).
    static let threading = Threading.balancedByOperation

    /// A region's parts, handed to GEGL's threads one at a time: two per thread, so that a thread
    /// that drew a light part (little of the shape) takes another while one with much of it
    /// finishes.
    /// Each part reads the height field's halo around it, so parts are columns no narrower than
    /// `halosPerColumn` halos; a region too narrow for two columns per thread is cut into bands
    /// too, as GEGL would cut it, no thinner than that either (down to one part a thread:
    /// `HeightFieldEngine.partGrid`). Parts are whole tiles of the output, which threads fill at once.
    /// A region whose heights come in whole windows is shared out in those windows' blocks
    /// instead (`HeightFieldEngine.windowGrid`: no halo is read beyond theirs).
    static let partsPerThread = 2
    static let halosPerColumn = 8

    /// Each part is worked in columns that the height field makes in one column of blocks, so
    /// their rows arrive in strips from the top. Rows are kept only until the tile row of output
    /// that needs them (its rows, and one more above and below) is shaded: a ring of a tile row
    /// and a strip, not the region's heights. Whole windows with several threads keep each
    /// window's heights until its tile rows, shared out, are shaded (`shareWindows`).
    static func process(_ prepared: Prepared, input: InputBuffer?, aux: InputBuffer?, output: OutputBuffer, roi: Rect) {
        guard let input, !roi.isEmpty else { return }
        let shading = ShadingEngine.image(prepared.shading, aux: aux)
        let p = prepared.height.parameters, halo = p.streamHalo
        // Whole windows: the parts are the windows' blocks (with their ring), each one block. The
        // streams: parts of `partGrid`, each in columns two pixels narrower than the height field's
        // blocks (with their ring, one block wide).
        let wholeWindows = !HeightFieldEngine.streams(p)
        let grid = wholeWindows
            ? HeightFieldEngine.windowGrid(p, width: roi.width + 2, height: roi.height + 2, threads: Parallel.threads)
            : HeightFieldEngine.partGrid(roi, halo: halo, threads: Parallel.threads, partsPerThread: partsPerThread,
                                         halos: halosPerColumn)
        let parts = output.tileGrid(roi, columns: grid.columns, rows: grid.rows)
        let widest = wholeWindows ? parts.reduce(1) { max($0, $1.width) }
            : max(1, HeightFieldEngine.blockSize(p, roiHeight: roi.height + 2).width - 2)
        let columnWidth = parts.map { columns(of: $0, widest: widest).map(\.width).max() ?? 0 }.max() ?? 0
        let tileRows = output.tileBlocks(roi, maxWidth: roi.width).largestBlockSize.height
        // The ring: a tile row with the rows above and below it, a strip, and a row to spare.
        let ringRows = tileRows + HeightFieldEngine.stripRows + 4
        let rowFloats = 2 * (columnWidth + 2)
        // The coarse levels of large sizes, made once for the region (with its one-pixel ring).
        let seeds = HeightFieldEngine.coarseSeeds(prepared.height, input: input, region: roi.grown(by: 1))
        if wholeWindows && Parallel.threads > 1 && parts.count > 1 {
            return shareWindows(parts, prepared: prepared, shading: shading, input: input, output: output, seeds: seeds,
                                ringRows: ringRows, rowFloats: rowFloats, tileRows: tileRows)
        }
        Parallel.run(items: parts.count) { next in
            Scratch.withFloats(ringRows * rowFloats + (tileRows + 2) * rowFloats) { memory in
                while let k = next() {
                    for column in columns(of: parts[k], widest: widest) {
                        shade(column, prepared: prepared, shading: shading, input: input, output: output, seeds: seeds,
                              ringRows: ringRows, memory: memory, band: memory + ringRows * rowFloats)
                    }
                }
            }
        }
    }

    /// `part` cut into as few columns as keep each at most `widest` wide, as even as can be.
    static func columns(of part: Rect, widest: Int) -> [Rect] {
        let count = (part.width + widest - 1) / widest
        return (0..<count).map { i in
            let dx = part.width * i / count
            return Rect(x: part.x + dx, y: part.y, width: part.width * (i + 1) / count - dx, height: part.height)
        }
    }

    /// Makes the heights of `column` (at most one height-field block wide) and shades them into
    /// the output, tile row by tile row.
    static func shade(_ column: Rect, prepared: Prepared, shading: ShadingImage, input: InputBuffer, output: OutputBuffer,
                      seeds: HeightFieldEngine.CoarseSeeds?,
                      ringRows: Int, memory: UnsafeMutablePointer<Float>, band: UnsafeMutablePointer<Float>) {
        var ring = Ring(column: column, bounds: prepared.shading.inputBounds, rows: ringRows, memory: memory,
                        band: band)
        guard !ring.inside.isEmpty else {
            // Nothing of the height field near this column: transparent, as Shaded Material.
            output.fill(column, format: .rgbaFloat) { $0.pixels.update(repeating: 0, count: 4 * $0.rect.count) }
            return
        }
        let blocks = output.tileBlocks(column, maxWidth: column.width)
        var nextRow = 0
        /// Shades the tile rows whose height rows have all arrived.
        func shadeReady() {
            while nextRow < blocks.rows {
                let first = blocks[nextRow * blocks.columns]
                guard !ring.touches(first) || ring.hasRows(for: first) else { return }
                shadeTileRow(nextRow, of: blocks, column: column, ring: ring, prepared: prepared, shading: shading, output: output)
                nextRow += 1
                if nextRow < blocks.rows { ring.release(before: blocks[nextRow * blocks.columns].y - 1) }
            }
        }
        HeightFieldEngine.heights(prepared.height, input: input, roi: ring.inside, seeds: seeds, emit: { rect, format, pixels in
            let n = format.components
            for row in 0..<rect.height {
                let first = pixels + n * row * rect.width
                ring.add(row: rect.y + row, x: rect.x, width: rect.width, heights: first, alpha: n == 2 ? first + 1 : nil, step: n)
            }
            shadeReady()
        }, rows: { y, x, width, heights, alpha in
            // The plain Core Image stream: each row straight into the ring.
            ring.add(row: y, x: x, width: width, heights: heights, alpha: alpha, step: 1)
            shadeReady()
        })
        shadeReady()
    }

    /// Shades tile row `row` of `blocks` (the column's) from the height rows `ring` holds: all those
    /// it needs have arrived.
    static func shadeTileRow(_ row: Int, of blocks: TileBlocks, column: Rect, ring: Ring, prepared: Prepared,
                             shading: ShadingImage, output: OutputBuffer) {
        let first = blocks[row * blocks.columns]
        let heights = ring.touches(first) ? ring.rows(for: first) : nil
        for i in (row * blocks.columns)..<((row + 1) * blocks.columns) {
            let block = blocks[i]
            output.fill(block, format: .rgbaFloat) { piece in
                let r = piece.rect
                // Nothing of the height field near this block: transparent, as Shaded Material.
                guard let heights, !block.grown(by: 1).intersection(ring.bounds).isEmpty else {
                    return piece.pixels.update(repeating: 0, count: r.count * 4)
                }
                Kernels.shadedMaterial.shade(
                    heightAlpha: heights + 2 * ((r.y - first.y) * ring.grown.width + (r.x - column.x)),
                    rowLength: ring.grown.width, width: r.width, height: r.height,
                    scale: prepared.shading.scale, shading: shading, into: piece.pixels)
            }
        }
    }

    /// Whole windows with several threads: each part's heights are made by one thread and kept
    /// (`HeightFieldEngine.KeptWindow`), and its tile rows shaded by whichever thread is free
    /// (`WindowWork`), so that no thread waits long on another's last window. A part that is not
    /// one window is made and shaded by one thread, as `process` does. `ringRows`, `rowFloats`,
    /// `tileRows`: as `process` sizes its rings.
    static func shareWindows(_ parts: [Rect], prepared: Prepared, shading: ShadingImage, input: InputBuffer,
                             output: OutputBuffer, seeds: HeightFieldEngine.CoarseSeeds?, ringRows: Int, rowFloats: Int,
                             tileRows: Int) {
        let blocks = parts.map { output.tileBlocks($0, maxWidth: $0.width) }
        let work = WindowWork<HeightFieldEngine.KeptWindow>(rows: blocks.map(\.rows), limit: Parallel.threads + 1)
        let bounds = prepared.shading.inputBounds, bandFloats = (tileRows + 2) * rowFloats
        Parallel.run(items: Parallel.threads) { _ in
            // A ring as `process` has, and its band; the spare alphas of a kept window's row.
            Scratch.withFloats(ringRows * rowFloats + bandFloats + rowFloats / 2) { memory in
                let band = memory + ringRows * rowFloats, spare = band + bandFloats
                while let task = work.next() {
                    switch task {
                    case .make(let k):
                        let inside = parts[k].grown(by: 1).intersection(bounds)
                        guard let kept = HeightFieldEngine.keptWindow(prepared.height, input: input, roi: inside) else {
                            shade(parts[k], prepared: prepared, shading: shading, input: input, output: output, seeds: seeds,
                                  ringRows: ringRows, memory: memory, band: band)
                            work.made(k, nil)
                            continue
                        }
                        work.made(k, kept)
                    case .shade(let k, let row, let kept):
                        // The tile row's rows, one more above and below, from the kept window.
                        let first = blocks[k][row * blocks[k].columns]
                        var ring = Ring(column: parts[k], bounds: bounds, rows: tileRows + 2, memory: memory, band: band)
                        if ring.touches(first) {
                            let top = max(first.y - 1, kept.block.y), bottom = min(first.y + first.height, kept.block.maxY - 1)
                            for y in stride(from: top, through: bottom, by: 1) {
                                let r = kept.row(y - kept.block.y, spare: spare)
                                ring.add(row: y, x: kept.block.x, width: kept.block.width, heights: r.heights, alpha: r.alpha,
                                         step: 1)
                            }
                        }
                        shadeTileRow(row, of: blocks[k], column: parts[k], ring: ring, prepared: prepared, shading: shading,
                                     output: output)
                        work.shaded(k)
                    }
                }
            }
        }
    }

    /// The (height, alpha) rows of a column grown by one pixel, from the first row a tile row still
    /// to be shaded needs to the last made: rows as the height field makes them, top to bottom,
    /// with the pixel beyond the bounds on either side repeated from the edge (and, when read,
    /// rows beyond the bounds repeated from the edge row).
    struct Ring {
        let grown: Rect, bounds: Rect, inside: Rect
        let capacity: Int
        let memory: UnsafeMutablePointer<Float>
        /// Room for a tile row's rows gathered in order where they cannot be read in place.
        let band: UnsafeMutablePointer<Float>
        /// The image row held first, the ring row it is in, and how many rows follow it.
        var base: Int, start = 0, count = 0

        init(column: Rect, bounds: Rect, rows: Int, memory: UnsafeMutablePointer<Float>, band: UnsafeMutablePointer<Float>) {
            grown = column.grown(by: 1)
            self.bounds = bounds
            inside = grown.intersection(bounds)
            capacity = rows
            self.memory = memory
            self.band = band
            base = inside.y
        }

        /// Where image row y is held (rows outside those held read as the nearest held one, which
        /// the order of work never asks for).
        private func row(_ y: Int) -> UnsafeMutablePointer<Float> {
            let k = min(max(y - base, 0), max(count - 1, 0))
            return memory + 2 * grown.width * (start + k)
        }

        /// Image row y of the height field (the next one), `width` pixels from x (`inside`'s width):
        /// heights and alphas (1 without) `step` floats apart.
        mutating func add(row y: Int, x: Int, width: Int, heights: UnsafePointer<Float>, alpha: UnsafePointer<Float>?, step: Int) {
            if start + count >= capacity {
                // Move the rows held to the ring's first row; if a tile row still needed more than
                // the ring holds (the height field's strips are shorter), drop the oldest.
                memory.update(from: memory + 2 * grown.width * start, count: 2 * grown.width * count)
                start = 0
                if count >= capacity { base += 1; count -= 1; memory.update(from: memory + 2 * grown.width, count: 2 * grown.width * count) }
            }
            if count == 0 { base = y }
            let target = memory + 2 * grown.width * (start + count)
            let left = min(max(x - grown.x, 0), grown.width - 1), n = min(width, grown.width - left)
            let pairs = target + 2 * left
            if let alpha, step == 1 {
                // Rows straight from the stream: constant strides, which the compiler vectorises.
                for i in 0..<n { pairs[2 * i] = heights[i]; pairs[2 * i + 1] = alpha[i] }
            } else if let alpha {
                for i in 0..<n { pairs[2 * i] = heights[step * i]; pairs[2 * i + 1] = alpha[step * i] }
            } else {
                for i in 0..<n { pairs[2 * i] = heights[step * i]; pairs[2 * i + 1] = 1 }
            }
            // The ring beyond the bounds, left and right: the edge pixel again.
            ShadingEngine.repeatEdges(target, first: left, last: left + max(n, 1) - 1, width: grown.width)
            count += 1
        }

        /// Drops the rows above image row y, but never the last one made (the rows below the
        /// bounds repeat it).
        mutating func release(before y: Int) {
            let dropped = min(max(y - base, 0), max(count - 1, 0))
            base += dropped
            start += dropped
            count -= dropped
        }

        /// Whether the tile row of `block`, grown by one row, meets the height field's rows (if not,
        /// Shaded Material leaves it transparent).
        func touches(_ block: Rect) -> Bool {
            block.y + block.height >= inside.y && block.y - 1 < inside.maxY
        }

        /// Whether every row the tile row of `block` needs has arrived (it must touch the rows).
        func hasRows(for block: Rect) -> Bool {
            count > 0 && base + count - 1 >= min(block.y + block.height, inside.maxY - 1)
        }

        /// The tile row's height rows, from one above it to one below, as consecutive rows: in the
        /// ring itself, or, at the height field's top and bottom edges, gathered with the edge rows
        /// repeated.
        func rows(for block: Rect) -> UnsafePointer<Float> {
            let first = block.y - 1, last = block.y + block.height
            if first >= base, last < base + count { return UnsafePointer(row(first)) }
            for y in first...last {
                let source = row(min(max(y, inside.y), inside.maxY - 1))
                (band + 2 * grown.width * (y - first)).update(from: source, count: 2 * grown.width)
            }
            return UnsafePointer(band)
        }
    }

    // MARK: Keys

    static let info = OperationInfo(
        name: "mercurial:shaded-material-from-mask", title: "Shaded Material from Mask (aux sphere)",
        categories: ["light", "map"],
        description: "Height Field from Mask, then Shaded Material, in one pass (the same pixels as the two chained).",
        auxLabel: "Shading image", auxDescription: "A lit hemisphere (e.g. mercurial:hemisphere-light-render) or any matcap")
}
