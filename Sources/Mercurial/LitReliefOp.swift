import GeglBridge
import MercurialKernels

/// mercurial:lit-relief — a colour layer lit through its own relief by positioned lights
/// (BristlePaint's SpriteKit normal mapping): glossy, embossed paint.
enum LitReliefOp: ComposerOperation {
    // MARK: Properties

    typealias Properties = LitReliefControls

    // MARK: Prepare

    struct Prepared: Sendable {
        var parameters: LitReliefParameters
        var weights: [Float]
        var channel: MaskChannel
        /// Lit colour is linear light; a normal map is data, written as the numbers themselves into a
        /// perceptual format, so that an 8-bit file holds (n + 1)/2 · 255 (flat = 128, 128, 255).
        var outputFormat: PixelFormat
    }

    static func parameters(_ p: Properties, extent: Rect?) -> LitReliefParameters {
        // Light positions are fractions of the layer's extent; an infinite or missing one is read
        // as a 1024-pixel square at the origin.
        let e = extent.flatMap { $0.isEmpty || $0.isInfinite ? nil : $0 } ?? Rect(x: 0, y: 0, width: 1024, height: 1024)
        let reach = Float(max(e.width, e.height))
        let lights = p.lights.filter { $0.enabled && $0.intensity > 0 }.map { l in
            ReliefLight(kind: l.kind,
                        position: SIMD3(Float(Double(e.x) + l.x * Double(e.width)), Float(Double(e.y) + l.y * Double(e.height)),
                                        Float(l.z) * reach),
                        direction: ReliefLight.direction(azimuth: Float(l.azimuth), elevation: Float(l.elevation)),
                        color: SIMD3(l.color.x, l.color.y, l.color.z) * Float(l.intensity),
                        falloff: Float(l.falloff), reach: reach)
        }
        return LitReliefParameters(
            smoothness: Float(p.smoothness), contrast: Float(p.contrast), invert: p.invert, lights: lights,
            ambient: SIMD3(p.ambient.x, p.ambient.y, p.ambient.z),
            specular: SIMD3(p.specular.x, p.specular.y, p.specular.z), shininess: Float(p.shininess),
            shadow: p.shadow, output: p.output)
    }

    static func prepare(_ context: PrepareContext) -> Prepared {
        context.setFormat("input", .rgbaFloat)
        context.setFormat("aux", .yFloat)
        let props = context.properties.typed(Properties.self)
        let format: PixelFormat = props.output == .lit ? .rgbaFloat : .perceptualRGBAFloat
        context.setFormat("output", format)
        let p = parameters(props, extent: context.sourceBounds("input"))
        return Prepared(parameters: p, weights: p.weights, channel: props.heightSource, outputFormat: format)
    }

    static func boundingBox(_ context: OperationContext) -> Rect {
        context.sourceBounds("input") ?? .empty
    }

    /// Both pads around the output, by the smoothing and the differences.
    static func requiredForOutput(_ context: OperationContext, pad: String, roi: Rect) -> Rect {
        let smoothness = Float(context.properties.typed(Properties.self).smoothness)
        return roi.grown(by: LitReliefParameters(smoothness: smoothness, lights: []).halo)
    }

    // MARK: Process

    /// Work goes in blocks of whole tiles, `blockTileRows` tile rows high and at most `blockWidth`
    /// wide, so memory stays bounded: the block's height window is read and smoothed once, then
    /// each piece of the block is lit from it straight into GEGL's tiles. Two tile rows keep the
    /// smoothing's margin small while the block's working set still fits the nearest large cache.
    ///
    /// GEGL calls `process` once per region and the blocks go to its threads one at a time
    /// (`Parallel.run`), so every block lies on the output's tile grid and no thread idles.
    static let threading = Threading.balancedByOperation
    static let blockWidth = 256
    static let blockTileRows = 2

    static func process(_ prepared: Prepared, input: InputBuffer?, aux: InputBuffer?, output: OutputBuffer, roi: Rect) {
        guard let input, !roi.isEmpty else { return }
        let p = prepared.parameters, halo = p.halo
        let blocks = output.tileBlocks(roi, maxWidth: blockWidth, tileRows: blockTileRows)
        let largest = blocks.largestBlockSize
        // One piece of working memory for every block of this call, sized for the largest: the
        // window's heights, the layer's window (to take the height from its luminance), the smoothed
        // heights and the smoothing's own. Every part is written before it is read.
        let windowCount = (largest.width + 2 * halo) * (largest.height + 2 * halo)
        let layerCount = aux == nil && prepared.channel != .alpha ? 4 * windowCount : 0
        let smoothCount = (largest.width + 2) * (largest.height + 2)
        let total = windowCount + layerCount + smoothCount
            + Kernels.litRelief.smoothScratchCount(p, width: largest.width, height: largest.height)
        Parallel.run(items: blocks.count) { next in
            Scratch.withFloats(total) { memory in
                let heights = memory, layer = heights + windowCount, smoothed = layer + layerCount
                let smoothScratch = smoothed + smoothCount
                while let k = next() {
                    litBlock(blocks[k], prepared, input: input, aux: aux, output: output, heights: heights, layer: layer,
                             smoothed: smoothed, smoothScratch: smoothScratch)
                }
            }
        }
    }

    /// One block: its height window read (or taken from the layer) and smoothed into `smoothed`,
    /// then each piece of it lit straight into the output's tiles.
    static func litBlock(_ block: Rect, _ prepared: Prepared, input: InputBuffer, aux: InputBuffer?, output: OutputBuffer,
                         heights: UnsafeMutablePointer<Float>, layer: UnsafeMutablePointer<Float>,
                         smoothed: UnsafeMutablePointer<Float>, smoothScratch: UnsafeMutablePointer<Float>) {
        let p = prepared.parameters
        let window = block.grown(by: p.halo)
        if let aux {
            aux.read(window, format: .yFloat, into: heights)
        } else if prepared.channel == .alpha {
            // The height is the layer's alpha (the default): read straight from its tiles, with no
            // copy of the colours.
            input.readComponent(window, format: .rgbaFloat, component: 3, into: heights, rowStride: window.width)
        } else {
            // The height from the layer's luminance.
            input.read(window, format: .rgbaFloat, into: layer)
            for i in 0..<window.count {
                let luminance = 0.2126 * layer[4 * i] + 0.7152 * layer[4 * i + 1] + 0.0722 * layer[4 * i + 2]
                heights[i] = prepared.channel.value(luminance: luminance, alpha: layer[4 * i + 3])
            }
        }
        Kernels.litRelief.smooth(p, weights: prepared.weights, heights: heights, width: block.width, height: block.height,
                      into: smoothed, scratch: smoothScratch)
        let columns = block.width + 2
        output.fill(block, format: prepared.outputFormat, reading: input, format: .rgbaFloat) { piece in
            let r = piece.rect
            Kernels.litRelief.shade(p, smooth: smoothed + (r.y - block.y) * columns + (r.x - block.x), columns: columns,
                         color: piece.input, x: r.x, y: r.y, width: r.width, height: r.height,
                         into: piece.pixels)
        }
    }

    // MARK: Keys

    static let info = OperationInfo(
        name: "mercurial:lit-relief", title: "Lit Relief (aux height)",
        categories: ["light", "map"],
        description: "Lights a colour layer through its relief (from the layer or an aux height field) with two "
            + "lights and gloss, or writes its normal map.",
        keys: [("position-dependent", "true")],
        auxLabel: "Height field", auxDescription: "Optional height field (e.g. Height Field from Mask): its luminance is the height")
}
