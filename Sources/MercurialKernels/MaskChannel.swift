/// Which part of a pixel is the mask (white / opaque = inside).
public enum MaskChannel: Int, CaseIterable, Sendable {
    /// Luminance × alpha: what Core Image sees on its premultiplied, linear-light images. White on
    /// black and white on transparency both work; black text on transparency gives nothing.
    case luminanceAlpha = 0
    /// Luminance alone (linear light, as Core Image's working space): grey-scale masks; transparency
    /// is ignored.
    case luminance
    /// Alpha alone: text and shape layers, whatever their colour.
    case alpha

    /// The mask value of a pixel given as linear luminance and straight alpha.
    @inlinable
    public func value(luminance y: Float, alpha a: Float) -> Float {
        switch self {
        case .luminanceAlpha: return y * a
        case .luminance: return y
        case .alpha: return a
        }
    }
}
