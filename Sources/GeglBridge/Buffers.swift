import CGegl
import GeglTypes

// Typed views of the buffers GEGL hands an operation's process. Each wraps a C pointer that is
// valid only during the callback it was passed to; op files never see the pointer itself.

extension Rect {
    init(_ r: GeglRectangle) {
        self.init(x: Int(r.x), y: Int(r.y), width: Int(r.width), height: Int(r.height))
    }

    var gegl: GeglRectangle {
        GeglRectangle(x: gint(clamping: x), y: gint(clamping: y),
                      width: gint(clamping: width), height: gint(clamping: height))
    }
}

/// Looks a babl format up by name. babl returns the same pointer for a name for the life of the
/// process, so nothing is freed.
@inline(__always)
func bablFormat(_ format: PixelFormat) -> OpaquePointer? {
    babl_format(format.name)
}

/// An input pad's buffer during `process`. Reads convert to the asked format through babl.
public struct InputBuffer {
    // Why a raw pointer: GEGL owns the buffer; it lives for the duration of the process call.
    let buffer: OpaquePointer
    /// With a period, reads see the endless tiling of that rectangle (see `wrapping`).
    var period: Rect? = nil

    /// Reads `rect` in `format` into `destination`, which holds rect.count × components floats.
    /// Pixels outside the buffer's extent read as 0 (GEGL's "none" abyss).
    /// With `scale` < 1, `rect` is in scaled coordinates and GEGL resamples (box-filtered).
    /// `rowLength` is the distance between rows of `destination` in pixels (default: rect.width).
    public func read(_ rect: Rect, format: PixelFormat, into destination: UnsafeMutablePointer<Float>,
                     scale: Double = 1, rowLength: Int? = nil) {
        guard !rect.isEmpty else { return }
        if let period, scale == 1 {
            let components = format.components
            return readWrapped(rect, period, components: components, into: destination,
                               rowStride: (rowLength ?? rect.width) * components, step: components) { source, to, rowStride, _ in
                var r = source.gegl
                gegl_buffer_get(buffer, &r, 1, bablFormat(format), to, gint(rowStride * MemoryLayout<Float>.size), GEGL_ABYSS_NONE)
            }
        }
        var r = rect.gegl
        let stride = rowLength.map { gint($0 * format.components * MemoryLayout<Float>.size) } ?? gint(GEGL_AUTO_ROWSTRIDE)
        gegl_buffer_get(buffer, &r, scale, bablFormat(format), destination, stride, GEGL_ABYSS_NONE)
    }
}

extension InputBuffer {
    /// Reads one component (0-based) of `rect` in `format` into `destination`: pixel (x, y) of
    /// the rect goes to destination[(y − rect.y)·rowStride + (x − rect.x)·step]. Where the format
    /// is the buffer's own, the values come straight out of GEGL's tiles (no copy of the pixels);
    /// elsewhere GEGL converts piece by piece. Pixels outside the buffer's extent read as 0.
    public func readComponent(_ rect: Rect, format: PixelFormat, component: Int, into destination: UnsafeMutablePointer<Float>,
                              rowStride: Int, step: Int = 1) {
        guard !rect.isEmpty else { return }
        precondition(component >= 0 && component < format.components)
        if let period {
            let plain = InputBuffer(buffer: buffer)
            return readWrapped(rect, period, components: 1, into: destination, rowStride: rowStride, step: step) { source, to, rowStride, step in
                plain.readComponent(source, format: format, component: component, into: to, rowStride: rowStride, step: step)
            }
        }
        var r = rect.gegl
        guard let iterator = gegl_buffer_iterator_new(buffer, &r, 0, bablFormat(format), GEGL_ACCESS_READ,
                                                      GEGL_ABYSS_NONE, 1) else { return }
        // Why the offset: as in `OutputBuffer.fill`, the first item follows the struct's fixed fields.
        let item = UnsafeRawPointer(iterator) + MemoryLayout<GeglBufferIterator>.stride
        let components = format.components
        while gegl_buffer_iterator_next(iterator) != 0 {
            let piece = item.load(as: GeglBufferIteratorItem.self)
            guard let data = piece.data else { continue }
            let p = Rect(piece.roi)
            let source = UnsafePointer(data.assumingMemoryBound(to: Float.self)) + component
            for row in 0..<p.height {
                let from = source + components * row * p.width
                let to = destination + (p.y + row - rect.y) * rowStride + (p.x - rect.x) * step
                if components == 4 && step == 1 {
                    // The usual case (alpha of RGBA into a row), with constant strides the compiler vectorises.
                    for x in 0..<p.width { to[x] = from[4 * x] }
                } else {
                    for x in 0..<p.width { to[x * step] = from[x * components] }
                }
            }
        }
    }
}

extension InputBuffer {
    /// This buffer read as the endless tiling of `period` (a seamless texture's wrap): pixel (x, y)
    /// reads the period's pixel at the same place modulo its size. An empty or infinite period
    /// leaves reads as they are.
    public func wrapping(_ period: Rect) -> InputBuffer {
        guard !period.isEmpty, !period.isInfinite else { return self }
        var wrapped = self
        wrapped.period = period
        return wrapped
    }

    /// The spans `start ..< start + length` is cut into where copies of the period meet: each
    /// its offset in the range, where it starts in the period and its length; nil past `limit`.
    private static func spans(_ start: Int, _ length: Int, periodStart: Int, period: Int,
                              limit: Int) -> [(offset: Int, source: Int, length: Int)]? {
        var spans: [(offset: Int, source: Int, length: Int)] = [], done = 0
        while done < length {
            guard spans.count < limit else { return nil }
            let local = ((start + done - periodStart) % period + period) % period
            let n = min(length - done, period - local)
            spans.append((done, periodStart + local, n))
            done += n
        }
        return spans
    }

    /// `rect` read through the wrap into `destination` (pixel (x, y) at (y − rect.y)·rowStride +
    /// (x − rect.x)·step, `components` floats each) by `piece`, which reads a rectangle of the
    /// period to where its first pixel goes, rows `rowStride` and pixels `step` floats apart. A few
    /// copies of the period are read in place; many copies of a small period are read once and
    /// repeated, so memory is bounded by the request, never by the number of copies.
    private func readWrapped(_ rect: Rect, _ period: Rect, components: Int, into destination: UnsafeMutablePointer<Float>,
                             rowStride: Int, step: Int,
                             piece: (_ source: Rect, _ to: UnsafeMutablePointer<Float>, _ rowStride: Int, _ step: Int) -> Void) {
        let limit = 4
        if let xs = Self.spans(rect.x, rect.width, periodStart: period.x, period: period.width, limit: limit),
           let ys = Self.spans(rect.y, rect.height, periodStart: period.y, period: period.height, limit: limit) {
            for y in ys {
                for x in xs {
                    piece(Rect(x: x.source, y: y.source, width: x.length, height: y.length),
                          destination + y.offset * rowStride + x.offset * step, rowStride, step)
                }
            }
            return
        }
        // Column c of the part is the period's column (rect.x + c) mod width, as is the request's
        // column c + k·width: the part is the request's first period (or all of it), at most two
        // spans each way.
        let part = Rect(x: rect.x, y: rect.y, width: min(rect.width, period.width), height: min(rect.height, period.height))
        var pixels = [Float](repeating: 0, count: part.count * components)
        pixels.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            readWrapped(part, period, components: components, into: base, rowStride: part.width * components,
                        step: components, piece: piece)
            for j in 0..<rect.height {
                let from = base + (j % part.height) * part.width * components, to = destination + j * rowStride
                for i in 0..<rect.width {
                    let f = from + (i % part.width) * components, t = to + i * step
                    for c in 0..<components { t[c] = f[c] }
                }
            }
        }
    }
}

/// The output buffer during `process`.
public struct OutputBuffer {
    let buffer: OpaquePointer

    /// Writes `rect` (rect.count × components floats in `format`) into the output.
    public func write(_ rect: Rect, format: PixelFormat, from source: UnsafePointer<Float>) {
        guard !rect.isEmpty else { return }
        var r = rect.gegl
        gegl_buffer_set(buffer, &r, 0, bablFormat(format), source, gint(GEGL_AUTO_ROWSTRIDE))
    }

    /// A piece of the output to fill: `rect`, as rows of rect.width pixels, contiguous at `pixels`.
    public struct Piece {
        public let rect: Rect
        public let pixels: UnsafeMutablePointer<Float>
    }

    /// Fills `rect` in `format` with no copy: `body` writes each piece's pixels where GEGL keeps
    /// them (the tile itself when the format is the buffer's). GEGL hands out whole tiles, and the
    /// partial tiles at the region's edges one row at a time.
    public func fill(_ rect: Rect, format: PixelFormat, _ body: (Piece) -> Void) {
        guard !rect.isEmpty else { return }
        var r = rect.gegl
        guard let iterator = gegl_buffer_iterator_new(buffer, &r, 0, bablFormat(format), GEGL_ACCESS_WRITE,
                                                      GEGL_ABYSS_NONE, 1) else { return }
        // Why the offset: GeglBufferIterator ends in a flexible array of items that Swift does not
        // import; the first item starts right after the struct's fixed fields (its size, rounded
        // to its pointer alignment).
        let item = UnsafeRawPointer(iterator) + MemoryLayout<GeglBufferIterator>.stride
        while gegl_buffer_iterator_next(iterator) != 0 {
            let piece = item.load(as: GeglBufferIteratorItem.self)
            guard let data = piece.data else { continue }
            body(Piece(rect: Rect(piece.roi), pixels: data.assumingMemoryBound(to: Float.self)))
        }
    }

    /// A piece of the output to fill, with the same pixels of an input beside it.
    public struct PiecePair {
        public let rect: Rect
        public let pixels: UnsafeMutablePointer<Float>
        /// The input's pixels of `rect`, rows of rect.width pixels, read-only.
        public let input: UnsafePointer<Float>
    }

    /// `fill`, reading `input` over the same rectangle in `inputFormat` beside each piece: where
    /// the two buffers' tiles line up and the formats are theirs, both are GEGL's tiles themselves
    /// (no copy either way); elsewhere GEGL converts or copies through its own memory.
    public func fill(_ rect: Rect, format: PixelFormat, reading input: InputBuffer, format inputFormat: PixelFormat,
                     _ body: (PiecePair) -> Void) {
        guard !rect.isEmpty else { return }
        var r = rect.gegl
        guard let iterator = gegl_buffer_iterator_new(buffer, &r, 0, bablFormat(format), GEGL_ACCESS_WRITE,
                                                      GEGL_ABYSS_NONE, 2) else { return }
        _ = gegl_buffer_iterator_add(iterator, input.buffer, &r, 0, bablFormat(inputFormat), GEGL_ACCESS_READ,
                                     GEGL_ABYSS_NONE)
        // Why the offsets: the items follow the struct's fixed fields, one after another (see `fill`).
        let items = UnsafeRawPointer(iterator) + MemoryLayout<GeglBufferIterator>.stride
        while gegl_buffer_iterator_next(iterator) != 0 {
            let out = items.load(as: GeglBufferIteratorItem.self)
            let source = items.load(fromByteOffset: MemoryLayout<GeglBufferIteratorItem>.stride,
                                    as: GeglBufferIteratorItem.self)
            guard let data = out.data, let read = source.data else { continue }
            body(PiecePair(rect: Rect(out.roi), pixels: data.assumingMemoryBound(to: Float.self),
                           input: UnsafePointer(read.assumingMemoryBound(to: Float.self))))
        }
    }

    /// `rect` cut along the output's tile grid into blocks: each `tileRows` tile rows high (the
    /// block rows start on multiples of that many tiles) and whole tiles wide, at most `maxWidth`
    /// pixels (but at least one tile); blocks at the edges of `rect` are
    /// cut to it. Rows top to bottom, left to right within a row. Two blocks never share a tile, so
    /// threads can fill them at the same time. Computed by index: no memory grows with `rect`.
    public func tileBlocks(_ rect: Rect, maxWidth: Int, tileRows: Int = 1) -> TileBlocks {
        let tileWidth = max(1, intProperty("tile-width")), tileHeight = max(1, intProperty("tile-height"))
        return TileBlocks(rect: rect, tileWidth: tileWidth, tileHeight: tileHeight * max(1, tileRows),
                          shiftX: intProperty("shift-x"), shiftY: intProperty("shift-y"),
                          step: max(1, maxWidth / tileWidth) * tileWidth)
    }

    /// `rect` cut along the output's tile grid into about `columns` × `rows` rectangles of whole
    /// tiles, as even as the grid allows (the last column or row may be smaller): rows of them top to
    /// bottom, left to right within a row. Two never share a tile, so threads can fill them at once.
    public func tileGrid(_ rect: Rect, columns: Int, rows: Int) -> [Rect] {
        guard !rect.isEmpty else { return [] }
        let columns = max(columns, 1), rows = max(rows, 1)
        let tileWidth = max(1, intProperty("tile-width"))
        let top = Rect(x: rect.x, y: rect.y, width: rect.width, height: 1)
        let across = tileBlocks(top, maxWidth: tileWidth).count
        let xs = tileBlocks(top, maxWidth: max(1, (across + columns - 1) / columns) * tileWidth)
        // One block per tile row down the first column: where the bands may start and end.
        let down = tileBlocks(Rect(x: rect.x, y: rect.y, width: 1, height: rect.height), maxWidth: 1)
        let perBand = max(1, (down.count + rows - 1) / rows)
        var grid: [Rect] = []
        for first in stride(from: 0, to: down.count, by: perBand) {
            let y0 = down[first].y, y1 = down[min(first + perBand, down.count) - 1].maxY
            for x in xs { grid.append(Rect(x: x.x, y: y0, width: x.width, height: y1 - y0)) }
        }
        return grid
    }

    /// An integer GObject property of the buffer ("tile-height", "shift-y").
    private func intProperty(_ name: String) -> Int {
        intGObjectProperty(UnsafeMutableRawPointer(buffer), name)
    }
}

/// An integer property of a GObject (a buffer's "tile-height", GEGL's configured "threads").
func intGObjectProperty(_ object: UnsafeMutableRawPointer, _ name: String) -> Int {
    var value = GValue()
    g_value_init(&value, Fundamental.int)
    defer { g_value_unset(&value) }
    // Why the cast: the object is a GObject; the property getter takes the base type.
    g_object_get_property(object.assumingMemoryBound(to: GObject.self), name, &value)
    return Int(g_value_get_int(&value))
}

/// The blocks of `OutputBuffer.tileBlocks`, block i computed from i.
public struct TileBlocks: RandomAccessCollection, Sendable {
    let rect: Rect
    /// The first tile edge at or above / left of the rectangle, on each axis.
    let firstRowEdge: Int, firstColumnEnd: Int
    let tileHeight: Int, step: Int
    /// Tile rows, and blocks per tile row: block i lies in tile row i / columns.
    public let rows: Int, columns: Int

    init(rect: Rect, tileWidth: Int, tileHeight: Int, shiftX: Int, shiftY: Int, step: Int) {
        /// The first tile edge at or before `v` on an axis whose tiles start at −shift + k·size.
        func edge(_ v: Int, _ size: Int, _ shift: Int) -> Int {
            let t = v + shift
            return (t >= 0 ? t / size : -((-t + size - 1) / size)) * size - shift
        }
        self.rect = rect
        self.tileHeight = tileHeight
        self.step = step
        firstRowEdge = edge(rect.y, tileHeight, shiftY)
        // The first block of a row ends `step` after the tile edge at or before its left side; the
        // others start on a tile edge and are `step` wide.
        firstColumnEnd = edge(rect.x, tileWidth, shiftX) + step
        if rect.isEmpty {
            rows = 0
            columns = 0
        } else {
            rows = (edge(rect.maxY - 1, tileHeight, shiftY) - firstRowEdge) / tileHeight + 1
            columns = firstColumnEnd >= rect.maxX ? 1 : 1 + (rect.maxX - firstColumnEnd + step - 1) / step
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { rows * columns }

    public subscript(i: Int) -> Rect {
        let row = i / columns, column = i % columns
        let y0 = row == 0 ? rect.y : firstRowEdge + row * tileHeight
        let y1 = Swift.min(firstRowEdge + (row + 1) * tileHeight, rect.maxY)
        let x0 = column == 0 ? rect.x : firstColumnEnd + (column - 1) * step
        let x1 = Swift.min(firstColumnEnd + column * step, rect.maxX)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The most pixels any block has, without visiting them all.
    public var largestBlockSize: (width: Int, height: Int) {
        isEmpty ? (0, 0) : (Swift.min(step, rect.width), Swift.min(tileHeight, rect.height))
    }
}
