import CGegl

// Where GEGL's objects keep their Swift counterparts, and how a callback finds them.
//
// Layout. Every operation type gets a class struct and an instance struct that are its GEGL
// parent's, followed by one pointer-sized slot at a fixed offset (the same for every base class,
// so any callback can find it without knowing the base):
//   class struct slot     → the OperationRegistration (entry points, property specs)
//   instance struct slot  → the InstanceState (property values, what prepare built)
// Both Swift objects are retained by their slot: the registration forever (the module is resident
// and GLib never unregisters a type), the instance state until the GObject is finalized.

/// The GEGL base classes an operation can derive from.
enum Base {
    case pointFilter, areaFilter, filter, composer, pointComposer, pointRender, meta

    var parentType: GType {
        switch self {
        case .pointFilter: gegl_operation_point_filter_get_type()
        case .areaFilter: gegl_operation_area_filter_get_type()
        case .filter: gegl_operation_filter_get_type()
        case .composer: gegl_operation_composer_get_type()
        case .pointComposer: gegl_operation_point_composer_get_type()
        case .pointRender: gegl_operation_point_render_get_type()
        case .meta: gegl_operation_meta_get_type()
        }
    }
}

/// Byte offsets of the slots: past the largest parent struct of any base, 16-byte aligned.
enum Slot {
    static let classOffset: Int = {
        let sizes = [MemoryLayout<GeglOperationPointFilterClass>.size, MemoryLayout<GeglOperationAreaFilterClass>.size,
                     MemoryLayout<GeglOperationComposerClass>.size, MemoryLayout<GeglOperationPointComposerClass>.size,
                     MemoryLayout<GeglOperationPointRenderClass>.size, MemoryLayout<GeglOperationMetaClass>.size]
        return (sizes.max()! + 15) & ~15
    }()
    static let instanceOffset: Int = {
        let sizes = [MemoryLayout<GeglOperationPointFilter>.size, MemoryLayout<GeglOperationAreaFilter>.size,
                     MemoryLayout<GeglOperationComposer>.size, MemoryLayout<GeglOperationPointComposer>.size,
                     MemoryLayout<GeglOperationPointRender>.size, MemoryLayout<GeglOperationMeta>.size]
        return (sizes.max()! + 15) & ~15
    }()
}

/// Per-instance state: property values and the latest `prepare` result, behind one lock because
/// GEGL sets properties on the main thread while worker threads may still be processing.
final class InstanceState: Sendable {
    struct Contents {
        var values: [PropertyValue]
        var prepared: (any Sendable)?
        var graph: MetaGraph?
    }
    let contents: Guarded<Contents>

    init(values: [PropertyValue]) {
        contents = Guarded(Contents(values: values, prepared: nil, graph: nil))
    }
}

/// One operation type: its description and the entry points, erased to the base class's shape.
/// Built by the `registration` of each operation protocol (see `Entry.swift`).
public final class OperationRegistration: @unchecked Sendable {
    let info: OperationInfo
    let base: Base
    var threading = Threading.splitByGegl
    // Entry points. Only those of `base` are set. `Any` is the operation's `Prepared`.
    var prepare: ((PrepareContext) -> any Sendable)?
    var boundingBox: ((OperationContext) -> Rect)?
    var requiredForOutput: ((OperationContext, String, Rect) -> Rect)?
    /// GEGL's get_cached_region: what to compute (and keep in the node's cache) when `roi` is asked.
    var cachedRegion: ((OperationContext, Rect) -> Rect)?
    var processPoint: ((Any, UnsafeRawPointer, UnsafeMutableRawPointer, Int, Rect) -> Void)?
    var processPointComposer: ((Any, UnsafeRawPointer, UnsafeRawPointer?, UnsafeMutableRawPointer, Int, Rect) -> Void)?
    var processPointRender: ((Any, UnsafeMutableRawPointer, Int, Rect) -> Void)?
    var processFilter: ((Any, InputBuffer, OutputBuffer, Rect) -> Void)?
    var processComposer: ((Any, InputBuffer?, InputBuffer?, OutputBuffer, Rect) -> Void)?
    /// Whether a prepared op hands its input on untouched (then GEGL is given the input buffer
    /// itself as the output: no pass, no memory).
    var passesThrough: ((Any) -> Bool)?
    var metaAttach: ((MetaGraph) -> Void)?
    var metaUpdate: ((MetaGraph, PropertyValues) -> Void)?
    /// Property defaults, with colour strings parsed by GEGL (set once, at registration).
    var defaults: [PropertyValue] = []

    init(info: OperationInfo, base: Base) {
        self.info = info
        self.base = base
    }

    /// The GType name: "mercurial:height-field-from-mask" → "MercurialHeightFieldFromMask".
    var typeName: String {
        info.name.split(whereSeparator: { $0 == ":" || $0 == "-" || $0 == "_" })
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}

// MARK: - Finding the Swift objects from GObject pointers

/// Why raw memory: GLib allocates class and instance structs; our slot sits at a known offset.
@inline(__always)
func registration(ofClass klass: UnsafeMutableRawPointer) -> OperationRegistration {
    let raw = klass.load(fromByteOffset: Slot.classOffset, as: UnsafeMutableRawPointer.self)
    return Unmanaged<OperationRegistration>.fromOpaque(raw).takeUnretainedValue()
}

@inline(__always)
func classPointer(of instance: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
    // A GTypeInstance starts with its class pointer.
    UnsafeMutableRawPointer(instance.assumingMemoryBound(to: GTypeInstance.self).pointee.g_class)!
}

@inline(__always)
func registration(of instance: UnsafeMutableRawPointer) -> OperationRegistration {
    registration(ofClass: classPointer(of: instance))
}

@inline(__always)
func state(of instance: UnsafeMutableRawPointer) -> InstanceState {
    let raw = instance.load(fromByteOffset: Slot.instanceOffset, as: UnsafeMutableRawPointer.self)
    return Unmanaged<InstanceState>.fromOpaque(raw).takeUnretainedValue()
}

func propertyValues(of instance: UnsafeMutableRawPointer) -> PropertyValues {
    let values = state(of: instance).contents.withLock { $0.values }
    return PropertyValues(specs: registration(of: instance).info.properties, values: values)
}
