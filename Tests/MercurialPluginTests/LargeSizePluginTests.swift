import Foundation
import GeglHost
import XCTest

/// Bevel sizes past 128 px through real GEGL: the coarse levels and GEGL's whole-layer cache give the
/// same pixels for any thread count, tile size, and region rendered on its own (GIMP's chunks).
final class LargeSizePluginTests: PluginTestCase {
    static let size = 120

    /// Black letters-like shapes (a disc and a bar) on transparency, at an odd origin.
    func layer() -> Buffer {
        let n = Self.size
        var rgba = [Float](repeating: 0, count: n * n * 4)
        for y in 0..<n {
            for x in 0..<n {
                let d = ((Double(x) + 0.5 - 40) * (Double(x) + 0.5 - 40) + (Double(y) + 0.5 - 60) * (Double(y) + 0.5 - 60)).squareRoot()
                var a = min(max(25 - d + 0.5, 0), 1)
                if x >= 80 && x < 92 && y >= 20 && y < 100 { a = 1 }
                rgba[4 * (y * n + x) + 3] = Float(a)
            }
        }
        return Buffer(x: 3, y: -7, width: n, height: n, format: "RGBA float", pixels: rgba)
    }

    let cases: [(String, [String: Value])] = [
        ("mercurial:liquid-metal", ["radius": .double(180), "style": .string("outer-bevel")]),
        ("mercurial:liquid-metal", ["radius": .double(250), "style": .string("emboss"), "soften": .double(3)]),
        ("mercurial:height-field-from-mask", ["radius": .double(140), "keep-alpha": .bool(true)]),
        ("mercurial:height-field-from-mask", ["radius": .double(250), "profile": .string("round"), "style": .string("outer-bevel"),
                                              "soften": .double(16)]),
        ("mercurial:bevel-emboss", ["size": .double(200)]),
        ("mercurial:height-field-from-mask", ["radius": .double(200), "profile": .string("linear"), "keep-alpha": .bool(true),
                                              "soften": .double(2)]),
        ("mercurial:liquid-metal", ["radius": .double(250), "technique": .string("chisel-soft")]),
    ]

    func picture(_ op: String, _ properties: [String: Value], threads: Int, tile: Int,
                 region: (x: Int, y: Int, width: Int, height: Int)? = nil) -> [Float] {
        let g = Graph()
        let src = g.add("gegl:buffer-source", ["buffer": .buffer(layer())])
        let node = g.add(op, properties)
        g.link(src, node)
        let r = region ?? (3, -7, Self.size, Self.size)
        return render(g, node, x: r.x, y: r.y, width: r.width, height: r.height, format: "RGBA float", components: 4,
                      threads: threads, tile: tile)
    }

    func testThreadTileAndRegionInvariance() {
        for (op, properties) in cases {
            let reference = picture(op, properties, threads: 1, tile: 128)
            // Relief there is: the picture is not flat.
            XCTAssertGreaterThan(Set(reference.enumerated().filter { $0.offset % 4 == 0 }.map(\.element)).count, 20, op)
            for (threads, tile) in [(2, 16), (2, 37)] {
                assertSamePixels(picture(op, properties, threads: threads, tile: tile), reference,
                                 "\(op) \(properties) threads \(threads) tile \(tile)")
            }
            // One region of a fresh graph, as GIMP's first chunk: the same pixels as the whole.
            let part = picture(op, properties, threads: 2, tile: 64, region: (30, 20, 17, 23))
            var want: [Float] = []
            for y in 0..<23 {
                let start = 4 * ((20 + 7 + y) * Self.size + (30 - 3))
                want += reference[start..<(start + 4 * 17)]
            }
            assertSamePixels(part, want, "\(op) \(properties) region")
        }
    }

    /// GEGL keeps what an op with a cached region computes in the node's cache, where a tile the op
    /// wrote only in part holds garbage beyond that part (a sampler reading a pixel past its request
    /// got NaN): the region is widened to whole tiles of GEGL's grid, within the op's extent.
    func testCachedRegionsAreWholeTiles() {
        Gegl.configure("tile-width", 128)
        Gegl.configure("tile-height", 64)
        for (op, p) in [("mercurial:shaded-material-from-mask", ["radius": Value.double(8)]),
                        ("mercurial:height-field-from-mask", ["radius": .double(8)]),
                        ("mercurial:height-field-from-mask", ["radius": .double(140)]),
                        ("mercurial:shaded-material-from-mask", ["radius": .double(60), "profile": .string("round")])] {
            for source in ["layer", "endless"] {
                let g = Graph()
                let src = source == "layer" ? g.add("gegl:buffer-source", ["buffer": .buffer(layer())])
                                            : g.add("gegl:checkerboard", ["x": .int(7), "y": .int(5)])
                let node = g.add(op, p)
                g.link(src, node)
                let extent = g.boundingBox(node)
                for (x, y, w, h) in [(30, 20, 17, 23), (3, -7, 5, 5), (100, 90, 23, 16)] {
                    let c = g.cachedRegion(node, x: x, y: y, width: w, height: h)
                    let what = "\(op) \(p) \(source) (\(x), \(y), \(w)×\(h)) → \(c)"
                    XCTAssertTrue(c.x <= x && c.y <= y && c.x + c.width >= x + w && c.y + c.height >= y + h, what)
                    // Each side on the tile grid, or at the op's extent.
                    XCTAssertTrue(c.x % 128 == 0 || c.x == extent.x, what)
                    XCTAssertTrue(c.y % 64 == 0 || c.y == extent.y, what)
                    XCTAssertTrue((c.x + c.width) % 128 == 0 || c.x + c.width == extent.x + extent.width, what)
                    XCTAssertTrue((c.y + c.height) % 64 == 0 || c.y + c.height == extent.y + extent.height, what)
                }
            }
        }
    }

    /// An inner chisel far wider than the shapes, through real GEGL: its heights are the exact
    /// distances to the edge (the linear profile: d / R, against every crossing), with the layer's
    /// alpha kept beside them; the same from a white-on-black layer's brightness.
    func testWideInnerChiselIsTheExactDistance() {
        let n = Self.size, radius = 200.0, original = layer()
        let rgba = original.pixels(format: "RGBA float", components: 4)
        let alpha = stride(from: 3, to: rgba.count, by: 4).map { rgba[$0] }
        // Crossings of the 0.5 iso-line between 4-neighbours, and each pixel's nearest.
        var crossings: [(Double, Double)] = []
        for y in 0..<n {
            for x in 0..<n {
                let a = Double(alpha[y * n + x])
                for (dx, dy) in [(1, 0), (0, 1)] where x + dx < n && y + dy < n {
                    let b = Double(alpha[(y + dy) * n + x + dx])
                    if (a >= 0.5) != (b >= 0.5) {
                        let t = (a - 0.5) / (a - b)
                        crossings.append((Double(x) + t * Double(dx), Double(y) + t * Double(dy)))
                    }
                }
            }
        }
        let white = alpha.flatMap { a -> [Float] in [a, a, a, 1] } // the shapes in white on opaque black
        let sources = [(original, "alpha"), (Buffer(x: 3, y: -7, width: n, height: n, format: "RGBA float", pixels: white), "luminance")]
        for (buffer, mask) in sources {
            let g = Graph()
            let src = g.add("gegl:buffer-source", ["buffer": .buffer(buffer)])
            let node = g.add("mercurial:height-field-from-mask", ["radius": .double(radius), "profile": .string("linear"),
                                                                   "mask": .string(mask), "keep-alpha": .bool(true)])
            g.link(src, node)
            let got = render(g, node, x: 3, y: -7, width: n, height: n, format: "YA float", components: 2, threads: 2, tile: 64)
            var sloped = 0
            for y in 0..<n {
                for x in 0..<n {
                    let i = y * n + x, inside = alpha[i] >= 0.5
                    let d = crossings.map { (($0.0 - Double(x)) * ($0.0 - Double(x)) + ($0.1 - Double(y)) * ($0.1 - Double(y))).squareRoot() }.min()!
                    let want = inside ? d / radius : 0
                    XCTAssertEqual(Double(got[2 * i]), want, accuracy: 1e-6, "\(mask) (\(x), \(y))")
                    XCTAssertEqual(got[2 * i + 1], mask == "alpha" ? alpha[i] : 1, "\(mask) alpha (\(x), \(y))")
                    if want > 0.05 { sloped += 1 }
                }
            }
            XCTAssertGreaterThan(sloped, 200, mask)
        }
    }

    /// A chisel at a large size reads far around each region too: GEGL computes the whole layer
    /// once (a preview in chunks costs one render); at a small size each region stays its own.
    func testWideExactDistanceHalosCacheTheLayer() {
        Gegl.configure("tile-width", 128)
        Gegl.configure("tile-height", 64)
        for (radius, whole) in [(60.0, true), (8.0, false)] {
            for op in ["mercurial:shaded-material-from-mask", "mercurial:height-field-from-mask"] {
                let g = Graph()
                let src = g.add("gegl:buffer-source", ["buffer": .buffer(layer())])
                let node = g.add(op, ["radius": .double(radius), "profile": .string("round")])
                g.link(src, node)
                let extent = g.boundingBox(node)
                let c = g.cachedRegion(node, x: 30, y: 20, width: 17, height: 23)
                let isWhole = c.x == extent.x && c.y == extent.y && c.width == extent.width && c.height == extent.height
                XCTAssertEqual(isWhole, whole, "\(op) radius \(radius): \(c) in \(extent)")
            }
        }
    }

    /// A node that keeps no cache computes just the region asked: only a cache's region is widened
    /// to whole tiles (which GEGL's own chunks of a render would compute twice where they meet).
    func testNodesWithoutACacheComputeJustTheRegion() {
        Gegl.configure("tile-width", 128)
        Gegl.configure("tile-height", 64)
        for op in ["mercurial:shaded-material-from-mask", "mercurial:height-field-from-mask"] {
            let g = Graph()
            let src = g.add("gegl:buffer-source", ["buffer": .buffer(layer())])
            let node = g.add(op, ["radius": .double(8)])
            g.link(src, node)
            g.setNodeProperty(node, "cache-policy", 1) // GEGL_CACHE_POLICY_NEVER
            _ = g.boundingBox(node)
            let c = g.cachedRegion(node, x: 30, y: 20, width: 17, height: 23)
            XCTAssertTrue(c == (30, 20, 17, 23), "\(op): \(c)")
        }
    }

    /// The metal ops give their heights' children a cache only where they share their halo (a
    /// large size); at a small size none, so that each region is computed once.
    func testMetalOpsCacheTheirHeightsOnlyAtLargeSizes() {
        for (op, key) in [("mercurial:liquid-metal", "radius"), ("mercurial:matcap", "radius"), ("mercurial:bevel-emboss", "size")] {
            let g = Graph()
            let node = g.add(op)
            let children = g.children(node, running: "mercurial:shaded-material-from-mask")
                + g.children(node, running: "mercurial:height-field-from-mask")
            XCTAssertFalse(children.isEmpty, op)
            // The default size, then a large one, then back on the same node.
            for (size, policy) in [(nil, 1), (250.0, 0), (8.0, 1)] {
                if let size { g.set(node, key, .double(size)) }
                for child in children {
                    XCTAssertEqual(g.nodeProperty(child, "cache-policy"), policy, "\(op) \(key) \(size ?? 0)")
                }
            }
        }
    }

    /// A region large enough to be made in several whole windows of exact distances is shared out
    /// among threads: each window is made by one thread and its tile rows shaded by any. The same
    /// pixels whatever the blocks and whoever shades them. (3000 × 2000 at 250 px: one thread takes
    /// three columns of one block, two and three threads two columns of two or three.)
    func testRegionSharedInItsWindowsGivesTheSameBits() {
        let (w, h) = (3000, 2000)
        var rgba = [Float](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let dx = Double(x) - 900, dy = Double(y) - 1100
                var a = min(max(420 - (dx * dx + dy * dy).squareRoot(), 0), 1)
                if (x >= 1700 && x < 1800 && y >= 300 && y < 1700) || (y >= 1500 && y < 1580 && x >= 1200 && x < 2700) { a = 1 }
                rgba[4 * (y * w + x) + 3] = Float(a)
            }
        }
        let layer = Buffer(x: 0, y: 0, width: w, height: h, format: "RGBA float", pixels: rgba)
        for style in ["outer-bevel", "inner-bevel"] {
            func picture(threads: Int) -> [Float] {
                let g = Graph()
                let src = g.add("gegl:buffer-source", ["buffer": .buffer(layer)])
                let node = g.add("mercurial:liquid-metal", ["radius": .double(250), "technique": .string("chisel-soft"),
                                                            "style": .string(style)])
                g.link(src, node)
                return render(g, node, x: 0, y: 0, width: w, height: h, format: "RGBA float", components: 4, threads: threads)
            }
            let one = picture(threads: 1)
            // Relief there is (the red of every 101st pixel).
            XCTAssertGreaterThan(Set(stride(from: 0, to: one.count, by: 4 * 101).map { one[$0] }).count, 100, style)
            assertSamePixels(picture(threads: 2), one, "\(style), two threads")
            assertSamePixels(picture(threads: 3), one, "\(style), three threads")
        }
    }
}
