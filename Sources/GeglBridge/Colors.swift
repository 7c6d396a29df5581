import CGegl

// Colours as GEGL parses them (CSS names, "#rrggbb", "rgb(…)"), for colour properties' defaults.

/// A property's default value, with a colour string parsed into linear RGBA.
func parsedDefault(_ property: Property) -> PropertyValue {
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
