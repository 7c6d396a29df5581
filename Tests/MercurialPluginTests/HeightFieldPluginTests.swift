import Foundation
import GeglHost
import MercurialKernels
import XCTest

final class HeightFieldPluginTests: PluginTestCase {
    let op = "mercurial:height-field-from-mask"

    /// A 96×80 mask (an anti-aliased ring and strokes) as a "YA float" buffer, at an odd origin.
    func maskBuffer() -> (Buffer, Plane) {
        var plane = Plane(width: 96, height: 80)
        for y in 0..<80 {
            for x in 0..<96 {
                let d = (Double(x) - 40.3).hypot(Double(y) - 37.8)
                plane[x, y] = Float(min(max(24.5 - d, 0), 1) * min(max(d - 9.2, 0), 1))
                if x > 70 && x < 74 { plane[x, y] = 1 }
                if y == 70 && x > 5 { plane[x, y] = 0.6 }
            }
        }
        var ya = [Float](repeating: 1, count: 96 * 80 * 2)
        for i in 0..<(96 * 80) { ya[2 * i] = plane.pixels[i] }
        return (Buffer(x: 13, y: -7, width: 96, height: 80, format: "YA float", pixels: ya), plane)
    }

    func testListedWithKeys() {
        XCTAssertTrue(Gegl.hasOperation(op))
        XCTAssertEqual(Gegl.key(op, "title"), "Height Field from Mask")
        XCTAssertEqual(Gegl.key(op, "gimp:menu-path"), "<Image>/Filters/Light and Shadow/Mercurial")
        XCTAssertNotNil(Gegl.key(op, "description"))
    }

    func testPropertiesRoundTrip() {
        let g = Graph()
        let n = g.add(op)
        XCTAssertEqual(g.get(n, "radius"), "10.0")
        XCTAssertEqual(g.get(n, "profile"), "core-image")
        XCTAssertEqual(g.get(n, "mask"), "alpha")
        g.set(n, "radius", .double(37.25))
        g.set(n, "profile", .string("smooth"))
        g.set(n, "mask", .string("luminance-alpha"))
        XCTAssertEqual(g.get(n, "radius"), "37.25")
        XCTAssertEqual(g.get(n, "profile"), "smooth")
        XCTAssertEqual(g.get(n, "mask"), "luminance-alpha")
        // Out of range: GLib refuses the value (with a warning) and the old one stays.
        g.set(n, "radius", .double(1e6))
        XCTAssertEqual(g.get(n, "radius"), "37.25")
    }

    /// Every style, with and without soften, for each profile: the op (the Core Image profile
    /// streams its sides' rows; the others work on whole windows) equals the kernel's whole-plane
    /// computation, with the coverage as alpha.
    func testStylesEqualKernel() {
        let (buffer, plane) = maskBuffer()
        let nicks = ["inner-bevel", "outer-bevel", "emboss", "pillow-emboss"]
        for profile in [BevelProfile.coreImage, .round] {
            for style in BevelStyle.allCases {
                for soften in [0.0, 1.7, 13.0] { // (13: on a grid)
                    let g = Graph()
                    let src = g.add("gegl:buffer-source", ["buffer": .buffer(buffer)])
                    let hf = g.add(op, ["mask": .string("luminance-alpha"), "radius": .double(7.5), "profile": .string(profile == .round ? "round" : "core-image"),
                                        "style": .string(nicks[style.rawValue]), "soften": .double(soften),
                                        "keep-alpha": .bool(true)])
                    g.link(src, hf)
                    let got = render(g, hf, x: 13, y: -7, width: 96, height: 80, format: "YA float", components: 2)
                    let p = HeightFieldParameters(radius: 7.5, profile: profile, style: style, soften: soften)
                    // (The window's origin in the image: a soften on a grid is the image's grid.)
                    let (want, coverage) = HeightField.styled(window: plane.padded(by: p.halo), parameters: p,
                                                              origin: (13 - p.halo, -7 - p.halo))
                    let what = "\(profile) \(style) soften \(soften)"
                    assertSamePixels(stride(from: 0, to: got.count, by: 2).map { got[$0] }, want.pixels, what, components: 1)
                    // The input is opaque: alpha 1, whatever the coverage.
                    XCTAssertTrue(stride(from: 1, to: got.count, by: 2).allSatisfy { got[$0] == 1 }, what)
                    XCTAssertEqual(coverage == nil, style == .inner, what)
                }
            }
        }
    }

    /// keep-alpha: the same heights, beside the input's own alpha (not the mask's), for every
    /// profile; on a frame tall enough that blocks are taller than the ring of kept rows, so the
    /// rows read again are covered too.
    func testKeepAlphaCarriesTheInputsAlpha() {
        let w = 300, h = 2600
        var rgba = [Float](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let i = 4 * (y * w + x)
                let inside: Float = ((x / 40 + y / 90) % 2 == 0) ? 1 : 0
                rgba[i] = inside * 0.8; rgba[i + 1] = 0.3; rgba[i + 2] = Float(x % 7) / 7
                rgba[i + 3] = inside * Float(1 + (x + 3 * y) % 5) / 5
            }
        }
        let layer = Buffer(x: -5, y: 11, width: w, height: h, format: "RGBA float", pixels: rgba)
        for profile in ["core-image", "round"] {
            func heights(keepAlpha: Bool, format: String) -> [Float] {
                let g = Graph()
                let src = g.add("gegl:buffer-source", ["buffer": .buffer(layer)])
                let hf = g.add(op, ["radius": .double(6), "profile": .string(profile), "mask": .string("alpha"),
                                    "keep-alpha": .bool(keepAlpha)])
                g.link(src, hf)
                return render(g, hf, x: -5, y: 11, width: w, height: h, format: format, components: format == "YA float" ? 2 : 1)
            }
            // Each in the op's own format (Y float, YA float with keep-alpha), so that no conversion
            // by babl (whose choice of path may change a last bit) stands between the two.
            let plain = heights(keepAlpha: false, format: "Y float"), kept = heights(keepAlpha: true, format: "YA float")
            let plainWithAlpha = heights(keepAlpha: false, format: "YA float")
            var heightMismatches = 0, alphaMismatches = 0, opaque = 0
            for i in 0..<(w * h) {
                if plain[i] != kept[2 * i] { heightMismatches += 1 }
                if kept[2 * i + 1] != rgba[4 * i + 3] { alphaMismatches += 1 }
                if plainWithAlpha[2 * i + 1] == 1 { opaque += 1 }
            }
            XCTAssertEqual(heightMismatches, 0, profile)
            XCTAssertEqual(alphaMismatches, 0, profile)
            XCTAssertEqual(opaque, w * h, "without keep-alpha the height field is opaque (\(profile))")
        }
    }

    /// buffer-source → op → blit equals the kernel's own result, for every profile.
    func testGraphEqualsKernel() {
        let (buffer, plane) = maskBuffer()
        for profile in BevelProfile.allCases {
            let g = Graph()
            let src = g.add("gegl:buffer-source", ["buffer": .buffer(buffer)])
            let hf = g.add(op, ["mask": .string("luminance-alpha"), "radius": .double(7.5), "profile": .string(["core-image", "round", "linear", "smooth"][profile.rawValue])])
            g.link(src, hf)
            let box = g.boundingBox(hf)
            XCTAssertTrue(box == (13, -7, 96, 80), "output keeps the input's extent, got \(box)")
            let got = render(g, hf, x: 13, y: -7, width: 96, height: 80, format: "Y float", components: 1)
            let p = HeightFieldParameters(radius: 7.5, profile: profile)
            let want = HeightField.compute(window: plane.padded(by: p.halo), parameters: p)
            assertSamePixels(got, want.pixels, "\(profile)", components: 1)
            XCTAssertGreaterThan(want.pixels.max()!, 0.5)
        }
    }

    /// Same bytes for 1 and 2 threads and for different tile sizes.
    func testThreadAndTileInvariance() {
        let (buffer, _) = maskBuffer()
        for profile in ["core-image", "round"] {
            var results: [[Float]] = []
            for (threads, tile) in [(1, 128), (2, 128), (2, 32), (1, 17)] {
                let g = Graph()
                let src = g.add("gegl:buffer-source", ["buffer": .buffer(buffer)])
                let hf = g.add(op, ["mask": .string("luminance-alpha"), "radius": .double(9), "profile": .string(profile)])
                g.link(src, hf)
                results.append(render(g, hf, x: 13, y: -7, width: 96, height: 80, format: "Y float", components: 1,
                                      threads: threads, tile: tile))
            }
            for r in results.dropFirst() { assertSamePixels(r, results[0], profile, components: 1) }
        }
    }

    /// An uncropped checkerboard has an infinite extent: the op neither hangs nor allocates the
    /// plane; any finite region renders.
    func testInfiniteExtentInput() {
        let g = Graph()
        let board = g.add("gegl:checkerboard", ["x": .int(40), "y": .int(40)])
        let hf = g.add(op, ["mask": .string("luminance-alpha"), "radius": .double(12)])
        g.link(board, hf)
        XCTAssertGreaterThan(g.boundingBox(hf).width, 1 << 28)
        // A hang here would stall the run; the hostile-input suite runs such cases under a time limit.
        let out = render(g, hf, x: -1_000_000, y: 5_000_000, width: 200, height: 120, format: "Y float", components: 1)
        XCTAssertTrue(out.allSatisfy { $0 >= 0 && $0 <= 1 })
        XCTAssertGreaterThan(out.max()!, 0.5)
    }

    /// Nothing on the input pad: empty output, no crash.
    func testMissingInput() {
        let g = Graph()
        let hf = g.add(op, ["mask": .string("luminance-alpha")])
        XCTAssertEqual(g.boundingBox(hf).width, 0)
        let out = render(g, hf, x: 0, y: 0, width: 16, height: 16, format: "Y float", components: 1)
        XCTAssertEqual(out, [Float](repeating: 0, count: 256))
    }

    /// NaN and infinite pixels do not spread NaN or crash.
    func testNonFiniteInput() {
        var ya = [Float](repeating: 1, count: 40 * 40 * 2)
        ya[2 * (20 * 40 + 20)] = .nan
        ya[2 * (5 * 40 + 5)] = .infinity
        ya[2 * (30 * 40 + 7) + 1] = .nan
        let buffer = Buffer(width: 40, height: 40, format: "YA float", pixels: ya)
        for profile in ["core-image", "round", "linear", "smooth"] {
            let g = Graph()
            let src = g.add("gegl:buffer-source", ["buffer": .buffer(buffer)])
            let hf = g.add(op, ["mask": .string("luminance-alpha"), "radius": .double(6), "profile": .string(profile)])
            g.link(src, hf)
            let out = render(g, hf, x: 0, y: 0, width: 40, height: 40, format: "Y float", components: 1)
            XCTAssertTrue(out.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 }, profile)
        }
    }
}

extension Double {
    func hypot(_ o: Double) -> Double { (self * self + o * o).squareRoot() }
}
