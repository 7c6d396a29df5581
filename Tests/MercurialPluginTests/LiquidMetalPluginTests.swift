import Foundation
import GeglHost
import MercurialKernels
import XCTest

/// mercurial:liquid-metal, the one-click meta op, in real graphs.
final class LiquidMetalPluginTests: PluginTestCase {
    let op = "mercurial:liquid-metal"

    func text(_ g: Graph, color: String = "black") -> Node {
        g.add("gegl:text", ["string": .string("Hg"), "size": .double(90), "color": .string(color)])
    }

    func testKeysAndMenu() {
        XCTAssertTrue(Gegl.hasOperation(op))
        XCTAssertEqual(Gegl.key(op, "title"), "Liquid Metal")
        XCTAssertEqual(Gegl.key(op, "gimp:menu-path"), "<Image>/Filters/Decor")
        XCTAssertEqual(Gegl.key(op, "gimp:menu-label"), "Liquid Metal…")
        for name in ["mercurial:height-field-from-mask", "mercurial:matcap", "mercurial:hemisphere-light-render",
                     "mercurial:holographic-foil", "mercurial:relief-lighting"] {
            XCTAssertNotNil(Gegl.key(name, "gimp:menu-path"), name)
            XCTAssertFalse((Gegl.key(name, "categories") ?? "hidden").contains("hidden"), name)
        }
    }

    /// Black text on transparency becomes shiny letters that keep the text's own coverage: with
    /// the default (bright) chrome, a bright face with dark reflections in the bevel.
    func testTextBecomesMetalAndKeepsItsAlpha() {
        let g = Graph()
        let t = text(g)
        let metal = g.add(op)
        g.link(t, metal)
        let box = g.boundingBox(t)
        XCTAssertTrue(g.boundingBox(metal) == box)
        let src = render(g, t, x: box.x, y: box.y, width: box.width, height: box.height, format: "RGBA float", components: 4)
        let out = render(g, metal, x: box.x, y: box.y, width: box.width, height: box.height, format: "RGBA float", components: 4)
        var maxAlphaError: Float = 0
        var lit = 0, dark = 0, inside = 0, luminances: [Float] = []
        for i in 0..<(box.width * box.height) {
            // The sphere's own alpha is 1 except at its rim, which steep slopes can reach.
            maxAlphaError = max(maxAlphaError, out[4 * i + 3] - src[4 * i + 3])
            guard src[4 * i + 3] > 0.99 else { continue }
            inside += 1
            let l = 0.2126 * out[4 * i] + 0.7152 * out[4 * i + 1] + 0.0722 * out[4 * i + 2]
            luminances.append(l)
            if l > 0.5 { lit += 1 }
            if l < 0.15 { dark += 1 }
        }
        XCTAssertLessThanOrEqual(maxAlphaError, 1e-5, "never more opaque than the layer")
        let outside = (0..<(box.width * box.height)).filter { src[4 * $0 + 3] == 0 }
        XCTAssertFalse(outside.isEmpty)
        XCTAssertTrue(outside.allSatisfy { out[4 * $0 + 3] == 0 }, "outside the letters stays transparent")
        XCTAssertGreaterThan(inside, 500)
        XCTAssertGreaterThan(lit, inside / 100, "highlights on the letters")
        // Bright chrome: the letters' median is above linear 0.3 (sRGB 149; the dark chrome's is about 0.1).
        XCTAssertGreaterThan(luminances.sorted()[luminances.count / 2], 0.3, "bright chrome")
        XCTAssertGreaterThan(dark, inside / 100, "dark reflections on the letters")
    }

    /// Presets and slider changes reach the inner graph.
    func testPropertiesChangeTheResult() {
        let g = Graph()
        let t = text(g)
        let metal = g.add(op)
        g.link(t, metal)
        let box = g.boundingBox(t)
        func image() -> [Float] {
            render(g, metal, x: box.x, y: box.y, width: box.width, height: box.height, format: "RGBA float", components: 4)
        }
        let chrome = image()
        g.set(metal, "preset", .string("gold"))
        XCTAssertEqual(g.get(metal, "preset"), "gold")
        let gold = image()
        XCTAssertNotEqual(chrome, gold)
        // Gold is warm: red above blue on average over the letters.
        var red: Float = 0, blue: Float = 0
        for i in 0..<(box.width * box.height) where gold[4 * i + 3] > 0.99 { red += gold[4 * i]; blue += gold[4 * i + 2] }
        XCTAssertGreaterThan(red, blue * 1.5)
        g.set(metal, "foil", .double(0.3))
        XCTAssertNotEqual(image(), gold)
        g.set(metal, "foil", .double(0))
        XCTAssertEqual(image(), gold)
        g.set(metal, "radius", .double(2))
        XCTAssertNotEqual(image(), gold)
    }
}

/// Liquid metal's Bevel & Emboss controls (style, technique, direction, soften, light angle, gloss
/// contour) in real GEGL graphs.
extension LiquidMetalPluginTests {
    static let size = 96

    /// A layer as GIMP hands over a shape: an opaque anti-aliased disc of radius 24 at (48, 48) on
    /// transparency, black, at an odd origin.
    var layer: Buffer {
        let n = Self.size
        var rgba = [Float](repeating: 0, count: n * n * 4)
        for y in 0..<n {
            for x in 0..<n {
                let d = ((Double(x) + 0.5 - 48) * (Double(x) + 0.5 - 48) + (Double(y) + 0.5 - 48) * (Double(y) + 0.5 - 48)).squareRoot()
                rgba[4 * (y * n + x) + 3] = Float(min(max(24 - d + 0.5, 0), 1))
            }
        }
        return Buffer(x: 7, y: -3, width: n, height: n, format: "RGBA float", pixels: rgba)
    }

    func metal(_ properties: [String: Value], threads: Int = 2, tile: Int = 128) -> [Float] {
        let g = Graph()
        let src = g.add("gegl:buffer-source", ["buffer": .buffer(layer)])
        let node = g.add(op, properties)
        g.link(src, node)
        XCTAssertTrue(g.boundingBox(node) == (7, -3, Self.size, Self.size), "every style keeps the layer's extent")
        return render(g, node, x: 7, y: -3, width: Self.size, height: Self.size, format: "RGBA float", components: 4,
                      threads: threads, tile: tile)
    }

    /// Alpha at layer pixel (x, y).
    func alpha(_ pixels: [Float], _ x: Int, _ y: Int) -> Float { pixels[4 * (y * Self.size + x) + 3] }

    static let styles = ["inner-bevel", "outer-bevel", "emboss", "pillow-emboss"]
    static let techniques = ["smooth", "chisel-hard", "chisel-soft"]

    func testEveryStyleAndTechniqueIsThreadAndTileInvariant() {
        for style in Self.styles {
            for technique in Self.techniques {
                let p: [String: Value] = ["style": .string(style), "technique": .string(technique), "radius": .double(6),
                                          "soften": .double(1.5)]
                let a = metal(p, threads: 1, tile: 128), b = metal(p, threads: 2, tile: 37)
                XCTAssertEqual(a, b, "\(style) / \(technique)")
                XCTAssertTrue(a.allSatisfy(\.isFinite), "\(style) / \(technique)")
            }
        }
    }

    /// Inner styles stay within the shape; outer styles cover a ring of metal around it (R for
    /// outer, R/2 for emboss and pillow), and nothing beyond.
    func testOutsideStylesReachAroundTheShape() {
        let r = 8.0
        for style in Self.styles {
            let out = metal(["style": .string(style), "technique": .string("chisel-hard"), "radius": .double(r)])
            // Along the row through the centre: the disc's edge is at x = 48 ± 24.
            let width = style == "outer-bevel" ? r : r / 2
            let inside = alpha(out, 48, 48), ringNear = alpha(out, 48 + 24 + 2, 48)
            let beyond = alpha(out, 48 + 24 + Int(width) + 2, 48)
            XCTAssertEqual(inside, 1, accuracy: 1e-6, style)
            if style == "inner-bevel" {
                XCTAssertEqual(ringNear, 0, style)
            } else {
                XCTAssertEqual(ringNear, 1, accuracy: 1e-6, "\(style): 2 px outside is metal")
            }
            XCTAssertEqual(beyond, 0, "\(style): nothing beyond the ring")
        }
    }

    /// Where the height changes: inner bevel's slope lies inside the edge, outer bevel's outside
    /// it (its shape is a flat plateau, one colour), pillow's on both sides.
    func testWhereEachStyleSlopes() {
        func colour(_ p: [Float], _ x: Int) -> SIMD3<Float> {
            let i = 4 * (48 * Self.size + x)
            return SIMD3(p[i], p[i + 1], p[i + 2])
        }
        func varies(_ p: [Float], _ xs: ClosedRange<Int>) -> Bool {
            xs.contains { colour(p, $0) != colour(p, xs.lowerBound) }
        }
        let common: [String: Value] = ["technique": .string("chisel-hard"), "radius": .double(8)]
        let inner = metal(common.merging(["style": .string("inner-bevel")]) { $1 })
        let outer = metal(common.merging(["style": .string("outer-bevel")]) { $1 })
        let pillow = metal(common.merging(["style": .string("pillow-emboss")]) { $1 })
        // Inside, 2...6 px from the edge (x = 66...70 on the right side).
        XCTAssertTrue(varies(inner, 66...70) || colour(inner, 66) != colour(inner, 48), "inner bevel slopes inside")
        XCTAssertFalse(varies(outer, 40...60), "outer bevel: the shape is a plateau")
        XCTAssertNotEqual(colour(outer, 75), colour(outer, 48), "outer bevel slopes outside the edge")
        XCTAssertNotEqual(colour(pillow, 70), colour(pillow, 48), "pillow slopes inside")
        XCTAssertNotEqual(colour(pillow, 74), colour(pillow, 48), "pillow slopes outside")
    }

    /// Direction down is the same surface sunk in: relief negated, bit for bit.
    func testDirectionDownNegatesTheDepth() {
        for style in Self.styles {
            let down = metal(["style": .string(style), "direction": .string("down"), "relief": .double(10)])
            let negated = metal(["style": .string(style), "relief": .double(-10)])
            let up = metal(["style": .string(style), "relief": .double(10)])
            XCTAssertEqual(down, negated, style)
            XCTAssertNotEqual(down, up, style)
        }
    }

    /// Each technique is its profile (Smooth = Core Image, Chisel hard = linear, Chisel soft =
    /// round); "Other profile" follows the profile property, and the default is Smooth.
    func testTechniquesAreTheirProfiles() {
        let other: [String: Value] = ["technique": .string("profile")]
        for (technique, profile) in [("smooth", "core-image"), ("chisel-hard", "linear"), ("chisel-soft", "round")] {
            XCTAssertEqual(metal(["technique": .string(technique), "profile": .string("smooth")]),
                           metal(other.merging(["profile": .string(profile)]) { a, _ in a }), technique)
        }
        XCTAssertNotEqual(metal(other.merging(["profile": .string("linear")]) { a, _ in a }), metal([:]))
        XCTAssertEqual(metal(["profile": .string("linear")]), metal([:]), "the profile acts only under Other profile")
        XCTAssertEqual(metal(other), metal([:]), "Smooth is the Core Image profile, the profile's default")
    }

    /// The light angle moves the key light: lit from the right (0°), the disc's right rim is
    /// brighter than its left; from the left (180°), the other way round.
    func testLightAngleMovesTheHighlight() {
        func rims(_ angle: Double) -> (left: Float, right: Float) {
            let p = metal(["custom-light": .bool(true), "light-angle": .double(angle), "light-altitude": .double(20),
                           "technique": .string("chisel-hard"), "radius": .double(8)])
            func luminance(_ x: Int) -> Float {
                let i = 4 * (48 * Self.size + x)
                return 0.2126 * p[i] + 0.7152 * p[i + 1] + 0.0722 * p[i + 2]
            }
            return ((26...30).map(luminance).reduce(0, +), (66...70).map(luminance).reduce(0, +))
        }
        let fromRight = rims(0), fromLeft = rims(180)
        XCTAssertGreaterThan(fromRight.right, fromRight.left)
        XCTAssertGreaterThan(fromLeft.left, fromLeft.right)
        // Off, the angle does nothing.
        XCTAssertEqual(metal(["light-angle": .double(0)]), metal(["light-angle": .double(180)]))
    }

    /// The gloss contour remaps the hemisphere's light, component by component.
    func testGlossContourRemapsTheHemisphere() {
        let g = Graph()
        let plain = g.add("mercurial:hemisphere-light-render", ["size": .int(64)])
        let ring = g.add("mercurial:hemisphere-light-render", ["size": .int(64), "gloss-contour": .string("ring")])
        let a = render(g, plain, x: 0, y: 0, width: 64, height: 64, format: "RGBA float", components: 4)
        let b = render(g, ring, x: 0, y: 0, width: 64, height: 64, format: "RGBA float", components: 4)
        for i in stride(from: 0, to: a.count, by: 4) {
            for k in 0..<3 { XCTAssertEqual(b[i + k], GlossContour.ring(a[i + k])) }
            XCTAssertEqual(b[i + 3], a[i + 3])
        }
        XCTAssertNotEqual(metal(["gloss-contour": .string("ring")]), metal([:]))
    }
}
