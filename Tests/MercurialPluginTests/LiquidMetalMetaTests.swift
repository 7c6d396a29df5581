import Foundation
import GeglHost
import XCTest

/// mercurial:liquid-metal, the one-click meta op, in real graphs.
final class LiquidMetalMetaTests: PluginTestCase {
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
