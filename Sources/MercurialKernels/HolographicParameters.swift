import Glibc


// Holographic foil, as the "rare card" shaders do it: a Voronoi pattern gives every cell a value v;
// hue = fract(v · displacement + offset), where offset follows the card's tilt; that hue, fully
// saturated, is mixed lightly over the picture.
//
// Voronoi: one seed per grid square of `cellSize` pixels, jittered inside its square by a hash of
// the square's coordinates and the seed; every pixel takes the value of its nearest seed
// (Euclidean, from the pixel's centre), a uniform value in [0, 1) hashed from that square. All
// positions are absolute image coordinates, so any tile computes the same pixels.

public struct HolographicParameters: Sendable, Equatable {
    /// Tilt: shifts every hue by this many turns (offset and offset + 1 give the same image).
    public var offset: Float
    /// How much of the hue colour is mixed over the input (0 = the input unchanged).
    public var strength: Float
    public var cellSize: Float
    /// Spread of the cell values: hue = fract(v · displacement + offset).
    public var displacement: Float
    public var seed: UInt32
    /// Sweep: the offset also grows by `sweep` turns across the image along `sweepAngle` (degrees,
    /// 0 = left to right, 90 = top to bottom), as a tilting card would shimmer.
    public var sweep: Float
    public var sweepAngle: Float

    public static let cellSizeRange: ClosedRange<Float> = 2...4096

    public init(offset: Float = 0, strength: Float = 0.04, cellSize: Float = 40, displacement: Float = 1,
                seed: UInt32 = 0, sweep: Float = 0, sweepAngle: Float = 45) {
        self.offset = offset
        self.strength = strength
        self.cellSize = cellSize
        self.displacement = displacement
        self.seed = seed
        self.sweep = sweep
        self.sweepAngle = sweepAngle
    }
}

/// What `process` needs beyond the parameters: the sweep's direction scaled to turns per pixel.
public struct HolographicPlan: Sendable {
    public let parameters: HolographicParameters
    public let sweepX: Float, sweepY: Float
    public let originX: Float, originY: Float
    public let cell: Float

    /// `extent`: the image's extent (x, y, width, height) for the sweep; nil or infinite: the
    /// sweep spans 1024 pixels.
    public init(_ p: HolographicParameters, extent: (x: Int, y: Int, width: Int, height: Int)?) {
        parameters = p
        cell = p.cellSize.isFinite ? min(max(p.cellSize, HolographicParameters.cellSizeRange.lowerBound),
                                         HolographicParameters.cellSizeRange.upperBound) : 40
        let a = (p.sweepAngle.isFinite ? p.sweepAngle : 0) * .pi / 180
        let c = cos(a), s = sin(a)
        var length: Float = 1024
        var ox: Float = 0, oy: Float = 0
        if let e = extent, e.width > 0, e.height > 0, e.width < 1 << 28, e.height < 1 << 28 {
            length = max(abs(Float(e.width) * c) + abs(Float(e.height) * s), 1)
            ox = Float(e.x); oy = Float(e.y)
        }
        let sweep = p.sweep.isFinite ? p.sweep : 0
        sweepX = sweep * c / length
        sweepY = sweep * s / length
        originX = ox
        originY = oy
    }
}
