import Foundation
import GeglHost
import MercurialKernels
import XCTest

/// mercurial:lit-relief through real GEGL graphs.
final class LitReliefPluginTests: PluginTestCase {
    let op = "mercurial:lit-relief"
    let (x0, y0, w, h) = (-13, 7, 150, 110)

    /// A painted layer: colour strokes with soft alpha.
    func paint() -> [Float] {
        var px = [Float](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let i = 4 * (y * w + x)
                let d = abs(Float(y) - 40 - 20 * sinf(Float(x) / 20))
                px[i] = 0.2 + 0.6 * Float(x) / Float(w)
                px[i + 1] = 0.3
                px[i + 2] = 0.8 - 0.5 * Float(y) / Float(h)
                px[i + 3] = min(max(1 - (d - 12) / 6, 0), 1)
            }
        }
        return px
    }

    /// A height field: bumps.
    func bumps() -> [Float] {
        (0..<(w * h)).map { i in 0.5 + 0.5 * sinf(Float(i % w) / 7) * cosf(Float(i / w) / 9) }
    }

    func graph(aux: Bool, _ properties: [String: Value]) -> (Graph, Node) {
        let g = Graph()
        let src = g.add("gegl:buffer-source", ["buffer": .buffer(Buffer(x: x0, y: y0, width: w, height: h, format: "RGBA float", pixels: paint()))])
        let node = g.add(op, properties)
        g.link(src, node)
        if aux {
            let height = g.add("gegl:buffer-source", ["buffer": .buffer(Buffer(x: x0, y: y0, width: w, height: h, format: "Y float", pixels: bumps()))])
            g.connect(height, to: node, pad: "aux")
        }
        return (g, node)
    }

    let lit: [String: Value] = ["light1-type": .string("point"), "light1-x": .double(0.3), "light1-y": .double(0.1), "light1-z": .double(0.4),
                                "light1-falloff": .double(1.5), "light2-enabled": .bool(true), "contrast": .double(6),
                                "smoothness": .double(0.5), "shininess": .double(25)]

    /// The kernel over the whole layer, heights and colours as GEGL would deliver them (0 outside).
    func expected(heights: [Float], properties p: LitReliefParameters) -> [Float] {
        let halo = p.halo, ww = w + 2 * halo, wh = h + 2 * halo
        var window = [Float](repeating: 0, count: ww * wh)
        for y in 0..<h { for x in 0..<w { window[(y + halo) * ww + x + halo] = heights[y * w + x] } }
        var out = [Float](repeating: 0, count: w * h * 4)
        LitRelief.render(p, weights: p.weights, heights: window, color: paint(), x: x0, y: y0, width: w, height: h, into: &out)
        return out
    }

    func parameters() -> LitReliefParameters {
        // What the op builds from `lit` and its defaults on this extent (positions × the extent).
        let reach = Float(max(w, h))
        let key = ReliefLight(kind: .point, position: SIMD3(Float(x0) + 0.3 * Float(w), Float(y0) + 0.1 * Float(h), 0.4 * reach),
                              direction: ReliefLight.direction(azimuth: 135, elevation: 45), color: SIMD3(1.2, 1.2, 1.2),
                              falloff: 1.5, reach: reach)
        let fill = ReliefLight(kind: .directional, position: SIMD3(Float(x0) + 0.8 * Float(w), Float(y0) + 0.8 * Float(h), 0.5 * reach),
                               direction: ReliefLight.direction(azimuth: 315, elevation: 30),
                               color: SIMD3(0.55, 0.65, 1) * 0.5, falloff: 1, reach: reach)
        return LitReliefParameters(smoothness: 0.5, contrast: 6, lights: [key, fill], ambient: SIMD3(repeating: 0.3),
                                   specular: SIMD3(repeating: 0.8), shininess: 25)
    }

    /// The graph op keeps its aux pad and stays out of GIMP's menus; its menu sibling has no aux pad.
    func testListedWithKeys() {
        XCTAssertTrue(Gegl.hasOperation(op))
        XCTAssertNil(Gegl.key(op, "gimp:menu-path"))
        XCTAssertEqual(Gegl.key(op, "position-dependent"), "true")
        XCTAssertEqual(Gegl.key("mercurial:relief-lighting", "gimp:menu-path"), "<Image>/Filters/Light and Shadow/Mercurial")
        XCTAssertEqual(Gegl.key("mercurial:relief-lighting", "position-dependent"), "true")
    }

    func testGraphEqualsKernelWithAuxHeight() {
        let (g, node) = graph(aux: true, lit)
        XCTAssertTrue(g.boundingBox(node) == (x0, y0, w, h))
        let got = render(g, node, x: x0, y: y0, width: w, height: h, format: "RGBA float", components: 4)
        let want = expected(heights: bumps(), properties: parameters())
        XCTAssertEqual(got.count, want.count)
        var worst: Float = 0
        for i in got.indices { worst = max(worst, abs(got[i] - want[i])) }
        XCTAssertLessThan(worst, 1e-5)
        // The light's place shows: the lit side is brighter than the far corner.
        XCTAssertGreaterThan(got[4 * (20 * w + 40)] + got[4 * (20 * w + 40) + 1], got[4 * ((h - 5) * w + w - 5)] + got[4 * ((h - 5) * w + w - 5) + 1])
    }

    /// Without aux the height is the layer's alpha: the same as an aux that holds that alpha.
    func testNoAuxTakesTheHeightFromAlpha() {
        let (g, node) = graph(aux: false, lit)
        let got = render(g, node, x: x0, y: y0, width: w, height: h, format: "RGBA float", components: 4)
        let layer = paint()
        let alpha = stride(from: 3, to: layer.count, by: 4).map { layer[$0] }
        let want = expected(heights: alpha, properties: parameters())
        var worst: Float = 0
        for i in got.indices { worst = max(worst, abs(got[i] - want[i])) }
        XCTAssertLessThan(worst, 1e-5)
    }

    func testThreadAndTileInvariance() {
        let (g, node) = graph(aux: true, lit)
        let reference = render(g, node, x: x0 - 5, y: y0 + 3, width: w, height: h - 10, format: "RGBA float", components: 4,
                               threads: 1, tile: 128)
        for (threads, tile) in [(2, 16), (2, 23), (1, 37), (2, 128)] {
            let (g2, node2) = graph(aux: true, lit)
            let out = render(g2, node2, x: x0 - 5, y: y0 + 3, width: w, height: h - 10, format: "RGBA float", components: 4,
                             threads: threads, tile: tile)
            XCTAssertEqual(out, reference, "threads \(threads), tile \(tile)")
        }
    }

    func testNaNHeightsStayFinite() {
        let g = Graph()
        let src = g.add("gegl:buffer-source", ["buffer": .buffer(Buffer(x: x0, y: y0, width: w, height: h, format: "RGBA float", pixels: paint()))])
        var heights = bumps()
        for i in stride(from: 0, to: heights.count, by: 97) { heights[i] = i % 2 == 0 ? .nan : .infinity }
        let aux = g.add("gegl:buffer-source", ["buffer": .buffer(Buffer(x: x0, y: y0, width: w, height: h, format: "Y float", pixels: heights))])
        let node = g.add(op, lit)
        g.link(src, node)
        g.connect(aux, to: node, pad: "aux")
        let out = render(g, node, x: x0, y: y0, width: w, height: h, format: "RGBA float", components: 4)
        XCTAssertEqual(out.filter { !$0.isFinite }.count, 0)
    }

    /// An uncropped pattern through the op, cropped after it: the crop renders, and a region of the
    /// cropped result equals the same region of the uncropped one.
    func testInfiniteInputCroppedAfterTheOp() {
        let g = Graph()
        let board = g.add("gegl:checkerboard", ["x": .int(16), "y": .int(16), "color1": .string("rgb(0.8, 0.2, 0.1)")])
        let node = g.add(op, ["height-source": .string("luminance"), "contrast": .double(4)])
        let crop = g.add("gegl:crop", ["x": .double(100), "y": .double(-50), "width": .double(80), "height": .double(60)])
        g.link(board, node, crop)
        XCTAssertTrue(g.boundingBox(crop) == (100, -50, 80, 60))
        let cropped = render(g, crop, x: 100, y: -50, width: 80, height: 60, format: "RGBA float", components: 4)
        let whole = render(g, node, x: 100, y: -50, width: 80, height: 60, format: "RGBA float", components: 4)
        XCTAssertEqual(cropped, whole)
        XCTAssertTrue(cropped.allSatisfy(\.isFinite))
        XCTAssertGreaterThan(Set(cropped.map { Int($0 * 1000) }).count, 20, "lit, not flat")
    }

    /// The normal map is written as data: an 8-bit read gives 128, 128, 255 where the layer is flat.
    func testNormalMapIsWrittenAsData() {
        let (g, node) = graph(aux: true, ["output": .string("normal-map"), "smoothness": .double(0)])
        let flat = Graph()
        let source = flat.add("gegl:color", ["value": .string("white")])
        let crop = flat.add("gegl:crop", ["width": .double(64), "height": .double(64)])
        let normals = flat.add(op, ["output": .string("normal-map")])
        flat.link(source, crop, normals)
        let values = render(flat, normals, x: 0, y: 0, width: 64, height: 64, format: "R'G'B'A float", components: 4)
        let centre = 4 * (32 * 64 + 32)
        XCTAssertEqual(Array(values[centre..<(centre + 4)]), [0.5, 0.5, 1, 1], "flat, far from the layer's edge")
        let bumpsMap = render(g, node, x: x0, y: y0, width: w, height: h, format: "R'G'B'A float", components: 4)
        XCTAssertGreaterThan(Set(bumpsMap.map { Int($0 * 255) }).count, 50)
    }
}
