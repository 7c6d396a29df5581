import Foundation
import XCTest
@testable import MercurialKernels

/// Independent reference: the Blinn formula in Double with the real pow.
func referenceBlinn(u: Double, v: Double, _ p: HemisphereParameters) -> [Double] {
    let z = max(0, 1 - u * u - v * v).squareRoot()
    let n = [u, v, z]
    func norm(_ a: [Double]) -> [Double] { let l = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).squareRoot(); return a.map { $0 / l } }
    func dot(_ a: [Double], _ b: [Double]) -> Double { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] }
    var c = (0..<3).map { Double(p.ambient) * Double(p.diffuse[$0]) }
    for light in p.lights {
        let lp = (0..<3).map { Double(light.position[$0]) }
        let l = norm(zip(lp, n).map { $0 - $1 })
        let h = norm([l[0], l[1], l[2] + 1])
        let nl = max(dot(n, l), 0), nh = max(dot(n, h), 0)
        for k in 0..<3 {
            c[k] += Double(p.diffuse[k]) * nl * Double(light.color[k]) + Double(p.specular[k]) * pow(nh, Double(p.shininess)) * Double(light.color[k])
        }
    }
    return c
}

func dot(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float { (a * b).sum() }
func normalize(_ a: SIMD3<Float>) -> SIMD3<Float> { a / dot(a, a).squareRoot() }

final class HemisphereTests: XCTestCase {
    func render(_ p: HemisphereParameters, x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil) -> [Float] {
        let w = width ?? p.size, h = height ?? p.size
        var out = [Float](repeating: -1, count: w * h * 4)
        for row in 0..<h {
            out.withUnsafeMutableBufferPointer {
                Hemisphere.render(p, x: x, y: y + row, width: w, count: w, into: $0.baseAddress! + row * w * 4)
            }
        }
        return out
    }

    func testBlinnMatchesReferenceAtChosenPoints() {
        let p = HemisphereParameters.studio
        let img = render(p)
        let size = p.size
        // Centre, near the rim, and a few others, at pixel centres.
        for (px, py) in [(255, 255), (256, 256), (20, 256), (256, 3), (100, 140), (400, 380), (490, 250)] {
            let u = (Double(px) + 0.5) * 2 / Double(size) - 1, v = (Double(py) + 0.5) * 2 / Double(size) - 1
            guard u * u + v * v <= 1 else { continue }
            let want = referenceBlinn(u: u, v: v, p)
            for k in 0..<3 {
                XCTAssertEqual(Double(img[4 * (py * size + px) + k]), want[k], accuracy: 1e-3 * max(1, want[k]), "(\(px),\(py)) ch \(k)")
            }
            XCTAssertEqual(img[4 * (py * size + px) + 3], 1)
        }
    }

    /// One distant light up-right-front: the highlight sits where N = normalize(L̂ + E).
    func testHighlightPosition() {
        let light = OmniLight(position: SIMD3(1000, 0, 1000), color: SIMD3(1, 1, 1))
        let p = HemisphereParameters(size: 401, lights: [light], diffuse: .zero, specular: SIMD3(1, 1, 1), shininess: 200, ambient: 0)
        let img = render(p)
        var best = 0
        for i in 0..<(401 * 401) where img[4 * i] > img[4 * best] { best = i }
        let n = normalize(normalize(SIMD3<Float>(1, 0, 1)) + SIMD3(0, 0, 1))
        let wantX = (Double(n.x) + 1) / 2 * 401 - 0.5
        XCTAssertEqual(Double(best % 401), wantX, accuracy: 1.5)
        XCTAssertEqual(Double(best / 401), 200, accuracy: 1.5)
        // A light on the view axis lights the centre most.
        let front = HemisphereParameters(size: 101, lights: [OmniLight(position: SIMD3(0, 0, 50), color: SIMD3(1, 1, 1))],
                                         diffuse: SIMD3(0.5, 0.5, 0.5), specular: SIMD3(1, 1, 1), shininess: 30, ambient: 0)
        let f = render(front)
        var fb = 0
        for i in 0..<(101 * 101) where f[4 * i] > f[4 * fb] { fb = i }
        XCTAssertEqual(fb, 50 * 101 + 50)
    }

    func testTransparentOutsideWithAntialiasedRim() {
        let p = HemisphereParameters.studio
        let img = render(p, width: 512, height: 512)
        XCTAssertEqual(Array(img[0..<4]), [0, 0, 0, 0])
        XCTAssertEqual(img[4 * (511 * 512 + 511) + 3], 0)
        // Along row 40 (v ≈ −0.84, rim near x = 117), alpha climbs from 0 to 1 over about a pixel.
        let row = (100..<140).map { img[4 * (40 * 512 + $0) + 3] }
        XCTAssertEqual(row[0], 0)
        XCTAssertTrue(row.contains { $0 > 0 && $0 < 1 })
        XCTAssertEqual(row[39], 1)
        XCTAssertEqual(row, row.sorted())
    }

    /// Any tile equals the same pixels of the whole render.
    func testTilesEqualWhole() {
        let p = HemisphereParameters.studio
        let whole = render(p)
        for (x, y, w, h) in [(0, 0, 7, 5), (250, 250, 13, 17), (500, 100, 12, 30), (37, 411, 64, 3)] {
            let tile = render(p, x: x, y: y, width: w, height: h)
            for row in 0..<h {
                XCTAssertEqual(Array(tile[(row * w * 4)..<((row + 1) * w * 4)]),
                               Array(whole[(((y + row) * 512 + x) * 4)..<(((y + row) * 512 + x + w) * 4)]))
            }
        }
    }

    func testFastPowMatchesPow() {
        for s: Float in [1, 8, 40, 200, 1000] {
            for x in stride(from: Float(0), through: 1, by: 0.0137) {
                let got = FastMath.pow01(V4(repeating: x), s)[0]
                XCTAssertEqual(got, pow(x, s), accuracy: max(2e-5, pow(x, s) * 2e-3), "x \(x) s \(s)")
            }
            XCTAssertEqual(FastMath.pow01(V4(repeating: 1), s)[0], 1, accuracy: 1e-6)
            XCTAssertEqual(FastMath.pow01(V4(repeating: 0), s)[0], 0)
        }
    }

    func testHueCircle() {
        let cases: [(Float, SIMD3<Float>)] = [(0, SIMD3(1, 0, 0)), (1.0 / 6, SIMD3(1, 1, 0)), (2.0 / 6, SIMD3(0, 1, 0)),
                                              (3.0 / 6, SIMD3(0, 1, 1)), (4.0 / 6, SIMD3(0, 0, 1)), (5.0 / 6, SIMD3(1, 0, 1)),
                                              (1.0 / 12, SIMD3(1, 0.5, 0)), (3.0 / 12, SIMD3(0.5, 1, 0)),
                                              (7.0 / 12, SIMD3(0, 0.5, 1)), (11.0 / 12, SIMD3(1, 0, 0.5)),
                                              (1, SIMD3(1, 0, 0)), (-1.0 / 6, SIMD3(1, 0, 1)), (2.5, SIMD3(0, 1, 1))]
        for (h, want) in cases {
            let got = Color.hueRGB(h)
            for k in 0..<3 { XCTAssertEqual(got[k], want[k], accuracy: 1e-5, "hue \(h)") }
        }
        XCTAssertEqual(Color.hueRGB(.nan), SIMD3(1, 0, 0))
        XCTAssertEqual(Color.hsb(0, 0, 1), SIMD3(1, 1, 1))
        XCTAssertEqual(Color.hsb(120, 1, 0.5), SIMD3(0, 0.5, 0))
    }
}
