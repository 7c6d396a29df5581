import Glibc
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
    ]

    /// The kernel's parameters (colours as the perceptual values the blend modes work on).
    var parameters: BevelShadeParameters {
        func perceptual(_ c: SIMD4<Float>) -> SIMD3<Float> {
            func encode(_ v: Float) -> Float {
                let x = v.isFinite ? min(max(v, 0), 1) : 0
                return x <= 0.0031308 ? 12.92 * x : 1.055 * powf(x, 1 / 2.4) - 0.055
            }
            return SIMD3(encode(c.x), encode(c.y), encode(c.z))
        }
        return BevelShadeParameters(depth: Float(depth), angle: Float(angle), altitude: Float(altitude), contour: glossContour,
                                    highlight: perceptual(highlightColor), highlightMode: highlightMode,
                                    highlightOpacity: Float(highlightOpacity), shadow: perceptual(shadowColor),
                                    shadowMode: shadowMode, shadowOpacity: Float(shadowOpacity), atop: insideOnly)
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
