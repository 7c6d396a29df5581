import GeglBridge
import MercurialKernels

/// The lit sphere's controls: mercurial:hemisphere-light-render's, which the metal ops' looks set
/// on their inner sphere.
struct HemisphereControls: PropertySet {
    /// One light as the dialog shows it.
    struct Light: Sendable {
        var enabled = true
        var x, y, z, hue, saturation, brightness: Double

        init(_ d: LightSpec) {
            (x, y, z) = (Double(d.position.x), Double(d.position.y), Double(d.position.z))
            (hue, saturation, brightness) = (Double(d.hue), Double(d.saturation), Double(d.brightness))
        }
    }

    var page = Page.sphere
    var size = 512
    var lights = LightSpec.studio.map(Light.init)
    var diffuseColor = SIMD4<Float>(0.1, 0.1, 0.1, 1)
    var specularColor = SIMD4<Float>(1, 1, 1, 1)
    var shininess = Double(HemisphereParameters.studio.shininess)
    var ambient = Double(HemisphereParameters.studio.ambient)
    var glossContour = GlossContour.linear

    /// The dialog's pages: the sphere's material, then one per light.
    enum Page: Int, CaseIterable, Sendable, PropertyEnum {
        case sphere = 0, key, fill, rim, bounce
        static let typeName = "MercurialHemispherePage"
        var label: EnumCase {
            switch self {
            case .sphere: EnumCase("sphere", "Sphere")
            case .key: EnumCase("key", "Key light")
            case .fill: EnumCase("fill", "Fill light")
            case .rim: EnumCase("rim", "Rim light")
            case .bounce: EnumCase("bounce", "Bounce light")
            }
        }
    }

    static func lightDeclarations(_ i: Int) -> [PropertyDeclaration<HemisphereControls>] {
        let n = i + 1, page = Page(rawValue: i + 1)!.label.nick
        let shown = "page {\(page)}", lit = "page {\(page)} & light\(n)-enabled"
        return [
            .boolean(\.lights[i].enabled, "light\(n)-enabled", "On", "This light on or off.").visible(shown),
            .double(\.lights[i].x, "light\(n)-x", "X", range: -100...100, ui: -4...4, digits: 2,
                    "Position right of the sphere's centre, in sphere radii.").visible(lit),
            .double(\.lights[i].y, "light\(n)-y", "Y", range: -100...100, ui: -4...4, digits: 2,
                    "Position below the sphere's centre, in sphere radii.").visible(lit),
            .double(\.lights[i].z, "light\(n)-z", "Z", range: -100...100, ui: -4...4, digits: 2,
                    "Position towards the viewer, in sphere radii (negative: behind the sphere).").visible(lit),
            .double(\.lights[i].hue, "light\(n)-hue", "Hue", range: 0...360, unit: .degree,
                    "The light's hue (0 red, 120 green, 240 blue).").visible(lit),
            .double(\.lights[i].saturation, "light\(n)-saturation", "Saturation", range: 0...1,
                    "0 white, 1 the pure hue.").visible(lit),
            .double(\.lights[i].brightness, "light\(n)-brightness", "Brightness", range: 0...100, ui: 0...2,
                    "The light's strength (0: off).").visible(lit),
        ]
    }

    static let declarations: [PropertyDeclaration<HemisphereControls>] = [
        .choice(\.page, "page", "Show", "Which group of controls the dialog shows."),
        .int(\.size, "size", "Size", range: 1...HemisphereParameters.maximumSize, ui: 64...2048, unit: .pixelDistance,
             "Width and height of the square the sphere fills.").visible("page {sphere}"),
    ] + (0..<4).flatMap(lightDeclarations) + [
        .color(\.diffuseColor, "diffuse-color", "Diffuse colour", default: "rgb(0.1, 0.1, 0.1)",
               "Colour of the matte part of the reflection (dark for metals).").visible("page {sphere}"),
        .color(\.specularColor, "specular-color", "Specular colour", default: "rgb(1, 1, 1)",
               "Colour of the highlights (white for chrome, yellow for gold).").visible("page {sphere}"),
        .double(\.shininess, "shininess", "Shininess",
                range: Double(HemisphereParameters.shininessRange.lowerBound)...Double(HemisphereParameters.shininessRange.upperBound),
                ui: 1...200, gamma: 2, digits: 1, "Low: broad, soft highlights; high: small, sharp ones.")
            .visible("page {sphere}"),
        .double(\.ambient, "ambient", "Ambient", range: 0...1, digits: 2,
                "Light from everywhere, as a fraction of the diffuse colour.").visible("page {sphere}"),
        .choice(\.glossContour, "gloss-contour", "Gloss contour", "A curve that remaps the sphere's light.")
            .visible("page {sphere}"),
    ]

    /// The square's side, within the kernel's limits.
    var clampedSize: Int { min(max(size, 1), HemisphereParameters.maximumSize) }
}
