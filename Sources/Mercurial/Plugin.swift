import GeglBridge

// The plug-in: its operations, and the three C entry points GModule and GEGL look up.
// These are the only @_cdecl functions outside GeglBridge: they must live in the module that knows
// the list of operations, and each only forwards to GeglBridge, which owns every pointer.

/// Every operation this plug-in provides. Adding an op means adding its file and one line here.
let operations: [OperationRegistration] = [
    HeightFieldFromMaskOp.registration,
    ShadedMaterialOp.registration,
    HemisphereLightRenderOp.registration,
    HolographicHueOp.registration,
    LiquidMetalOp.registration,
    LitReliefOp.registration,
    ShadedMaterialFromMaskOp.registration,
    MatcapOp.registration,
    HolographicFoilOp.registration,
    ReliefLightingOp.registration,
    BevelShadeOp.registration,
    BevelEmbossOp.registration,
    MaterialMapsOp.registration,
]

@_cdecl("gegl_module_query")
public func geglModuleQuery(_ module: OpaquePointer?) -> UnsafeRawPointer {
    GeglModule.query(module)
}

@_cdecl("gegl_module_register")
public func geglModuleRegister(_ module: OpaquePointer?) -> Int32 {
    GeglModule.register(module, operations: operations)
}

@_cdecl("g_module_check_init")
public func gModuleCheckInit(_ module: OpaquePointer?) -> UnsafePointer<CChar>? {
    GeglModule.checkInit(module)
}
