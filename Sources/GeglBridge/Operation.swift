// The vocabulary an op file speaks: what an operation is called, which GEGL base class it derives
// from, its properties and keys, and the plain-Swift functions GEGL calls back.
//
// An op conforms to exactly one of the `*Operation` protocols below. All entry points are static:
// an operation has no Swift instance; its per-instance state is its property values (owned by this
// module) and whatever its `prepare` returns, which `process` receives read-only on worker threads.

/// An integer rectangle in GEGL's coordinate system (x right, y down).
public struct Rect: Equatable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var count: Int { isEmpty ? 0 : width * height }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public static let empty = Rect(x: 0, y: 0, width: 0, height: 0)

    /// GEGL marks an unbounded extent (e.g. an uncropped pattern) with sizes near G_MAXINT.
    public var isInfinite: Bool { width >= Int(Int32.max) / 2 || height >= Int(Int32.max) / 2 }

    /// The rectangle with `d` more pixels on every side. An infinite one is returned as it is: GEGL
    /// recognises its infinite plane by its exact numbers, and one pixel more would turn it into a
    /// real 2³¹-pixel square that GEGL then tries to render.
    public func grown(by d: Int) -> Rect {
        isInfinite ? self : Rect(x: x - d, y: y - d, width: width + 2 * d, height: height + 2 * d)
    }

    public func intersection(_ o: Rect) -> Rect {
        let x0 = max(x, o.x), y0 = max(y, o.y)
        let x1 = min(maxX, o.maxX), y1 = min(maxY, o.maxY)
        return x1 > x0 && y1 > y0 ? Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : .empty
    }

    /// The smallest rectangle holding both (an empty one adds nothing).
    public func union(_ o: Rect) -> Rect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        let x0 = min(x, o.x), y0 = min(y, o.y)
        return Rect(x: x0, y: y0, width: max(maxX, o.maxX) - x0, height: max(maxY, o.maxY) - y0)
    }

    /// The smallest rectangle of whole cells of a grid of `cellWidth` × `cellHeight` from the
    /// origin that holds this one.
    public func aligned(toCells cellWidth: Int, _ cellHeight: Int) -> Rect {
        func down(_ v: Int, _ step: Int) -> Int { v >= 0 ? v / step * step : -((-v + step - 1) / step) * step }
        let x0 = down(x, cellWidth), y0 = down(y, cellHeight)
        return Rect(x: x0, y: y0, width: down(maxX - 1, cellWidth) + cellWidth - x0,
                    height: down(maxY - 1, cellHeight) + cellHeight - y0)
    }

    public var description: String { "(\(x), \(y), \(width)×\(height))" }
}

/// The static description of an operation: GEGL name, keys and properties.
public struct OperationInfo: Sendable {
    public let name: String
    public let title: String
    public let categories: [String]
    public let description: String
    /// The GEGL properties: the operation's property set, filled in by its registration.
    public internal(set) var properties: [Property] = []
    /// Further operation keys, set one by one in this order (e.g. "gimp:menu-path").
    public let keys: [(String, String)]
    /// Label and description of the aux pad, for composers.
    public let auxLabel: String?
    public let auxDescription: String?

    public init(name: String, title: String, categories: [String], description: String,
                keys: [(String, String)] = [], auxLabel: String? = nil, auxDescription: String? = nil) {
        self.name = name
        self.title = title
        self.categories = categories
        self.description = description
        self.keys = keys
        self.auxLabel = auxLabel
        self.auxDescription = auxDescription
    }

    /// Every key as GEGL will report it, in the order it is set.
    public var allKeys: [(String, String)] {
        [("name", name), ("title", title), ("categories", categories.joined(separator: ":")),
         ("description", description)] + keys
    }
}

/// A babl pixel format, by name ("RGBA float", "Y' float", …). GEGL converts to and from it.
public struct PixelFormat: Sendable, Equatable {
    public let name: String
    public let components: Int
    public init(_ name: String, components: Int) {
        self.name = name
        self.components = components
    }
    public static let rgbaFloat = PixelFormat("RGBA float", components: 4)
    public static let perceptualRGBAFloat = PixelFormat("R'G'B'A float", components: 4)
    public static let perceptualRGBFloat = PixelFormat("R'G'B' float", components: 3)
    public static let perceptualYFloat = PixelFormat("Y' float", components: 1)
    public static let yFloat = PixelFormat("Y float", components: 1)
    public static let yaFloat = PixelFormat("YA float", components: 2)
}

/// How a region's processing is spread over GEGL's threads.
public enum Threading: Sendable {
    /// GEGL cuts each region into one part per thread and calls `process` on each (the default).
    case splitByGegl
    /// GEGL calls `process` once per region, on one thread; `process` hands the work out itself
    /// with `Parallel.run`, in many small pieces, so that no thread idles while another finishes a
    /// costlier part. For ops whose cost per pixel varies widely across an image, and that read
    /// and write whole buffers (filters, composers; a point op's process has no buffer to share).
    case balancedByOperation
}

/// The root of every operation protocol.
public protocol OperationDefinition {
    /// What `prepare` builds once per render (parameters, tables) for `process` to read.
    associatedtype Prepared: Sendable
    /// The op's properties, typed (see `PropertySet`); `NoProperties` for none.
    associatedtype Properties: PropertySet
    static var info: OperationInfo { get }
    /// How GEGL's threads share a region (`.splitByGegl` unless the op says otherwise).
    static var threading: Threading { get }
    /// Called on the main thread before processing: choose pad formats, build tables.
    static func prepare(_ context: PrepareContext) -> Prepared
    /// True when, so prepared, the output is exactly the input (e.g. a strength of 0): GEGL then
    /// passes the input buffer on and `process` is not called. Filters and composers only.
    static func passesThrough(_ prepared: Prepared) -> Bool
    /// For ops whose work for a region is mostly shared with its neighbours' (a large halo): what
    /// GEGL computes, and keeps in the node's cache, when `roi` is asked (at least roi). With it,
    /// GEGL gives the node a cache. nil (the default): just the region asked.
    static var cachedRegion: (@Sendable (OperationContext, Rect) -> Rect)? { get }
}

extension OperationDefinition {
    public static var threading: Threading { .splitByGegl }
    public static var cachedRegion: (@Sendable (OperationContext, Rect) -> Rect)? { nil }
    public static func passesThrough(_ prepared: Prepared) -> Bool { false }
}

/// A pixel-by-pixel filter: GEGL hands over runs of pixels in the formats chosen in `prepare`.
public protocol PointFilterOperation: OperationDefinition {
    static func process(_ prepared: Prepared, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
                        count: Int, roi: Rect)
}

/// A filter that reads a neighbourhood: `prepare` sets the halo; the output keeps the input's extent.
public protocol AreaFilterOperation: OperationDefinition {
    static func process(_ prepared: Prepared, input: InputBuffer, output: OutputBuffer, roi: Rect)
}

/// A filter with full control of what it reads and what extent it outputs.
public protocol FilterOperation: OperationDefinition {
    static func boundingBox(_ context: OperationContext) -> Rect
    static func requiredForOutput(_ context: OperationContext, roi: Rect) -> Rect
    static func process(_ prepared: Prepared, input: InputBuffer, output: OutputBuffer, roi: Rect)
}

/// Two inputs ("input" and "aux"), one output. Either input may be missing.
public protocol ComposerOperation: OperationDefinition {
    static func boundingBox(_ context: OperationContext) -> Rect
    /// The region needed on `pad` ("input" or "aux") to compute `roi` of the output.
    static func requiredForOutput(_ context: OperationContext, pad: String, roi: Rect) -> Rect
    static func process(_ prepared: Prepared, input: InputBuffer?, aux: InputBuffer?, output: OutputBuffer, roi: Rect)
}

/// A pixel-by-pixel composer; `aux` is nil when nothing is connected to the aux pad.
public protocol PointComposerOperation: OperationDefinition {
    static func process(_ prepared: Prepared, input: UnsafePointer<Float>, aux: UnsafePointer<Float>?,
                        output: UnsafeMutablePointer<Float>, count: Int, roi: Rect)
}

/// A renderer with no input, whose pixels depend on their position only.
public protocol PointRenderOperation: OperationDefinition {
    static func boundingBox(_ context: OperationContext) -> Rect
    static func process(_ prepared: Prepared, output: UnsafeMutablePointer<Float>, count: Int, roi: Rect)
}

/// An operation made of a graph of other operations.
public protocol MetaOperation {
    associatedtype Properties: PropertySet
    static var info: OperationInfo { get }
    /// Build the inner graph once, when the op is attached to its node; properties that pass
    /// one-to-one to an inner node are forwarded there with `MetaGraph.redirect`.
    static func attach(_ graph: MetaGraph)
    /// Push the property values that are not redirected into the inner graph (called on every
    /// property change).
    static func update(_ graph: MetaGraph, _ properties: Properties)
}
