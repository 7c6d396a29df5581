import CGegl

// The C functions GEGL calls on our operation classes. Each finds the operation's Swift
// registration through the class slot, wraps the C arguments in typed views and calls the
// operation's static Swift function. They run on GEGL's worker threads (process) or on the thread
// that drives the graph (prepare, bounding boxes, attach).

typealias OperationPointer = UnsafeMutablePointer<GeglOperation>

@inline(__always)
private func raw(_ op: OperationPointer) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(op) }

/// The last `prepare` result, or — should GEGL ever process without preparing — a fresh one built
/// without touching the operation (formats and halo are not changed off the main thread).
private func prepared(_ op: OperationPointer) -> (any Sendable)? {
    let operation = registration(of: raw(op))
    let instance = state(of: raw(op))
    if let p = instance.contents.withLock({ $0.prepared }) { return p }
    guard let prepare = operation.prepare else { return nil }
    return prepare(PrepareContext(operation: op, isAreaFilter: false, mayConfigure: false,
                                  properties: propertyValues(of: raw(op))))
}

private func context(_ op: OperationPointer) -> OperationContext {
    OperationContext(operation: op, properties: propertyValues(of: raw(op)))
}

private func roiRect(_ roi: UnsafePointer<GeglRectangle>?) -> Rect { roi.map { Rect($0.pointee) } ?? .empty }

/// The one rule for absurd regions, for every op: GEGL asks for an infinite region only when a
/// host renders an uncropped infinite extent whole (the `gegl` CLI on an uncropped pattern, a
/// write-buffer sink). No output could hold it, so the op leaves it as GEGL made it (transparent)
/// and returns at once, instead of allocating for, or looping over, 2⁶² pixels. Finite regions of
/// an infinite input render as usual.
private func isProcessable(_ roi: Rect) -> Bool { !roi.isEmpty && !roi.isInfinite }

// MARK: GeglOperationClass

private let prepareCallback: @convention(c) (OperationPointer?) -> Void = { op in
    guard let op else { return }
    let operation = registration(of: raw(op))
    guard let prepare = operation.prepare else { return }
    let result = prepare(PrepareContext(operation: op, isAreaFilter: operation.base == .areaFilter,
                                        mayConfigure: true, properties: propertyValues(of: raw(op))))
    let instance = state(of: raw(op))
    instance.contents.withLock { $0.prepared = result }
}

private let boundingBoxCallback: @convention(c) (OperationPointer?) -> GeglRectangle = { op in
    guard let op, let box = registration(of: raw(op)).boundingBox else { return GeglRectangle() }
    return box(context(op)).gegl
}

/// Area filters: the output has the input's extent; the halo never grows it.
private let inputBoundingBoxCallback: @convention(c) (OperationPointer?) -> GeglRectangle = { op in
    guard let op, let r = gegl_operation_source_get_bounding_box(op, "input") else { return GeglRectangle() }
    return r.pointee
}

private let requiredForOutputCallback: @convention(c) (OperationPointer?, UnsafePointer<gchar>?,
                                                       UnsafePointer<GeglRectangle>?) -> GeglRectangle = { op, pad, roi in
    guard let op, let pad, let required = registration(of: raw(op)).requiredForOutput else {
        return roi?.pointee ?? GeglRectangle()
    }
    return required(context(op), String(cString: pad), roiRect(roi)).gegl
}

/// The op's region, widened to whole tiles of the node's cache (GEGL's tile size, from the origin)
/// within the op's extent: GEGL keeps the result in that cache, and a consumer may read a little
/// past what it asked for (a sampler's neighbours); a tile the op wrote only in part holds
/// whatever its memory held beyond that part (NaN was seen), where a fresh output buffer holds 0.
private let cachedRegionCallback: @convention(c) (OperationPointer?, UnsafePointer<GeglRectangle>?) -> GeglRectangle = {
    op, roi in
    guard let op, let cached = registration(of: raw(op)).cachedRegion else { return roi?.pointee ?? GeglRectangle() }
    let region = cached(context(op), roiRect(roi))
    // A node that keeps no cache writes into a buffer of just the region (read as 0 beyond it):
    // no tile to complete, and no rows made twice where GEGL's own chunks of a render meet.
    guard nodeKeepsCache(op) else { return region.gegl }
    guard !region.isEmpty, !region.isInfinite, let config = gegl_config() else { return region.gegl }
    // Why the raw pointer: gegl_config returns GEGL's own GeglConfig object, not ours to free.
    let tileWidth = max(1, intGObjectProperty(UnsafeMutableRawPointer(config), "tile-width"))
    let tileHeight = max(1, intGObjectProperty(UnsafeMutableRawPointer(config), "tile-height"))
    var tiles = region.aligned(toCells: tileWidth, tileHeight)
    // Beyond the op's extent GEGL reads the cache's abyss (0): no need to compute it.
    let extent = Rect(gegl_operation_get_bounding_box(op))
    if !extent.isEmpty { tiles = tiles.intersection(extent) }
    return tiles.union(region).gegl
}

/// Whether GEGL keeps the node's results in its cache: its cache-policy, and with AUTO its
/// dont-cache (every op with a get_cached_region asks for a cache).
private func nodeKeepsCache(_ op: OperationPointer) -> Bool {
    guard let node = op.pointee.node else { return true }
    // Why the raw pointer: a GeglNode is a GObject; both are its own properties (read as ints).
    let object = UnsafeMutableRawPointer(node)
    switch UInt32(truncatingIfNeeded: intGObjectProperty(object, "cache-policy")) {
    case GEGL_CACHE_POLICY_NEVER.rawValue: return false
    case GEGL_CACHE_POLICY_ALWAYS.rawValue: return true
    default: return intGObjectProperty(object, "dont-cache") == 0
    }
}

/// What a change on a pad makes stale. A change of the aux image (read whole) touches every output
/// pixel; a change of the input touches the changed region grown by what the op reads around each
/// pixel, which for our symmetric neighbourhoods is exactly what `requiredForOutput` returns.
private let invalidatedByChangeCallback: @convention(c) (OperationPointer?, UnsafePointer<gchar>?,
                                                        UnsafePointer<GeglRectangle>?) -> GeglRectangle = { op, pad, roi in
    guard let op, let pad else { return roi?.pointee ?? GeglRectangle() }
    let name = String(cString: pad)
    if name == "aux" { return gegl_operation_get_bounding_box(op) }
    guard let required = registration(of: raw(op)).requiredForOutput else { return roi?.pointee ?? GeglRectangle() }
    return required(context(op), name, roiRect(roi)).gegl
}

private let attachCallback: @convention(c) (OperationPointer?) -> Void = { op in
    guard let op else { return }
    let operation = registration(of: raw(op))
    guard let node = op.pointee.node, let attach = operation.metaAttach else { return }
    let graph = MetaGraph(node: node)
    attach(graph)
    state(of: raw(op)).contents.withLock { $0.graph = graph }
    operation.metaUpdate?(graph, propertyValues(of: raw(op)))
}

/// GEGL calls this after any property of an attached meta operation changed.
private let metaUpdateCallback: @convention(c) (OperationPointer?) -> Void = { op in
    guard let op else { return }
    guard let graph = state(of: raw(op)).contents.withLock({ $0.graph }),
          let update = registration(of: raw(op)).metaUpdate else { return }
    update(graph, propertyValues(of: raw(op)))
}

// MARK: base-class process functions

/// GeglOperationClass.process for filters and composers: hands the input buffer on as the output
/// when the prepared op says it changes nothing (as GEGL's own ops do for a no-op setting), else
/// runs the base class's process, which calls the op's.
private let passThroughProcess: @convention(c) (OperationPointer?, OpaquePointer?, UnsafePointer<gchar>?,
                                                UnsafePointer<GeglRectangle>?, gint) -> gboolean = {
    op, context, pad, roi, level in
    guard let op else { return 0 }
    let operation = registration(of: raw(op))
    if let passes = operation.passesThrough, let p = prepared(op), passes(p),
       let input = gegl_operation_context_get_object(context, "input") {
        // Why g_object_ref: the context takes ownership of one reference to the output object.
        gegl_operation_context_take_object(context, "output", g_object_ref(input).assumingMemoryBound(to: GObject.self))
        return 1
    }
    // Why the class walk: the base class's process is the one GEGL gave our class before we
    // replaced it; the parent class holds it unchanged.
    guard let klass = UnsafeMutableRawPointer(op).assumingMemoryBound(to: GTypeInstance.self).pointee.g_class,
          let parent = g_type_class_peek_parent(klass),
          let process = parent.assumingMemoryBound(to: GeglOperationClass.self).pointee.process else { return 0 }
    return process(op, context, pad, roi, level)
}

private let pointFilterProcess: @convention(c) (OperationPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?,
                                                glong, UnsafePointer<GeglRectangle>?, gint) -> gboolean = {
    op, input, output, samples, roi, _ in
    guard let op, let input, let output, let process = registration(of: raw(op)).processPoint,
          let p = prepared(op) else { return 0 }
    process(p, UnsafeRawPointer(input), output, Int(samples), roiRect(roi))
    return 1
}

private let pointComposerProcess: @convention(c) (OperationPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?,
                                                  UnsafeMutableRawPointer?, glong, UnsafePointer<GeglRectangle>?,
                                                  gint) -> gboolean = { op, input, aux, output, samples, roi, _ in
    guard let op, let input, let output, let process = registration(of: raw(op)).processPointComposer,
          let p = prepared(op) else { return 0 }
    process(p, UnsafeRawPointer(input), aux.map { UnsafeRawPointer($0) }, output, Int(samples), roiRect(roi))
    return 1
}

private let pointRenderProcess: @convention(c) (OperationPointer?, UnsafeMutableRawPointer?, glong,
                                                UnsafePointer<GeglRectangle>?, gint) -> gboolean = {
    op, output, samples, roi, _ in
    guard let op, let output, let process = registration(of: raw(op)).processPointRender,
          let p = prepared(op) else { return 0 }
    process(p, output, Int(samples), roiRect(roi))
    return 1
}

private let filterProcess: @convention(c) (OperationPointer?, OpaquePointer?, OpaquePointer?,
                                           UnsafePointer<GeglRectangle>?, gint) -> gboolean = {
    op, input, output, roi, _ in
    // A missing input leaves the output empty (transparent): GEGL asked for a region of nothing.
    guard let op, let output else { return 0 }
    guard let input, isProcessable(roiRect(roi)) else { return 1 }
    guard let process = registration(of: raw(op)).processFilter, let p = prepared(op) else { return 0 }
    process(p, InputBuffer(buffer: input), OutputBuffer(buffer: output), roiRect(roi))
    return 1
}

private let composerProcess: @convention(c) (OperationPointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?,
                                             UnsafePointer<GeglRectangle>?, gint) -> gboolean = {
    op, input, aux, output, roi, _ in
    guard let op, let output, let process = registration(of: raw(op)).processComposer,
          let p = prepared(op) else { return 0 }
    guard isProcessable(roiRect(roi)) else { return 1 }
    process(p, input.map { InputBuffer(buffer: $0) }, aux.map { InputBuffer(buffer: $0) }, OutputBuffer(buffer: output), roiRect(roi))
    return 1
}

// MARK: installing them

func installCallbacks(_ operation: OperationRegistration, klass: UnsafeMutableRawPointer) {
    let opClass = klass.assumingMemoryBound(to: GeglOperationClass.self)
    // Every process function here only reads shared state: GEGL may split regions across threads,
    // unless the op spreads each region over the threads itself (then GEGL must not split it too).
    opClass.pointee.threaded = operation.threading == .splitByGegl ? 1 : 0
    opClass.pointee.prepare = prepareCallback

    // Only ops that ask: GEGL gives every op with get_cached_region a cache.
    if operation.cachedRegion != nil { opClass.pointee.get_cached_region = cachedRegionCallback }

    switch operation.base {
    case .pointFilter, .pointComposer, .areaFilter, .filter, .composer:
        opClass.pointee.process = passThroughProcess
    case .pointRender, .meta:
        break
    }

    switch operation.base {
    case .pointFilter:
        klass.assumingMemoryBound(to: GeglOperationPointFilterClass.self).pointee.process = pointFilterProcess
    case .pointComposer:
        klass.assumingMemoryBound(to: GeglOperationPointComposerClass.self).pointee.process = pointComposerProcess
        // The output is the input with something applied: its extent, not the union with aux.
        opClass.pointee.get_bounding_box = inputBoundingBoxCallback
    case .pointRender:
        klass.assumingMemoryBound(to: GeglOperationPointRenderClass.self).pointee.process = pointRenderProcess
        opClass.pointee.get_bounding_box = boundingBoxCallback
    case .areaFilter:
        klass.assumingMemoryBound(to: GeglOperationFilterClass.self).pointee.process = filterProcess
        opClass.pointee.get_bounding_box = inputBoundingBoxCallback
    case .filter:
        klass.assumingMemoryBound(to: GeglOperationFilterClass.self).pointee.process = filterProcess
        opClass.pointee.get_bounding_box = boundingBoxCallback
        opClass.pointee.get_required_for_output = requiredForOutputCallback
        opClass.pointee.get_invalidated_by_change = invalidatedByChangeCallback
    case .composer:
        let composer = klass.assumingMemoryBound(to: GeglOperationComposerClass.self)
        composer.pointee.process = composerProcess
        if let label = operation.info.auxLabel { composer.pointee.aux_label = UnsafePointer(g_strdup(label)) }
        if let text = operation.info.auxDescription { composer.pointee.aux_description = UnsafePointer(g_strdup(text)) }
        opClass.pointee.get_bounding_box = boundingBoxCallback
        opClass.pointee.get_required_for_output = requiredForOutputCallback
        opClass.pointee.get_invalidated_by_change = invalidatedByChangeCallback
    case .meta:
        opClass.pointee.attach = attachCallback
        opClass.pointee.prepare = nil
        klass.assumingMemoryBound(to: GeglOperationMetaClass.self).pointee.update = metaUpdateCallback
    }
}
