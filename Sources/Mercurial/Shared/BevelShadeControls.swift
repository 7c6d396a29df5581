import GeglBridge
import MercurialKernels

/// The shading controls of Bevel & Emboss: mercurial:bevel-shade's, which mercurial:bevel-emboss
/// forwards. Defaults are Photoshop's: light from 120° at 30°, a white highlight in Screen and a
/// black shadow in Multiply, both at 75 %.
struct BevelShadeControls: PropertySet {
    var depth = 10.0
    var angle = 120.0
    var altitude = 30.0
    var glossContour = GlossContour.linear
    var highlightMode = BlendMode.screen
    var highlightColor = SIMD4<Float>(1, 1, 1, 1)
    var highlightOpacity = 0.75
    var shadowMode = BlendMode.multiply
    var shadowColor = SIMD4<Float>(0, 0, 0, 1)
    var shadowOpacity = 0.75
    var insideOnly = true
    var contour = GlossContour.linear
    var range = 100.0
    var texture = BevelTexture.none
    var textureScale = 32.0
    var textureDepth = 10.0
    var invertTexture = false
    var secondLight = false
    var light2Color = SIMD4<Float>(0.55, 0.65, 1, 1)
    var light2Opacity = 0.5
    var light2Angle = -60.0
    var light2Altitude = 30.0

    static let declarations: [PropertyDeclaration<BevelShadeControls>] = [
        .double(\.depth, "depth", "Depth", range: -1000...1000, ui: -40...40, digits: 1,
                "How steep the bevel looks (negative: sunk in)."),
        .double(\.angle, "angle", "Angle", range: -180...180, unit: .degree,
                "Where the light comes from: 0 right, 90 top, 120 upper left."),
        .double(\.altitude, "altitude", "Altitude", range: 0...90, unit: .degree,
                "How high the light stands: 0 grazing, 90 straight in front."),
        .choice(\.glossContour, "gloss-contour", "Gloss contour", "A curve that remaps the light on the slopes."),
        .choice(\.highlightMode, "highlight-mode", "Highlight mode", "How the highlight colour meets the layer's."),
        .color(\.highlightColor, "highlight-color", "Highlight colour", default: "white", "The colour of the lit slopes."),
        .double(\.highlightOpacity, "highlight-opacity", "Highlight opacity", range: 0...1, digits: 2,
                "How strong the highlight is (0: none)."),
        .choice(\.shadowMode, "shadow-mode", "Shadow mode", "How the shadow colour meets the layer's."),
        .color(\.shadowColor, "shadow-color", "Shadow colour", default: "black", "The colour of the slopes facing away."),
        .double(\.shadowOpacity, "shadow-opacity", "Shadow opacity", range: 0...1, digits: 2,
                "How strong the shadow is (0: none)."),
        .boolean(\.insideOnly, "inside-only", "Inside the layer only",
                 "On: the effects stay on the layer's own pixels (inner styles). Off: they reach the heights' coverage."),
        .choice(\.contour, "contour", "Contour", "The bevel's profile curve."),
        .double(\.range, "range", "Range", range: 1...100, digits: 0, "How much of the bevel's height the contour spans, in per cent."),
        .choice(\.texture, "texture", "Texture", "A pattern pressed into the bevel's surface."),
        .double(\.textureScale, "texture-scale", "Texture scale", range: 1...1000, ui: 2...200, gamma: 1.5, digits: 1,
                unit: .pixelDistance, "The size of the texture's pattern.").visible("! texture {none}"),
        .double(\.textureDepth, "texture-depth", "Texture depth", range: -100...100, ui: -50...50, digits: 1,
                "How deep the texture is pressed, in per cent of the bevel's height (negative: raised).")
            .visible("! texture {none}"),
        .boolean(\.invertTexture, "invert-texture", "Invert texture", "Swaps the texture's highs and lows.")
            .visible("! texture {none}"),
        .boolean(\.secondLight, "second-light", "Second light", "A second light with its own colour and direction."),
        .color(\.light2Color, "light2-color", "Second light colour", default: "rgb(0.55, 0.65, 1)",
               "The colour the second light adds.").visible("second-light"),
        .double(\.light2Opacity, "light2-opacity", "Second light opacity", range: 0...1, digits: 2,
                "How strong the second light is.").visible("second-light"),
        .double(\.light2Angle, "light2-angle", "Second light angle", range: -180...180, unit: .degree,
                "Where the second light comes from.").visible("second-light"),
        .double(\.light2Altitude, "light2-altitude", "Second light altitude", range: 0...90, unit: .degree,
                "How high the second light stands.").visible("second-light"),
    ]

    /// The kernel's parameters (colours as the perceptual values the blend modes work on).
    var parameters: BevelShadeParameters {
        func perceptual(_ c: SIMD4<Float>) -> SIMD3<Float> {
            let v = convertColor(c, to: .perceptualRGBAFloat)
            func clamped(_ x: Float) -> Float { x.isFinite ? min(max(x, 0), 1) : 0 }
            return SIMD3(clamped(v.x), clamped(v.y), clamped(v.z))
        }
        var p = BevelShadeParameters(depth: Float(depth), angle: Float(angle), altitude: Float(altitude), gloss: glossContour,
                                     highlight: perceptual(highlightColor), highlightMode: highlightMode,
                                     highlightOpacity: Float(highlightOpacity), shadow: perceptual(shadowColor),
                                     shadowMode: shadowMode, shadowOpacity: Float(shadowOpacity), atop: insideOnly)
        p.contour = contour
        p.range = Float(range / 100)
        p.texture = texture
        p.textureScale = Float(textureScale)
        // Pressed in: a positive depth lowers the surface where the pattern is high.
        p.textureDepth = Float(textureDepth / 100) * (invertTexture ? 1 : -1)
        p.light2 = perceptual(light2Color)
        p.light2Opacity = secondLight ? Float(light2Opacity) : 0
        p.light2Angle = Float(light2Angle)
        p.light2Altitude = Float(light2Altitude)
        return p
    }
}

extension BevelTexture: PropertyEnum {
    public static let typeName = "MercurialBevelTexture"
    public var label: EnumCase {
        switch self {
        case .none: EnumCase("none", "None")
        case .noise: EnumCase("noise", "Noise")
        case .cells: EnumCase("cells", "Cells")
        case .brushedMetal: EnumCase("brushed-metal", "Brushed metal")
        case .canvas: EnumCase("canvas", "Canvas")
        case .file: EnumCase("file", "Picture file")
        }
    }
}

extension BlendMode: PropertyEnum {
    public static let typeName = "MercurialBlendMode"
    public var label: EnumCase {
        switch self {
        case .normal: EnumCase("normal", "Normal")
        case .screen: EnumCase("screen", "Screen")
        case .multiply: EnumCase("multiply", "Multiply")
        case .overlay: EnumCase("overlay", "Overlay")
        case .softLight: EnumCase("soft-light", "Soft light")
        case .linearDodge: EnumCase("linear-dodge", "Linear dodge (add)")
        }
    }
}
