import GeglBridge
import MercurialKernels

/// mercurial:hemisphere-light-render — a sphere lit by up to four coloured omni lights, the
/// shading image that Shaded Material looks normals up in.
enum HemisphereLightRenderOp: PointRenderOperation {
    // MARK: Properties

    typealias Properties = HemisphereControls

    // MARK: Prepare

    struct Prepared: Sendable {
        var parameters: HemisphereParameters
        var contour: GlossContour
    }

    static func parameters(_ p: Properties) -> HemisphereParameters {
        let lights = p.lights.map { l in
            LightSpec(position: SIMD3(Float(l.x), Float(l.y), Float(l.z)), hue: Float(l.hue),
                      saturation: Float(l.saturation), brightness: Float(l.brightness), enabled: l.enabled)
        }
        let diffuse = p.diffuseColor, specular = p.specularColor
        return HemisphereParameters(
            size: p.clampedSize,
            lights: lights.filter { $0.enabled && $0.brightness > 0 }.map(\.light),
            diffuse: SIMD3(diffuse.x, diffuse.y, diffuse.z), specular: SIMD3(specular.x, specular.y, specular.z),
            shininess: Float(p.shininess), ambient: Float(p.ambient))
    }

    static func prepare(_ context: PrepareContext) -> Prepared {
        context.setFormat("output", .rgbaFloat)
        let props = context.properties.typed(Properties.self)
        return Prepared(parameters: parameters(props), contour: props.glossContour)
    }

    static func boundingBox(_ context: OperationContext) -> Rect {
        let size = context.properties.typed(Properties.self).clampedSize
        return Rect(x: 0, y: 0, width: size, height: size)
    }

    // MARK: Process

    static func process(_ prepared: Prepared, output: UnsafeMutablePointer<Float>, count: Int, roi: Rect) {
        Kernels.hemisphere.render(prepared.parameters, x: roi.x, y: roi.y, width: roi.width, count: count, into: output)
        guard prepared.contour != .linear else { return }
        for i in 0..<count {
            for k in 0..<3 { output[4 * i + k] = prepared.contour(output[4 * i + k]) }
        }
    }

    // MARK: Keys

    static let info = OperationInfo(
        name: "mercurial:hemisphere-light-render", title: "Hemisphere Light Render",
        categories: ["render", "light"],
        description: "Renders a shiny sphere lit by up to four coloured lights: the lit sphere Shaded Material "
            + "looks its colours up in.",
        keys: [("gimp:menu-path", "<Image>/Filters/Render/Mercurial"),
               ("gimp:menu-label", "Hemisphere Light…"),
               ("position-dependent", "true")])
}
