import GeglBridge
import MercurialKernels
import MercurialKernelsV3

/// mercurial:lit-relief — a colour layer lit through its own relief by positioned lights
/// (BristlePaint's SpriteKit normal mapping): glossy, embossed paint.
enum LitReliefOp: ComposerOperation {
    // MARK: Properties

    /// One light as the dialog shows it. Positions are fractions of the layer's extent (x of its
    /// width, y of its height, z of its longer side), so a light stays put whatever the tiles.
    struct Light: Sendable {
        var enabled: Bool
        var kind: ReliefLight.Kind
        var x, y, z, azimuth, elevation, intensity, falloff: Double
        var color = SIMD4<Float>(1, 1, 1, 1)
    }

    struct Properties: PropertySet {
        var heightSource = MaskChannel.alpha
        var smoothness = 0.75
        var contrast = 3.0
        var invert = false
        var lights = [
            Light(enabled: true, kind: .point, x: 0.25, y: 0.2, z: 0.5, azimuth: 135, elevation: 45, intensity: 1.2,
                  falloff: 1),
            Light(enabled: false, kind: .directional, x: 0.8, y: 0.8, z: 0.5, azimuth: 315, elevation: 30,
                  intensity: 0.5, falloff: 1),
        ]
        var ambient = SIMD4<Float>(0.3, 0.3, 0.3, 1)
        var specular = SIMD4<Float>(0.6, 0.6, 0.6, 1)
        var shininess = 40.0
        var shadow = SIMD4<Float>(0, 0, 0, 0)
        var output = ReliefOutput.lit

        static func lightDeclarations(_ i: Int) -> [PropertyDeclaration<Properties>] {
            let n = i + 1, colours = ["white", "rgb(0.55, 0.65, 1)"]
            return [
                .boolean(\.lights[i].enabled, "light\(n)-enabled", "Light \(n)", "Light \(n) on or off."),
                .choice(\.lights[i].kind, "light\(n)-type", "Light \(n) type",
                        "Point: a light at a place, fading with distance. Directional: light from a direction, "
                        + "the same everywhere (as gegl:bump-map)."),
                .double(\.lights[i].x, "light\(n)-x", "Light \(n) X", range: -10...10, ui: -0.5...1.5, digits: 3,
                        "Point light: position across the layer (0 its left edge, 1 its right edge)."),
                .double(\.lights[i].y, "light\(n)-y", "Light \(n) Y", range: -10...10, ui: -0.5...1.5, digits: 3,
                        "Point light: position down the layer (0 its top edge, 1 its bottom edge)."),
                .double(\.lights[i].z, "light\(n)-z", "Light \(n) height", range: 0.001...10, ui: 0.01...2, digits: 3,
                        "Point light: height above the surface, in lengths of the layer's longer side."),
                .double(\.lights[i].azimuth, "light\(n)-azimuth", "Light \(n) azimuth", range: -360...360, ui: 0...360,
                        unit: .degree, "Directional light: where it comes from, counter-clockwise from the right."),
                .double(\.lights[i].elevation, "light\(n)-elevation", "Light \(n) elevation", range: 0...90,
                        unit: .degree, "Directional light: its angle above the surface (90 = straight down)."),
                .color(\.lights[i].color, "light\(n)-color", "Light \(n) colour", default: colours[i],
                       "Light \(n) colour."),
                .double(\.lights[i].intensity, "light\(n)-intensity", "Light \(n) intensity", range: 0...100,
                        ui: 0...3, digits: 2, "Light \(n) strength, linear (0 = off)."),
                .double(\.lights[i].falloff, "light\(n)-falloff", "Light \(n) falloff", range: 0...10, ui: 0...4,
                        digits: 2, "Point light: intensity × (1 + distance / the layer's longer side)^−falloff "
                        + "(0: no fading, 2: about inverse-square)."),
            ]
        }

        static let declarations: [PropertyDeclaration<Properties>] = [
            .choice(\.heightSource, "height-source", "Height from",
                    "Without an aux height field, which part of the layer is its height: alpha (default: a "
                    + "painted layer on transparency), luminance, or luminance × alpha."),
            .double(\.smoothness, "smoothness", "Smoothness", range: 0...1, digits: 2,
                    "How much the height is smoothed before the slopes are taken: a Gaussian of σ = 4 × "
                    + "smoothness pixels (0 = none)."),
            .double(\.contrast, "contrast", "Contrast", range: 0...100, ui: 0...20, gamma: 1.5, digits: 2,
                    "Slope gain: how steep the relief looks to the lights."),
            .boolean(\.invert, "invert", "Invert", "Heights sink in instead of rising."),
        ] + (0..<2).flatMap(lightDeclarations) + [
            .color(\.ambient, "ambient-color", "Ambient colour", default: "rgb(0.3, 0.3, 0.3)",
                   "Light from everywhere, × the layer's colour."),
            .color(\.specular, "specular-color", "Specular colour", default: "rgb(0.6, 0.6, 0.6)",
                   "Colour and strength of the gloss (Blinn highlights); black for matte paint."),
            .double(\.shininess, "shininess", "Shininess", range: 1...1000, ui: 1...200, gamma: 2, digits: 1,
                    "Blinn exponent: small values give broad, soft gloss; large values small, sharp highlights."),
            .color(\.shadow, "shadow-color", "Shadow colour", default: "rgba(0, 0, 0, 0)",
                   "Added, by its alpha, where the lights do not reach (transparent = off)."),
            .choice(\.output, "output", "Output",
                    "Lit colour, or the normal map itself ((n + 1)/2 in RGB; green up as in OpenGL, Blender and "
                    + "Unity, or green down as in DirectX)."),
        ]
    }

    /// The kernel, in the build for this CPU.
    static let kernel: any LitReliefKernel.Type = Accelerated.choose(MercurialKernels.LitRelief.self,
                                                                     MercurialKernelsV3.LitRelief.self)

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
    /// each piece of the block is lit from it straight into GEGL's tiles, beside the layer's own
    /// tiles. Two tile rows (128 × 256 with GEGL's tiles): the window's margin of smoothing taps
    /// costs less than on one (the smoothing read 41 % more rows than it made at 64, 24 % at 128),
    /// and the block's heights, smoothed heights and smoothing rows (about 450 KB) still fit the
    /// processor's nearest large cache.
    ///
    /// GEGL calls `process` once per region and the blocks are handed to its threads one at a
    /// time (`Parallel.run`): all blocks then lie on the output's tile grid, and a thread that
    /// finishes early takes the next block. Split by GEGL, each 1920-wide region was cut between
    /// the threads at x = 960, half-way through a tile: the right half's blocks straddled tiles
    /// (their output came as partial tiles, row by row), and each half waited for the other's;
    /// reused memory, 9 alternated runs: ÷ floor 1.88 → 1.66, CPU 0.035 → 0.034 s.
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
            + kernel.smoothScratchCount(p, width: largest.width, height: largest.height)
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
        kernel.smooth(p, weights: prepared.weights, heights: heights, width: block.width, height: block.height,
                      into: smoothed, scratch: smoothScratch)
        let columns = block.width + 2
        output.fill(block, format: prepared.outputFormat, reading: input, format: .rgbaFloat) { piece in
            let r = piece.rect
            kernel.shade(p, smooth: smoothed + (r.y - block.y) * columns + (r.x - block.x), columns: columns,
                         color: piece.input, x: r.x, y: r.y, width: r.width, height: r.height,
                         into: piece.pixels)
        }
    }

    // MARK: Keys

    static let info = OperationInfo(
        name: "mercurial:lit-relief", title: "Lit Relief",
        categories: ["light", "map"],
        description: "Lights a colour layer through its own relief, as SpriteKit lights a sprite through a normal "
            + "map: the height (an aux height field, or the layer's alpha or luminance) is smoothed, turned into "
            + "normals n = normalize(−contrast·∂h/∂x, −contrast·∂h/∂y, 1), and lit by up to two point or "
            + "directional lights with Blinn gloss, ambient light and an optional shadow colour; alpha is the "
            + "layer's. Can also write the normal map itself.",
        keys: [("gimp:menu-path", "<Image>/Filters/Light and Shadow/Mercurial"),
               ("gimp:menu-label", "Lit Relief…"),
               ("position-dependent", "true")],
        auxLabel: "Height field", auxDescription: "Optional height field (e.g. Height Field from Mask): its luminance is the height")
}

extension ReliefOutput: PropertyEnum {
    public static let typeName = "MercurialReliefOutput"
    public var label: EnumCase {
        switch self {
        case .lit: EnumCase("lit", "Lit colour")
        case .normalMap: EnumCase("normal-map", "Normal map (green up)")
        case .normalMapDirectX: EnumCase("normal-map-directx", "Normal map (green down, DirectX)")
        }
    }
}

extension ReliefLight.Kind: PropertyEnum {
    public static let typeName = "MercurialReliefLightType"
    public var label: EnumCase {
        switch self {
        case .point: EnumCase("point", "Point")
        case .directional: EnumCase("directional", "Directional")
        }
    }
}
