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

/// A linear RGBA colour (as colour properties hold it) in another pixel format of four floats,
/// converted by babl: e.g. R'G'B'A float for the perceptual values blend modes work on.
public func convertColor(_ rgba: SIMD4<Float>, to format: PixelFormat) -> SIMD4<Float> {
    precondition(format.components == 4)
    var source = rgba, result = SIMD4<Float>()
    withUnsafeBytes(of: &source) { s in
        withUnsafeMutableBytes(of: &result) { r in
            babl_process(babl_fish(UnsafeRawPointer(bablFormat(.rgbaFloat)), UnsafeRawPointer(bablFormat(format))),
                         s.baseAddress, r.baseAddress, 1)
        }
    }
    return result
}
