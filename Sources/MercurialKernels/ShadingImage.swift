// The picture mercurial:shaded-material looks normals up in (see Kernels/ShadedMaterial.swift).

/// A shading image in memory: RGBA (straight alpha), row-major, at most 2²⁶ pixels (so that byte
/// offsets into it fit 32 bits; mercurial:shaded-material reads at most 1024² of its aux image).
public struct ShadingImage: Sendable {
    public let width: Int
    public let height: Int
    public let rgba: [Float]

    /// Non-finite components (NaN, ±∞) read as 0, so a broken pixel of a shading image darkens
    /// only the normals that look it up, never the whole picture.
    public init(width: Int, height: Int, rgba: [Float]) {
        precondition(rgba.count == width * height * 4 && width > 0 && height > 0 && width * height <= 1 << 26)
        self.width = width
        self.height = height
        if rgba.allSatisfy({ $0.isFinite }) {
            self.rgba = rgba
        } else {
            self.rgba = rgba.map { $0.isFinite ? $0 : 0 }
        }
    }
}
