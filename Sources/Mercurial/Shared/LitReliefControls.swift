import GeglBridge
import MercurialKernels

/// The controls of a lit relief, shared by mercurial:lit-relief (graphs) and mercurial:relief-lighting
/// (GIMP's menu): one declaration of each, so both ops have the same names, ranges and defaults.
/// The defaults suit GIMP's common case, dark text or paint on transparency: a directional key
/// light from the upper left (the same on the whole layer) and a white gloss that shows the relief
/// even on black.
struct LitReliefControls: PropertySet {
    /// One light. Positions are fractions of the layer's extent (x of its width, y of its height, z
    /// of its longer side), so a light stays put whatever the tiles.
    struct Light: Sendable {
        var enabled: Bool
        var kind: ReliefLight.Kind
        var x, y, z, azimuth, elevation, intensity, falloff: Double
        var color = SIMD4<Float>(1, 1, 1, 1)
    }

    var heightSource = MaskChannel.alpha
    var smoothness = 0.75
    var contrast = 3.0
    var invert = false
    var lights = [
        Light(enabled: true, kind: .directional, x: 0.25, y: 0.2, z: 0.5, azimuth: 135, elevation: 45, intensity: 1.2,
              falloff: 1),
        Light(enabled: false, kind: .directional, x: 0.8, y: 0.8, z: 0.5, azimuth: 315, elevation: 30,
              intensity: 0.5, falloff: 1),
    ]
    var ambient = SIMD4<Float>(0.3, 0.3, 0.3, 1)
    var specular = SIMD4<Float>(0.8, 0.8, 0.8, 1)
    var shininess = 40.0
    var shadow = SIMD4<Float>(0, 0, 0, 0)
    var output = ReliefOutput.lit

    static let declarations: [PropertyDeclaration<LitReliefControls>] = declarations(dialog: false)

    /// The declarations; for GIMP's dialog (`dialog`), each control also says on which page of
    /// `ReliefPage` and in which state it shows, and the output choice is named "map" (GIMP never
    /// shows a property named output).
    static func declarations(dialog: Bool) -> [PropertyDeclaration<LitReliefControls>] {
        func on(_ page: ReliefPage, _ d: PropertyDeclaration<LitReliefControls>, _ also: String = "") -> PropertyDeclaration<LitReliefControls> {
            guard dialog else { return d }
            return d.visible("page {\(page.label.nick)}" + (also.isEmpty ? "" : " & " + also))
        }
        func light(_ i: Int) -> [PropertyDeclaration<LitReliefControls>] {
            let n = i + 1, page: ReliefPage = i == 0 ? .light1 : .light2, colours = ["white", "rgb(0.55, 0.65, 1)"]
            let lit = "light\(n)-enabled", point = "\(lit) & light\(n)-type {point}",
                directional = "\(lit) & light\(n)-type {directional}"
            return [
                on(page, .boolean(\.lights[i].enabled, "light\(n)-enabled", "Light \(n)", "Light \(n) on or off.")),
                on(page, .choice(\.lights[i].kind, "light\(n)-type", "Type",
                                 "Point: a lamp at a place, fading with distance. Directional: the sun, the same everywhere."), lit),
                on(page, .double(\.lights[i].x, "light\(n)-x", "X", range: -10...10, ui: -0.5...1.5, digits: 3,
                                 unit: .relativeCoordinate, "Where the lamp is across the layer (0 left edge, 1 right edge).")
                    .axis("x"), point),
                on(page, .double(\.lights[i].y, "light\(n)-y", "Y", range: -10...10, ui: -0.5...1.5, digits: 3,
                                 unit: .relativeCoordinate, "Where the lamp is down the layer (0 top edge, 1 bottom edge).")
                    .axis("y"), point),
                on(page, .double(\.lights[i].z, "light\(n)-z", "Height", range: 0.001...10, ui: 0.01...2, digits: 3,
                                 "The lamp's height above the layer, in lengths of its longer side."), point),
                on(page, .double(\.lights[i].azimuth, "light\(n)-azimuth", "Angle", range: -360...360, ui: 0...360,
                                 unit: .degree, "Where the light comes from, counter-clockwise from the right."), directional),
                on(page, .double(\.lights[i].elevation, "light\(n)-elevation", "Elevation", range: 0...90,
                                 unit: .degree, "The light's angle above the layer (90: straight down)."), directional),
                on(page, .color(\.lights[i].color, "light\(n)-color", "Colour", default: colours[i], "The light's colour."), lit),
                on(page, .double(\.lights[i].intensity, "light\(n)-intensity", "Intensity", range: 0...100,
                                 ui: 0...3, digits: 2, "The light's strength (0: off)."), lit),
                on(page, .double(\.lights[i].falloff, "light\(n)-falloff", "Falloff", range: 0...10, ui: 0...4,
                                 digits: 2, "How fast the lamp fades with distance (0: not at all, 2: about inverse-square)."),
                   point),
            ]
        }
        let output: PropertyDeclaration<LitReliefControls> = .choice(
            \.output, "output", "Result", "Lit colour, or the normal map itself (green up as in OpenGL, or down as in DirectX).")
        return [
            on(.relief, .choice(\.heightSource, "height-source", "Height from",
                                "Which part of the layer is its height, when no height field is connected.")),
            on(.relief, .double(\.smoothness, "smoothness", "Smoothness", range: 0...1, digits: 2,
                                "How much the height is smoothed before it is lit.")),
            on(.relief, .double(\.contrast, "contrast", "Depth", range: 0...100, ui: 0...20, gamma: 1.5, digits: 2,
                                "How steep the relief looks to the lights.")),
            on(.relief, .boolean(\.invert, "invert", "Invert", "Heights sink in instead of rising.")),
            on(.relief, dialog ? output.renamed("map") : output),
        ] + light(0) + light(1) + [
            on(.surface, .color(\.ambient, "ambient-color", "Ambient colour", default: "rgb(0.3, 0.3, 0.3)",
                                "Light from everywhere, times the layer's colour.")),
            on(.surface, .color(\.specular, "specular-color", "Gloss colour", default: "rgb(0.8, 0.8, 0.8)",
                                "Colour and strength of the gloss; black for matte paint.")),
            on(.surface, .double(\.shininess, "shininess", "Shininess", range: 1...1000, ui: 1...200, gamma: 2, digits: 1,
                                 "Low: broad, soft gloss; high: small, sharp highlights.")),
            on(.surface, .color(\.shadow, "shadow-color", "Shadow colour", default: "rgba(0, 0, 0, 0)",
                                "Added where the lights do not reach (transparent: none).")),
        ]
    }
}

/// The pages of the lit-relief dialog.
enum ReliefPage: Int, CaseIterable, Sendable, PropertyEnum {
    case relief = 0, light1, light2, surface
    static let typeName = "MercurialReliefPage"
    var label: EnumCase {
        switch self {
        case .relief: EnumCase("relief", "Relief")
        case .light1: EnumCase("light-1", "Light 1")
        case .light2: EnumCase("light-2", "Light 2")
        case .surface: EnumCase("surface", "Surface")
        }
    }
}

extension ReliefOutput: PropertyEnum {
    public static let typeName = "MercurialReliefOutput"
    public var label: EnumCase {
        switch self {
        case .lit: EnumCase("lit", "Lit colour")
        case .normalMap: EnumCase("normal-map", "Normal map (green up, OpenGL)")
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
