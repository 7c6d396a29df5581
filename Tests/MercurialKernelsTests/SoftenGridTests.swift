import Foundation
import XCTest
@testable import MercurialKernels

/// Soften on a coarse grid (σ ≥ 12: `HeightFieldParameters.softenLevel`) against the full Gaussian.
final class SoftenGridTests: XCTestCase {
    /// The hardest heights to soften: a binary disc (a step) and one-pixel strokes (impulses).
    let shapes: [(String, Plane)] = [
        ("disc", {
            var p = Masks.disc(width: 300, height: 260, cx: 140.3, cy: 131.7, r: 70)
            for i in p.pixels.indices { p.pixels[i] = p.pixels[i] >= 0.5 ? 1 : 0 }
            return p
        }()),
        ("strokes", Masks.strokes(width: 300, height: 260)),
    ]

    func testLargeSoftenMatchesTheGaussian() {
        XCTAssertNil(HeightFieldParameters(radius: 8, soften: 11.9).softenLevel, "below 12: the full-resolution blur")
        for (name, plane) in shapes {
            for sigma in [12.0, 13.0, 14.9, 16.0] {
                let p = HeightFieldParameters(radius: 0, soften: sigma)
                let level = p.softenLevel!, reach = p.softenReach, taps = p.softenTaps
                XCTAssertEqual(level.spacing, 2)
                let exact = HeightField.soften(plane, sigma: sigma, taps: taps)
                // The grid is the image's: where the plane lies changes which cells it holds.
                for origin in [(0, 0), (3, 1), (-5, 7)] {
                    let grid = HeightField.soften(plane, p, origin: origin)
                    XCTAssertEqual(grid.width, plane.width - 2 * reach)
                    var worst: Float = 0, slope: Float = 0
                    let d = reach - taps
                    for y in 1..<(grid.height - 1) {
                        for x in 1..<(grid.width - 1) {
                            worst = max(worst, abs(grid[x, y] - exact[x + d, y + d]))
                            // The slopes the shading reads (central differences).
                            let g = grid[x + 1, y] - grid[x - 1, y], f = exact[x + d + 1, y + d] - exact[x + d - 1, y + d]
                            slope = max(slope, abs(g - f))
                        }
                    }
                    XCTAssertLessThan(worst, 1e-3, "\(name), σ \(sigma), origin \(origin)")
                    XCTAssertLessThan(slope, 2e-4, "\(name), σ \(sigma), origin \(origin)")
                }
            }
        }
    }

    /// The same pixels of the image get the same bits from planes that start anywhere.
    func testAnyPlacementGivesIdenticalBits() {
        let plane = shapes[0].1, p = HeightFieldParameters(radius: 0, soften: 16)
        let whole = HeightField.soften(plane, p, origin: (0, 0))
        for (dx, dy) in [(1, 0), (0, 3), (5, 2), (17, 11)] {
            let part = plane.cropped(x: dx, y: dy, width: plane.width - dx - 7, height: plane.height - dy - 4)
            let got = HeightField.soften(part, p, origin: (dx, dy))
            for y in 0..<got.height {
                for x in 0..<got.width where got[x, y].bitPattern != whole[x + dx, y + dy].bitPattern {
                    return XCTFail("(\(x + dx), \(y + dy)) differs for a plane at (\(dx), \(dy))")
                }
            }
        }
    }
}
