import Foundation
import GeglHost
import MercurialKernels
import XCTest

final class HolographicPluginTests: PluginTestCase {
    let op = "mercurial:holographic-hue"

    /// A card-like picture: a gradient with a darker frame, semi-transparent corner.
    func card(width: Int = 120, height: Int = 90) -> [Float] {
        var px = [Float](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let frame = x < 6 || y < 6 || x >= width - 6 || y >= height - 6
                let i = 4 * (y * width + x)
                px[i] = frame ? 0.1 : Float(x) / Float(width)
                px[i + 1] = frame ? 0.1 : 0.5
                px[i + 2] = frame ? 0.15 : Float(y) / Float(height)
                px[i + 3] = x < 10 && y < 10 ? 0.5 : 1
            }
        }
        return px
    }

    func expected(_ input: [Float], _ p: HolographicParameters, x: Int, y: Int, width: Int, height: Int,
                  extent: (Int, Int, Int, Int), aux: [Float]? = nil) -> [Float] {
        var out = [Float](repeating: 0, count: input.count)
        let plan = HolographicPlan(p, extent: extent)
        input.withUnsafeBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o in
                if let aux {
                    aux.withUnsafeBufferPointer {
                        Holographic.apply(plan, input: i.baseAddress!, aux: $0.baseAddress!, output: o.baseAddress!,
                                          x: x, y: y, width: width, count: width * height)
                    }
                } else {
                    Holographic.apply(plan, input: i.baseAddress!, aux: nil, output: o.baseAddress!, x: x, y: y,
                                      width: width, count: width * height)
                }
            }
        }
        return out
    }

    func testGraphEqualsKernel() {
        let pixels = card()
        let buffer = Buffer(x: 7, y: -3, width: 120, height: 90, format: "R'G'B'A float", pixels: pixels)
        let g = Graph()
        let src = g.add("gegl:buffer-source", ["buffer": .buffer(buffer)])
        let foil = g.add(op, ["strength": .double(0.3), "cell-size": .double(17), "offset": .double(0.2),
                              "seed": .int(42), "sweep": .double(1.5), "sweep-angle": .double(60)])
        g.link(src, foil)
        XCTAssertEqual(g.get(foil, "seed"), "42")
        XCTAssertTrue(g.boundingBox(foil) == (7, -3, 120, 90))
        let got = render(g, foil, x: 7, y: -3, width: 120, height: 90, format: "R'G'B'A float", components: 4)
        let p = HolographicParameters(offset: 0.2, strength: 0.3, cellSize: 17, displacement: 1, seed: 42, sweep: 1.5, sweepAngle: 60)
        assertSamePixels(got, expected(pixels, p, x: 7, y: -3, width: 120, height: 90, extent: (7, -3, 120, 90)))
    }

    /// aux = gegl:cell-noise: its perceptual luminance replaces the Voronoi values.
    func testCellNoiseOnAux() {
        let pixels = card()
        let buffer = Buffer(width: 120, height: 90, format: "R'G'B'A float", pixels: pixels)
        let g = Graph()
        let src = g.add("gegl:buffer-source", ["buffer": .buffer(buffer)])
        let noise = g.add("gegl:cell-noise", ["scale": .double(3)])
        let foil = g.add(op, ["strength": .double(0.5)])
        g.link(src, foil)
        g.connect(noise, to: foil, pad: "aux")
        let got = render(g, foil, x: 0, y: 0, width: 120, height: 90, format: "R'G'B'A float", components: 4)
        let aux = render(g, noise, x: 0, y: 0, width: 120, height: 90, format: "Y' float", components: 1)
        XCTAssertGreaterThan(Set(aux).count, 50)
        let want = expected(pixels, HolographicParameters(strength: 0.5), x: 0, y: 0, width: 120, height: 90,
                            extent: (0, 0, 120, 90), aux: aux)
        XCTAssertLessThan(zip(got, want).map { abs($0 - $1) }.max()!, 1e-6)
        // And it differs from the built-in Voronoi.
        let plain = expected(pixels, HolographicParameters(strength: 0.5), x: 0, y: 0, width: 120, height: 90,
                             extent: (0, 0, 120, 90))
        XCTAssertGreaterThan(zip(got, plain).map { abs($0 - $1) }.max()!, 0.05)
    }

    func testStrengthZeroReturnsInputBitExactly() {
        var pixels = card()
        pixels[17] = .nan
        let buffer = Buffer(width: 120, height: 90, format: "RGBA float", pixels: pixels)
        let g = Graph()
        let src = g.add("gegl:buffer-source", ["buffer": .buffer(buffer)])
        let foil = g.add(op, ["strength": .double(0)])
        g.link(src, foil)
        let got = render(g, foil, x: 0, y: 0, width: 120, height: 90, format: "RGBA float", components: 4)
        XCTAssertEqual(got.map { $0.bitPattern }, pixels.map { $0.bitPattern })
    }

    func testThreadAndTileInvariance() {
        let buffer = Buffer(width: 120, height: 90, format: "R'G'B'A float", pixels: card())
        var results: [[Float]] = []
        for (threads, tile) in [(1, 128), (2, 128), (2, 16), (1, 37)] {
            let g = Graph()
            let src = g.add("gegl:buffer-source", ["buffer": .buffer(buffer)])
            let foil = g.add(op, ["strength": .double(0.2), "sweep": .double(2)])
            g.link(src, foil)
            results.append(render(g, foil, x: 0, y: 0, width: 120, height: 90, format: "R'G'B'A float", components: 4,
                                  threads: threads, tile: tile))
        }
        for r in results.dropFirst() { assertSamePixels(r, results[0]) }
    }

    /// image → foil → gegl:png-save, in one real graph; the file reads back with the foil in it.
    func testChainToPngSave() throws {
        let dir = try Plugin.folder("holo")
        let path = dir.appendingPathComponent("card.png").path
        let g = Graph()
        let src = g.add("gegl:buffer-source", ["buffer": .buffer(Buffer(width: 120, height: 90, format: "R'G'B'A float", pixels: card()))])
        let foil = g.add(op, ["strength": .double(0.4)])
        let save = g.add("gegl:png-save", ["path": .string(path)])
        g.link(src, foil, save)
        g.process(save)
        let (w, h, rgba) = ReadmeTests.load(path)
        XCTAssertEqual(w, 120)
        XCTAssertEqual(h, 90)
        XCTAssertEqual(rgba[4 * 0 + 3], 0.5, accuracy: 0.01, "alpha kept")
        let hues = Set((0..<(w * h)).map { Int(rgba[4 * $0] * 20) * 400 + Int(rgba[4 * $0 + 1] * 20) * 20 + Int(rgba[4 * $0 + 2] * 20) })
        XCTAssertGreaterThan(hues.count, 100)
    }
}
