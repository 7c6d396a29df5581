import CGegl

// Typed views of what GEGL hands an operation: buffers, the operation being prepared, the
// properties. Each wraps a C pointer that is valid only during the callback it was passed to;
// op files never see the pointer itself.

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

    /// Reads `rect` in `format` into `destination`, which holds rect.count × components floats.
    /// Pixels outside the buffer's extent read as 0 (GEGL's "none" abyss).
    /// With `scale` < 1, `rect` is in scaled coordinates and GEGL resamples (box-filtered).
    /// `rowLength` is the distance between rows of `destination` in pixels (default: rect.width).
    public func read(_ rect: Rect, format: PixelFormat, into destination: UnsafeMutablePointer<Float>,
                     scale: Double = 1, rowLength: Int? = nil) {
        guard !rect.isEmpty else { return }
        var r = rect.gegl
        let stride = rowLength.map { gint($0 * format.components * MemoryLayout<Float>.size) } ?? gint(GEGL_AUTO_ROWSTRIDE)
        gegl_buffer_get(buffer, &r, scale, bablFormat(format), destination, stride, GEGL_ABYSS_NONE)
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
}

/// What bounding-box and region callbacks may ask: the properties and the inputs' extents.
public struct OperationContext {
    let operation: UnsafeMutablePointer<GeglOperation>
    public let properties: PropertyValues

    /// The bounding box of what is connected to `pad`, or nil when nothing is.
    public func sourceBounds(_ pad: String) -> Rect? {
        guard let r = gegl_operation_source_get_bounding_box(operation, pad) else { return nil }
        return Rect(r.pointee)
    }
}

/// What `prepare` may do: read properties and input extents, choose formats and the halo.
public struct PrepareContext {
    let operation: UnsafeMutablePointer<GeglOperation>
    let isAreaFilter: Bool
    /// False when prepare runs as a fallback inside process: then formats and halo stay as they are.
    let mayConfigure: Bool
    public let properties: PropertyValues

    public func sourceBounds(_ pad: String) -> Rect? {
        OperationContext(operation: operation, properties: properties).sourceBounds(pad)
    }

    /// Chooses the pixel format GEGL delivers on (or expects from) a pad.
    public func setFormat(_ pad: String, _ format: PixelFormat) {
        guard mayConfigure else { return }
        gegl_operation_set_format(operation, pad, bablFormat(format))
    }

    /// For area filters: how many pixels around the output region the input must provide.
    public func setHalo(_ halo: Int) {
        guard mayConfigure, isAreaFilter else { return }
        let h = gint(clamping: max(0, halo))
        // Why the cast: an area filter instance starts with GeglOperationAreaFilter, whose halo
        // fields GEGL reads to grow the requested input region.
        operation.withMemoryRebound(to: GeglOperationAreaFilter.self, capacity: 1) { area in
            area.pointee.left = h
            area.pointee.right = h
            area.pointee.top = h
            area.pointee.bottom = h
        }
    }
}
