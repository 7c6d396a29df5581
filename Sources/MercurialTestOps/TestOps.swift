import GeglBridge

// A second, test-only plug-in (libmercurial-test-ops.so, never installed): operations on the
// GeglBridge base classes and property kinds that Mercurial's own operations do not use (point
// filter, plain filter, string property, work balanced over threads by the op), so the plug-in
// tests exercise every part of the layer.

/// Point filter: out = scale × in (RGB), alpha kept; a string property echoed into a key-free
/// round trip.
enum TestScale: PointFilterOperation {
    static let info = OperationInfo(
        name: "mercurial-test:scale", title: "Test Scale", categories: ["hidden"],
        description: "Multiplies RGB by a factor (test operation).")

    struct Properties: PropertySet {
        var factor = 2.0
        var note = "hello"
        static let declarations: [PropertyDeclaration<Properties>] = [
            .double(\.factor, "factor", "Factor", range: -10...10, "Multiplier."),
            .string(\.note, "note", "Note", "A free-text property (round-trip test)."),
        ]
    }

    struct Prepared: Sendable { var factor: Float }

    static func prepare(_ context: PrepareContext) -> Prepared {
        context.setFormat("input", .rgbaFloat)
        context.setFormat("output", .rgbaFloat)
        return Prepared(factor: Float(context.properties.typed(Properties.self).factor))
    }

    static func process(_ prepared: Prepared, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
                        count: Int, roi: Rect) {
        for i in 0..<count {
            for k in 0..<3 { output[4 * i + k] = input[4 * i + k] * prepared.factor }
            output[4 * i + 3] = input[4 * i + 3]
        }
    }
}

/// Plain filter: moves the image by (dx, 0) pixels; its bounding box and required region follow.
enum TestShift: FilterOperation {
    static let info = OperationInfo(
        name: "mercurial-test:shift", title: "Test Shift", categories: ["hidden"],
        description: "Moves the input right by dx pixels (test operation).")

    struct Properties: PropertySet {
        var dx = 5
        static let declarations: [PropertyDeclaration<Properties>] = [
            .int(\.dx, "dx", "dx", range: -1000...1000, "Shift in pixels."),
        ]
    }

    struct Prepared: Sendable { var dx: Int }

    static func prepare(_ context: PrepareContext) -> Prepared {
        context.setFormat("input", .rgbaFloat)
        context.setFormat("output", .rgbaFloat)
        return Prepared(dx: context.properties.typed(Properties.self).dx)
    }

    static func boundingBox(_ context: OperationContext) -> Rect {
        guard var r = context.sourceBounds("input") else { return .empty }
        r.x += context.properties.typed(Properties.self).dx
        return r
    }

    static func requiredForOutput(_ context: OperationContext, roi: Rect) -> Rect {
        var r = roi
        r.x -= context.properties.typed(Properties.self).dx
        return r
    }

    static func process(_ prepared: Prepared, input: InputBuffer, output: OutputBuffer, roi: Rect) {
        var pixels = [Float](repeating: 0, count: roi.count * 4)
        var source = roi
        source.x -= prepared.dx
        pixels.withUnsafeMutableBufferPointer { input.read(source, format: .rgbaFloat, into: $0.baseAddress!) }
        pixels.withUnsafeBufferPointer { output.write(roi, format: .rgbaFloat, from: $0.baseAddress!) }
    }
}

/// A filter that spreads each region over GEGL's threads itself (`Parallel.run` over
/// `tileBlocks`): out = (x, y, input red, id), where id = (y₀ + 1024)·4096 + (x₀ + 1024) names the
/// block (by its top-left corner x₀, y₀) that wrote the pixel, so a test can check that the blocks
/// cover the region exactly once whatever the threads did. (Exact in Float for |x₀|, |y₀| < 1024.)
enum TestBlocks: FilterOperation {
    static let info = OperationInfo(
        name: "mercurial-test:blocks", title: "Test Blocks", categories: ["hidden"],
        description: "Writes each pixel's position, balanced over threads by the op (test operation).")

    struct Properties: PropertySet {
        var blockWidth = 64
        var tileRows = 1
        static let declarations: [PropertyDeclaration<Properties>] = [
            .int(\.blockWidth, "block-width", "Block width", range: 1...4096, "Widest block, in pixels."),
            .int(\.tileRows, "tile-rows", "Tile rows", range: 1...8, "How many tile rows high a block is."),
        ]
    }

    typealias Prepared = Properties
    static let threading = Threading.balancedByOperation

    static func prepare(_ context: PrepareContext) -> Prepared {
        context.setFormat("input", .rgbaFloat)
        context.setFormat("output", .rgbaFloat)
        return context.properties.typed(Properties.self)
    }

    static func boundingBox(_ context: OperationContext) -> Rect { context.sourceBounds("input") ?? .empty }
    static func requiredForOutput(_ context: OperationContext, roi: Rect) -> Rect { roi }

    static func process(_ prepared: Prepared, input: InputBuffer, output: OutputBuffer, roi: Rect) {
        let blocks = output.tileBlocks(roi, maxWidth: prepared.blockWidth, tileRows: prepared.tileRows)
        Parallel.run(items: blocks.count) { next in
            var rgba: [Float] = []
            while let i = next() {
                let block = blocks[i]
                let id = Float((block.y + 1024) * 4096 + (block.x + 1024))
                rgba = [Float](repeating: 0, count: block.count * 4)
                rgba.withUnsafeMutableBufferPointer { input.read(block, format: .rgbaFloat, into: $0.baseAddress!) }
                output.fill(block, format: .rgbaFloat) { piece in
                    let r = piece.rect
                    for y in 0..<r.height {
                        for x in 0..<r.width {
                            let o = piece.pixels + 4 * (y * r.width + x)
                            o[0] = Float(r.x + x); o[1] = Float(r.y + y)
                            o[2] = rgba[4 * ((r.y + y - block.y) * block.width + (r.x + x - block.x))]
                            o[3] = id
                        }
                    }
                }
            }
        }
    }
}

let operations: [OperationRegistration] = [TestScale.registration, TestShift.registration, TestBlocks.registration]

// Entry points, as in the plug-in: each forwards to GeglBridge.
@_cdecl("gegl_module_query")
public func geglModuleQuery(_ module: OpaquePointer?) -> UnsafeRawPointer { GeglModule.query(module) }

@_cdecl("gegl_module_register")
public func geglModuleRegister(_ module: OpaquePointer?) -> Int32 { GeglModule.register(module, operations: operations) }

@_cdecl("g_module_check_init")
public func gModuleCheckInit(_ module: OpaquePointer?) -> UnsafePointer<CChar>? { GeglModule.checkInit(module) }
