import Foundation
import GeglHost
import XCTest

/// mercurial:bevel-emboss in real GEGL graphs: the layer keeps its colours, with a highlight on the
/// lit slopes and a shadow on the far ones.
final class BevelEmbossPluginTests: PluginTestCase {
    let op = "mercurial:bevel-emboss"
    static let size = 96

    /// A red disc of radius 30 at (48, 48), anti-aliased, on transparency, at an odd origin.
    func layer() -> Buffer {
        let n = Self.size
        var rgba = [Float](repeating: 0, count: n * n * 4)
        for y in 0..<n {
            for x in 0..<n {
                let d = ((Double(x) + 0.5 - 48) * (Double(x) + 0.5 - 48) + (Double(y) + 0.5 - 48) * (Double(y) + 0.5 - 48)).squareRoot()
                let i = 4 * (y * n + x)
                rgba[i] = 0.8; rgba[i + 1] = 0.15; rgba[i + 2] = 0.1
                rgba[i + 3] = Float(min(max(30 - d + 0.5, 0), 1))
            }
        }
        return Buffer(x: 5, y: -2, width: n, height: n, format: "R'G'B'A float", pixels: rgba)
    }

    func render(_ properties: [String: Value]) -> (input: [Float], output: [Float]) {
        let g = Graph()
        let src = g.add("gegl:buffer-source", ["buffer": .buffer(layer())])
        let node = g.add(op, properties)
        g.link(src, node)
        let n = Self.size
        return (render(g, src, x: 5, y: -2, width: n, height: n, format: "R'G'B'A float", components: 4),
                render(g, node, x: 5, y: -2, width: n, height: n, format: "R'G'B'A float", components: 4))
    }

    func luminance(_ p: [Float], _ x: Int, _ y: Int) -> Float {
        let i = 4 * (y * Self.size + x)
        return 0.2126 * p[i] + 0.7152 * p[i + 1] + 0.0722 * p[i + 2]
    }

    /// Inside the disc near its upper-left edge (facing the default light, 120°) and near its
    /// lower-right edge.
    let lit = (27, 27), far = (69, 69)

    func testListedAsALiveMenuFilter() {
        XCTAssertEqual(Gegl.key(op, "gimp:menu-label"), "Bevel & Emboss…")
        XCTAssertFalse(Gegl.pads(op).inputs.contains("aux"))
        XCTAssertTrue(Gegl.pads("mercurial:bevel-shade").inputs.contains("aux"))
    }

    func testFlatTopKeepsTheColourAndSlopesAreLitAndShaded() {
        let (input, output) = render(["size": .double(6)])
        let centre = 4 * (48 * Self.size + 48)
        for k in 0..<4 { XCTAssertEqual(output[centre + k], input[centre + k], accuracy: 1e-4, "flat top, channel \(k)") }
        XCTAssertGreaterThan(luminance(output, lit.0, lit.1), luminance(input, lit.0, lit.1) + 0.02, "the lit side is lighter")
        XCTAssertLessThan(luminance(output, far.0, far.1), luminance(input, far.0, far.1) - 0.02, "the far side is darker")
    }

    func testOpacityZeroGivesTheInputBack() {
        let (input, output) = render(["size": .double(6), "highlight-opacity": .double(0), "shadow-opacity": .double(0)])
        let worst = zip(input, output).map { abs($0 - $1) }.max() ?? 1
        XCTAssertLessThanOrEqual(worst, 1e-6)
    }

    func testInnerPaintsNothingOutsideAndOuterLeavesTheInside() {
        let (input, inner) = render(["size": .double(6), "style": .string("inner-bevel")])
        for i in 0..<(Self.size * Self.size) where input[4 * i + 3] == 0 {
            XCTAssertEqual(inner[4 * i + 3], 0, "inner style: nothing outside the shape (pixel \(i))")
        }
        let (_, outer) = render(["size": .double(6), "style": .string("outer-bevel")])
        // Well inside the disc the outer style's surface is the plateau: the layer as it is.
        for (x, y) in [(48, 48), (40, 44), (55, 50)] {
            let i = 4 * (y * Self.size + x)
            for k in 0..<4 { XCTAssertEqual(outer[i + k], input[i + k], accuracy: 1e-4, "outer style inside at \(x), \(y)") }
        }
        // Just outside the upper-left edge, the slope falls away from the light... and outside the
        // lower-right edge it faces it: both are painted.
        let outsideUpperLeft = 4 * (24 * Self.size + 24), outsideLowerRight = 4 * (72 * Self.size + 72)
        XCTAssertEqual(input[outsideUpperLeft + 3], 0)
        XCTAssertGreaterThan(outer[outsideUpperLeft + 3] + outer[outsideLowerRight + 3], 0.05, "outer style paints outside")
    }

    func testDirectionDownAndTheOppositeAngleSwapLightAndShade() {
        let (input, up) = render(["size": .double(6)])
        let (_, down) = render(["size": .double(6), "direction": .string("down")])
        let (_, turned) = render(["size": .double(6), "angle": .double(-60)])
        for swapped in [down, turned] {
            XCTAssertLessThan(luminance(swapped, lit.0, lit.1), luminance(input, lit.0, lit.1) - 0.02)
            XCTAssertGreaterThan(luminance(swapped, far.0, far.1), luminance(input, far.0, far.1) + 0.02)
        }
        XCTAssertNotEqual(up, down)
    }

    func testThreadAndTileInvariance() {
        func picture(threads: Int, tile: Int) -> [Float] {
            let g = Graph()
            let src = g.add("gegl:buffer-source", ["buffer": .buffer(layer())])
            let node = g.add(op, ["size": .double(9), "style": .string("emboss"), "soften": .double(2),
                                  "texture": .string("cells"), "texture-scale": .double(7), "second-light": .bool(true)])
            g.link(src, node)
            return render(g, node, x: 5, y: -2, width: Self.size, height: Self.size, format: "R'G'B'A float",
                          components: 4, threads: threads, tile: tile)
        }
        let reference = picture(threads: 1, tile: 128)
        for (threads, tile) in [(2, 16), (2, 23), (1, 37)] {
            assertSamePixels(picture(threads: threads, tile: tile), reference, "threads \(threads), tile \(tile)")
        }
    }

    /// A second light adds its colour on the slopes that face it; a texture changes the flat top.
    func testSecondLightAndTexture() {
        let (input, plain) = render(["size": .double(6)])
        let (_, second) = render(["size": .double(6), "second-light": .bool(true), "light2-angle": .double(-60),
                                  "light2-color": .string("rgb(0, 0, 1)"), "light2-opacity": .double(1)])
        // The far side (lower right) faces the second light: bluer than without it.
        let i = 4 * (far.1 * Self.size + far.0)
        XCTAssertGreaterThan(second[i + 2] - second[i], plain[i + 2] - plain[i] + 0.02)
        let (_, textured) = render(["size": .double(6), "texture": .string("noise"), "texture-scale": .double(4),
                                    "texture-depth": .double(50)])
        let centre = 4 * (48 * Self.size + 48)
        var changed = 0
        for y in 40..<56 { for x in 40..<56 where abs(textured[4 * (y * Self.size + x)] - input[4 * (y * Self.size + x)]) > 1e-3 { changed += 1 } }
        XCTAssertGreaterThan(changed, 50, "the texture shades the flat top")
        XCTAssertEqual(textured[centre + 3], input[centre + 3], "alpha as the layer's")
    }

    /// Stroke emboss: a stroke of the size's width around the shape, in the stroke's colour, lit and
    /// shaded; the inside keeps the layer's colour. A metal material replaces the colours.
    func testStrokeEmbossAndMaterial() {
        let (input, stroked) = render(["size": .double(6), "style": .string("stroke-emboss"),
                                       "stroke-color": .string("rgb(0.1, 0.3, 0.9)")])
        // A pixel of the ring outside the disc (3 px beyond its edge, on the light's side).
        let ring = 4 * (48 * Self.size + 15)
        XCTAssertEqual(input[ring + 3], 0)
        XCTAssertGreaterThan(stroked[ring + 3], 0.5, "the stroke covers the ring")
        XCTAssertGreaterThan(stroked[ring + 2], stroked[ring], "in the stroke's (blue) colour")
        let centre = 4 * (48 * Self.size + 48)
        for k in 0..<4 { XCTAssertEqual(stroked[centre + k], input[centre + k], accuracy: 1e-4, "inside as the layer") }
        let (_, gold) = render(["size": .double(6), "material": .string("metal"), "look": .string("gold")])
        XCTAssertNotEqual(gold[centre], input[centre], accuracy: 0.02, "a metal face, not the layer's red")
        XCTAssertGreaterThan(gold[centre], gold[centre + 2], "gold is warm")
        XCTAssertEqual(gold[4 * (2 * Self.size + 2) + 3], 0, "outside the shape stays clear")
    }

    /// A texture file is tiled and pressed into the surface; a missing one changes nothing.
    func testTextureFile() throws {
        let dir = try Plugin.folder("bevel-texture")
        let stripes = dir.appendingPathComponent("stripes.png").path
        let g = Graph()
        let pattern = g.add("gegl:linear-gradient", ["start-x": .double(0), "end-x": .double(5),
                                                     "start-color": .string("black"), "end-color": .string("white")])
        let crop = g.add("gegl:crop", ["width": .double(5), "height": .double(5)])
        let save = g.add("gegl:png-save", ["path": .string(stripes)])
        g.link(pattern, crop, save)
        g.process(save)
        let (input, plain) = render(["size": .double(6)])
        let (_, missing) = render(["size": .double(6), "texture": .string("file"),
                                   "texture-file": .string(dir.appendingPathComponent("none.png").path)])
        assertSamePixels(missing, plain, "a missing texture file: no texture")
        let (_, textured) = render(["size": .double(6), "texture": .string("file"), "texture-file": .string(stripes),
                                    "texture-depth": .double(40)])
        var changed = 0
        for y in 40..<56 { for x in 40..<56 where abs(textured[4 * (y * Self.size + x)] - input[4 * (y * Self.size + x)]) > 1e-3 { changed += 1 } }
        XCTAssertGreaterThan(changed, 50, "the file's stripes shade the flat top")
    }
}
