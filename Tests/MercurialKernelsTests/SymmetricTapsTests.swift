import XCTest
@testable import MercurialKernels

/// The blur loops against the sum written out pixel by pixel, in the grouping they promise (the
/// centre, then the taps four at a time, then one by one): the same bits for every run, whatever
/// its start and length, so that no value depends on the run (the chunks) it was made in.
final class SymmetricTapsTests: XCTestCase {
    /// Σ w[|k|]·line(k), grouped as the loops group it.
    func reference(_ w: [Float], _ line: (Int) -> Float) -> Float {
        var sum = w[0] * line(0), k = 1
        while k + 3 < w.count {
            let sa = line(-k) + line(k), sb = line(-k - 1) + line(k + 1)
            let sc = line(-k - 2) + line(k + 2), sd = line(-k - 3) + line(k + 3)
            sum += (w[k] * sa + w[k + 1] * sb) + (w[k + 2] * sc + w[k + 3] * sd)
            k += 4
        }
        while k < w.count { sum += w[k] * (line(-k) + line(k)); k += 1 }
        return sum
    }

    func testEveryRunMatchesTheSumPixelByPixel() {
        var seed: UInt64 = 7
        func next() -> Float {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Float(seed >> 40) / Float(1 << 24)
        }
        let width = 96, rows = 80, middle = 40
        let values = (0..<(width * rows)).map { _ in next() }
        for taps in [1, 3, 4, 5, 8, 14, 29] {
            let w = Gaussian.weights(sigma: Double(taps) / 3.5, taps: taps)
            let r = w.count - 1
            precondition(r <= middle && middle + r < rows)
            values.withUnsafeBufferPointer { v in
                w.withUnsafeBufferPointer { wb in
                    let table = (0..<rows).map { UnsafePointer(v.baseAddress! + $0 * width) }
                    for from in [r, r + 1, r + 5] {
                        for count in 1...(width - r - from) {
                            // Along a row.
                            var out = [Float](repeating: .nan, count: width)
                            out.withUnsafeMutableBufferPointer {
                                SymmetricTaps.along(v.baseAddress! + middle * width + from, stride: 1, weights: wb,
                                                    into: $0.baseAddress! + from, count: count)
                            }
                            for x in from..<(from + count) {
                                let expected = reference(w) { v[middle * width + x + $0] }
                                XCTAssertEqual(out[x].bitPattern, expected.bitPattern, "along: taps \(r), run \(from)+\(count), x \(x)")
                            }
                            XCTAssert(out[from - 1].isNaN && (from + count == width || out[from + count].isNaN),
                                      "along writes only its run")
                            // Down rows middle − r … middle + r.
                            out = [Float](repeating: .nan, count: width)
                            table.withUnsafeBufferPointer { t in
                                out.withUnsafeMutableBufferPointer {
                                    SymmetricTaps.down(t.baseAddress! + middle - r, weights: wb, into: $0.baseAddress!,
                                                       from: from, to: from + count)
                                }
                            }
                            for x in from..<(from + count) {
                                let expected = reference(w) { v[(middle + $0) * width + x] }
                                XCTAssertEqual(out[x].bitPattern, expected.bitPattern, "down: taps \(r), run \(from)+\(count), x \(x)")
                            }
                            XCTAssert(out[from - 1].isNaN && (from + count == width || out[from + count].isNaN),
                                      "down writes only its run")
                        }
                    }
                }
            }
        }
    }

    /// A coarse grid's blur (`CoarseLoops.blur`) skips the stretches whose taps read only zeros:
    /// the same bits as both passes made everywhere, on a grid of zeros with a few small blobs (an
    /// inner side's cells), and +0 far from them.
    func testGridBlurSkipsOnlyWhatReadsZeros() {
        let w = Gaussian.weights(sigma: 3.9, taps: 14), t = w.count - 1
        let cells = IntRect(x: -20, y: -9, width: 230, height: 120)
        let area = IntRect(x: cells.x + t, y: cells.y + t, width: cells.width - 2 * t, height: cells.height - 2 * t)
        let grid = Grid(cells)
        grid.base.initialize(repeating: 0, count: grid.count)
        var seed: UInt64 = 11
        for (bx, by, size) in [(30, 20, 3), (31, 70, 1), (150, 40, 9), (200, 100, 2)] {
            for y in by..<(by + size) {
                for x in bx..<(bx + size) {
                    seed = seed &* 6364136223846793005 &+ 1442695040888963407
                    grid.base[y * cells.width + x] = Float(seed >> 40) / Float(1 << 24) + 0.1
                }
            }
        }
        let got = CoarseLoops.blur(grid, to: area, weights: w, forEach: serially)
        let values = UnsafePointer(grid.base), cw = cells.width
        var across = [Float](repeating: 0, count: cells.height * area.width)
        for j in 0..<cells.height {
            for i in 0..<area.width {
                across[j * area.width + i] = reference(w) { values[j * cw + t + i + $0] }
            }
        }
        var zeros = 0
        for r in 0..<area.height {
            for i in 0..<area.width {
                let want = reference(w) { across[(r + t + $0) * area.width + i] }
                let value = got.base[r * area.width + i]
                XCTAssertEqual(value.bitPattern, want.bitPattern, "cell \(i), \(r)")
                if value.bitPattern == 0 { zeros += 1 }
            }
        }
        XCTAssertGreaterThan(zeros, area.width * area.height / 2, "most of the grid lies far from the blobs")
        withExtendedLifetime((grid, got)) {}
    }
}
