import Foundation
import GeglHost
import XCTest

/// GeglBridge's base classes and property kinds that Mercurial's own ops do not use, through the
/// test-only plug-in (Sources/MercurialTestOps): a point filter with a string property, a plain
/// filter that moves its bounding box, and a filter that spreads its work over GEGL's threads itself.
final class BridgeTests: PluginTestCase {
    func testPointFilterAndStringProperty() {
        XCTAssertTrue(Gegl.hasOperation("mercurial-test:scale"), "the test plug-in is loaded next to the real one")
        let pixels: [Float] = [0.1, 0.2, 0.3, 0.5, 1, -1, 0.25, 1]
        let buffer = Buffer(x: 3, y: 4, width: 2, height: 1, format: "RGBA float", pixels: pixels)
        let g = Graph()
        let src = g.add("gegl:buffer-source", ["buffer": .buffer(buffer)])
        let scale = g.add("mercurial-test:scale", ["factor": .double(3)])
        g.link(src, scale)
        XCTAssertEqual(g.get(scale, "note"), "hello")
        g.set(scale, "note", .string("liquid ✓ metal"))
        XCTAssertEqual(g.get(scale, "note"), "liquid ✓ metal")
        let out = render(g, scale, x: 3, y: 4, width: 2, height: 1, format: "RGBA float", components: 4)
        XCTAssertEqual(out, [0.3, 0.6, 0.90000004, 0.5, 3, -3, 0.75, 1])
    }

    func testPlainFilterMovesBoundsAndPixels() {
        var pixels = [Float](repeating: 0, count: 4 * 4 * 2)
        for i in 0..<8 { pixels[4 * i] = Float(i); pixels[4 * i + 3] = 1 }
        let buffer = Buffer(width: 4, height: 2, format: "RGBA float", pixels: pixels)
        let g = Graph()
        let src = g.add("gegl:buffer-source", ["buffer": .buffer(buffer)])
        let shift = g.add("mercurial-test:shift", ["dx": .int(7)])
        g.link(src, shift)
        XCTAssertTrue(g.boundingBox(shift) == (7, 0, 4, 2))
        let out = render(g, shift, x: 7, y: 0, width: 4, height: 2, format: "RGBA float", components: 4)
        XCTAssertEqual(stride(from: 0, to: out.count, by: 4).map { out[$0] }, [0, 1, 2, 3, 4, 5, 6, 7])
        g.set(shift, "dx", .int(-2))
        XCTAssertEqual(g.get(shift, "dx"), "-2")
        XCTAssertTrue(g.boundingBox(shift) == (-2, 0, 4, 2))
    }

    /// `Parallel.run` over `tileBlocks`: every pixel filled exactly as asked, whatever the tile size,
    /// block width or thread count; with two threads, both take blocks.
    /// Holds for every schedule: each pixel is written by exactly one block (every block's pixels
    /// form its whole rectangle, anchored at the corner it names, no wider than asked or a tile), every pixel
    /// has its own position and input, and one thread gives the same pixels as two.
    func testWorkBalancedByTheOpCoversEveryPixelOnce() {
        let (x0, y0, w, h) = (5, -3, 1500, 400)
        var pixels = [Float](repeating: 0, count: w * h * 4)
        for i in 0..<(w * h) { pixels[4 * i] = Float((i * 7) % 11); pixels[4 * i + 3] = 1 }
        let buffer = Buffer(x: x0, y: y0, width: w, height: h, format: "RGBA float", pixels: pixels)
        for (tile, blockWidth, tileRows) in [(23, 50, 1), (23, 1, 1), (128, 4096, 1), (64, 100, 1), (17, 300, 1),
                                             (23, 50, 3), (64, 256, 2), (17, 40, 8)] {
            var byThreads: [Int: [Float]] = [:]
            for threads in [1, 2] {
                let g = Graph()
                let src = g.add("gegl:buffer-source", ["buffer": .buffer(buffer)])
                let op = g.add("mercurial-test:blocks", ["block-width": .int(blockWidth), "tile-rows": .int(tileRows)])
                g.link(src, op)
                // A region that starts and ends inside tiles.
                let (rx, ry, rw, rh) = (x0 + 3, y0 + 1, w - 7, h - 5)
                let out = render(g, op, x: rx, y: ry, width: rw, height: rh, format: "RGBA float", components: 4,
                                 threads: threads, tile: tile)
                let label = "tile \(tile), block width \(blockWidth), tile rows \(tileRows), threads \(threads)"
                var wrong = 0
                // Each block: the bounding box of the pixels it wrote, and how many.
                var boxes: [Int: (minX: Int, minY: Int, maxX: Int, maxY: Int, count: Int)] = [:]
                for y in 0..<rh {
                    for x in 0..<rw {
                        let o = 4 * (y * rw + x)
                        let i = (ry + y - y0) * w + (rx + x - x0)
                        if out[o] != Float(rx + x) || out[o + 1] != Float(ry + y) || out[o + 2] != Float((i * 7) % 11) { wrong += 1 }
                        let id = Int(out[o + 3])
                        let (px, py) = (rx + x, ry + y)
                        if let b = boxes[id] {
                            boxes[id] = (min(b.minX, px), min(b.minY, py), max(b.maxX, px), max(b.maxY, py), b.count + 1)
                        } else {
                            boxes[id] = (px, py, px, py, 1)
                        }
                    }
                }
                XCTAssertEqual(wrong, 0, label)
                var overlapping = 0
                for (id, b) in boxes {
                    let (cornerX, cornerY) = (id % 4096 - 1024, id / 4096 - 1024)
                    let (bw, bh) = (b.maxX - b.minX + 1, b.maxY - b.minY + 1)
                    // A block partly overwritten by another would leave a hole in its rectangle. GEGL
                    // may process whole tiles around the region, so a corner can lie outside it. A
                    // block is at least one tile of the op's output buffer wide (GEGL's 128 here,
                    // or the configured tile).
                    if b.count != bw * bh || b.minX != max(cornerX, rx) || b.minY != max(cornerY, ry)
                        || bw > max(blockWidth, tile, 128) || bh > tileRows * max(tile, 128) {
                        overlapping += 1
                    }
                }
                XCTAssertEqual(overlapping, 0, "\(label): blocks with holes, off their corner or too wide")
                XCTAssertGreaterThan(boxes.count, blockWidth < rw ? 1 : 0, label)
                // Positions and input only: where blocks fall may depend on how GEGL split the region.
                byThreads[threads] = stride(from: 0, to: out.count, by: 4).flatMap { out[$0..<($0 + 3)] }
            }
            XCTAssertEqual(byThreads[1], byThreads[2], "tile \(tile), block width \(blockWidth), tile rows \(tileRows): 1 thread = 2 threads")
        }
        Gegl.configure("threads", 2)
    }
}
