import GeglHost
import XCTest

/// mercurial:shaded-material-from-mask is Height Field from Mask (keeping the mask's alpha) and
/// Shaded Material in one pass: in real GEGL, its pixels must equal the two chained, bit for bit,
/// for every kind of height field, in any tiling and thread count.
final class ShadedMaterialFromMaskTests: PluginTestCase {
    /// Text on transparency (the mask is its alpha), at an offset, as a layer.
    func layer(_ g: Graph) -> Node {
        let text = g.add("gegl:text", ["string": .string("Hg&"), "size": .double(70), "color": .string("rgb(0.9, 0.4, 0.1)")])
        let shift = g.add("gegl:translate", ["x": .double(-13), "y": .double(7)])
        g.link(text, shift)
        return shift
    }

    /// The fused op and the chain over the same layer and shading image, with `height` properties.
    func pair(_ height: [String: Value], scale: Double, aux: Bool) -> (Graph, fused: Node, chained: Node) {
        let g = Graph()
        let src = layer(g)
        let fused = g.add("mercurial:shaded-material-from-mask", height.merging(["scale": .double(scale)]) { a, _ in a })
        let hf = g.add("mercurial:height-field-from-mask", height.merging(["keep-alpha": .bool(true)]) { a, _ in a })
        let shaded = g.add("mercurial:shaded-material", ["scale": .double(scale)])
        g.link(src, fused)
        g.link(src, hf, shaded)
        if aux {
            let sphere = g.add("mercurial:hemisphere-light-render", ["size": .int(128), "shininess": .double(25)])
            g.connect(sphere, to: fused, pad: "aux")
            g.connect(sphere, to: shaded, pad: "aux")
        }
        return (g, fused, shaded)
    }

    func testEqualsTheTwoOpsChained() {
        let cases: [([String: Value], Double)] = [
            (["mask": .string("luminance-alpha")], 10),
            (["mask": .string("alpha"), "radius": .double(6)], 14),
            (["mask": .string("alpha"), "radius": .double(9), "style": .string("outer-bevel"), "soften": .double(2)], -8),
            (["mask": .string("alpha"), "radius": .double(7), "profile": .string("round"), "style": .string("pillow-emboss")], 12),
            (["mask": .string("alpha"), "radius": .double(0.5)], 10),
            (["mask": .string("luminance"), "radius": .double(20), "style": .string("emboss")], 6),
        ]
        for (n, (height, scale)) in cases.enumerated() {
            let (g, fused, chained) = pair(height, scale: scale, aux: n % 2 == 0)
            let box = g.boundingBox(chained)
            XCTAssertTrue(g.boundingBox(fused) == box, "case \(n): the same extent")
            let want = render(g, chained, x: box.x, y: box.y, width: box.width, height: box.height,
                              format: "RGBA float", components: 4)
            let got = render(g, fused, x: box.x, y: box.y, width: box.width, height: box.height,
                             format: "RGBA float", components: 4)
            assertSamePixels(got, want, "case \(n): \(height)")
            XCTAssertTrue(want.contains { $0 > 0.05 }, "case \(n): something is drawn")
            // Small tiles and one thread, and a part of the image on its own: the same bits.
            let small = render(g, fused, x: box.x, y: box.y, width: box.width, height: box.height,
                               format: "RGBA float", components: 4, threads: 1, tile: 32)
            assertSamePixels(small, want, "case \(n): tiles of 32, one thread")
            // Four threads sharing columns of tiles of 16 (the op hands its columns out itself).
            let shared = render(g, fused, x: box.x, y: box.y, width: box.width, height: box.height,
                                format: "RGBA float", components: 4, threads: 4, tile: 16)
            assertSamePixels(shared, want, "case \(n): tiles of 16, four threads")
            let (px, py, pw, ph) = (box.x + 17, box.y + 11, 45, 23)
            let part = render(g, fused, x: px, y: py, width: pw, height: ph, format: "RGBA float", components: 4,
                              threads: 2, tile: 16)
            for row in 0..<ph {
                let from = ((py - box.y + row) * box.width + (px - box.x)) * 4
                XCTAssertEqual(Array(part[(row * pw * 4)..<((row + 1) * pw * 4)]), Array(want[from..<(from + pw * 4)]),
                               "case \(n): row \(row) of a part")
            }
        }
    }

    /// Its properties are the two ops' own (names, ranges, defaults), keep-alpha aside.
    func testPropertiesAreTheTwoOps() {
        let g = Graph()
        let fused = g.add("mercurial:shaded-material-from-mask")
        let hf = g.add("mercurial:height-field-from-mask")
        let shaded = g.add("mercurial:shaded-material")
        for name in ["mask", "radius", "profile", "style", "soften"] {
            XCTAssertEqual(g.get(fused, name), g.get(hf, name), name)
        }
        XCTAssertEqual(g.get(fused, "scale"), g.get(shaded, "scale"))
        g.set(fused, "radius", .double(33))
        XCTAssertEqual(g.get(fused, "radius"), "33.0")
    }
}
