import CGegl

// GType registration of Swift-defined operations, and the GObject life cycle of their classes
// and instances (the slots they use are in Slots.swift).

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
