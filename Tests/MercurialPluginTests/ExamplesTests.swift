import Foundation
import GeglHost
import XCTest

/// Every graph in examples/ rendered with the real `gegl` binary, and the Python example run with
/// the system's python3 (python3-gi, gir1.2-gegl-0.4), each picture checked.
final class ExamplesTests: PluginTestCase {
    let examples = Plugin.packageRoot.appendingPathComponent("examples")

    func renderExample(_ name: String) throws -> (Int, Int, [Float]) {
        let dir = try Plugin.folder("examples")
        let out = dir.appendingPathComponent("\(name).png").path
        let xml = examples.appendingPathComponent("\(name).xml").path
        let result = Plugin.run("/usr/bin/env", ["gegl", "-i", xml, "-o", out], environment: Plugin.geglEnvironment)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertFalse(result.output.contains("No such op"), result.output)
        XCTAssertFalse(result.output.contains("Can't find"), result.output)
        return ReadmeTests.load(out)
    }

    /// Distinct colours (quantised) and the spread of luminance.
    func variety(_ px: [Float], _ n: Int) -> (colours: Int, minLuma: Float, maxLuma: Float) {
        var set = Set<Int>()
        var lo: Float = 1, hi: Float = 0
        for i in 0..<n {
            let r = px[4 * i], g = px[4 * i + 1], b = px[4 * i + 2]
            set.insert(Int(r * 31) << 10 | Int(g * 31) << 5 | Int(b * 31))
            let l = 0.2126 * r + 0.7152 * g + 0.0722 * b
            lo = min(lo, l)
            hi = max(hi, l)
        }
        return (set.count, lo, hi)
    }

    func testAllExamplesAreCovered() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: examples.path).filter { $0.hasSuffix(".xml") }.sorted()
        XCTAssertEqual(files, ["bristlepaint.xml", "card.xml", "holographic-card.xml", "liquid-metal-text.xml",
                               "mercurialpaint.xml", "normal-map.xml"])
    }

    func testLiquidMetalText() throws {
        let (w, h, px) = try renderExample("liquid-metal-text")
        XCTAssertEqual(w, 720)
        XCTAssertEqual(h, 190)
        let v = variety(px, w * h)
        XCTAssertGreaterThan(v.colours, 100)
        XCTAssertGreaterThan(v.maxLuma, 0.5, "highlights")
        XCTAssertLessThan(v.minLuma, 0.03, "dark background")
    }

    func testMercurialPaintBlobs() throws {
        let (w, h, px) = try renderExample("mercurialpaint")
        XCTAssertEqual(w, 640)
        XCTAssertEqual(h, 300)
        let v = variety(px, w * h)
        XCTAssertGreaterThan(v.colours, 100)
        // Blobs: the flat background colour (sphere centre) is the most common, but far from all.
        var counts: [Int: Int] = [:]
        for i in 0..<(w * h) { counts[Int(px[4 * i] * 1000) * 1_000_000 + Int(px[4 * i + 1] * 1000), default: 0] += 1 }
        let top = counts.values.max()!
        XCTAssertGreaterThan(top, w * h / 5)
        XCTAssertLessThan(top, w * h * 9 / 10)
    }

    /// Coloured strokes (red, blue, yellow) on paper, lit by a point light: the colours show, and
    /// the light's side of the picture is brighter than the far side.
    func testBristlePaintStrokes() throws {
        let (w, h, px) = try renderExample("bristlepaint")
        XCTAssertEqual(w, 640)
        XCTAssertEqual(h, 300)
        let v = variety(px, w * h)
        XCTAssertGreaterThan(v.colours, 200, "streaked, lit strokes")
        var red = 0, blue = 0, yellow = 0
        for i in 0..<(w * h) {
            let (r, g, b) = (px[4 * i], px[4 * i + 1], px[4 * i + 2])
            if r > 2 * g && r > 2 * b { red += 1 }
            if b > 2 * r && b > g { blue += 1 }
            if r > 2 * b && g > 2 * b && g > 0.3 { yellow += 1 }
        }
        XCTAssertGreaterThan(red, w * h / 30, "red stroke")
        XCTAssertGreaterThan(blue, w * h / 30, "blue stroke")
        XCTAssertGreaterThan(yellow, w * h / 30, "yellow stroke")
        // The paper near the light (upper left) against the far corner (lower right).
        func luma(_ x: Int, _ y: Int) -> Float { 0.2126 * px[4 * (y * w + x)] + 0.7152 * px[4 * (y * w + x) + 1] + 0.0722 * px[4 * (y * w + x) + 2] }
        XCTAssertGreaterThan(luma(150, 10), luma(630, 290) + 0.1, "a positioned light")
    }

    /// Flat areas of the normal map are (0.5, 0.5, 1) as data (128, 128, 255 in the file); the
    /// letters' slopes point every way.
    func testNormalMapExample() throws {
        let dir = try Plugin.folder("examples")
        let out = dir.appendingPathComponent("normal-map.png").path
        let result = Plugin.run("/usr/bin/env", ["gegl", "-i", examples.appendingPathComponent("normal-map.xml").path, "-o", out],
                                environment: Plugin.geglEnvironment)
        XCTAssertEqual(result.status, 0, result.output)
        let g = Graph()
        let load = g.add("gegl:load", ["path": .string(out)])
        let box = g.boundingBox(load)
        XCTAssertEqual(box.width, 480)
        let px = g.render(load, format: "R'G'B'A float", components: 4).map { Int(($0 * 255).rounded()) }
        XCTAssertEqual(Array(px[0..<4]), [128, 128, 255, 255], "flat corner")
        let greens = Set(stride(from: 1, to: px.count, by: 4).map { px[$0] })
        XCTAssertGreaterThan(greens.max()!, 170)
        XCTAssertLessThan(greens.min()!, 90)
    }

    func testHolographicCardHasFoilAndKeepsTheCard() throws {
        let (w, h, foil) = try renderExample("holographic-card")
        let (w0, h0, plain) = try renderExample("card")
        XCTAssertEqual(w, 420)
        XCTAssertEqual(h, 588)
        XCTAssertEqual(w0, w)
        XCTAssertEqual(h0, h)
        var changed = 0
        for i in 0..<(w * h) where abs(foil[4 * i] - plain[4 * i]) + abs(foil[4 * i + 2] - plain[4 * i + 2]) > 0.02 {
            changed += 1
        }
        XCTAssertGreaterThan(changed, w * h / 2, "the foil shows across the card")
        XCTAssertGreaterThan(variety(foil, w * h).colours, 2 * variety(plain, w * h).colours)
    }

    func testPythonExample() throws {
        let dir = try Plugin.folder("py")
        let out = dir.appendingPathComponent("py.png").path
        let script = examples.appendingPathComponent("python/liquid_metal.py").path
        let result = Plugin.run("/usr/bin/python3", [script, out, "Hg"], environment: Plugin.geglEnvironment)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("wrote"), result.output)
        let (w, h, px) = ReadmeTests.load(out)
        XCTAssertGreaterThan(w, 100)
        XCTAssertGreaterThan(h, 60)
        let opaque = (0..<(w * h)).filter { px[4 * $0 + 3] > 0.99 }.count
        let clear = (0..<(w * h)).filter { px[4 * $0 + 3] < 0.01 }.count
        XCTAssertGreaterThan(opaque, w * h / 20, "letters")
        XCTAssertGreaterThan(clear, w * h / 5, "cut out")
        XCTAssertGreaterThan(variety(px, w * h).colours, 50)
    }

    /// The map baker writes the five maps of one sprite (each at the sprite's size, opaque, flat
    /// ground as each map defines it) and the sheet.
    func testMaterialMapsExample() throws {
        let dir = try Plugin.folder("maps")
        let prefix = dir.appendingPathComponent("sprite").path, sheet = dir.appendingPathComponent("sheet.png").path
        let script = examples.appendingPathComponent("python/material_maps.py").path
        let result = Plugin.run("/usr/bin/python3", [script, prefix, "--sheet", sheet], environment: Plugin.geglEnvironment)
        XCTAssertEqual(result.status, 0, result.output)
        let flat: [String: [Int]] = ["height": [0, 0, 0], "normal-gl": [128, 128, 255], "normal-dx": [128, 128, 255],
                                     "ambient-occlusion": [255, 255, 255], "curvature": [128, 128, 128]]
        for (map, corner) in flat {
            // The file's own numbers (maps are data, not colours to convert).
            let g = Graph()
            let load = g.add("gegl:load", ["path": .string("\(prefix)-\(map).png")])
            let box = g.boundingBox(load)
            XCTAssertEqual(box.width, 280, map)
            XCTAssertEqual(box.height, 140, map)
            let bytes = g.render(load, format: "R'G'B'A float", components: 4).map { Int(($0 * 255).rounded()) }
            XCTAssertEqual(Array(bytes[0..<4]), corner + [255], "\(map): flat corner")
            XCTAssertTrue(stride(from: 3, to: bytes.count, by: 4).allSatisfy { bytes[$0] == 255 }, "\(map): opaque")
            XCTAssertGreaterThan(Set(stride(from: 0, to: bytes.count, by: 4).map { bytes[$0] }).count, 20, "\(map): relief")
        }
        let (w, h, _) = ReadmeTests.load(sheet)
        XCTAssertEqual(w, 8 + 3 * 288)
        XCTAssertEqual(h, 8 + 2 * 148)
    }
}
