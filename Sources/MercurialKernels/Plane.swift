// A rectangular block of float pixels, the unit every kernel reads and writes.

/// A row-major block of `width × height` pixels with `channels` floats each, owning its storage.
/// Kernels allocate planes once per call (per tile), never per pixel.
public struct Plane: Sendable {
    public let width: Int
    public let height: Int
    public let channels: Int
    public var pixels: [Float]

    public init(width: Int, height: Int, channels: Int = 1, fill: Float = 0) {
        precondition(width >= 0 && height >= 0 && channels > 0)
        self.width = width
        self.height = height
        self.channels = channels
        let count = width * height * channels
        pixels = LargeBuffer.floats(count) { buffer, n in
            buffer.initialize(repeating: fill)
            n = count
        }
    }

    public init(width: Int, height: Int, channels: Int = 1, pixels: [Float]) {
        precondition(pixels.count == width * height * channels)
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// A plane whose pixels are not set: for kernels that write every one before any is read
    /// (no zeros written first).
    public static func unfilled(width: Int, height: Int) -> Plane {
        let count = width * height
        return Plane(width: width, height: height, pixels: LargeBuffer.floats(count) { _, n in n = count })
    }

    @inline(__always)
    public subscript(x: Int, y: Int) -> Float {
        get { pixels[(y * width + x) * channels] }
        set { pixels[(y * width + x) * channels] = newValue }
    }

    /// The sub-block starting at (x, y) of the given size (must lie inside).
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) -> Plane {
        precondition(x >= 0 && y >= 0 && x + w <= width && y + h <= height)
        let rowCount = w * channels, count = rowCount * h
        let out = pixels.withUnsafeBufferPointer { src in
            LargeBuffer.floats(count) { dst, n in
                for row in 0..<h where rowCount > 0 {
                    (dst.baseAddress! + row * rowCount).update(from: src.baseAddress! + ((y + row) * width + x) * channels,
                                                               count: rowCount)
                }
                n = count
            }
        }
        return Plane(width: w, height: h, channels: channels, pixels: out)
    }

    /// This plane surrounded by `border` pixels of `fill` on every side.
    public func padded(by border: Int, fill: Float = 0) -> Plane {
        var out = Plane(width: width + 2 * border, height: height + 2 * border, channels: channels, fill: fill)
        for row in 0..<height {
            let dst = ((row + border) * out.width + border) * channels
            out.pixels.replaceSubrange(dst..<dst + width * channels,
                                       with: pixels[row * width * channels..<(row + 1) * width * channels])
        }
        return out
    }
}

/// Clamps a mask value into [0, 1]; NaN reads as 0 (outside), +∞ as 1, and −0 as +0 (so that no
/// pixel's sign of zero depends on what the kernels skip).
@inlinable
public func sanitizedMask(_ v: Float) -> Float {
    v > 0 ? min(v, 1) : 0 // NaN fails `> 0` and lands on 0
}
