import XCTest
@testable import MercurialKernels

final class HolographicTests: XCTestCase {
    func run(_ p: HolographicParameters, x: Int = 0, y: Int = 0, width: Int = 64, height: Int = 48,
             input: [Float]? = nil, aux: [Float]? = nil, extent: (Int, Int, Int, Int)? = nil) -> [Float] {
        let n = width * height
        let inp = input ?? (0..<n).flatMap { i -> [Float] in [0.2, 0.4, Float(i % 7) / 7, 0.5 + Float(i % 3) / 6] }
        var out = [Float](repeating: .nan, count: 4 * n)
        let plan = HolographicPlan(p, extent: extent ?? (x, y, width, height))
        inp.withUnsafeBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o in
                if let aux {
                    aux.withUnsafeBufferPointer { a in
                        Holographic.apply(plan, input: i.baseAddress!, aux: a.baseAddress!, output: o.baseAddress!,
                                          x: x, y: y, width: width, count: n)
                    }
                } else {
                    Holographic.apply(plan, input: i.baseAddress!, aux: nil, output: o.baseAddress!, x: x, y: y,
                                      width: width, count: n)
                }
            }
        }
        return out
    }

    func testFractWraps() {
        XCTAssertEqual(Color.fract(1.25), 0.25)
        XCTAssertEqual(Color.fract(-0.25), 0.75)
        XCTAssertEqual(Color.fract(3), 0)
        XCTAssertEqual(Color.fract(.nan), 0)
        XCTAssertEqual(Color.fract(.infinity), 0)
    }

    /// Every pixel takes the value of its nearest seed: `voronoi` and the fast search in `apply`
    /// both equal a brute-force search over all seeds around (ties: first in row-major order).
    func testVoronoiIsNearestSeed() {
        for cell: Float in [2.5, 7, 13] {
            let range = Int32(-3 - Int(60 / cell))...Int32(3 + Int(100 / cell))
            var seeds: [(Float, Float, Float)] = []
            for j in range { for i in range {
                let (sx, sy) = Holographic.seedPoint(i, j, cell: cell, seed: 7)
                seeds.append((sx, sy, Holographic.cellValue(i, j, seed: 7)))
            } }
            let w = 90, h = 70, x0 = -30, y0 = -25
            let plan = HolographicPlan(HolographicParameters(strength: 1, cellSize: cell, displacement: 1, seed: 7),
                                        extent: (x0, y0, w, h))
            let input = [Float](repeating: 0, count: 4 * w * h)
            var out = [Float](repeating: 0, count: 4 * w * h)
            input.withUnsafeBufferPointer { i in out.withUnsafeMutableBufferPointer { o in
                Holographic.apply(plan, input: i.baseAddress!, aux: nil, output: o.baseAddress!, x: x0, y: y0, width: w, count: w * h)
            } }
            var mismatches = 0
            for y in y0..<(y0 + h) {
                for x in x0..<(x0 + w) {
                    let px = Float(x) + 0.5, py = Float(y) + 0.5
                    var best = Float.infinity, want: Float = 0
                    for (sx, sy, v) in seeds {
                        let d = (sx - px) * (sx - px) + (sy - py) * (sy - py)
                        if d < best { best = d; want = v }
                    }
                    if Holographic.voronoi(x: x, y: y, cell: cell, seed: 7) != want { mismatches += 1 }
                    let c = Color.hueRGB(want), i = 4 * ((y - y0) * w + (x - x0))
                    if out[i] != c.x || out[i + 1] != c.y || out[i + 2] != c.z { mismatches += 1 }
                }
            }
            XCTAssertEqual(mismatches, 0, "cell \(cell)")
        }
    }

    func testCellValuesRoughlyUniform() {
        var bins = [Int](repeating: 0, count: 10)
        for j in Int32(0)..<100 { for i in Int32(0)..<100 { bins[Int(Holographic.cellValue(i, j, seed: 3) * 10)] += 1 } }
        for b in bins { XCTAssertEqual(Double(b), 1000, accuracy: 150) }
    }

    /// Tiles computed from any origin equal the same pixels of the whole.
    func testTilesEqualWhole() {
        let p = HolographicParameters(strength: 0.5, cellSize: 9, sweep: 1.5, sweepAngle: 30)
        let extent = (0, 0, 64, 48)
        let input = [Float](repeating: 0.3, count: 64 * 48 * 4)
        let whole = run(p, input: input, extent: extent)
        for (x, y, w, h) in [(0, 0, 5, 7), (17, 9, 30, 11), (63, 47, 1, 1), (40, 20, 24, 28)] {
            let tile = run(p, x: x, y: y, width: w, height: h, input: [Float](repeating: 0.3, count: w * h * 4), extent: extent)
            for row in 0..<h {
                XCTAssertEqual(Array(tile[(4 * row * w)..<(4 * (row + 1) * w)]),
                               Array(whole[(4 * ((y + row) * 64 + x))..<(4 * ((y + row) * 64 + x + w))]))
            }
        }
    }

    func testMixAndAlpha() {
        let p = HolographicParameters(offset: 0.1, strength: 0.25, cellSize: 10, displacement: 1, seed: 5)
        let input: [Float] = (0..<(4 * 64 * 48)).map { (i: Int) -> Float in Float(i % 4) * 0.2 + 0.1 }
        let out = run(p, input: input)
        for i in [0, 100, 3071] {
            let x = i % 64, y = i / 64
            let v = Holographic.voronoi(x: x, y: y, cell: 10, seed: 5)
            let c = Color.hueRGB(Color.fract(v + 0.1))
            for k in 0..<3 { XCTAssertEqual(out[4 * i + k], input[4 * i + k] * 0.75 + c[k] * 0.25, accuracy: 1e-6) }
            XCTAssertEqual(out[4 * i + 3], input[4 * i + 3])
        }
    }

    func testStrengthZeroIsIdentityAndOffsetWraps() {
        var input: [Float] = (0..<(64 * 48 * 4)).map { (i: Int) -> Float in Float(i % 11) / 10 - 0.2 }
        input[5] = .nan
        input[9] = -.infinity
        input[13] = -0.0
        let out = run(HolographicParameters(strength: 0), input: input)
        XCTAssertEqual(out.map { $0.bitPattern }, input.map { $0.bitPattern })
        let a = run(HolographicParameters(offset: 0.3, strength: 0.2))
        let b = run(HolographicParameters(offset: -0.7, strength: 0.2))
        XCTAssertEqual(zip(a, b).map { abs($0 - $1) }.max()!, 0, accuracy: 1e-6)
    }

    func testSeedsDifferAndRepeat() {
        let a = run(HolographicParameters(strength: 1, seed: 1)), b = run(HolographicParameters(strength: 1, seed: 1))
        let c = run(HolographicParameters(strength: 1, seed: 2))
        XCTAssertEqual(a, b)
        XCTAssertNotEqual(a, c)
    }

    func testAuxReplacesVoronoi() {
        let aux = (0..<(64 * 48)).map { Float($0 % 64) / 64 }
        let out = run(HolographicParameters(strength: 1, displacement: 1), aux: aux)
        for i in [0, 16, 32, 48, 1000] {
            let c = Color.hueRGB(aux[i])
            for k in 0..<3 { XCTAssertEqual(out[4 * i + k], c[k], accuracy: 1e-6) }
        }
    }

    func testNonFiniteInputStaysInItsPixel() {
        var input = [Float](repeating: 0.5, count: 64 * 48 * 4)
        input[4 * 100] = .nan
        input[4 * 200 + 1] = .infinity
        let out = run(HolographicParameters(strength: 0.3), input: input)
        for i in 0..<(64 * 48) where i != 100 && i != 200 {
            XCTAssertTrue((0..<4).allSatisfy { out[4 * i + $0].isFinite })
        }
        XCTAssertTrue(out[400].isNaN)
        XCTAssertEqual(out[801], .infinity)
    }
}
