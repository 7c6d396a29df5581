import GeglBridge
import MercurialKernels

/// mercurial:material-maps — the maps a game renderer lights a sprite with (height, normal,
/// ambient occlusion, curvature), from the layer's shape bevelled by the height-field engine.
enum MaterialMapsOp: FilterOperation {
    // MARK: Properties

    struct Properties: PropertySet {
        var map = MaterialMap.normalGL
        var height = HeightFieldControls()
        var technique = BevelTechnique.smooth
        var depth = 100.0
        var invert = false
        var strength = 1.0
        var occlusionRadius = 16.0
        var occlusionStrength = 1.0
        var curvatureRadius = 2.0
        var curvatureScale = 1.0
        var tileable = false

        /// The height field's controls by reference (all but keep-alpha), by name.
        static func height(_ name: String) -> PropertyDeclaration<Properties> {
            HeightFieldControls.declarations.first { $0.property.name == name }!.lifted(into: \Properties.height)
        }

        static let declarations: [PropertyDeclaration<Properties>] = [
            .choice(\.map, "map", "Map", "Which map to write."),
            height("mask"),
            height("style"),
            .choice(\.technique, "technique", "Technique",
                    "Smooth: a soft rounded rise. Chisel: a straight or rounded chamfer from the exact edge."),
            height("profile").visible("technique {profile}"),
            height("radius"),
            height("soften"),
            .double(\.depth, "depth", "Depth", range: 1...1000, ui: 1...500, gamma: 1.5, digits: 0,
                    "How tall the relief is, in per cent of its size.").visible("! map {height}"),
            .boolean(\.invert, "invert", "Invert", "The shape sinks in instead of rising."),
            .double(\.strength, "strength", "Strength", range: 0...100, ui: 0...10, gamma: 1.5, digits: 2,
                    "How much steeper the normals tilt than the relief.").visible("map {normal-gl, normal-dx}"),
            .double(\.occlusionRadius, "occlusion-radius", "Radius", range: 1...Double(MaterialMapParameters.maximumOcclusionRadius),
                    ui: 1...64, gamma: 1.5, digits: 0, unit: .pixelDistance,
                    "How far each point looks for what hides its sky.").visible("map {ambient-occlusion}"),
            .double(\.occlusionStrength, "occlusion-strength", "Strength", range: 0...10, ui: 0...4, digits: 2,
                    "How dark the hidden parts get.").visible("map {ambient-occlusion}"),
            .double(\.curvatureRadius, "curvature-radius", "Radius", range: 1...Double(MaterialMapParameters.maximumCurvatureRadius),
                    ui: 1...16, digits: 0, unit: .pixelDistance,
                    "The distance over which the slope's bend is measured.").visible("map {curvature}"),
            .double(\.curvatureScale, "curvature-scale", "Scale", range: 0...100, ui: 0...10, gamma: 1.5, digits: 2,
                    "How far ridges go above grey and hollows below.").visible("map {curvature}"),
            .boolean(\.tileable, "tileable", "Tileable",
                     "Wraps the layer's edges, so a seamless texture gives seamless maps."),
        ]

        /// The kernel's parameters.
        var parameters: MaterialMapParameters {
            let size = height.parameters.effectiveRadius
            return MaterialMapParameters(
                map: map, relief: Float(max(size, 1) * (depth.isFinite ? depth : 100) / 100), invert: invert,
                normalStrength: Float(strength),
                occlusionRadius: Int(occlusionRadius.isFinite ? occlusionRadius.rounded() : 16),
                occlusionStrength: Float(occlusionStrength),
                curvatureRadius: Int(curvatureRadius.isFinite ? curvatureRadius.rounded() : 2),
                curvatureScale: Float(curvatureScale))
        }

        /// The height field's controls with the technique's profile.
        var heightControls: HeightFieldControls {
            var h = height
            h.profile = technique.profile ?? h.profile
            h.keepAlpha = false
            return h
        }
    }

    // MARK: Prepare

    struct Prepared: Sendable {
        var height: HeightFieldEngine.Prepared
        var maps: MaterialMapParameters
        /// Tileable: the layer's extent, which reads wrap around.
        var period: Rect?
    }

    static func prepare(_ context: PrepareContext) -> Prepared {
        let p = context.properties.typed(Properties.self)
        let bounds = context.sourceBounds("input")
        let period = p.tileable ? bounds.flatMap { $0.isEmpty || $0.isInfinite ? nil : $0 } : nil
        context.setFormat("input", .yaFloat)
        // The maps are data: the numbers themselves into a perceptual format, so that an 8-bit
        // file holds them · 255 (a flat normal is 128, 128, 255); opaque, so without alpha.
        context.setFormat("output", outputFormat(p.map))
        // Wrapped, the mask has no outside: the coarse levels read through the wrap too.
        return Prepared(height: HeightFieldEngine.prepared(p.heightControls, bounds: period == nil ? bounds : nil),
                        maps: p.parameters, period: period)
    }

    /// R'G'B' for the normals, Y' for the grey maps.
    static func outputFormat(_ map: MaterialMap) -> PixelFormat {
        map == .normalGL || map == .normalDX ? .perceptualRGBFloat : .perceptualYFloat
    }

    static func boundingBox(_ context: OperationContext) -> Rect {
        context.sourceBounds("input") ?? .empty
    }

    /// The mask around the output by the height field's halo and the map's; tileable, the whole
    /// layer (reads wrap around inside it).
    static func requiredForOutput(_ context: OperationContext, roi: Rect) -> Rect {
        let p = context.properties.typed(Properties.self)
        if p.tileable, let bounds = context.sourceBounds("input"), !bounds.isEmpty, !bounds.isInfinite { return bounds }
        return roi.grown(by: p.heightControls.parameters.halo + p.parameters.halo)
    }

    // MARK: Process

    /// GEGL hands each region over whole; `process` shares it out in parts, two per thread, each
    /// at least `halosPerPart` halos wide (the heights' halo is read again by each part).
    static let threading = Threading.balancedByOperation
    static let partsPerThread = 2
    static let halosPerPart = 8
    /// Each part is worked in chunks of rows whose heights (with the map's halo) fit this many
    /// pixels: memory per thread is bounded whatever region GEGL asks for.
    static let chunkPixels = 4 << 20

    static func process(_ prepared: Prepared, input: InputBuffer, output: OutputBuffer, roi: Rect) {
        guard !roi.isEmpty else { return }
        let input = prepared.period.map { input.wrapping($0) } ?? input
        let mapHalo = prepared.maps.halo, halo = prepared.height.parameters.streamHalo
        let grid = HeightFieldEngine.partGrid(roi, halo: halo + mapHalo, threads: Parallel.threads, partsPerThread: partsPerThread,
                                              halos: halosPerPart)
        let widest = max(64, HeightFieldEngine.blockSize(prepared.height.parameters, roiHeight: roi.height).width - 2 * mapHalo)
        let parts = output.tileGrid(roi, columns: grid.columns, rows: grid.rows)
            .flatMap { chunks(of: $0, widest: widest, mapHalo: mapHalo) }
        let largest = parts.reduce(0) { max($0, $1.grown(by: mapHalo).count) }
        // The coarse levels of large sizes, made once for the region (with the maps' halo).
        let seeds = HeightFieldEngine.coarseSeeds(prepared.height, input: input, region: roi.grown(by: mapHalo))
        Parallel.run(items: parts.count) { next in
            // The heights of a part's window, and room for the kernel to read a group past its end.
            Scratch.withFloats(largest + 16) { heights in
                while let k = next() {
                    render(parts[k], prepared, input: input, output: output, seeds: seeds, heights: heights)
                }
            }
        }
    }

    /// `part` cut into columns at most `widest` wide and rows of them whose window fits `chunkPixels`.
    static func chunks(of part: Rect, widest: Int, mapHalo: Int) -> [Rect] {
        let across = (part.width + widest - 1) / widest
        var out: [Rect] = []
        for i in 0..<across {
            let x0 = part.x + part.width * i / across, x1 = part.x + part.width * (i + 1) / across
            // Whole tile rows where the chunk is tall (GEGL's tiles are 64 or 128 rows high).
            let fit = chunkPixels / (x1 - x0 + 2 * mapHalo) - 2 * mapHalo
            let rows = fit >= 128 ? fit / 128 * 128 : max(16, fit)
            for y in stride(from: part.y, to: part.maxY, by: rows) {
                out.append(Rect(x: x0, y: y, width: x1 - x0, height: min(rows, part.maxY - y)))
            }
        }
        return out
    }

    /// One chunk: its window's heights made by the engine, then its map into the output's tiles.
    static func render(_ chunk: Rect, _ prepared: Prepared, input: InputBuffer, output: OutputBuffer,
                       seeds: HeightFieldEngine.CoarseSeeds?, heights: UnsafeMutablePointer<Float>) {
        let halo = prepared.maps.halo, window = chunk.grown(by: halo), columns = window.width
        // Each row of heights into the window as it comes, cleaned while it is in the cache.
        func place(_ y: Int, _ x: Int, _ width: Int, _ source: UnsafePointer<Float>, _ step: Int) {
            let row = heights + (y - window.y) * columns + (x - window.x)
            if step == 1 { row.update(from: source, count: width) } else { for i in 0..<width { row[i] = source[step * i] } }
            Kernels.materialMaps.clean(row, count: width)
        }
        HeightFieldEngine.heights(prepared.height, input: input, roi: window, seeds: seeds, emit: { rect, format, pixels in
            let n = format.components
            for j in 0..<rect.height { place(rect.y + j, rect.x, rect.width, pixels + n * j * rect.width, n) }
        }, rows: { y, x, width, row, _ in place(y, x, width, row, 1) })
        output.fill(chunk, format: outputFormat(prepared.maps.map)) { piece in
            let r = piece.rect
            Kernels.materialMaps.render(prepared.maps, heights: heights + (r.y - window.y) * columns + (r.x - window.x),
                                        columns: columns, width: r.width, height: r.height, into: piece.pixels)
        }
    }

    // MARK: Keys

    static let info = OperationInfo(
        name: "mercurial:material-maps", title: "Material Maps",
        categories: ["map", "light"],
        description: "Bakes the maps a game renderer lights a sprite with: height, normal, ambient occlusion or curvature.",
        keys: [("gimp:menu-path", "<Image>/Filters/Map"),
               ("gimp:menu-label", "Material Maps…")])
}

extension MaterialMap: PropertyEnum {
    public static let typeName = "MercurialMaterialMap"
    public var label: EnumCase {
        switch self {
        case .height: EnumCase("height", "Height")
        case .normalGL: EnumCase("normal-gl", "Normal (OpenGL, green up)")
        case .normalDX: EnumCase("normal-dx", "Normal (DirectX, green down)")
        case .ambientOcclusion: EnumCase("ambient-occlusion", "Ambient occlusion")
        case .curvature: EnumCase("curvature", "Curvature")
        }
    }
}
