import CGegl

// Properties as GObject sees them: GEGL param specs carrying GIMP's UI metadata, and the
// set/get vfuncs that move GValues in and out of the instance state.


/// GEGL's own ops use these flags: read/write, set at construction, and usable as an input pad.
private let propertyFlags = GParamFlags(
    rawValue: G_PARAM_READWRITE.rawValue | G_PARAM_CONSTRUCT.rawValue | Int32(bitPattern: GEGL_PARAM_PAD_INPUT.rawValue))

func installProperty(_ property: Property, id: guint,
                     on objectClass: UnsafeMutablePointer<GObjectClass>) {
    let name = property.name, nick = property.title, blurb = property.description
    let spec: UnsafeMutablePointer<GParamSpec>?
    var unit: PropertyUnit?
    switch property.kind {
    case let .double(def, range, ui, gamma, steps, digits, u):
        spec = gegl_param_spec_double(name, nick, blurb, range.lowerBound, range.upperBound, def,
                                      ui.lowerBound, ui.upperBound, gamma, propertyFlags)
        // Why the cast: gegl_param_spec_double returns a GeglParamSpecDouble as a GParamSpec.
        spec?.withMemoryRebound(to: GeglParamSpecDouble.self, capacity: 1) { d in
            if let steps { gegl_param_spec_double_set_steps(d, steps.small, steps.big) }
            if let digits { gegl_param_spec_double_set_digits(d, gint(digits)) }
        }
        unit = u
    case let .int(def, range, ui, u):
        spec = gegl_param_spec_int(name, nick, blurb, gint(range.lowerBound), gint(range.upperBound), gint(def),
                                   gint(ui.lowerBound), gint(ui.upperBound), 1.0, propertyFlags)
        unit = u
    case let .boolean(def):
        spec = g_param_spec_boolean(name, nick, blurb, def ? 1 : 0, propertyFlags)
    case let .enumeration(typeName, cases, def):
        spec = gegl_param_spec_enum(name, nick, blurb, enumType(typeName, cases), gint(def), propertyFlags)
    case .seed:
        spec = gegl_param_spec_seed(name, nick, blurb, propertyFlags)
    case let .color(string):
        spec = gegl_param_spec_color_from_string(name, nick, blurb, string, propertyFlags)
    case let .string(def):
        spec = g_param_spec_string(name, nick, blurb, def, propertyFlags)
    case let .filePath(def):
        spec = gegl_param_spec_file_path(name, nick, blurb, 0, 0, def, propertyFlags)
    }
    guard let spec else { return }
    if let unit { gegl_param_spec_set_property_key(spec, "unit", unit.rawValue) }
    for (key, value) in property.keys { gegl_param_spec_set_property_key(spec, key, value) }
    g_object_class_install_property(objectClass, id, spec)

}

/// Registers (once per process) the GEnum type of an enumerated property.
private func enumType(_ typeName: String, _ cases: [EnumCase]) -> GType {
    let existing = g_type_from_name(typeName)
    if existing != 0 { return existing }
    // Why a leaked C array: GLib keeps a pointer to the value table for the life of the type,
    // and static enum types are never unregistered.
    let table = UnsafeMutablePointer<GEnumValue>.allocate(capacity: cases.count + 1)
    for (i, c) in cases.enumerated() {
        table[i] = GEnumValue(value: gint(i), value_name: g_strdup(c.title), value_nick: g_strdup(c.nick))
    }
    table[cases.count] = GEnumValue(value: 0, value_name: nil, value_nick: nil)
    return g_enum_register_static(typeName, table)
}

/// The instance and the declared property behind a GObject property id (ids are 1-based indices).
private func property(_ object: UnsafeMutablePointer<GObject>, _ id: guint) -> (UnsafeMutableRawPointer, Int, Property)? {
    let raw = UnsafeMutableRawPointer(object)
    let specs = registration(of: raw).info.properties
    let index = Int(id) - 1
    return specs.indices.contains(index) ? (raw, index, specs[index]) : nil
}

let setProperty: @convention(c) (UnsafeMutablePointer<GObject>?, guint, UnsafePointer<GValue>?,
                                 UnsafeMutablePointer<GParamSpec>?) -> Void = { object, id, value, _ in
    guard let object, let value, let (raw, index, spec) = property(object, id) else { return }
    let new: PropertyValue
    switch spec.kind {
    case let .double(fallback, range, _, _, _, _, _):
        // GLib's own setters refuse NaN and clamp to the range, but a caller of the class's
        // set_property (or a GValue built by hand) can pass anything: NaN takes the default and
        // everything else is clamped, so no op ever sees a value outside its documented range.
        let v = g_value_get_double(value)
        new = .number(v.isNaN ? fallback : min(max(v, range.lowerBound), range.upperBound))
    case .int: new = .number(Double(g_value_get_int(value)))
    case .boolean: new = .number(g_value_get_boolean(value) != 0 ? 1 : 0)
    case .enumeration: new = .number(Double(g_value_get_enum(value)))
    case .seed: new = .number(Double(g_value_get_uint(value)))
    case .string, .filePath: new = .text(g_value_get_string(value).map { String(cString: $0) } ?? "")
    case .color:
        var rgba = SIMD4<Float>(0, 0, 0, 0)
        if let color = g_value_get_object(value) {
            // Why the cast: the GValue holds a GeglColor as a plain GObject pointer.
            withUnsafeMutableBytes(of: &rgba) {
                gegl_color_get_pixel(color.assumingMemoryBound(to: GeglColor.self), bablFormat(.rgbaFloat), $0.baseAddress)
            }
        }
        new = .color(rgba)
    }
    // (Meta operations hear of the change through GEGL's "notify" → GeglOperationMetaClass.update.)
    state(of: raw).contents.withLock { $0.values[index] = new }
}

let getProperty: @convention(c) (UnsafeMutablePointer<GObject>?, guint, UnsafeMutablePointer<GValue>?,
                                 UnsafeMutablePointer<GParamSpec>?) -> Void = { object, id, value, _ in
    guard let object, let value, let (raw, index, spec) = property(object, id) else { return }
    let stored = state(of: raw).contents.withLock { $0.values[index] }
    switch (spec.kind, stored) {
    case let (.double, .number(v)): g_value_set_double(value, v)
    case let (.int, .number(v)): g_value_set_int(value, gint(v))
    case let (.boolean, .number(v)): g_value_set_boolean(value, v != 0 ? 1 : 0)
    case let (.enumeration, .number(v)): g_value_set_enum(value, gint(v))
    case let (.seed, .number(v)): g_value_set_uint(value, guint(v))
    case let (.string, .text(s)), let (.filePath, .text(s)): g_value_set_string(value, s)
    case let (.color, .color(rgba)):
        let color = gegl_color_new(nil)
        var pixel = rgba
        withUnsafeBytes(of: &pixel) { gegl_color_set_pixel(color, bablFormat(.rgbaFloat), $0.baseAddress) }
        // Why take: the GValue becomes the owner of the new GeglColor.
        g_value_take_object(value, UnsafeMutableRawPointer(color))
    default: break
    }
}
