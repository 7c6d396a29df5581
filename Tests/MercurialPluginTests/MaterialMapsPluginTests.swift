import Foundation
import GeglHost
import XCTest

/// mercurial:material-maps through real GEGL: the maps of a disc point the right ways, the tileable
/// maps of a seamless texture are the middle of the maps of its tiling, and tiles, threads and
/// regions never change a bit.
final class MaterialMapsPluginTests: PluginTestCase {
    static let maps = ["height", "normal-gl", "normal-dx", "ambient-occlusion", "curvature"]

    /// An opaque-on-transparent layer of w × h at (x0, y0) whose alpha is `alpha(x, y)` (layer
    /// coordinates from its corner).
    func layer(_ w: Int, _ h: Int, x0: Int = 0, y0: Int = 0, alpha: (Double, Double) -> Double) -> Buffer {
        var rgba = [Float](repeating: 0, count: w * h * 4)
        for y in 0..<h { for x in 0..<w { rgba[4 * (y * w + x) + 3] = Float(alpha(Double(x) + 0.5, Double(y) + 0.5)) } }
        return Buffer(x: x0, y: y0, width: w, height: h, format: "RGBA float", pixels: rgba)
    }

    func maps(of buffer: Buffer, _ properties: [String: Value], threads: Int = 2, tile: Int = 128,
              region: (x: Int, y: Int, width: Int, height: Int)? = nil) -> [Float] {
        let g = Graph()
        let src = g.add("gegl:buffer-source", ["buffer": .buffer(buffer)])
        let node = g.add("mercurial:material-maps", properties)
        g.link(src, node)
        let e = buffer.extent, r = region ?? (e.x, e.y, e.width, e.height)
        // In the op's own format (no conversion: babl may pick another path on another machine),
        // then as opaque RGBA.
        var map = "normal-gl"
        if case let .string(m)? = properties["map"] { map = m }
        let components = map.hasPrefix("normal") ? 3 : 1
        let raw = render(g, node, x: r.x, y: r.y, width: r.width, height: r.height,
                         format: components == 3 ? "R'G'B' float" : "Y' float", components: components, threads: threads, tile: tile)
        var rgba: [Float] = []
        rgba.reserveCapacity(raw.count / components * 4)
        for i in stride(from: 0, to: raw.count, by: components) {
            let rgb: [Float] = components == 3 ? [raw[i], raw[i + 1], raw[i + 2]] : [raw[i], raw[i], raw[i]]
            rgba += rgb + [1]
        }
        return rgba
    }

    /// A disc of radius 30 around (50, 50) in a 100 × 100 layer.
    func disc() -> Buffer {
        layer(100, 100) { x, y in min(max(30.5 - ((x - 50) * (x - 50) + (y - 50) * (y - 50)).squareRoot(), 0), 1) }
    }

    func testMapsOfADisc() {
        func at(_ p: [Float], _ x: Int, _ y: Int) -> SIMD4<Float> {
            let i = 4 * (y * 100 + x)
            return SIMD4(p[i], p[i + 1], p[i + 2], p[i + 3])
        }
        let gl = maps(of: disc(), ["map": .string("normal-gl"), "radius": .double(8)])
        let dx = maps(of: disc(), ["map": .string("normal-dx"), "radius": .double(8)])
        // On the bevel the normals lean outward: right of the centre red is high, above it green
        // (OpenGL; low in DirectX).
        XCTAssertGreaterThan(at(gl, 76, 50).x, 0.6)
        XCTAssertLessThan(at(gl, 24, 50).x, 0.4)
        XCTAssertGreaterThan(at(gl, 50, 24).y, 0.6)
        XCTAssertLessThan(at(dx, 50, 24).y, 0.4)
        XCTAssertEqual(at(gl, 50, 24).y + at(dx, 50, 24).y, 1, accuracy: 1e-6)
        // Flat ground far outside: (0.5, 0.5, 1), opaque; the disc's top is nearly flat.
        for (x, y) in [(3, 3), (97, 60)] {
            XCTAssertEqual(at(gl, x, y), SIMD4(0.5, 0.5, 1, 1), "(\(x), \(y))")
        }
        let top = at(gl, 50, 50) - SIMD4<Float>(0.5, 0.5, 1, 1)
        XCTAssertLessThan(max(abs(top.x), abs(top.y), abs(top.z), abs(top.w)), 2e-3)
        let ao = maps(of: disc(), ["map": .string("ambient-occlusion"), "radius": .double(8)])
        XCTAssertEqual(at(ao, 3, 3), SIMD4(1, 1, 1, 1))
        XCTAssertLessThan(at(ao, 81, 50).x, 0.95, "the ground at the disc's foot")
        let curvature = maps(of: disc(), ["map": .string("curvature"), "radius": .double(8), "technique": .string("chisel-hard")])
        XCTAssertEqual(at(curvature, 3, 3).x, 0.5)
        XCTAssertGreaterThan(at(curvature, 72, 50).x, 0.55, "the chisel's ridge")
        XCTAssertLessThan(at(curvature, 80, 50).x, 0.45, "the foot of the chisel")
        let height = maps(of: disc(), ["map": .string("height"), "radius": .double(8)])
        XCTAssertEqual(at(height, 3, 3), SIMD4(0, 0, 0, 1))
        XCTAssertGreaterThan(at(height, 50, 50).x, 0.9)
    }

    /// A seamless texture (discs on a 48-pixel lattice, one cut by every edge): tileable, its maps
    /// equal the middle of the maps of three by three copies of it; without, its edges differ.
    func testTileableMapsContinueAcrossTheWrap() {
        let w = 96, h = 48
        func texture(_ x: Double, _ y: Double) -> Double {
            var a = 0.0
            for (cx, cy) in [(0.0, 24.0), (48.0, 0.0), (70.0, 30.0)] {
                for kx in -1...1 {
                    for ky in -1...1 {
                        let dx = x - cx - Double(kx * w), dy = y - cy - Double(ky * h)
                        a = max(a, min(max(14.5 - (dx * dx + dy * dy).squareRoot(), 0), 1))
                    }
                }
            }
            return a
        }
        let single = layer(w, h, x0: 5, y0: -3) { texture($0, $1) }
        let tiled = layer(3 * w, 3 * h, x0: 5 - w, y0: -3 - h) { x, y in
            texture(x.truncatingRemainder(dividingBy: Double(w)), y.truncatingRemainder(dividingBy: Double(h)))
        }
        for map in Self.maps {
            let p: [String: Value] = ["map": .string(map), "radius": .double(6), "occlusion-radius": .double(10)]
            var wrapped = p
            wrapped["tileable"] = .bool(true)
            let got = maps(of: single, wrapped)
            let want = maps(of: tiled, p, region: (5, -3, w, h))
            XCTAssertGreaterThan(Set(got).count, 20, map)
            let largest = zip(got, want).map { abs($0 - $1) }.max() ?? .infinity
            XCTAssertLessThanOrEqual(largest, 1e-5, "\(map): tileable against the middle of the tiling")
            if map != "height" {
                XCTAssertNotEqual(maps(of: single, p), got, "\(map): the wrap changes the edges")
            }
        }
    }

    /// The same with coarse levels (size 40): a 7 × 7 tiling is wider than the bevel's reach.
    func testTileableMapsWithCoarseLevels() {
        let n = 96
        func texture(_ x: Double, _ y: Double) -> Double {
            // Discs on the lattice, one cut by the corner: seamless.
            var a = 0.0
            for (cx, cy) in [(0.0, 0.0), (60.0, 40.0)] {
                for kx in -1...1 {
                    for ky in -1...1 {
                        let dx = x - cx - Double(kx * n), dy = y - cy - Double(ky * n)
                        a = max(a, min(max(20.5 - (dx * dx + dy * dy).squareRoot(), 0), 1))
                    }
                }
            }
            return a
        }
        let single = layer(n, n) { texture($0, $1) }
        let tiled = layer(7 * n, 7 * n, x0: -3 * n, y0: -3 * n) { x, y in
            texture(x.truncatingRemainder(dividingBy: Double(n)), y.truncatingRemainder(dividingBy: Double(n)))
        }
        for map in ["height", "normal-gl"] {
            let p: [String: Value] = ["map": .string(map), "radius": .double(40)]
            var wrapped = p
            wrapped["tileable"] = .bool(true)
            let got = maps(of: single, wrapped), want = maps(of: tiled, p, region: (0, 0, n, n))
            let largest = zip(got, want).map { abs($0 - $1) }.max() ?? .infinity
            XCTAssertLessThanOrEqual(largest, 1e-5, "\(map): tileable at size 40 against the middle of the tiling")
        }
    }

    func testThreadsTilesAndRegionsGiveTheSameBits() {
        let shape = layer(90, 70, x0: -4, y0: 9) { x, y in
            let d = ((x - 30) * (x - 30) + (y - 35) * (y - 35)).squareRoot()
            return x >= 60 && x < 72 && y >= 10 && y < 60 ? 1 : min(max(22.5 - d, 0), 1)
        }
        let cases: [[String: Value]] = Self.maps.map { ["map": .string($0), "radius": .double(7)] } + [
            ["map": .string("ambient-occlusion"), "style": .string("outer-bevel"), "occlusion-radius": .double(30), "tileable": .bool(true)],
            ["map": .string("normal-gl"), "radius": .double(140), "technique": .string("chisel-soft"), "soften": .double(2)],
            ["map": .string("curvature"), "radius": .double(60), "style": .string("pillow-emboss"), "tileable": .bool(true)],
        ]
        for p in cases {
            let reference = maps(of: shape, p, threads: 1, tile: 128)
            for (threads, tile) in [(2, 16), (2, 37)] {
                assertSamePixels(maps(of: shape, p, threads: threads, tile: tile), reference, "\(p) threads \(threads) tile \(tile)")
            }
            let part = maps(of: shape, p, threads: 2, tile: 64, region: (20, 30, 17, 23))
            var want: [Float] = []
            for y in 0..<23 {
                let start = 4 * ((30 - 9 + y) * 90 + (20 + 4))
                want += reference[start..<(start + 4 * 17)]
            }
            assertSamePixels(part, want, "\(p) region")
        }
    }
}
