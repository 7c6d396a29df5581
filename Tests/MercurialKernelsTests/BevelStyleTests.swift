import Foundation
import XCTest
@testable import MercurialKernels

/// Bevel styles and soften against their formulas (see `BevelStyle`).
final class BevelStyleTests: XCTestCase {
    /// A hard vertical edge: columns 0...49 inside (1), 50... outside (0). With the linear profile
    /// the edge lies at x = 49.5 and every height is a known linear function of the distance.
    func halfPlane() -> Plane {
        var p = Plane(width: 100, height: 24)
        for y in 0..<24 { for x in 0..<50 { p[x, y] = 1 } }
        return p
    }

    func testEachStyleFollowsItsFormulaOnAHalfPlane() {
        let r: Float = 8, w: Float = 4
        func clamp01(_ v: Float) -> Float { min(max(v, 0), 1) }
        let expected: [BevelStyle: (Int) -> Float] = [
            .inner: { x in x <= 49 ? clamp01((49.5 - Float(x)) / r) : 0 },
            .outer: { x in x <= 49 ? 1 : 1 - clamp01((Float(x) - 49.5) / r) },
            .emboss: { x in x <= 49 ? 0.5 * clamp01((49.5 - Float(x)) / w) + 0.5 : 0.5 * (1 - clamp01((Float(x) - 49.5) / w)) },
            .pillow: { x in x <= 49 ? clamp01((49.5 - Float(x)) / w) : clamp01((Float(x) - 49.5) / w) },
        ]
        for style in BevelStyle.allCases {
            let p = HeightFieldParameters(radius: Double(r), profile: .linear, style: style)
            let window = halfPlane().padded(by: p.halo)
            let (h, coverage) = HeightField.styled(window: window, parameters: p)
            XCTAssertEqual(h.width, 100)
            for x in 30..<70 {
                XCTAssertEqual(h[x, 12], expected[style]!(x), accuracy: 1e-5, "\(style) at x = \(x)")
            }
            // The plain path gives the same heights for every style.
            XCTAssertEqual(HeightField.compute(window: window, parameters: p).pixels, h.pixels, "\(style)")
            if style == .inner {
                XCTAssertNil(coverage)
            } else {
                // The ring: covered inside and out to the style's width, then fading within a pixel.
                let width = style == .outer ? r : w
                for x in 30..<70 {
                    let d = Float(x) - 49.5
                    let want: Float = x <= 49 ? 1 : min(1, width * (1 - clamp01(d / width)))
                    XCTAssertEqual(coverage![x, 12], want, accuracy: 1e-4, "\(style) coverage at x = \(x)")
                }
                XCTAssertEqual(coverage![Int(49.5 + width) + 2, 12], 0, "\(style): nothing beyond the ring")
            }
        }
    }

    /// The Core Image profile's outer side never reaches 1 exactly, so its ring would cover the whole
    /// layer with a faint alpha: below `coverageFloor` the coverage is 0, elsewhere its formula.
    func testCoverageBelowTheFloorIsZero() {
        let mask = Masks.disc(width: 160, height: 160, cx: 79.5, cy: 79.5, r: 15)
        let floor = BevelStyle.coverageFloor
        for style in [BevelStyle.outer, .emboss] {
            // The smallest sides with coarse levels.
            let p = HeightFieldParameters(radius: style == .outer ? 15 : 24, style: style)
            XCTAssertFalse(p.coarseLevels.isEmpty)
            let (heights, coverage) = HeightField.styled(window: mask.padded(by: p.halo), parameters: p)
            // The outer side's rise, 1 − outer: the outer style's heights; emboss's are
            // (inner + 1 − outer) / 2, its inner side the inner profile at the side's width.
            var rise = heights
            if style == .emboss {
                let inner = heightField(mask, HeightFieldParameters(radius: p.sideRadius))
                for i in rise.pixels.indices { rise.pixels[i] = 2 * heights.pixels[i] - inner.pixels[i] }
            }
            let width = Float(p.sideRadius)
            var cut = 0
            for y in 0..<160 {
                for x in 0..<160 {
                    let c = coverage![x, y], formula = min(1, width * rise[x, y])
                    XCTAssert(c == 0 || c >= floor, "\(style) at (\(x), \(y)): \(c)")
                    if formula < floor - 1e-5 {
                        XCTAssertEqual(c, 0, "\(style) at (\(x), \(y))")
                        if formula > 0 { cut += 1 }
                    } else if formula > floor + 1e-5 {
                        XCTAssertEqual(c, formula, accuracy: 1e-5, "\(style) at (\(x), \(y))")
                    }
                }
            }
            XCTAssertGreaterThan(cut, 0, "\(style): the profile's tail lies below the floor somewhere")
            XCTAssertEqual(coverage![0, 0], 0, "\(style): nothing far from the shape")
        }
    }

    /// Soften is a Gaussian blur of the unsoftened heights (σ = soften, cut at 3.5σ).
    func testSoftenBlursTheHeights() {
        let mask = Masks.disc(width: 60, height: 50, cx: 29.4, cy: 24.7, r: 16)
        for style in [BevelStyle.inner, .outer] {
            let soft = HeightFieldParameters(radius: 6, profile: .round, style: style, soften: 2.5)
            let plain = HeightFieldParameters(radius: 6, profile: .round, style: style)
            let taps = soft.softenTaps
            XCTAssertEqual(taps, 9)
            let window = mask.padded(by: soft.halo)
            let got = HeightField.compute(window: window, parameters: soft)
            // The unsoftened heights over the output grown by the taps, blurred here tap by tap.
            let wide = HeightField.compute(window: window, parameters: plain) // (its halo is taps smaller)
            let weights = Gaussian.weights(sigma: 2.5, taps: taps)
            var worst: Float = 0
            for y in 0..<50 {
                for x in 0..<60 {
                    var sum: Double = 0
                    for j in -taps...taps {
                        for i in -taps...taps {
                            sum += Double(weights[abs(i)]) * Double(weights[abs(j)]) * Double(wide[x + taps + i, y + taps + j])
                        }
                    }
                    worst = max(worst, abs(got[x, y] - Float(sum)))
                }
            }
            XCTAssertLessThan(worst, 1e-5, "\(style)")
            XCTAssertNotEqual(got.pixels, heightField(mask, plain).pixels, "soften changes the heights")
        }
    }

    /// The Core Image profile's styles hand each row of their heights to the soften as it is made:
    /// the same bits as the soften of the whole unsoftened heights, at full resolution and on the
    /// grid, wherever the window lies.
    func testStreamedSoftenMatchesTheSoftenOfTheHeights() {
        let mask = Masks.disc(width: 60, height: 50, cx: 29.4, cy: 24.7, r: 16)
        for style in [BevelStyle.inner, .outer, .emboss] {
            for soften in [2.5, 13] {
                for origin in [(0, 0), (-7, 3)] {
                    let soft = HeightFieldParameters(radius: 6, style: style, soften: soften)
                    let plain = HeightFieldParameters(radius: 6, style: style)
                    let window = mask.padded(by: soft.halo)
                    let got = HeightField.compute(window: window, parameters: soft, origin: origin)
                    let wide = HeightField.compute(window: window, parameters: plain, origin: origin)
                    XCTAssertEqual(wide.width, got.width + 2 * soft.softenReach)
                    let want = HeightField.soften(wide, soft, origin: (origin.0 + plain.halo, origin.1 + plain.halo))
                    XCTAssertEqual(got.width, want.width)
                    let differing = got.pixels.indices.first { got.pixels[$0].bitPattern != want.pixels[$0].bitPattern }
                    XCTAssertNil(differing, "\(style), soften \(soften), origin \(origin): first pixel that differs")
                }
            }
        }
    }

    func testGlossContours() {
        XCTAssertEqual(GlossContour.linear(1.7), 1.7)
        XCTAssertEqual(GlossContour.linear(-0.2), -0.2)
        XCTAssertEqual(GlossContour.halfRound(0.5), (0.75 as Float).squareRoot(), accuracy: 1e-6)
        XCTAssertEqual(GlossContour.halfRound(0), 0)
        XCTAssertEqual(GlossContour.halfRound(3), 1)
        XCTAssertEqual(GlossContour.cone(0.5), 1)
        XCTAssertEqual(GlossContour.cone(0), 0)
        XCTAssertEqual(GlossContour.cone(1), 0)
        XCTAssertEqual(GlossContour.coneInverted(0.5), 0)
        XCTAssertEqual(GlossContour.coneInverted(1), 1)
        XCTAssertEqual(GlossContour.ring(1.0 / 3), 1, accuracy: 1e-6)
        XCTAssertEqual(GlossContour.ring(2.0 / 3), 0, accuracy: 1e-6)
        XCTAssertEqual(GlossContour.ring(1), 1, accuracy: 1e-6)
        XCTAssertEqual(GlossContour.gaussian(0.5), 0.5)
        XCTAssertEqual(GlossContour.gaussian(0.25), 0.15625)
        for contour in GlossContour.allCases where contour != .linear {
            XCTAssertEqual(contour(.nan), contour(0), "\(contour)")
        }
    }
}
