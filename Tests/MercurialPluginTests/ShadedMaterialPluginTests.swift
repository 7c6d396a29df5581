import Foundation
import GeglHost
import MercurialKernels
import XCTest

/// mercurial:hemisphere-light-render and mercurial:shaded-material in real GEGL graphs.
final class ShadedMaterialPluginTests: PluginTestCase {
    func testHemisphereDefaultsEqualKernel() {
        let g = Graph()
        let sphere = g.add("mercurial:hemisphere-light-render")
        XCTAssertTrue(g.boundingBox(sphere) == (0, 0, 512, 512))
        let got = render(g, sphere, x: 0, y: 0, width: 512, height: 512, format: "RGBA float", components: 4)
        assertSamePixels(got, Hemisphere.shadingImage(.studio).rgba)
    }

    func testHemispherePropertiesRoundTripAndChangeTheImage() {
        let g = Graph()
        let sphere = g.add("mercurial:hemisphere-light-render", ["size": .int(64)])
        let before = render(g, sphere, x: 0, y: 0, width: 64, height: 64, format: "RGBA float", components: 4)
        g.set(sphere, "light2-hue", .double(123.5))
        g.set(sphere, "light3-enabled", .bool(false))
        g.set(sphere, "specular-color", .string("rgb(1, 0.8, 0.2)"))
        g.set(sphere, "shininess", .double(7))
        XCTAssertEqual(g.get(sphere, "light2-hue"), "123.5")
        XCTAssertEqual(g.get(sphere, "light3-enabled"), "false")
        XCTAssertEqual(g.get(sphere, "specular-color"), "1.0,0.8,0.2,1.0")
        XCTAssertEqual(g.get(sphere, "shininess"), "7.0")
        let after = render(g, sphere, x: 0, y: 0, width: 64, height: 64, format: "RGBA float", components: 4)
        XCTAssertNotEqual(before, after)
        // And it is what the kernel renders for those parameters.
        var p = HemisphereParameters.studio
        p.size = 64
        var specs = LightSpec.studio
        specs[1].hue = 123.5
        specs[2].enabled = false
        p.lights = specs.filter(\.enabled).map(\.light)
        p.specular = SIMD3(1, 0.8, 0.2)
        p.shininess = 7
        assertSamePixels(after, Hemisphere.shadingImage(p).rgba)
    }

    /// Tiles and threads: a render of a sub-region equals the same pixels of the whole.
    func testHemisphereTileAndThreadInvariance() {
        let g = Graph()
        let sphere = g.add("mercurial:hemisphere-light-render", ["size": .int(300)])
        let whole = render(g, sphere, x: 0, y: 0, width: 300, height: 300, format: "RGBA float", components: 4, threads: 1)
        let again = render(g, sphere, x: 0, y: 0, width: 300, height: 300, format: "RGBA float", components: 4, threads: 2, tile: 32)
        assertSamePixels(whole, again)
        let part = render(g, sphere, x: 101, y: 57, width: 33, height: 21, format: "RGBA float", components: 4)
        for row in 0..<21 {
            XCTAssertEqual(Array(part[(row * 33 * 4)..<((row + 1) * 33 * 4)]),
                           Array(whole[(((57 + row) * 300 + 101) * 4)..<(((57 + row) * 300 + 134) * 4)]))
        }
    }

    /// A mask (buffer) → height field → shaded material, aux = hemisphere render, equals the kernels.
    func maskBuffer(width: Int, height: Int) -> (Buffer, Plane) {
        var plane = Plane(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let d = ((Double(x) - Double(width) / 2) * (Double(x) - Double(width) / 2)
                         + (Double(y) - Double(height) / 2) * (Double(y) - Double(height) / 2)).squareRoot()
                plane[x, y] = Float(min(max(Double(min(width, height)) * 0.35 - d, 0), 1))
                if x > 5 && x < 12 && y > 3 { plane[x, y] = 1 }
            }
        }
        var ya = [Float](repeating: 1, count: width * height * 2)
        for i in 0..<(width * height) { ya[2 * i] = plane.pixels[i] }
        return (Buffer(x: -4, y: 9, width: width, height: height, format: "YA float", pixels: ya), plane)
    }

    func liquidMetal(_ buffer: Buffer, aux: Bool, scale: Double = 10) -> (Graph, Node) {
        let g = Graph()
        let src = g.add("gegl:buffer-source", ["buffer": .buffer(buffer)])
        let hf = g.add("mercurial:height-field-from-mask", ["radius": .double(6), "mask": .string("luminance-alpha")])
        let shaded = g.add("mercurial:shaded-material", ["scale": .double(scale)])
        g.link(src, hf, shaded)
        if aux {
            let sphere = g.add("mercurial:hemisphere-light-render", ["size": .int(256)])
            g.connect(sphere, to: shaded, pad: "aux")
        }
        return (g, shaded)
    }

    func expected(_ plane: Plane, sphere: ShadingImage, scale: Float) -> [Float] {
        let p = HeightFieldParameters(radius: 6)
        let heights = HeightField.compute(window: plane.padded(by: p.halo), parameters: p)
        let w = plane.width, h = plane.height
        var ha = [Float](repeating: 1, count: (w + 2) * (h + 2) * 2)
        for y in 0..<(h + 2) {
            for x in 0..<(w + 2) {
                ha[2 * (y * (w + 2) + x)] = heights[min(max(x - 1, 0), w - 1), min(max(y - 1, 0), h - 1)]
            }
        }
        var out = [Float](repeating: 0, count: w * h * 4)
        ha.withUnsafeBufferPointer { a in
            out.withUnsafeMutableBufferPointer {
                ShadedMaterial.shade(heightAlpha: a.baseAddress!, width: w, height: h, scale: scale, shading: sphere, into: $0.baseAddress!)
            }
        }
        return out
    }

    func testFullGraphEqualsKernels() {
        let (buffer, plane) = maskBuffer(width: 70, height: 54)
        let (g, shaded) = liquidMetal(buffer, aux: true)
        XCTAssertTrue(g.boundingBox(shaded) == (-4, 9, 70, 54))
        let got = render(g, shaded, x: -4, y: 9, width: 70, height: 54, format: "RGBA float", components: 4)
        var p = HemisphereParameters.studio
        p.size = 256
        let want = expected(plane, sphere: Hemisphere.shadingImage(p), scale: 10)
        XCTAssertEqual(got.count, want.count)
        let err = zip(got, want).map { abs($0 - $1) }.max()!
        XCTAssertLessThan(err, 1e-6, Self.pixelDifference(got, want) ?? "")
        // The relief shows: edge pixels differ from the flat centre.
        XCTAssertGreaterThan(Set(got.map { Int($0 * 100) }).count, 20)
    }

    func testWithoutAuxUsesDefaultHemisphere() {
        let (buffer, plane) = maskBuffer(width: 40, height: 40)
        let (g, shaded) = liquidMetal(buffer, aux: false, scale: -7)
        let got = render(g, shaded, x: -4, y: 9, width: 40, height: 40, format: "RGBA float", components: 4)
        assertSamePixels(got, expected(plane, sphere: Hemisphere.shadingImage(.studio), scale: -7))
        XCTAssertTrue(got.contains { $0 > 0.05 }, "never a blank image")
        // An empty image on the aux pad counts as none.
        let empty = g.add("gegl:crop", ["width": .double(0), "height": .double(0)])
        let color = g.add("gegl:color", ["value": .string("red")])
        g.link(color, empty)
        g.connect(empty, to: shaded, pad: "aux")
        assertSamePixels(render(g, shaded, x: -4, y: 9, width: 40, height: 40, format: "RGBA float", components: 4), got)
        // So does an infinite one (an uncropped colour), with a defined result rather than a huge read.
        g.connect(color, to: shaded, pad: "aux")
        assertSamePixels(render(g, shaded, x: -4, y: 9, width: 40, height: 40, format: "RGBA float", components: 4), got)
    }

    func testThreadAndTileInvariance() {
        // Large enough that both threads take blocks of the op's own work sharing at every tile size.
        let (buffer, _) = maskBuffer(width: 300, height: 200)
        var results: [[Float]] = []
        for (threads, tile) in [(1, 128), (2, 128), (2, 16), (1, 23), (2, 23)] {
            let (g, shaded) = liquidMetal(buffer, aux: true)
            results.append(render(g, shaded, x: -4, y: 9, width: 300, height: 200, format: "RGBA float", components: 4,
                                  threads: threads, tile: tile))
        }
        for r in results.dropFirst() { assertSamePixels(r, results[0]) }
    }

    /// The shading image is read once per preparation and shared by later chunks: rendering in
    /// many small chunks (GEGL's processor, as for gegl:write-buffer) gives the kernels' result, and
    /// a change of the aux image between renders of the same graph shows in the next one.
    func testChunkedRendersFollowAuxChanges() {
        let (buffer, plane) = maskBuffer(width: 160, height: 120)
        let (g, shaded) = liquidMetal(buffer, aux: true)
        let sphere = g.add("mercurial:hemisphere-light-render", ["size": .int(256)])
        g.connect(sphere, to: shaded, pad: "aux")
        func processInChunks() -> [Float] {
            let out = Buffer(x: -4, y: 9, width: 160, height: 120, format: "RGBA float")
            let sink = g.add("gegl:write-buffer", ["buffer": .buffer(out)])
            g.link(shaded, sink)
            Gegl.configure("chunk-size", 1500)
            defer { Gegl.configure("chunk-size", 512 * 512) }
            g.process(sink)
            return out.pixels(format: "RGBA float", components: 4)
        }
        var p = HemisphereParameters.studio
        p.size = 256
        let first = processInChunks()
        assertSamePixels(first, expected(plane, sphere: Hemisphere.shadingImage(p), scale: 10), "chunked render ≠ kernels")
        g.set(sphere, "light1-hue", .double(200))
        var specs = LightSpec.studio
        specs[0].hue = 200
        p.lights = specs.filter(\.enabled).map(\.light)
        let second = processInChunks()
        XCTAssertTrue(second != first, "the aux change did not show")
        assertSamePixels(second, expected(plane, sphere: Hemisphere.shadingImage(p), scale: 10), "render after the change ≠ kernels")
        // A new aux node takes the place of the old one: the next render reads it.
        let small = g.add("mercurial:hemisphere-light-render", ["size": .int(64)])
        g.connect(small, to: shaded, pad: "aux")
        p = HemisphereParameters.studio
        p.size = 64
        assertSamePixels(processInChunks(), expected(plane, sphere: Hemisphere.shadingImage(p), scale: 10), "new aux node not read")
    }

    /// Shaded Material, and the same from a mask, with nothing on the input pad.
    func testMissingInputGivesEmptyOutput() {
        for op in ["mercurial:shaded-material", "mercurial:shaded-material-from-mask"] {
            let g = Graph()
            let shaded = g.add(op)
            let sphere = g.add("mercurial:hemisphere-light-render")
            g.connect(sphere, to: shaded, pad: "aux")
            XCTAssertEqual(g.boundingBox(shaded).width, 0, op)
            XCTAssertEqual(render(g, shaded, x: 0, y: 0, width: 8, height: 8, format: "RGBA float", components: 4),
                           [Float](repeating: 0, count: 256), op)
        }
    }
}
