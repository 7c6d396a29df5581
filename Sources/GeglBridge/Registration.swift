import CGegl
import Synchronization

// GType registration of Swift-defined operations.
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
    let contents: Mutex<Contents>

    init(values: [PropertyValue]) {
        contents = Mutex(Contents(values: values, prepared: nil, graph: nil))
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
    var processPoint: ((Any, UnsafeRawPointer, UnsafeMutableRawPointer, Int, Rect) -> Void)?
    var processPointComposer: ((Any, UnsafeRawPointer, UnsafeRawPointer?, UnsafeMutableRawPointer, Int, Rect) -> Void)?
    var processPointRender: ((Any, UnsafeMutableRawPointer, Int, Rect) -> Void)?
    var processFilter: ((Any, InputBuffer, OutputBuffer, Rect) -> Void)?
    var processComposer: ((Any, InputBuffer?, InputBuffer?, OutputBuffer, Rect) -> Void)?
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

// MARK: - Registration

/// Registers `operation` with GLib as a dynamic type of `module`. Returns false (with a GLib
/// warning) when the type could not be registered, e.g. when another copy of this plug-in has
/// already registered the same name in this process.
func registerType(_ operation: OperationRegistration, module: UnsafeMutablePointer<GTypeModule>) -> Bool {
    // GEGL loads a module, closes it and loads it again: GTypeModule then calls register once more
    // and expects the same types back. A type of the same name from another module is a second
    // copy of this plug-in (installed twice): that copy steps aside.
    let existing = g_type_from_name(operation.typeName)
    if existing != 0, let plugin = g_type_get_plugin(existing),
       UnsafeMutableRawPointer(plugin) != UnsafeMutableRawPointer(module) {
        warn("\(operation.info.name) is already registered in this process; this copy is not loaded")
        return false
    }
    if operation.defaults.count != operation.info.properties.count {
        operation.defaults = operation.info.properties.map(parsedDefault)
    }

    var parentQuery = GTypeQuery()
    g_type_query(operation.base.parentType, &parentQuery)
    precondition(Int(parentQuery.class_size) <= Slot.classOffset && Int(parentQuery.instance_size) <= Slot.instanceOffset,
                 "GEGL's structs are larger than its headers said")

    var typeInfo = GTypeInfo()
    typeInfo.class_size = guint16(Slot.classOffset + MemoryLayout<UnsafeRawPointer>.size)
    typeInfo.class_init = classInit
    // Why passRetained: the registration must outlive every class and instance of the type,
    // which GLib never frees while the (resident) module is loaded.
    typeInfo.class_data = UnsafeRawPointer(Unmanaged.passRetained(operation).toOpaque())
    typeInfo.instance_size = guint16(Slot.instanceOffset + MemoryLayout<UnsafeRawPointer>.size)
    typeInfo.instance_init = instanceInit
    let type = g_type_module_register_type(module, operation.base.parentType, operation.typeName, &typeInfo, GTypeFlags(0))
    return type != 0
}

private func parsedDefault(_ property: Property) -> PropertyValue {
    guard case let .color(string) = property.kind else { return property.defaultValue }
    return .color(parseColor(string))
}

/// Parses a GEGL colour string into linear RGBA.
func parseColor(_ string: String) -> SIMD4<Float> {
    guard let color = gegl_color_new(string) else { return SIMD4(0, 0, 0, 1) }
    defer { g_object_unref(color) }
    var rgba = SIMD4<Float>(0, 0, 0, 1)
    withUnsafeMutableBytes(of: &rgba) { gegl_color_get_pixel(color, bablFormat(.rgbaFloat), $0.baseAddress) }
    return rgba
}

// MARK: - GObject class and instance life cycle

/// class_init: fills the class slot, GObject vfuncs, GEGL vfuncs for the base, keys, properties.
private let classInit: GClassInitFunc = { klass, classData in
    guard let klass, let classData else { return }
    // Why: store the registration pointer (retained by registerType) in the class slot.
    klass.storeBytes(of: UnsafeMutableRawPointer(mutating: classData), toByteOffset: Slot.classOffset,
                     as: UnsafeMutableRawPointer.self)
    let operation = Unmanaged<OperationRegistration>.fromOpaque(classData).takeUnretainedValue()

    let objectClass = klass.assumingMemoryBound(to: GObjectClass.self)
    objectClass.pointee.set_property = setProperty
    objectClass.pointee.get_property = getProperty
    objectClass.pointee.finalize = finalize

    let operationClass = klass.assumingMemoryBound(to: GeglOperationClass.self)
    installCallbacks(operation, klass: klass)
    for (key, value) in operation.info.allKeys {
        gegl_operation_class_set_key(operationClass, key, value)
    }
    for (index, property) in operation.info.properties.enumerated() {
        installProperty(property, id: guint(index + 1), on: objectClass)
    }
}

private let instanceInit: GInstanceInitFunc = { instance, klass in
    guard let instance, let klass else { return }
    let operation = registration(ofClass: klass)
    let state = InstanceState(values: operation.defaults)
    // Why passRetained: the GObject owns its state until finalize releases it.
    UnsafeMutableRawPointer(instance).storeBytes(of: Unmanaged.passRetained(state).toOpaque(),
                                                 toByteOffset: Slot.instanceOffset, as: UnsafeMutableRawPointer.self)
}

private let finalize: @convention(c) (UnsafeMutablePointer<GObject>?) -> Void = { object in
    guard let object else { return }
    let raw = UnsafeMutableRawPointer(object)
    let slot = raw.load(fromByteOffset: Slot.instanceOffset, as: UnsafeMutableRawPointer.self)
    Unmanaged<InstanceState>.fromOpaque(slot).release()
    // Chain up to the parent class's finalize, as GObject requires.
    let parent = g_type_class_peek_parent(classPointer(of: raw))!.assumingMemoryBound(to: GObjectClass.self)
    parent.pointee.finalize?(object)
}

/// Logs a GLib warning in the "Mercurial" domain (hosts show these; GIMP in its error console).
func warn(_ message: String) {
    // Why withVaList: g_log is variadic; g_logv takes the arguments as a va_list.
    message.withCString { text in
        withVaList([text]) { g_logv("Mercurial", G_LOG_LEVEL_WARNING, "%s", $0) }
    }
}
