import Foundation
import XCTest
@testable import MercurialKernels

final class ShadedMaterialTests: XCTestCase {
    /// A shading image whose red channel is the pixel's x index and green its y index: a bilinear
    /// sample then reads back the continuous coordinate (minus ½, clamped to the pixel centres).
    let ramp: ShadingImage = {
        var px = [Float](repeating: 0, count: 64 * 32 * 4)
        for y in 0..<32 { for x in 0..<64 { px[4 * (y * 64 + x)] = Float(x); px[4 * (y * 64 + x) + 1] = Float(y); px[4 * (y * 64 + x) + 3] = 1 } }
        return ShadingImage(width: 64, height: 32, rgba: px)
    }()

    /// Non-finite components of a shading image read as 0, and finite ones are kept exactly.
    func testNonFiniteShadingPixelsReadAsZero() {
        var px = [Float](repeating: 0.25, count: 4 * 4 * 4)
        px[0] = .nan; px[5] = .infinity; px[10] = -.infinity
        let image = ShadingImage(width: 4, height: 4, rgba: px)
        XCTAssertEqual(Array(image.rgba[0..<12]), [0, 0.25, 0.25, 0.25, 0.25, 0, 0.25, 0.25, 0.25, 0.25, 0, 0.25])
        XCTAssertEqual(Array(image.rgba[12...]), Array(px[12...]))
        var o = [Float](repeating: 0, count: 4)
        for (x, y) in [(0.5, 0.5), (1.0, 1.0), (2.5, 0.5), (3.9, 3.9)] as [(Float, Float)] {
            ShadedMaterial.sample(image, x, y, into: &o)
            XCTAssertTrue(o.allSatisfy(\.isFinite), "\(x), \(y): \(o)")
        }
    }

    /// Shades a height function over a w×h block (the grown window computed by clamping).
    func shade(_ f: (Int, Int) -> Float, width w: Int, height h: Int, scale: Float, alpha: Float = 1,
               shading: ShadingImage? = nil) -> [Float] {
        var ha = [Float](repeating: 0, count: (w + 2) * (h + 2) * 2)
        for y in 0..<(h + 2) {
            for x in 0..<(w + 2) {
                let cx = min(max(x - 1, 0), w - 1), cy = min(max(y - 1, 0), h - 1)
                ha[2 * (y * (w + 2) + x)] = f(cx, cy)
                ha[2 * (y * (w + 2) + x) + 1] = alpha
            }
        }
        var out = [Float](repeating: 0, count: w * h * 4)
        ha.withUnsafeBufferPointer { a in
            out.withUnsafeMutableBufferPointer {
                ShadedMaterial.shade(heightAlpha: a.baseAddress!, width: w, height: h, scale: scale,
                                     shading: shading ?? ramp, into: $0.baseAddress!)
            }
        }
        return out
    }

    func testBilinearAtCentresAndEdges() {
        var o = [Float](repeating: 0, count: 4)
        ShadedMaterial.sample(ramp, 10.5, 3.5, into: &o); XCTAssertEqual(o[0], 10); XCTAssertEqual(o[1], 3)
        ShadedMaterial.sample(ramp, 10.75, 3.25, into: &o); XCTAssertEqual(o[0], 10.25); XCTAssertEqual(o[1], 2.75)
        ShadedMaterial.sample(ramp, 0, 0, into: &o); XCTAssertEqual(o[0], 0); XCTAssertEqual(o[1], 0)
        ShadedMaterial.sample(ramp, 64, 32, into: &o); XCTAssertEqual(o[0], 63); XCTAssertEqual(o[1], 31)
        ShadedMaterial.sample(ramp, -100, 1e9, into: &o); XCTAssertEqual(o[0], 0); XCTAssertEqual(o[1], 31)
        ShadedMaterial.sample(ramp, .nan, .nan, into: &o); XCTAssertEqual(o[0], 31.5); XCTAssertEqual(o[1], 15.5)
    }

    /// h = a·x: n = normalize(−s·a, 0, 1), sampled at ((n.x + 1)/2·W, H/2).
    func testPlaneOfKnownSlope() {
        for (a, s) in [(Float(0.05), Float(10)), (-0.02, 10), (0.1, -4), (0.3, 25)] {
            let out = shade({ x, _ in a * Float(x) }, width: 9, height: 5, scale: s)
            let nx = -s * a / (s * a * s * a + 1).squareRoot()
            let want = max((nx + 1) / 2 * 64 - 0.5, 0)
            XCTAssertEqual(out[4 * (2 * 9 + 4)], want, accuracy: 1e-4, "a \(a) s \(s)")
            XCTAssertEqual(out[4 * (2 * 9 + 4) + 1], 15.5, accuracy: 1e-5)
        }
        // Rising towards the bottom of the image takes colour from the upper half.
        let down = shade({ _, y in 0.05 * Float(y) }, width: 5, height: 9, scale: 10)
        XCTAssertLessThan(down[4 * (4 * 5 + 2) + 1], 15.5 - 3)
        // A negative scale mirrors it.
        let mirrored = shade({ _, y in 0.05 * Float(y) }, width: 5, height: 9, scale: -10)
        XCTAssertEqual(mirrored[4 * (4 * 5 + 2) + 1] - 15.5, 15.5 - down[4 * (4 * 5 + 2) + 1], accuracy: 1e-4)
    }

    /// A paraboloid's top is flat: its centre takes the shading image's centre.
    func testParaboloidCentrePicksSphereCentre() {
        let out = shade({ x, y in 1 - 0.01 * Float((x - 10) * (x - 10) + (y - 10) * (y - 10)) }, width: 21, height: 21, scale: 10)
        XCTAssertEqual(out[4 * (10 * 21 + 10)], 31.5, accuracy: 1e-5)
        XCTAssertEqual(out[4 * (10 * 21 + 10) + 1], 15.5, accuracy: 1e-5)
        // Off-centre it tilts outwards (its normal points away from the top).
        XCTAssertGreaterThan(out[4 * (10 * 21 + 15)], 31.5)
        XCTAssertLessThan(out[4 * (5 * 21 + 10) + 1], 15.5)
    }

    func testAlphaIsShadingAlphaTimesInputAlpha() {
        let sphere = Hemisphere.shadingImage(HemisphereParameters(size: 16, lights: [], diffuse: .zero, specular: .zero, shininess: 1, ambient: 0))
        let out = shade({ _, _ in 0 }, width: 3, height: 3, scale: 10, alpha: 0.25, shading: sphere)
        XCTAssertEqual(out[4 * 4 + 3], 0.25) // centre of the sphere: alpha 1
        // Steep slopes reach the sphere's anti-aliased rim, where its alpha falls to about ½.
        let steep = shade({ x, y in 100 * Float(x + y) }, width: 3, height: 3, scale: 10, shading: sphere)
        XCTAssertLessThan(steep[4 * 4 + 3], 0.6)
    }

    /// Every pixel of a mixed block — flat and sloped groups of four, a row tail, alphas in and out
    /// of [0, 1], NaN — against the formula evaluated pixel by pixel through `sample`.
    func testMixedBlockMatchesFormulaPerPixel() {
        let alphas: [Float] = [1, 0.25, 1, .nan, 2, -1, 1, .infinity, 0.5]
        checkMixedBlock { x, y in alphas[(x + 2 * y) % alphas.count] }
    }

    /// The same block with one alpha per row: flat groups whose neighbours share their alpha are
    /// opaque (alpha 1), translucent, transparent or non-finite, each kept per pixel.
    func testFlatRowsOfEveryAlphaMatchFormulaPerPixel() {
        let rows: [Float] = [1, 0.25, 1, 0.25, 0.5, 0, 0.5, 1, 1]
        checkMixedBlock { _, y in rows[y] }
        checkMixedBlock { _, y in y == 4 ? .nan : 0.75 }
    }

    /// A lit sphere of 16² pixels and its centre's sample (what every flat pixel takes).
    func smallSphere() -> (ShadingImage, [Float]) {
        let sphere = Hemisphere.shadingImage(HemisphereParameters(size: 16, lights: LightSpec.studio.map(\.light),
                                                              diffuse: SIMD3(0.6, 0.6, 0.6), specular: SIMD3(1, 1, 1),
                                                              shininess: 30, ambient: 0.1))
        var centre = [Float](repeating: 0, count: 4)
        ShadedMaterial.sample(sphere, 8, 8, into: &centre)
        return (sphere, centre)
    }

    /// Flat clear runs (alpha +0) are stored four pixels at a time: the centre's colour with alpha
    /// +0, as pixel by pixel; an alpha of −0 takes the per-pixel path and keeps its sign.
    func testFlatClearRunsAsPixelByPixel() {
        let (sphere, centre) = smallSphere()
        XCTAssertGreaterThan(centre[3], 0)
        for (alpha, sign) in [(Float(0), FloatingPointSign.plus), (-Float(0), .minus)] {
            let out = shade({ _, _ in 0.5 }, width: 13, height: 2, scale: 10, alpha: alpha, shading: sphere)
            for i in 0..<26 {
                XCTAssertEqual(Array(out[(4 * i)..<(4 * i + 3)]), Array(centre[0..<3]), "pixel \(i)")
                XCTAssertEqual(out[4 * i + 3], 0)
                XCTAssertEqual(out[4 * i + 3].sign, sign, "pixel \(i), alpha \(alpha)")
            }
        }
    }

    /// Sloped pixels are shaded eight at a time; a row whose last sloped group starts four pixels
    /// before its end is shaded from eight before the end, so its flat pixels there are shaded
    /// twice. They keep the flat path's values, bit for bit: opaque, translucent and clear.
    func testFlatPixelsShadedTwiceAtARowsEndKeepTheirBits() {
        let (sphere, centre) = smallSphere()
        for alpha: Float in [1, 0.5, 0] {
            // Flat to x = 8, sloped from 9 on: the groups at 0 and 4 are flat, the one at 8 is not.
            let out = shade({ x, _ in x < 9 ? 0.5 : 0.5 + 0.1 * Float((x - 8) * (x - 8)) }, width: 12, height: 3,
                            scale: 10, alpha: alpha, shading: sphere)
            for y in 0..<3 {
                for x in 0..<8 {
                    let pixel = Array(out[(4 * (12 * y + x))..<(4 * (12 * y + x) + 4)])
                    let expected = [centre[0], centre[1], centre[2], centre[3] * alpha]
                    XCTAssertEqual(pixel.map(\.bitPattern), expected.map(\.bitPattern), "pixel \(x), \(y), alpha \(alpha)")
                }
                if alpha > 0 {
                    XCTAssertNotEqual(Array(out[(4 * (12 * y + 11))..<(4 * (12 * y + 11) + 3)]), Array(centre[0..<3]),
                                      "row \(y): the slope shows")
                }
            }
        }
    }

    func checkMixedBlock(alpha: (Int, Int) -> Float, file: StaticString = #filePath, line: UInt = #line) {
        let w = 23, h = 9, s: Float = 7
        let sphere = Hemisphere.shadingImage(HemisphereParameters(size: 40, lights: LightSpec.studio.map(\.light),
                                                              diffuse: SIMD3(0.6, 0.6, 0.6), specular: SIMD3(1, 1, 1),
                                                              shininess: 30, ambient: 0.1))
        func height(_ x: Int, _ y: Int) -> Float {
            if x < 8 { return 0.5 }                                     // flat
            if x < 12 { return y == 4 ? 0.7 : 0.5 }                     // one bump
            return 0.03 * Float((x - 12) * (x - 12)) - 0.02 * Float(y) // sloped everywhere
        }
        var ha = [Float](repeating: 0, count: (w + 2) * (h + 2) * 2)
        for y in 0..<(h + 2) {
            for x in 0..<(w + 2) {
                let cx = min(max(x - 1, 0), w - 1), cy = min(max(y - 1, 0), h - 1)
                ha[2 * (y * (w + 2) + x)] = height(cx, cy)
                ha[2 * (y * (w + 2) + x) + 1] = alpha(cx, cy)
            }
        }
        var out = [Float](repeating: 0, count: w * h * 4)
        ha.withUnsafeBufferPointer { a in
            out.withUnsafeMutableBufferPointer {
                ShadedMaterial.shade(heightAlpha: a.baseAddress!, width: w, height: h, scale: s, shading: sphere,
                                     into: $0.baseAddress!)
            }
        }
        for y in 0..<h {
            for x in 0..<w {
                let a = alpha(x, y), factor = a.isFinite ? min(max(a, 0), 1) : 0 // a non-finite alpha counts as 0
                // A pixel that shows nothing takes the flat sample, whatever its slope.
                var sample = formulaSample(factor == 0 ? { _, _ in 0 } : height, x, y, width: w, height: h, scale: s,
                                           shading: sphere)
                sample[3] *= factor
                for k in 0..<4 {
                    XCTAssertEqual(out[4 * (y * w + x) + k], sample[k], accuracy: 2e-6, "pixel \(x), \(y) channel \(k)",
                                   file: file, line: line)
                }
            }
        }
        XCTAssertTrue(out.allSatisfy(\.isFinite), file: file, line: line)
    }

    /// Steep slopes in every direction sample the shading image's last rows and columns, where
    /// the bilinear neighbours repeat the edge; every pixel equals the formula through `sample`.
    /// (Over 2,000 sloped pixels: more than the kernel keeps waiting for their lookups at once.)
    func testSteepSlopesReachEveryEdgeOfTheShadingImage() {
        let w = 61, h = 37
        func height(_ x: Int, _ y: Int) -> Float { Float((x - 30) * abs(x - 30) + (y - 18) * abs(y - 18)) / 40 }
        var reached = (left: false, right: false, top: false, bottom: false)
        for s: Float in [1e4, -1e4, 40, 3] {
            let out = shade(height, width: w, height: h, scale: s)
            for y in 0..<h {
                for x in 0..<w {
                    let sample = formulaSample(height, x, y, width: w, height: h, scale: s, shading: ramp)
                    for k in 0..<4 {
                        XCTAssertEqual(out[4 * (y * w + x) + k], sample[k], accuracy: 1e-4, "scale \(s), pixel \(x), \(y), channel \(k)")
                    }
                    reached.left = reached.left || sample[0] < 0.5
                    reached.right = reached.right || sample[0] > 62.5
                    reached.top = reached.top || sample[1] < 0.5
                    reached.bottom = reached.bottom || sample[1] > 30.5
                }
            }
        }
        XCTAssertTrue(reached.left && reached.right && reached.top && reached.bottom, "\(reached)")
    }

    func testNonFiniteHeightsAndScales() {
        let out = shade({ x, _ in x == 2 ? .nan : (x == 3 ? .infinity : 0) }, width: 6, height: 3, scale: 10)
        XCTAssertTrue(out.allSatisfy(\.isFinite))
        for s in [Float.infinity, -.infinity, .nan, 1e30] {
            XCTAssertTrue(shade({ x, _ in Float(x) }, width: 4, height: 3, scale: s).allSatisfy(\.isFinite))
        }
    }
}

/// The shaded-material formula for pixel (x, y) of a w × h height field, evaluated directly:
/// central differences (clamped at the edges), the normal, and the shading image sampled through
/// `ShadingImage.sample` at ((n.x + 1)/2 · W, (n.y + 1)/2 · H). RGBA, before the input's alpha.
func formulaSample(_ height: (Int, Int) -> Float, _ x: Int, _ y: Int, width w: Int, height h: Int, scale s: Float,
                   shading: ShadingImage) -> [Float] {
    let gx = (height(min(x + 1, w - 1), y) - height(max(x - 1, 0), y)) / 2
    let gy = (height(x, min(y + 1, h - 1)) - height(x, max(y - 1, 0))) / 2
    let n = SIMD3<Float>(-s * gx, -s * gy, 1)
    let len = (n * n).sum().squareRoot()
    var sample = [Float](repeating: 0, count: 4)
    ShadedMaterial.sample(shading, (n.x / len + 1) / 2 * Float(shading.width), (n.y / len + 1) / 2 * Float(shading.height), into: &sample)
    return sample
}
