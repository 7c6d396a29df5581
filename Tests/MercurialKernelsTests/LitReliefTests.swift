import MercurialKernels
import XCTest

/// mercurial:lit-relief's kernel against formulas worked out independently, in Double.
final class LitReliefTests: XCTestCase {
    /// Renders a block of w × h at (x, y) from heights h(px, py) (image coordinates) and one colour.
    func render(_ p: LitReliefParameters, x: Int = 10, y: Int = 20, w: Int = 6, h: Int = 5,
                height: (Int, Int) -> Float, color: SIMD4<Float> = SIMD4(0.6, 0.4, 0.2, 0.8)) -> [Float] {
        render(p, x: x, y: y, w: w, h: h, height: height, colorAt: { _, _ in color })
    }

    /// `render` with each pixel's colour from its image coordinates.
    func render(_ p: LitReliefParameters, x: Int, y: Int, w: Int, h: Int,
                height: (Int, Int) -> Float, colorAt: (Int, Int) -> SIMD4<Float>) -> [Float] {
        let halo = p.halo, ww = w + 2 * halo, wh = h + 2 * halo
        var heights = [Float](repeating: 0, count: ww * wh)
        for r in 0..<wh { for c in 0..<ww { heights[r * ww + c] = height(x - halo + c, y - halo + r) } }
        var colours = [Float](repeating: 0, count: w * h * 4)
        for j in 0..<h { for i in 0..<w { for k in 0..<4 { colours[4 * (j * w + i) + k] = colorAt(x + i, y + j)[k] } } }
        var out = [Float](repeating: .nan, count: w * h * 4)
        LitRelief.render(p, weights: p.weights, heights: heights, color: colours, x: x, y: y, width: w, height: h,
                         into: &out)
        return out
    }

    /// The lighting formula, written out in Double for one pixel.
    func expected(n: SIMD3<Double>, point: SIMD3<Double>, light: ReliefLight, p: LitReliefParameters,
                  color: SIMD3<Double>) -> SIMD3<Double> {
        func d3(_ v: SIMD3<Float>) -> SIMD3<Double> { SIMD3(Double(v.x), Double(v.y), Double(v.z)) }
        let nn = n / (n * n).sum().squareRoot()
        var l = d3(light.direction), a = 1.0
        if light.kind == .point {
            let d = d3(light.position) - point
            let dist = (d * d).sum().squareRoot()
            l = d / dist
            a = pow(1 + dist / Double(light.reach), -Double(light.falloff))
        }
        var rgb = d3(p.ambient) * color
        let nl = (nn * l).sum()
        if nl > 0 {
            let hv = l + SIMD3(0, 0, 1)
            let nh = max((nn * hv).sum() / (hv * hv).sum().squareRoot(), 0)
            rgb += a * d3(light.color) * (nl * color + pow(nh, Double(p.shininess)) * d3(p.specular))
        }
        return rgb
    }

    func testPlaneOfKnownSlopeUnderAPointLight() {
        checkPlane(w: 6, h: 5)
    }

    /// Wide enough for full groups of eight pixels and a short last group in each row.
    func testWidePlaneOfKnownSlopeUnderAPointLight() {
        checkPlane(w: 37, h: 3)
    }

    /// Whole powers go by repeated squaring, others by exp2 and log2: both against pow in Double,
    /// from a gentle slope (broad gloss) to a steep one (gloss far below 2^−120, taken as 0).
    func testWholeAndFractionalPowers() {
        for (falloff, shininess) in [(Float(1), Float(40)), (2, 1), (2.5, 12.5), (0, 1000), (3, 999.5)] {
            for slope: Float in [0.3, 4] {
                checkPlane(w: 11, h: 2, falloff: falloff, shininess: shininess, slope: (slope, -0.2))
            }
        }
    }

    func checkPlane(w: Int, h: Int, falloff: Float = 1.5, shininess: Float = 12, slope: (Float, Float) = (0.3, -0.2)) {
        let light = ReliefLight(kind: .point, position: SIMD3(4, 3, 40), color: SIMD3(1.2, 1.0, 0.8), falloff: falloff,
                                reach: 100)
        let p = LitReliefParameters(smoothness: 0, contrast: 2.5, lights: [light], ambient: SIMD3(0.1, 0.2, 0.3),
                                    specular: SIMD3(0.5, 0.5, 0.5), shininess: shininess)
        let (a, b) = slope // h = a·x + b·y
        let out = render(p, w: w, h: h, height: { Float($0) * a + Float($1) * b })
        let n = SIMD3(-2.5 * Double(a), -2.5 * Double(b), 1)
        for j in 0..<h {
            for i in 0..<w {
                let want = expected(n: n, point: SIMD3(Double(10 + i) + 0.5, Double(20 + j) + 0.5, 0), light: light, p: p,
                                    color: SIMD3(0.6, 0.4, 0.2))
                let o = 4 * (j * w + i)
                for k in 0..<3 {
                    XCTAssertEqual(Double(out[o + k]), want[k], accuracy: 2e-5,
                                   "pixel \(i),\(j) channel \(k), falloff \(falloff), shininess \(shininess), slope \(a)")
                }
                XCTAssertEqual(out[o + 3], 0.8, "alpha is the layer's")
            }
        }
    }

    func testDirectionalLightMatchesBumpMapConvention() {
        // Azimuth 90°, elevation 45°: from the top of the image (y up), half-way up.
        let d = ReliefLight.direction(azimuth: 90, elevation: 45)
        XCTAssertEqual(d.x, 0, accuracy: 1e-6)
        XCTAssertEqual(d.y, -Float(0.5).squareRoot(), accuracy: 1e-6)
        XCTAssertEqual(d.z, Float(0.5).squareRoot(), accuracy: 1e-6)
        let light = ReliefLight(kind: .directional, direction: d, color: SIMD3(1, 1, 1))
        let p = LitReliefParameters(smoothness: 0, contrast: 1, lights: [light], ambient: .zero, specular: .zero)
        let out = render(p, height: { _, _ in 0 })
        // Flat: n·L = sin 45°.
        XCTAssertEqual(out[0], 0.6 * Float(0.5).squareRoot(), accuracy: 1e-6)
    }

    /// A light straight above a flat pixel at distance z: n·L = n·H = 1, so the light adds
    /// (1 + z/reach)^−falloff · colour · (C + specular).
    func testFalloffLaw() {
        for falloff: Float in [0, 1, 2, 3.5] {
            for z: Float in [10, 100, 250] {
                let light = ReliefLight(kind: .point, position: SIMD3(10.5, 20.5, z), color: SIMD3(1, 1, 1),
                                        falloff: falloff, reach: 100)
                let p = LitReliefParameters(smoothness: 0, contrast: 1, lights: [light], ambient: .zero,
                                            specular: SIMD3(0.25, 0.25, 0.25), shininess: 5)
                let out = render(p, w: 1, h: 1, height: { _, _ in 0.5 })
                let attenuation = pow(1 + Double(z) / 100, -Double(falloff))
                XCTAssertEqual(Double(out[0]), attenuation * (0.6 + 0.25), accuracy: 1e-5, "falloff \(falloff), z \(z)")
            }
        }
    }

    func testNormalMapEncodingOfAKnownSlope() {
        let (a, b): (Float, Float) = (0.1, 0.25)
        for output in [ReliefOutput.normalMap, .normalMapDirectX] {
            let p = LitReliefParameters(smoothness: 0, contrast: 4, lights: [], output: output)
            let out = render(p, height: { Float($0) * a + Float($1) * b })
            var n = SIMD3(-4 * Double(a), -4 * Double(b), 1)
            n /= (n * n).sum().squareRoot()
            let green = output == .normalMap ? -n.y : n.y
            XCTAssertEqual(Double(out[0]), (n.x + 1) / 2, accuracy: 1e-6)
            XCTAssertEqual(Double(out[1]), (green + 1) / 2, accuracy: 1e-6)
            XCTAssertEqual(Double(out[2]), (n.z + 1) / 2, accuracy: 1e-6)
            XCTAssertEqual(out[3], 0.8)
        }
        // Flat is (0.5, 0.5, 1).
        let flat = render(LitReliefParameters(smoothness: 0.6, contrast: 4, lights: [], output: .normalMap), height: { _, _ in 0.3 })
        XCTAssertEqual(Array(flat[0..<3]), [0.5, 0.5, 1])
    }

    /// Smoothness 0 is plain central differences of the heights themselves.
    func testSmoothnessZeroIsPlainCentralDifferences() {
        var rng = SystemRandomNumberGenerator()
        var table = [Float](repeating: 0, count: 30 * 30)
        for i in table.indices { table[i] = Float.random(in: 0...1, using: &rng) }
        let height: (Int, Int) -> Float = { x, y in table[(y - 15) * 30 + (x - 5)] }
        let p = LitReliefParameters(smoothness: 0, contrast: 3, lights: [], output: .normalMapDirectX)
        XCTAssertEqual(p.halo, 1)
        let out = render(p, w: 7, h: 6, height: height)
        for j in 0..<6 {
            for i in 0..<7 {
                let (x, y) = (10 + i, 20 + j)
                let dx = Double(height(x + 1, y) - height(x - 1, y)) / 2, dy = Double(height(x, y + 1) - height(x, y - 1)) / 2
                var n = SIMD3(-3 * dx, -3 * dy, 1)
                n /= (n * n).sum().squareRoot()
                let o = 4 * (j * 7 + i)
                XCTAssertEqual(Double(out[o]), (n.x + 1) / 2, accuracy: 1e-6)
                XCTAssertEqual(Double(out[o + 1]), (n.y + 1) / 2, accuracy: 1e-6)
            }
        }
    }

    /// The blur's weights sum to one and are symmetric, so it keeps a linear ramp: any smoothness
    /// gives a ramp's own normal.
    func testSmoothingKeepsARamp() {
        for s: Float in [0.1, 0.5, 1] {
            let p = LitReliefParameters(smoothness: s, contrast: 2, lights: [], output: .normalMapDirectX)
            XCTAssertEqual(Double(p.weights[0] + 2 * p.weights.dropFirst().reduce(0, +)), 1, accuracy: 1e-6)
            let out = render(p, height: { x, y in 0.05 * Float(x) - 0.02 * Float(y) })
            var n = SIMD3(-2 * 0.05, 2 * 0.02, 1)
            n /= (n * n).sum().squareRoot()
            XCTAssertEqual(Double(out[0]), (n.x + 1) / 2, accuracy: 1e-4, "smoothness \(s)")
            XCTAssertEqual(Double(out[1]), (n.y + 1) / 2, accuracy: 1e-4, "smoothness \(s)")
        }
    }

    /// `LitRelief.smooth` of a block's height window, with its working memory full of NaN first.
    func smooth(_ p: LitReliefParameters, _ heights: [Float], width: Int, height: Int) -> [Float] {
        var smoothed = [Float](repeating: .nan, count: (height + 2) * (width + 2))
        var scratch = [Float](repeating: .nan, count: LitRelief.smoothScratchCount(p, width: width, height: height))
        heights.withUnsafeBufferPointer { h in
            smoothed.withUnsafeMutableBufferPointer { s in
                scratch.withUnsafeMutableBufferPointer { sc in
                    LitRelief.smooth(p, weights: p.weights, heights: h.baseAddress!, width: width, height: height,
                                     into: s.baseAddress!, scratch: sc.baseAddress!)
                }
            }
        }
        return smoothed
    }

    /// The smoothed heights are the separable Gaussian of the formula, summed in Double
    /// here: blocks of odd and even height and of widths with and without a remainder of eight or
    /// sixteen (the loops take rows in pairs and columns in groups).
    func testSmoothedHeightsEqualAGaussianInDouble() {
        for (smoothness, width, height) in [(Float(0.75), 37, 7), (0.75, 30, 6), (0.3, 17, 1), (0.5, 64, 9)] {
            let p = LitReliefParameters(smoothness: smoothness, lights: [])
            let halo = p.halo, taps = p.taps, w = p.weights
            let ww = width + 2 * halo, wh = height + 2 * halo
            var state: UInt32 = 12345
            let heights = (0..<(ww * wh)).map { _ -> Float in
                state = state &* 1_664_525 &+ 1_013_904_223
                return Float(state >> 8) / Float(1 << 24)
            }
            let columns = width + 2, rows = height + 2
            let smoothed = smooth(p, heights, width: width, height: height)
            for r in 0..<rows {
                for c in 0..<columns {
                    var want = 0.0
                    for i in -taps...taps {
                        for j in -taps...taps {
                            want += Double(w[abs(i)]) * Double(w[abs(j)]) * Double(heights[(r + taps + i) * ww + (c + taps + j)])
                        }
                    }
                    XCTAssertEqual(Double(smoothed[r * columns + c]), want, accuracy: 1e-5,
                                   "smoothness \(smoothness), \(width)×\(height): row \(r), column \(c)")
                }
            }
        }
    }

    /// Rows and columns of +0 are not blurred but stored as +0, which is what blurring them gives:
    /// the smoothed heights equal, bit for bit, the same two passes written plainly here (each value
    /// w₀·x + Σₖ wₖ·(x₋ₖ + x₊ₖ), taps in order, across then down), on fields that are mostly +0 with
    /// islands, lone values, −0, NaN, and bands of every kind at the block's edges; blocks up to
    /// 1100 wide (bitmaps of several words).
    func testZeroRegionsSmoothAsComputed() {
        for (smoothness, width, height, seed) in [(Float(0.75), 256, 128, UInt32(1)), (0.75, 61, 37, 2), (0.3, 200, 9, 3),
                                                  (1, 97, 50, 4), (0.25, 13, 40, 5), (0.25, 40, 120, 6),
                                                  (0.75, 256, 128, 7), (0.5, 600, 24, 8), (1, 1100, 30, 9)] {
            let p = LitReliefParameters(smoothness: smoothness, lights: [])
            let halo = p.halo, taps = p.taps, w = p.weights
            let ww = width + 2 * halo, wh = height + 2 * halo
            var state = seed
            func random() -> UInt32 {
                state = state &* 1_664_525 &+ 1_013_904_223
                return state >> 8
            }
            // A sparse lattice of lone values at odd spacings, so that some fall just inside and just
            // outside the reach of each row and column that is skipped; on its rows, values of every
            // kind; an island.
            var heights = [Float](repeating: 0, count: ww * wh)
            let latticeRows = Array(Swift.stride(from: Int(seed) % 5, to: wh, by: 6 * taps + 7))
            for y in latticeRows {
                for x in Swift.stride(from: Int(seed) % 3, to: ww, by: 4 * taps + 9) { heights[y * ww + x] = 0.5 }
            }
            for v in [Float.nan, .infinity, -0.0, 0.7, -.infinity, 1e-40] {
                heights[latticeRows[Int(random()) % latticeRows.count] * ww + Int(random()) % ww] = v
            }
            let x0 = Int(random()) % ww, y0 = Int(random()) % wh
            for y in y0..<min(wh, y0 + 1 + Int(random()) % 12) {
                for x in x0..<min(ww, x0 + 1 + Int(random()) % 30) { heights[y * ww + x] = Float(random() % 1000) / 1000 }
            }
            // −0 blurs to −0 only where every tap reads −0: a square of it as wide as the blur, in
            // the last third of the rows.
            let side = 2 * taps + 3, negativeColumn = Int(random()) % max(1, ww - side)
            for y in (2 * wh / 3)..<min(wh, 2 * wh / 3 + side) {
                for x in negativeColumn..<min(ww, negativeColumn + side) where heights[y * ww + x] == 0 { heights[y * ww + x] = -0.0 }
            }
            // The two passes, plainly.
            let clean = heights.map { $0.isFinite ? $0 : 0 }
            let columns = width + 2, rows = height + 2
            var across = [Float](repeating: 0, count: wh * columns)
            for r in 0..<wh {
                for c in 0..<columns {
                    let at = r * ww + c + taps
                    var sum = w[0] * clean[at]
                    for k in 1...taps { sum += w[k] * (clean[at - k] + clean[at + k]) }
                    across[r * columns + c] = sum
                }
            }
            let smoothed = smooth(p, heights, width: width, height: height)
            var wrong = 0, zeros = 0
            for r in 0..<rows {
                for c in 0..<columns {
                    let at = (r + taps) * columns + c
                    var want = w[0] * across[at]
                    for k in 1...taps { want += w[k] * (across[at - k * columns] + across[at + k * columns]) }
                    let got = smoothed[r * columns + c]
                    if got.bitPattern != want.bitPattern {
                        if wrong < 5 { XCTFail("\(width)×\(height), row \(r), column \(c): \(got) against \(want)") }
                        wrong += 1
                    }
                    if want.bitPattern == 0 { zeros += 1 }
                }
            }
            XCTAssertEqual(wrong, 0, "\(width)×\(height): values that differ")
            // The case is one of mostly +0 (so the skipping is what is tested).
            XCTAssertGreaterThan(zeros, rows * columns / 4, "\(width)×\(height)")
        }
    }

    /// Far from the origin (found by the fuzzer, seed 1795438939): a pixel lit in one block or
    /// split across two gives the same value, so tiles and threads agree there too.
    func testFarFromTheOriginAnySplitGivesTheSamePixels() {
        let light = ReliefLight(kind: .point, position: SIMD3(164_088_600, 65_872_300, 500), color: SIMD3(1, 1, 1),
                                falloff: 1, reach: 1024)
        let p = LitReliefParameters(smoothness: 0, contrast: 4, lights: [light])
        let height: (Int, Int) -> Float = { x, y in Float((x &* 7 &+ y &* 3) & 15) / 15 }
        let x0 = 164_088_535, y0 = 65_872_249
        let whole = render(p, x: x0, y: y0, w: 20, h: 1, height: height)
        let left = render(p, x: x0, y: y0, w: 3, h: 1, height: height)
        let right = render(p, x: x0 + 3, y: y0, w: 17, h: 1, height: height)
        XCTAssertEqual(whole, left + right)
    }

    /// Each pixel's colour stays its own and gets the same bits whichever group it is lit in: rows
    /// of many widths (groups of eight pixels, pairs, a last odd pixel) against each pixel lit
    /// alone, with two lights and a shadow colour, alpha the layer's exactly (−0 too), bit for bit.
    func testEachPixelGetsTheSameBitsInAnyGroup() {
        let lights = [ReliefLight(kind: .point, position: SIMD3(30, 12, 25), color: SIMD3(1.1, 0.9, 0.7), falloff: 1,
                                  reach: 80),
                      ReliefLight(kind: .directional, direction: ReliefLight.direction(azimuth: 200, elevation: 35),
                                  color: SIMD3(0.2, 0.3, 0.5))]
        let p = LitReliefParameters(smoothness: 0.3, contrast: 4, lights: lights, ambient: SIMD3(0.1, 0.2, 0.15),
                                    specular: SIMD3(0.7, 0.6, 0.5), shininess: 12, shadow: SIMD4(0.2, 0, 0.4, 0.5))
        let height: (Int, Int) -> Float = { x, y in Float((x &* 5 &+ y &* 3) % 11) / 11 }
        let colour: (Int, Int) -> SIMD4<Float> = { x, y in
            SIMD4(Float(x % 7) / 7, Float((x &* 3) % 5) / 5, Float(y % 3) / 3 + 0.1, x % 8 == 1 ? -0.0 : Float(x % 4) / 3)
        }
        for w in [1, 2, 3, 7, 8, 9, 10, 15, 16, 17, 23, 33, 40] {
            let row = render(p, x: 10, y: 20, w: w, h: 2, height: height, colorAt: colour)
            for j in 0..<2 {
                for i in 0..<w {
                    let alone = render(p, x: 10 + i, y: 20 + j, w: 1, h: 1, height: height, colorAt: colour)
                    let o = 4 * (j * w + i)
                    XCTAssertEqual(row[o..<o + 4].map(\.bitPattern), alone.map(\.bitPattern), "width \(w), pixel \(i), row \(j)")
                    XCTAssertEqual(alone[3].bitPattern, colour(10 + i, 20 + j).w.bitPattern)
                }
            }
        }
    }

    /// A NaN or infinite height counts as 0; the output stays finite.
    func testNonFiniteHeightsCountAsZero() {
        let light = ReliefLight(kind: .point, position: SIMD3(12, 22, 30), color: SIMD3(1, 1, 1), falloff: 1, reach: 50)
        let p = LitReliefParameters(smoothness: 0.5, contrast: 5, lights: [light])
        let bad = render(p, height: { x, y in x == 12 && y == 22 ? .nan : (x == 13 && y == 23 ? .infinity : 0.4) })
        let zero = render(p, height: { x, y in (x == 12 && y == 22) || (x == 13 && y == 23) ? 0 : 0.4 })
        XCTAssertTrue(bad.allSatisfy(\.isFinite))
        XCTAssertEqual(bad, zero)
    }
}
