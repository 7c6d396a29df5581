import GeglBridge
import MercurialKernels

/// The height field's controls, shared by mercurial:height-field-from-mask and
/// mercurial:shaded-material-from-mask (which declares them all but keep-alpha).
struct HeightFieldControls: PropertySet {
    var mask = MaskChannel.alpha
    var radius = 10.0
    var profile = BevelProfile.coreImage
    var style = BevelStyle.inner
    var soften = 0.0
    var keepAlpha = false

    static let declarations: [PropertyDeclaration<HeightFieldControls>] = [
        .choice(\.mask, "mask", "Shape from",
                "Which part of the input is the shape: opacity for text and shape layers, brightness for "
                + "white-on-black masks."),
        .double(\.radius, "radius", "Size", range: 0...HeightFieldParameters.maximumRadius, ui: 0...HeightFieldParameters.maximumRadius,
                gamma: 2, steps: (1, 5), digits: 1, unit: .pixelDistance,
                "How far from the edge the surface takes to reach its full height."),
        .choice(\.profile, "profile", "Profile", "The bevel's cross-section."),
        .choice(\.style, "style", "Style", "Where the bevel lies: inside the shape, around it, or both."),
        .double(\.soften, "soften", "Soften", range: 0...HeightFieldParameters.maximumSoften, ui: 0...16,
                digits: 1, unit: .pixelDistance, "Blurs the height field after the profile."),
        .boolean(\.keepAlpha, "keep-alpha", "Keep the layer's shape",
                 "Off: an opaque height field. On: the height keeps the input's alpha."),
    ]

    /// The kernel's parameters for these controls.
    var parameters: HeightFieldParameters {
        HeightFieldParameters(radius: radius, profile: profile, style: style, soften: soften)
    }
}
