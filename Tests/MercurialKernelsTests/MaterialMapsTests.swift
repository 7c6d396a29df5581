import MercurialKernels
import XCTest

/// mercurial:material-maps' kernel on shapes whose maps are known, against formulas in Double.
final class MaterialMapsTests: XCTestCase {
    /// The map of a w × h block from heights h(x, y) (block coordinates, the halo around it).
    func render(_ p: MaterialMapParameters, w: Int = 40, h: Int = 40, height: (Int, Int) -> Float) -> [Float] {
        let halo = p.halo, ww = w + 2 * halo, wh = h + 2 * halo
        var heights = [Float](repeating: 0, count: ww * wh + 16)
        for r in 0..<wh { for c in 0..<ww { heights[r * ww + c] = height(c - halo, r - halo) } }
        heights.withUnsafeMutableBufferPointer { MaterialMaps.clean($0.baseAddress!, count: ww * wh) }
        var out = [Float](repeating: .nan, count: w * h * p.components)
        heights.withUnsafeBufferPointer { hs in
            MaterialMaps.render(p, heights: hs.baseAddress! + halo * ww + halo, columns: ww, width: w, height: h, into: &out)
        }
        return rgba(out, p)
    }

    /// The kernel's pixels (R'G'B' for normals, one grey value for the others) as opaque RGBA.
    func rgba(_ out: [Float], _ p: MaterialMapParameters) -> [Float] {
        var pixels: [Float] = []
        for i in stride(from: 0, to: out.count, by: p.components) {
            let rgb: [Float] = p.components == 3 ? [out[i], out[i + 1], out[i + 2]] : [out[i], out[i], out[i]]
            pixels += rgb + [1]
        }
        return pixels
    }

    func pixel(_ out: [Float], _ x: Int, _ y: Int, w: Int = 40) -> SIMD4<Float> {
        SIMD4(out[4 * (y * w + x)], out[4 * (y * w + x) + 1], out[4 * (y * w + x) + 2], out[4 * (y * w + x) + 3])
    }

    /// A dome of radius 15 and height 1 around (20, 20).
    func dome(_ x: Int, _ y: Int) -> Float {
        let dx = Double(x) - 20, dy = Double(y) - 20
        return Float(max(0, 1 - (dx * dx + dy * dy) / 225).squareRoot())
    }

    func testFlatGround() {
        for map in MaterialMap.allCases {
            let out = render(MaterialMapParameters(map: map, relief: 10), height: { _, _ in 0.5 })
            let want: SIMD4<Float> = switch map {
            case .height: SIMD4(0.5, 0.5, 0.5, 1)
            case .normalGL, .normalDX: SIMD4(0.5, 0.5, 1, 1)
            case .ambientOcclusion: SIMD4(1, 1, 1, 1)
            case .curvature: SIMD4(0.5, 0.5, 0.5, 1)
            }
            for i in 0..<(40 * 40) { XCTAssertEqual(pixel(out, i % 40, i / 40), want, "\(map)") }
        }
    }

    func testDomeNormalsPointOutwardAndGreenFlips() {
        let p = MaterialMapParameters(map: .normalGL, relief: 8, normalStrength: 1.5)
        let gl = render(p, height: dome)
        var dxp = p
        dxp.map = .normalDX
        let dx = render(dxp, height: dome)
        // Right of the centre the normal leans right; above it, up (green high in OpenGL, low in DirectX).
        XCTAssertGreaterThan(pixel(gl, 28, 20).x, 0.6)
        XCTAssertLessThan(pixel(gl, 12, 20).x, 0.4)
        XCTAssertGreaterThan(pixel(gl, 20, 12).y, 0.6)
        XCTAssertLessThan(pixel(gl, 20, 28).y, 0.4)
        XCTAssertLessThan(pixel(dx, 20, 12).y, 0.4)
        for y in 0..<40 {
            for x in 0..<40 {
                let a = pixel(gl, x, y), b = pixel(dx, x, y)
                XCTAssertEqual(a.x, b.x)
                XCTAssertEqual(a.y + b.y, 1, accuracy: 1e-6)
                XCTAssertEqual(a.z, b.z)
                // The formula: central differences of z = relief · strength · h, normalised, (n + 1)/2.
                let g = 8 * 1.5
                let hx = (Double(dome(x + 1, y)) - Double(dome(x - 1, y))) / 2, hy = (Double(dome(x, y + 1)) - Double(dome(x, y - 1))) / 2
                let n = SIMD3(-g * hx, -g * hy, 1), len = (n * n).sum().squareRoot()
                XCTAssertEqual(Double(a.x), (n.x / len + 1) / 2, accuracy: 1e-5)
                XCTAssertEqual(Double(a.y), (-n.y / len + 1) / 2, accuracy: 1e-5)
                XCTAssertEqual(Double(a.z), (n.z / len + 1) / 2, accuracy: 1e-5)
                XCTAssertEqual(a.w, 1)
            }
        }
        // Inverted, the dome is a bowl: its normals lean inward.
        var bowl = p
        bowl.invert = true
        XCTAssertLessThan(pixel(render(bowl, height: dome), 28, 20).x, 0.4)
    }

    func testGapBetweenShapesIsMoreOccludedThanOpenGround() {
        let p = MaterialMapParameters(map: .ambientOcclusion, relief: 10, occlusionRadius: 12)
        // Two walls of height 1, four pixels apart (x 10..<16 and 20..<26), and a lone wall far off.
        let walls: (Int, Int) -> Float = { x, _ in (10..<16).contains(x) || (20..<26).contains(x) ? 1 : 0 }
        let out = render(p, w: 80, height: walls)
        func ao(_ x: Int) -> Float { out[4 * (20 * 80 + x)] }
        XCTAssertEqual(ao(60), 1, "open ground")
        XCTAssertLessThan(ao(18), ao(8), "between the walls against beside one")
        XCTAssertLessThan(ao(8), 1)
        XCTAssertEqual(ao(12), ao(13), accuracy: 0.2)
        // The formula at the gap's middle, x = 18: walls 3 px away both ways along x, diagonals see
        // them at 3√2 px; the axis along the walls sees nothing above.
        let t = p.occlusionDistances
        func horizon(_ step: Double, _ hit: (Int) -> Bool) -> Double {
            t.filter { hit($0) }.map { 10 / (Double($0) * step) }.max() ?? 0
        }
        let right = horizon(1) { (20..<26).contains(18 + $0) }, left = horizon(1) { (10..<16).contains(18 - $0) }
        let dr = horizon(2.0.squareRoot()) { (20..<26).contains(18 + $0) }, dl = horizon(2.0.squareRoot()) { (10..<16).contains(18 - $0) }
        let hidden = [right, left, dr, dr, dl, dl].map { $0 / ($0 * $0 + 1).squareRoot() }.reduce(0, +)
        XCTAssertEqual(Double(ao(18)), max(0, 1 - hidden / 8), accuracy: 1e-5)
    }

    func testCurvatureRidgeValleyAndFlat() {
        let p = MaterialMapParameters(map: .curvature, relief: 10, curvatureRadius: 2)
        // A ridge along x = 20 (a parabola's cap), a valley along x = 60, flat in between.
        let shape: (Int, Int) -> Float = { x, _ in
            let r = Double(x - 20), v = Double(x - 60)
            if abs(r) < 8 { return Float(0.8 - r * r / 100) }
            if abs(v) < 8 { return Float(0.2 + v * v / 100) }
            return Float(x < 40 ? 0.16 : 0.84)
        }
        let out = render(p, w: 80, height: shape)
        func c(_ x: Int) -> Float { out[4 * (10 * 80 + x)] }
        XCTAssertGreaterThan(c(20), 0.5)
        XCTAssertLessThan(c(60), 0.5)
        XCTAssertEqual(c(35), 0.5)
        // On the parabola ∇²z = ∓2·relief/100 exactly: C = 0.5 ± ½ · scale · s · (2 · 10/100).
        XCTAssertEqual(c(20), 0.5 + 0.5 * 2 * 0.2, accuracy: 1e-5)
        XCTAssertEqual(c(60), 0.5 - 0.5 * 2 * 0.2, accuracy: 1e-5)
    }

    func testHeightMapAndItsInverse() {
        let out = render(MaterialMapParameters(map: .height, relief: 1), height: dome)
        let inverse = render(MaterialMapParameters(map: .height, relief: 1, invert: true), height: dome)
        XCTAssertEqual(pixel(out, 20, 20), SIMD4(1, 1, 1, 1))
        XCTAssertEqual(pixel(inverse, 20, 20), SIMD4(0, 0, 0, 1))
        XCTAssertEqual(pixel(out, 25, 22).x, dome(25, 22))
        // Heights beyond [0, 1] and non-finite ones are read as 0 … 1.
        let wild = render(MaterialMapParameters(map: .height, relief: 1), w: 4, h: 1) { x, _ in [Float.nan, -3, 7, .infinity][x] }
        XCTAssertEqual(stride(from: 0, to: 16, by: 4).map { wild[$0] }, [0, 0, 1, 1])
    }

    /// Each pixel is the same whatever block it is rendered in (groups of sixteen start elsewhere).
    func testBlocksAgree() {
        for map in MaterialMap.allCases {
            let p = MaterialMapParameters(map: map, relief: 7, occlusionRadius: 9, curvatureRadius: 3)
            let whole = render(p, w: 40, h: 40, height: dome)
            let halo = p.halo, ww = 40 + 2 * halo
            var heights = [Float](repeating: 0, count: ww * ww + 16)
            for r in 0..<ww { for c in 0..<ww { heights[r * ww + c] = dome(c - halo, r - halo) } }
            heights.withUnsafeMutableBufferPointer { MaterialMaps.clean($0.baseAddress!, count: ww * ww) }
            var raw = [Float](repeating: .nan, count: 13 * 7 * p.components)
            heights.withUnsafeBufferPointer { hs in
                MaterialMaps.render(p, heights: hs.baseAddress! + (halo + 5) * ww + halo + 3, columns: ww, width: 13, height: 7,
                                    into: &raw)
            }
            let part = rgba(raw, p)
            for j in 0..<7 {
                for i in 0..<13 {
                    XCTAssertEqual(pixel(part, i, j, w: 13), pixel(whole, 3 + i, 5 + j), "\(map)")
                }
            }
        }
    }

    func testOcclusionDistancesAndBounds() {
        for r in [1, 2, 5, 16, 64, 128, 1000] {
            let d = MaterialMapParameters(map: .ambientOcclusion, relief: 1, occlusionRadius: r).occlusionDistances
            XCTAssertEqual(d.last, min(r, MaterialMapParameters.maximumOcclusionRadius))
            XCTAssertEqual(d, d.sorted())
            XCTAssertEqual(Set(d).count, d.count)
            XCTAssertLessThanOrEqual(d.count, 16)
        }
        let wild = MaterialMapParameters(map: .curvature, relief: .nan, normalStrength: .infinity, occlusionRadius: -4,
                                         occlusionStrength: .nan, curvatureRadius: 1 << 40, curvatureScale: -.infinity)
        XCTAssertEqual(wild.relief, 0)
        XCTAssertEqual(wild.occlusionRadius, 1)
        XCTAssertEqual(wild.curvatureRadius, MaterialMapParameters.maximumCurvatureRadius)
        XCTAssertTrue(wild.normalStrength.isFinite && wild.curvatureScale.isFinite && wild.occlusionStrength.isFinite)
    }
}
