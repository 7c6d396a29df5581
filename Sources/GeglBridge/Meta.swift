import CGegl
import GeglTypes
import Glibc

// The inner graph of a meta operation. Op files build it with node names and property names;
// this module turns that into GeglNode calls.

/// A node inside a meta operation's graph.
public struct GraphNode: @unchecked Sendable {
    // Why a raw pointer: the GeglNode is owned by the meta op's own node (its parent).
    let node: OpaquePointer
}

/// The graph a meta operation owns: its input/aux proxies, its output proxy and its children.
public final class MetaGraph: @unchecked Sendable {
    let node: OpaquePointer
    /// Children by the names the op gave them (written in attach, read in update, both on the
    /// thread that drives the graph).
    private var named: [String: GraphNode] = [:]

    init(node: OpaquePointer) { self.node = node }

    /// Remembers a child under a name, for `update` to find.
    public func name(_ child: GraphNode, _ name: String) { named[name] = child }
    public func child(_ name: String) -> GraphNode? { named[name] }

    public var input: GraphNode { GraphNode(node: gegl_node_get_input_proxy(node, "input")) }
    public var aux: GraphNode { GraphNode(node: gegl_node_get_input_proxy(node, "aux")) }
    public var output: GraphNode { GraphNode(node: gegl_node_get_output_proxy(node, "output")) }

    /// Forwards the meta operation's property behind `field` to `property` of `target`, GEGL's own
    /// way (gegl_operation_meta_redirect): its value now and every change after. The two must have
    /// the same type. The outer name comes from the property set's declaration, so only the inner
    /// op's name is a string here.
    func redirect<S: PropertySet, T>(_ field: WritableKeyPath<S, T>, to target: GraphNode, _ property: String) {
        guard let name = S.name(of: field), let operation = gegl_node_get_gegl_operation(node) else {
            warn("redirect of an undeclared property to \(property)")
            return
        }
        guard gegl_node_find_property(target.node, property) != nil else {
            warn("redirect of \(name) to a missing property \(property)")
            return
        }
        gegl_operation_meta_redirect(operation, name, target.node, property)
    }

    /// Forwards each property of `outer` to the property of `target` that `inner` declares at the
    /// same position: for a meta op that wraps another op's property set (lifted, some renamed).
    public func redirect<S: PropertySet, T: PropertySet>(_ outer: [PropertyDeclaration<S>], to target: GraphNode,
                                                         _ inner: [PropertyDeclaration<T>]) {
        guard outer.count == inner.count, let operation = gegl_node_get_gegl_operation(node) else {
            warn("redirect of \(outer.count) properties onto \(inner.count)")
            return
        }
        for (o, i) in zip(outer, inner) {
            guard gegl_node_find_property(target.node, i.property.name) != nil else {
                warn("redirect of \(o.property.name) to a missing property \(i.property.name)")
                continue
            }
            gegl_operation_meta_redirect(operation, o.property.name, target.node, i.property.name)
        }
    }

    /// Forwards the meta op's property behind `field` to the property behind `inner` of a child
    /// whose op declares `T` (both names from their declarations: nothing is spelt twice).
    public func redirect<S: PropertySet, T: PropertySet, V>(_ field: WritableKeyPath<S, V>, to target: GraphNode,
                                                            _ inner: WritableKeyPath<T, V>) {
        guard let name = T.name(of: inner) else { return warn("redirect to an undeclared property of \(T.self)") }
        redirect(field, to: target, name)
    }

    // MARK: Typed child properties

    /// Sets the property behind `field` of a child whose op declares `S`: a number.
    public func set<S: PropertySet>(_ target: GraphNode, _ field: WritableKeyPath<S, Double>, _ value: Double) {
        set(target, declared(field), value)
    }

    /// Sets a boolean property of a child whose op declares `S`.
    public func set<S: PropertySet>(_ target: GraphNode, _ field: WritableKeyPath<S, Bool>, _ value: Bool) {
        set(target, declared(field), value ? 1 : 0)
    }

    /// Sets an enumerated property of a child whose op declares `S`.
    public func set<S: PropertySet, E: PropertyEnum>(_ target: GraphNode, _ field: WritableKeyPath<S, E>, _ value: E) {
        set(target, declared(field), Double(value.rawValue))
    }

    /// Sets a colour property (linear RGBA) of a child whose op declares `S`.
    public func set<S: PropertySet>(_ target: GraphNode, _ field: WritableKeyPath<S, SIMD4<Float>>, _ value: SIMD4<Float>) {
        setColor(target, declared(field), value)
    }

    /// The GEGL name `S` declares for `field` ("" with a warning for an undeclared one, which no
    /// node has).
    private func declared<S: PropertySet, V>(_ field: WritableKeyPath<S, V>) -> String {
        guard let name = S.name(of: field) else {
            warn("\(S.self) declares no property for \(field)")
            return ""
        }
        return name
    }

    /// Adds a child node running `operation` (e.g. "gegl:gaussian-blur").
    public func add(_ operation: String) -> GraphNode {
        GraphNode(node: gegl_node_create_child(node, operation))
    }

    /// Chains nodes output → input, left to right.
    public func link(_ nodes: GraphNode...) {
        linkNodes(nodes.map(\.node))
    }

    /// Connects `source`'s output to `pad` of `sink`.
    public func connect(_ source: GraphNode, to sink: GraphNode, pad: String) {
        connectNode(source.node, to: sink.node, pad: pad)
    }

    /// Takes whatever is connected to `pad` of `sink` away.
    public func disconnect(_ sink: GraphNode, pad: String) {
        gegl_node_disconnect(sink.node, pad)
    }

    // S_IFMT and S_IFREG (sys/stat.h). Why not Glibc's: Swift's Glibc overlay defines them in the
    // object that also wraps hypotf, which would raise the plug-in's glibc floor to 2.35.
    private static let fileTypeMask: mode_t = 0o170000, regularFile: mode_t = 0o100000

    /// The largest picture file `connectImageFile` hands to GEGL's loaders.
    public static let largestImageFile = 256 << 20

    /// Connects the picture in the file at `path` to `pad` of `sink`, through a gegl:load child made
    /// on first use, and returns true. With no path, a file that cannot be opened, or one whose
    /// picture is empty, connects `fallback` instead (or nothing) and returns false, with a warning
    /// for a path that was given. (gegl:load itself would draw an error message as the picture.)
    @discardableResult
    public func connectImageFile(_ path: String, to sink: GraphNode, pad: String, fallback: GraphNode?) -> Bool {
        func useFallback() -> Bool {
            if let fallback { connect(fallback, to: sink, pad: pad) } else { disconnect(sink, pad: pad) }
            return false
        }
        guard !path.isEmpty else { return useFallback() }
        // A regular, readable file of bounded size: never a device or a pipe a loader would read forever.
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & Self.fileTypeMask == Self.regularFile, access(path, R_OK) == 0 else {
            warn("\(path) is not a readable file; the built-in default is used instead")
            return useFallback()
        }
        guard info.st_size <= Self.largestImageFile else {
            warn("\(path) is larger than \(Self.largestImageFile >> 20) MiB; the built-in default is used instead")
            return useFallback()
        }
        let key = "file:\(pad)"
        let loader = child(key) ?? add("gegl:load")
        name(loader, key)
        set(loader, "path", path)
        let box = gegl_node_get_bounding_box(loader.node)
        guard box.width > 0, box.height > 0 else {
            warn("\(path) holds no picture GEGL can read; the built-in default is used instead")
            return useFallback()
        }
        connect(loader, to: sink, pad: pad)
        return true
    }

    /// Sets a numeric, boolean or enum property of one of GEGL's own ops (converted to the
    /// property's own type); a missing property is a warning.
    public func set(_ target: GraphNode, _ property: String, _ number: Double) {
        guard let spec = gegl_node_find_property(target.node, property) else { return missing(property, target) }
        var value = GValue()
        g_value_init(&value, spec.pointee.value_type)
        defer { g_value_unset(&value) }
        switch g_type_fundamental(spec.pointee.value_type) {
        case Fundamental.double: g_value_set_double(&value, number)
        case Fundamental.float: g_value_set_float(&value, Float(number))
        case Fundamental.int: g_value_set_int(&value, gint(clamping: Int(number.rounded())))
        case Fundamental.uint: g_value_set_uint(&value, guint(clamping: Int(number.rounded())))
        case Fundamental.boolean: g_value_set_boolean(&value, number != 0 ? 1 : 0)
        case Fundamental.enumeration: g_value_set_enum(&value, gint(clamping: Int(number.rounded())))
        default: return
        }
        gegl_node_set_property(target.node, property, &value)
    }

    /// GEGL's cache-policy of a node: AUTO (a cache where the op asks for one), NEVER, ALWAYS.
    public enum CachePolicy {
        case auto, never, always
        var gegl: GeglCachePolicy {
            switch self {
            case .auto: GEGL_CACHE_POLICY_AUTO
            case .never: GEGL_CACHE_POLICY_NEVER
            case .always: GEGL_CACHE_POLICY_ALWAYS
            }
        }
    }

    /// Sets a node's cache-policy.
    public func setCachePolicy(_ target: GraphNode, _ policy: CachePolicy) {
        setNode(target, "cache-policy", Int(policy.gegl.rawValue))
    }

    /// Sets a property of the node itself (not of its operation), e.g. "cache-policy".
    public func setNode(_ target: GraphNode, _ property: String, _ number: Int) {
        // Why the cast: a GeglNode is a GObject; its own properties are set with g_object_set_property.
        let object = UnsafeMutableRawPointer(target.node).assumingMemoryBound(to: GObject.self)
        guard let klass = object.pointee.g_type_instance.g_class,
              let spec = g_object_class_find_property(UnsafeMutableRawPointer(klass).assumingMemoryBound(to: GObjectClass.self), property)
        else { return }
        var value = GValue()
        g_value_init(&value, spec.pointee.value_type)
        defer { g_value_unset(&value) }
        switch g_type_fundamental(spec.pointee.value_type) {
        case Fundamental.enumeration: g_value_set_enum(&value, gint(number))
        case Fundamental.int: g_value_set_int(&value, gint(number))
        case Fundamental.boolean: g_value_set_boolean(&value, number != 0 ? 1 : 0)
        default: return
        }
        g_object_set_property(object, property, &value)
    }

    /// Sets a string property of one of GEGL's own ops (e.g. gegl:load's path); a missing property
    /// is a warning.
    func set(_ target: GraphNode, _ property: String, _ string: String) {
        guard gegl_node_find_property(target.node, property) != nil else { return missing(property, target) }
        var value = GValue()
        g_value_init(&value, Fundamental.string)
        defer { g_value_unset(&value) }
        g_value_set_string(&value, string)
        gegl_node_set_property(target.node, property, &value)
    }

    /// Sets a colour property from linear RGBA; a missing property is a warning.
    public func setColor(_ target: GraphNode, _ property: String, _ rgba: SIMD4<Float>) {
        guard gegl_node_find_property(target.node, property) != nil else { return missing(property, target) }
        var value = GValue()
        g_value_init(&value, gegl_color_get_type())
        defer { g_value_unset(&value) }
        let color = gegl_color_new(nil)
        var pixel = rgba
        withUnsafeBytes(of: &pixel) { gegl_color_set_pixel(color, bablFormat(.rgbaFloat), $0.baseAddress) }
        g_value_take_object(&value, UnsafeMutableRawPointer(color))
        gegl_node_set_property(target.node, property, &value)
    }
}

extension MetaGraph {
    /// Says that a child has no property of that name (a wrong name in an op file, or a child op
    /// that changed).
    fileprivate func missing(_ property: String, _ target: GraphNode) {
        let operation = gegl_node_get_operation(target.node).map { String(cString: $0) } ?? "a node"
        warn("\(operation) has no property \(property)")
    }
}
