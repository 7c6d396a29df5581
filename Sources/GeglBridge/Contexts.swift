import CGegl

// What an operation's callbacks may ask and do outside process: read its properties and its
// inputs' extents (OperationContext), and in prepare choose formats and the halo (PrepareContext).

/// What bounding-box and region callbacks may ask: the properties and the inputs' extents.
public struct OperationContext {
    let operation: UnsafeMutablePointer<GeglOperation>
    public let properties: PropertyValues

    /// The bounding box of what is connected to `pad`, or nil when nothing is.
    public func sourceBounds(_ pad: String) -> Rect? {
        guard let r = gegl_operation_source_get_bounding_box(operation, pad) else { return nil }
        return Rect(r.pointee)
    }

    /// What the last `prepare` of this operation built, if it has run (nil before, or for another type).
    public func prepared<P: Sendable>(as type: P.Type) -> P? {
        state(of: UnsafeMutableRawPointer(operation)).contents.withLock { $0.prepared } as? P
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

    /// Whether what is connected to `pad` gives pixels with an alpha component (nil when nothing
    /// is connected or its format is not known yet). Lets an op take a source's pixels as they
    /// are, with no conversion through babl, whose choice among equivalent paths can change the
    /// last bits of a value.
    public func sourceHasAlpha(_ pad: String) -> Bool? {
        // Why the raw pointer: GEGL returns the source's babl format, which babl owns for the life
        // of the process.
        guard let format = gegl_operation_get_source_format(operation, pad) else { return nil }
        return babl_format_has_alpha(format) != 0
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
