import CGegl

// The three functions GModule and GEGL look up in a plug-in. The plug-in module's entry points
// (which alone know the list of operations) forward to these.

public enum GeglModule {
    /// Why a leaked allocation: GEGL keeps the returned pointer for the life of the process.
    /// Written once, here, and only read afterwards (hence the unchecked isolation).
    nonisolated(unsafe) private static let info: UnsafeMutablePointer<GeglModuleInfo> = {
        let p = UnsafeMutablePointer<GeglModuleInfo>.allocate(capacity: 1)
        p.initialize(to: GeglModuleInfo(abi_version: guint32(GEGL_MODULE_ABI_VERSION)))
        return p
    }()

    /// `gegl_module_query`: the ABI version this plug-in was built for.
    public static func query(_ module: OpaquePointer?) -> UnsafeRawPointer {
        UnsafeRawPointer(info)
    }

    /// `gegl_module_register`: registers every operation with the GTypeModule.
    public static func register(_ module: OpaquePointer?, operations: [OperationRegistration]) -> Int32 {
        guard let module else { return 0 }
        let typeModule = UnsafeMutablePointer<GTypeModule>(module)
        var registered = 0
        for operation in operations where registerType(operation, module: typeModule) {
            registered += 1
        }
        return registered > 0 ? 1 : 0
    }

    /// `g_module_check_init`: GEGL closes modules after querying and reopens them later; a Swift
    /// runtime unmapped under live type metadata crashes, so the module stays resident.
    /// Returns nil (success) as GModule expects.
    public static func checkInit(_ module: OpaquePointer?) -> UnsafePointer<CChar>? {
        if let module { g_module_make_resident(module) }
        return nil
    }
}
