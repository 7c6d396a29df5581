import CGegl
import GeglTypes
import Glibc

// The host side of GEGL's C API, for the tests and the benchmark: start GEGL, load a plug-in
// folder, build graphs by op name and property name, render them into Swift arrays. This is what
// any program embedding GEGL does; it is not part of the plug-in.

public enum Gegl {
    /// Starts GEGL once per process (OpenCL off, so timings and results are the CPU's) with
    /// GEGL's own operations and the plug-ins under `pluginDirectory` — and no others: GEGL_PATH
    /// is set so that a copy installed in the user's plug-in folder is not loaded instead.
    ///
    /// `gpl3`: declare this process GPL-3 licensed, so that GEGL also loads its GPL-3 operations
    /// (gegl:bump-map among them). The benchmark does, to compare with them; the tests do not.
    public static func start(pluginDirectory: String?, gpl3: Bool = false) {
        setenv("GEGL_USE_OPENCL", "no", 1)
        let system = systemPluginDirectory()
        setenv("GEGL_PATH", pluginDirectory.map { "\($0):\(system)" } ?? system, 1)
        if gpl3, let config = gegl_config() {
            var v = GValue()
            g_value_init(&v, Fundamental.string)
            g_value_set_string(&v, "GPL3")
            g_object_set_property(UnsafeMutableRawPointer(config).assumingMemoryBound(to: GObject.self),
                                  "application-license", &v)
            g_value_unset(&v)
        }
        gegl_init(nil, nil)
    }

    /// GEGL's own plug-in folder, as pkg-config reports it.
    public static func systemPluginDirectory() -> String {
        var result = ""
        if let pipe = popen("pkg-config --variable=pluginsdir gegl-0.4 2>/dev/null", "r") {
            var buffer = [CChar](repeating: 0, count: 4096)
            while fgets(&buffer, Int32(buffer.count), pipe) != nil {
                result += String(cString: buffer)
            }
            pclose(pipe)
        }
        result = String(result.filter { !$0.isNewline })
        return result.isEmpty ? "/usr/lib/x86_64-linux-gnu/gegl-0.4" : result
    }

    public static func hasOperation(_ name: String) -> Bool { gegl_has_operation(name) != 0 }

    /// All operation names GEGL knows.
    public static func operations() -> [String] {
        var n: guint = 0
        guard let list = gegl_list_operations(&n) else { return [] }
        defer { g_free(list) }
        return (0..<Int(n)).compactMap { list[$0].map { String(cString: $0) } }
    }

    /// An operation class key ("title", "categories", "gimp:menu-path", …), or nil.
    public static func key(_ operation: String, _ key: String) -> String? {
        gegl_operation_get_key(operation, key).map { String(cString: $0) }
    }

    /// Sets a GeglConfig property ("threads", "tile-width", "tile-height", "chunk-size", …).
    public static func configure(_ property: String, _ value: Int) {
        guard let config = gegl_config() else { return }
        var v = GValue()
        g_value_init(&v, Fundamental.int)
        g_value_set_int(&v, gint(value))
        g_object_set_property(UnsafeMutableRawPointer(config).assumingMemoryBound(to: GObject.self), property, &v)
        g_value_unset(&v)
    }

    /// Releases GEGL's caches and swap (call before exit in long runs).
    public static func exit() { gegl_exit() }
}

/// Describes one property of an operation class, as GEGL reports it.
public struct PropertyInfo: Equatable, CustomStringConvertible {
    public let name: String
    public let title: String
    public let blurb: String
    public let typeName: String
    public let defaultValue: String
    public let minimum: String?
    public let maximum: String?
    public let uiMinimum: String?
    public let uiMaximum: String?
    /// The property's GEGL keys ("unit", "visible", "axis", …).
    public let keys: [String: String]
    /// An enum's nicks, in value order (empty for other types).
    public let choices: [String]
    public var description: String { "\(name): \(typeName) = \(defaultValue) [\(minimum ?? "-"), \(maximum ?? "-")]" }
}

extension Gegl {
    public static func properties(_ operation: String) -> [PropertyInfo] {
        var n: guint = 0
        guard let specs = gegl_operation_list_properties(operation, &n) else { return [] }
        defer { g_free(specs) }
        return (0..<Int(n)).compactMap { i -> PropertyInfo? in
            guard let spec = specs[i] else { return nil }
            let name = String(cString: g_param_spec_get_name(spec))
            let type = String(cString: g_type_name(spec.pointee.value_type))
            var value = GValue()
            g_value_init(&value, spec.pointee.value_type)
            g_param_value_set_default(spec, &value)
            let def = describe(&value)
            g_value_unset(&value)
            var lo: String?, hi: String?, uiLo: String?, uiHi: String?
            let specType = String(cString: g_type_name(spec.pointee.g_type_instance.g_class.pointee.g_type))
            if specType == "GeglParamDouble" {
                spec.withMemoryRebound(to: GeglParamSpecDouble.self, capacity: 1) {
                    lo = "\($0.pointee.parent_instance.minimum)"; hi = "\($0.pointee.parent_instance.maximum)"
                    uiLo = "\($0.pointee.ui_minimum)"; uiHi = "\($0.pointee.ui_maximum)"
                }
            } else if specType == "GeglParamInt" {
                spec.withMemoryRebound(to: GeglParamSpecInt.self, capacity: 1) {
                    lo = "\($0.pointee.parent_instance.minimum)"; hi = "\($0.pointee.parent_instance.maximum)"
                    uiLo = "\($0.pointee.ui_minimum)"; uiHi = "\($0.pointee.ui_maximum)"
                }
            }
            return PropertyInfo(name: name, title: String(cString: g_param_spec_get_nick(spec)),
                                blurb: String(cString: g_param_spec_get_blurb(spec)), typeName: type,
                                defaultValue: def, minimum: lo, maximum: hi, uiMinimum: uiLo, uiMaximum: uiHi,
                                keys: keys(operation, name), choices: choices(spec.pointee.value_type))
        }
    }

    static func keys(_ operation: String, _ property: String) -> [String: String] {
        var n: guint = 0
        guard let names = gegl_operation_list_property_keys(operation, property, &n) else { return [:] }
        defer { g_free(names) }
        var out: [String: String] = [:]
        for i in 0..<Int(n) {
            guard let key = names[i], let value = gegl_operation_get_property_key(operation, property, key) else { continue }
            out[String(cString: key)] = String(cString: value)
        }
        return out
    }

    static func choices(_ type: GType) -> [String] {
        guard g_type_fundamental(type) == Fundamental.enumeration, let raw = g_type_class_ref(type) else { return [] }
        defer { g_type_class_unref(raw) }
        let klass = raw.assumingMemoryBound(to: GEnumClass.self)
        return (0..<Int(klass.pointee.n_values)).map { String(cString: klass.pointee.values[$0].value_nick) }
    }

    static func describe(_ value: UnsafeMutablePointer<GValue>) -> String {
        let t = value.pointee.g_type
        switch g_type_fundamental(t) {
        case Fundamental.double: return "\(g_value_get_double(value))"
        case Fundamental.int: return "\(g_value_get_int(value))"
        case Fundamental.uint: return "\(g_value_get_uint(value))"
        case Fundamental.boolean: return g_value_get_boolean(value) != 0 ? "true" : "false"
        case Fundamental.string: return g_value_get_string(value).map { String(cString: $0) } ?? ""
        case Fundamental.enumeration:
            let klass = g_type_class_ref(t)!.assumingMemoryBound(to: GEnumClass.self)
            defer { g_type_class_unref(klass) }
            return g_enum_get_value(klass, g_value_get_enum(value)).map { String(cString: $0.pointee.value_nick) } ?? "?"
        default:
            if t == gegl_color_get_type(), let obj = g_value_get_object(value) {
                var rgba = [Float](repeating: 0, count: 4)
                gegl_color_get_pixel(obj.assumingMemoryBound(to: GeglColor.self), babl_format("RGBA float"), &rgba)
                return rgba.map { "\($0)" }.joined(separator: ",")
            }
            return "?"
        }
    }
}


/// A value for a node property.
public enum Value {
    case double(Double)
    case int(Int)
    case bool(Bool)
    /// Strings; for enum properties, the value's nick ("core-image"); for colours, a colour string.
    case string(String)
    case buffer(Buffer)
}

/// A GeglBuffer owned by Swift.
public final class Buffer {
    let buffer: OpaquePointer
    public let extent: (x: Int, y: Int, width: Int, height: Int)

    /// A new buffer holding `pixels` (width × height × components floats in `format`).
    public init(x: Int = 0, y: Int = 0, width: Int, height: Int, format: String, pixels: [Float]) {
        var r = GeglRectangle(x: gint(x), y: gint(y), width: gint(width), height: gint(height))
        buffer = gegl_buffer_new(&r, babl_format(format))
        extent = (x, y, width, height)
        pixels.withUnsafeBufferPointer { gegl_buffer_set(buffer, &r, 0, babl_format(format), $0.baseAddress, 0) }
    }

    /// A new empty (transparent) buffer.
    public init(x: Int = 0, y: Int = 0, width: Int, height: Int, format: String) {
        var r = GeglRectangle(x: gint(x), y: gint(y), width: gint(width), height: gint(height))
        buffer = gegl_buffer_new(&r, babl_format(format))
        extent = (x, y, width, height)
    }

    public func pixels(format: String, components: Int) -> [Float] {
        var r = GeglRectangle(x: gint(extent.x), y: gint(extent.y), width: gint(extent.width), height: gint(extent.height))
        var out = [Float](repeating: 0, count: extent.width * extent.height * components)
        out.withUnsafeMutableBufferPointer {
            gegl_buffer_get(buffer, &r, 1.0, babl_format(format), $0.baseAddress, 0, GEGL_ABYSS_NONE)
        }
        return out
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(buffer)) }
}

/// A node in a `Graph`.
public struct Node {
    let node: OpaquePointer
}

/// A GEGL graph: a parent node that owns its children.
public final class Graph {
    let root: OpaquePointer

    public init() { root = gegl_node_new() }
    deinit { g_object_unref(UnsafeMutableRawPointer(root)) }

    /// Adds a node running `operation` with the given properties. Unknown operations give a node
    /// GEGL treats as a pass-through (and warns), as in any GEGL host.
    @discardableResult
    public func add(_ operation: String, _ properties: [String: Value] = [:]) -> Node {
        let node = Node(node: gegl_node_create_child(root, operation))
        for (name, value) in properties.sorted(by: { $0.key < $1.key }) { set(node, name, value) }
        return node
    }

    public func set(_ node: Node, _ name: String, _ value: Value) {
        guard let spec = gegl_node_find_property(node.node, name) else {
            print("warning: \(name) is not a property of this node")
            return
        }
        let t = spec.pointee.value_type
        var v = GValue()
        g_value_init(&v, t)
        defer { g_value_unset(&v) }
        switch (g_type_fundamental(t), value) {
        case let (Fundamental.double, .double(d)): g_value_set_double(&v, d)
        case let (Fundamental.double, .int(i)): g_value_set_double(&v, Double(i))
        case let (Fundamental.float, .double(d)): g_value_set_float(&v, Float(d))
        case let (Fundamental.int, .int(i)): g_value_set_int(&v, gint(i))
        case let (Fundamental.uint, .int(i)): g_value_set_uint(&v, guint(i))
        case let (Fundamental.boolean, .bool(b)): g_value_set_boolean(&v, b ? 1 : 0)
        case let (Fundamental.string, .string(s)): g_value_set_string(&v, s)
        case let (Fundamental.enumeration, .string(nick)):
            let klass = g_type_class_ref(t)!.assumingMemoryBound(to: GEnumClass.self)
            defer { g_type_class_unref(klass) }
            guard let ev = g_enum_get_value_by_nick(klass, nick) else { print("warning: no \(nick) in \(name)"); return }
            g_value_set_enum(&v, ev.pointee.value)
        case let (Fundamental.enumeration, .int(i)): g_value_set_enum(&v, gint(i))
        case let (_, .string(s)) where t == gegl_color_get_type():
            g_value_take_object(&v, UnsafeMutableRawPointer(gegl_color_new(s)))
        case let (_, .buffer(b)):
            g_value_set_object(&v, UnsafeMutableRawPointer(b.buffer))
        default:
            print("warning: cannot set \(name) from \(value)")
            return
        }
        gegl_node_set_property(node.node, name, &v)
    }

    /// Sets a double property by calling the operation class's own set_property, past GLib's
    /// validation (which refuses NaN and clamps to the range): what a careless host or binding can
    /// do, for hostile-input tests.
    public func setUnvalidated(_ node: Node, _ name: String, _ number: Double) {
        guard let operation = gegl_node_get_gegl_operation(node.node) else { return }
        // Why the casts: a GeglOperation is a GObject; its class struct starts with GObjectClass.
        let object = UnsafeMutableRawPointer(operation).assumingMemoryBound(to: GObject.self)
        guard let klass = object.pointee.g_type_instance.g_class?.withMemoryRebound(to: GObjectClass.self, capacity: 1, { $0 }),
              let spec = g_object_class_find_property(klass, name), let setter = klass.pointee.set_property else { return }
        var v = GValue()
        g_value_init(&v, spec.pointee.value_type)
        defer { g_value_unset(&v) }
        g_value_set_double(&v, number)
        setter(object, spec.pointee.param_id, &v, spec)
    }

    /// Reads a property back as a string (see `Gegl.describe`).
    public func get(_ node: Node, _ name: String) -> String? {
        guard let spec = gegl_node_find_property(node.node, name) else { return nil }
        var v = GValue()
        g_value_init(&v, spec.pointee.value_type)
        defer { g_value_unset(&v) }
        gegl_node_get_property(node.node, name, &v)
        return Gegl.describe(&v)
    }

    /// Links nodes output → input, left to right.
    public func link(_ nodes: Node...) {
        linkNodes(nodes.map(\.node))
    }

    /// Connects `source`'s output to `pad` of `sink`.
    public func connect(_ source: Node, to sink: Node, pad: String) {
        connectNode(source.node, to: sink.node, pad: pad)
    }

    public func boundingBox(_ node: Node) -> (x: Int, y: Int, width: Int, height: Int) {
        let r = gegl_node_get_bounding_box(node.node)
        return (Int(r.x), Int(r.y), Int(r.width), Int(r.height))
    }

    /// What the node's operation computes (and caches) when `rect` is asked of it (GEGL's
    /// get_cached_region; `rect` itself for ops without one). The node's graph must be prepared
    /// (its bounding box asked) first.
    public func cachedRegion(_ node: Node, x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        var r = GeglRectangle(x: gint(x), y: gint(y), width: gint(width), height: gint(height))
        guard let op = gegl_node_get_gegl_operation(node.node) else { return (x, y, width, height) }
        let c = gegl_operation_get_cached_region(op, &r)
        return (Int(c.x), Int(c.y), Int(c.width), Int(c.height))
    }

    /// The nodes inside `node` (a meta operation's children) running `operation`.
    public func children(_ node: Node, running operation: String) -> [Node] {
        var found: [Node] = []
        var item = gegl_node_get_children(node.node)
        let list = item
        while let link = item {
            // Why the cast: the list holds GeglNode pointers as untyped data.
            if let child = link.pointee.data.map({ OpaquePointer($0) }),
               let name = gegl_node_get_operation(child), String(cString: name) == operation {
                found.append(Node(node: child))
            }
            item = link.pointee.next
        }
        g_slist_free(list)
        return found
    }

    /// A property of the node itself (not of its operation), e.g. "cache-policy", as an int.
    public func nodeProperty(_ node: Node, _ name: String) -> Int {
        var v = GValue()
        g_value_init(&v, Fundamental.int) // an enum or a boolean reads as one
        defer { g_value_unset(&v) }
        // Why the cast: a GeglNode is a GObject; its own properties are read with g_object_get_property.
        g_object_get_property(UnsafeMutableRawPointer(node.node).assumingMemoryBound(to: GObject.self), name, &v)
        return Int(g_value_get_int(&v))
    }

    /// Sets a property of the node itself, e.g. "cache-policy" (an int, an enum or a boolean).
    public func setNodeProperty(_ node: Node, _ name: String, _ number: Int) {
        var v = GValue()
        g_value_init(&v, Fundamental.int) // turned into the property's own type
        defer { g_value_unset(&v) }
        g_value_set_int(&v, gint(number))
        g_object_set_property(UnsafeMutableRawPointer(node.node).assumingMemoryBound(to: GObject.self), name, &v)
    }

    /// Renders `rect` of `node` into an array of floats in `format`.
    public func render(_ node: Node, x: Int, y: Int, width: Int, height: Int, format: String, components: Int) -> [Float] {
        var r = GeglRectangle(x: gint(x), y: gint(y), width: gint(width), height: gint(height))
        var out = [Float](repeating: 0, count: width * height * components)
        out.withUnsafeMutableBufferPointer {
            gegl_node_blit(node.node, 1.0, &r, babl_format(format), $0.baseAddress, 0, GEGL_BLIT_DEFAULT)
        }
        return out
    }

    /// Renders the node's whole bounding box.
    public func render(_ node: Node, format: String, components: Int) -> [Float] {
        let b = boundingBox(node)
        return render(node, x: b.x, y: b.y, width: b.width, height: b.height, format: format, components: components)
    }

    /// Processes a sink node (e.g. gegl:png-save).
    public func process(_ sink: Node) { gegl_node_process(sink.node) }
}

extension Gegl {
    /// The input and output pads of an operation, from a throw-away node.
    public static func pads(_ operation: String) -> (inputs: [String], outputs: [String]) {
        let g = Graph()
        let node = g.add(operation)
        func list(_ pads: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?) -> [String] {
            guard let pads else { return [] }
            defer { g_strfreev(pads) }
            var out: [String] = []
            var i = 0
            while let p = pads[i] { out.append(String(cString: p)); i += 1 }
            return out.sorted()
        }
        return (list(gegl_node_list_input_pads(node.node)), list(gegl_node_list_output_pads(node.node)))
    }

    /// The module ABI version a plug-in file declares, by calling its `gegl_module_query`.
    public static func moduleABIVersion(_ path: String) -> Int? {
        guard let module = g_module_open(path, G_MODULE_BIND_LAZY) else { return nil }
        defer { g_module_close(module) }
        var symbol: gpointer?
        guard g_module_symbol(module, "gegl_module_query", &symbol) != 0, let symbol else { return nil }
        typealias Query = @convention(c) (OpaquePointer?) -> UnsafePointer<GeglModuleInfo>?
        let query = unsafeBitCast(symbol, to: Query.self)
        return query(nil).map { Int($0.pointee.abi_version) }
    }
}
