import Foundation
import GeglHost
import XCTest

/// GeglBridge's base classes and property kinds that Mercurial's own ops do not use, through the
/// test-only plug-in (Sources/MercurialTestOps): a point filter with a string property, and a
/// plain filter that moves its bounding box.
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
}
