import CGegl

// What both sides of GEGL's C API need, written once: the plug-in's bridge (GeglBridge) and the
// host-side helpers of the tests and the benchmark (GeglHost).

/// GLib's fundamental types by name (the G_TYPE_* macros are not imported into Swift).
public enum Fundamental {
    public static let boolean = type(5)
    public static let int = type(6)
    public static let uint = type(7)
    public static let enumeration = type(12)
    public static let float = type(14)
    public static let double = type(15)
    public static let string = type(16)

    static func type(_ n: Int) -> GType { GType(n << Int(G_TYPE_FUNDAMENTAL_SHIFT)) }
}

/// Chains GEGL nodes output → input, left to right.
public func linkNodes(_ nodes: [OpaquePointer]) {
    for (a, b) in zip(nodes, nodes.dropFirst()) { gegl_node_link(a, b) }
}

/// Connects `source`'s output to `pad` of `sink` (gegl_node_connect exists only from GEGL 0.4.46).
public func connectNode(_ source: OpaquePointer, to sink: OpaquePointer, pad: String) {
    gegl_node_connect_from(sink, pad, source, "output")
}
