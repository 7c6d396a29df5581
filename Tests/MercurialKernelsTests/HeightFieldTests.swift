import Foundation
import XCTest
@testable import MercurialKernels

/// Test masks: an anti-aliased disc, thin strokes, an anti-aliased diagonal edge.
enum Masks {
    /// A disc of radius r centred at (cx, cy), anti-aliased by 8×8 supersampling.
    static func disc(width: Int, height: Int, cx: Double, cy: Double, r: Double) -> Plane {
        var p = Plane(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                var inside = 0
                for sy in 0..<8 {
                    for sx in 0..<8 {
                        let px = Double(x) + (Double(sx) + 0.5) / 8, py = Double(y) + (Double(sy) + 0.5) / 8
                        if (px - cx) * (px - cx) + (py - cy) * (py - cy) <= r * r { inside += 1 }
                    }
                }
                p[x, y] = Float(inside) / 64
            }
        }
        return p
    }

    /// One- and two-pixel wide strokes, horizontal, vertical and diagonal.
    static func strokes(width: Int, height: Int) -> Plane {
        var p = Plane(width: width, height: height)
        for x in 4..<(width - 4) { p[x, 6] = 1; p[x, 20] = 1; p[x, 21] = 1 }
        for y in 4..<(height - 4) { p[30, y] = 1 }
        for i in 8..<min(width, height) - 8 { p[i, i] = 1 }
        return p
    }

    /// A half-plane with an anti-aliased edge at angle `degrees` through the centre.
    static func halfPlane(width: Int, height: Int, degrees: Double) -> Plane {
        var p = Plane(width: width, height: height)
        let a = degrees * .pi / 180, nx = cos(a), ny = sin(a)
        for y in 0..<height {
            for x in 0..<width {
                var inside = 0
                for sy in 0..<8 {
                    for sx in 0..<8 {
                        let px = Double(x) + (Double(sx) + 0.5) / 8 - Double(width) / 2
                        let py = Double(y) + (Double(sy) + 0.5) / 8 - Double(height) / 2
                        if px * nx + py * ny <= 0.3 { inside += 1 }
                    }
                }
                p[x, y] = Float(inside) / 64
            }
        }
        return p
    }

    static func random(width: Int, height: Int, seed: UInt64) -> Plane {
        var state = seed
        var p = Plane(width: width, height: height)
        for i in p.pixels.indices {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            p.pixels[i] = Float(state >> 40) / Float(1 << 24)
        }
        return p
    }
}

/// Straightforward reference of Core Image's algorithm: full (untruncated) 2-D Gaussian
/// convolution in Double, with everything outside the image counting as 0.
func referenceCoreImage(_ mask: Plane, radius: Double) -> [Double] {
    let w = mask.width, h = mask.height
    let m = mask.pixels.map(Double.init)
    guard radius >= 1 else { return m }
    var current = m
    var sigma = radius
    while sigma >= 1 {
        // Weights normalised over the whole infinite lattice (sum over ±20σ).
        let reach = Int(20 * sigma)
        var norm = 0.0
        for k in -reach...reach { norm += exp(-Double(k * k) / (2 * sigma * sigma)) }
        var next = [Double](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var acc = 0.0
                for yy in 0..<h {
                    let wy = exp(-Double((yy - y) * (yy - y)) / (2 * sigma * sigma))
                    for xx in 0..<w {
                        acc += wy * exp(-Double((xx - x) * (xx - x)) / (2 * sigma * sigma)) * current[yy * w + xx]
                    }
                }
                next[y * w + x] = m[y * w + x] * acc / (norm * norm)
            }
        }
        current = next
        sigma /= 2
    }
    return current
}

/// Brute-force distance from each pixel centre to the nearest 0.5-crossing on any grid segment.
func referenceDistance(_ mask: Plane) -> [Double] {
    let w = mask.width, h = mask.height
    var crossings: [(Double, Double)] = []
    for y in 0..<h {
        for x in 0..<w {
            let a = Double(mask[x, y])
            if x + 1 < w {
                let b = Double(mask[x + 1, y])
                if (a >= 0.5) != (b >= 0.5) { crossings.append((Double(x) + (a - 0.5) / (a - b), Double(y))) }
            }
            if y + 1 < h {
                let b = Double(mask[x, y + 1])
                if (a >= 0.5) != (b >= 0.5) { crossings.append((Double(x), Double(y) + (a - 0.5) / (a - b))) }
            }
        }
    }
    return (0..<(w * h)).map { i in
        let x = Double(i % w), y = Double(i / w)
        return crossings.map { (($0.0 - x) * ($0.0 - x) + ($0.1 - y) * ($0.1 - y)).squareRoot() }.min() ?? .infinity
    }
}

/// Runs the kernel on a whole image: pads with the halo of zeros the host would provide.
func heightField(_ mask: Plane, _ p: HeightFieldParameters) -> Plane {
    heightField(mask, p, at: p.halo)
}

/// The same with the mask's first pixel at (offset, offset) of the image (where the coarse grids lie).
func heightField(_ mask: Plane, _ p: HeightFieldParameters, at offset: Int) -> Plane {
    HeightField.compute(window: mask.padded(by: p.halo), parameters: p, origin: (offset - p.halo, offset - p.halo))
}

final class HeightFieldTests: XCTestCase {
    func testCoreImageMatchesFullGaussianReference() {
        let masks = [Masks.disc(width: 40, height: 36, cx: 19.3, cy: 17.8, r: 11.2),
                     Masks.strokes(width: 40, height: 40),
                     Masks.halfPlane(width: 32, height: 32, degrees: 27)]
        for (n, mask) in masks.enumerated() {
            for radius in [1.0, 2.5, 4, 7] {
                let got = heightField(mask, HeightFieldParameters(radius: radius))
                let want = referenceCoreImage(mask, radius: radius)
                XCTAssertEqual(got.width, mask.width)
                let err = zip(got.pixels, want).map { abs(Double($0) - $1) }.max()!
                XCTAssertLessThan(err, 1e-3, "mask \(n) radius \(radius)")
                // And the height field is not trivially the mask: it is lower near edges.
                if radius >= 2.5 {
                    XCTAssertGreaterThan(zip(got.pixels, mask.pixels).map { abs($0 - $1) }.max()!, 0.05)
                }
            }
        }
    }

    func testRadiusBelowOneReturnsMask() {
        let mask = Masks.random(width: 17, height: 9, seed: 3)
        for r in [0.0, 0.5, 0.999, -3, .nan] {
            for profile in BevelProfile.allCases {
                XCTAssertEqual(heightField(mask, HeightFieldParameters(radius: r, profile: profile)).pixels, mask.pixels)
            }
        }
    }

    func testSigmasHalveWhileAtLeastOne() {
        XCTAssertEqual(HeightFieldParameters(radius: 10).sigmas, [10, 5, 2.5, 1.25])
        XCTAssertEqual(HeightFieldParameters(radius: 1).sigmas, [1])
        XCTAssertEqual(HeightFieldParameters(radius: 1e9).effectiveRadius, HeightFieldParameters.maximumRadius)
    }

    /// Every block of the output, computed from its own window, equals the same pixels of the whole.
    func testAnyTilingGivesIdenticalBits() {
        let mask = Masks.disc(width: 61, height: 47, cx: 30, cy: 22, r: 17)
        for profile in BevelProfile.allCases {
            let p = HeightFieldParameters(radius: 6, profile: profile)
            let whole = heightField(mask, p)
            let padded = mask.padded(by: p.halo)
            for (tx, ty, tw, th) in [(0, 0, 13, 7), (20, 11, 1, 1), (5, 30, 56, 17), (60, 46, 1, 1), (17, 3, 29, 40)] {
                let window = padded.cropped(x: tx, y: ty, width: tw + 2 * p.halo, height: th + 2 * p.halo)
                let tile = HeightField.compute(window: window, parameters: p)
                XCTAssertEqual(tile.pixels, whole.cropped(x: tx, y: ty, width: tw, height: th).pixels, "\(profile) \(tx),\(ty)")
            }
        }
    }

    /// The cascade skips chunks of columns, tracked in 64-bit words a row: where the mask is 0, and
    /// where it is 1 far enough around that each level's value is its constant (stored, not
    /// computed). On a mask wide enough for several words — shapes far apart, close together,
    /// across a word's edge, in a row's last, partial chunk, scattered dots — and on its inverse
    /// (mostly 1), the whole equals narrow windows of it bit for bit. At these radii a narrow
    /// window is too narrow for a constant chunk, so every value there is computed.
    func testSkippedColumnsLeaveTheSameBits() {
        let width = 1301, height = 30
        var mask = Plane(width: width, height: height)
        let disc = Masks.disc(width: 24, height: 24, cx: 11.6, cy: 12.2, r: 9.3)
        let noise = Masks.random(width: 90, height: 22, seed: 7)
        for y in 0..<24 { for x in 0..<24 { mask[10 + x, 3 + y] = disc[x, y]; mask[40 + x, 5 + y] = disc[x, y] } }
        for y in 8..<19 { for x in 440..<600 { mask[x, y] = 0.8 } } // across the first word's edge
        for y in 0..<height { mask[1100, y] = 1; mask[width - 1, y] = 0.5 }
        for y in 0..<22 { for x in 0..<90 { mask[1200 + x, 4 + y] = noise[x, y] } }
        // Scattered dots: columns that one row of a few needs and its neighbours do not.
        let dots = Masks.random(width: 300, height: height, seed: 11)
        for y in 0..<height { for x in 0..<300 where dots[x, y] < 0.03 { mask[700 + x, y] = 1 } }
        var inverse = mask
        for i in inverse.pixels.indices { inverse.pixels[i] = 1 - mask.pixels[i] }
        for (name, m) in [("mask", mask), ("inverse", inverse)] {
            for radius in [1, 1.5, 2, 3] {
                let p = HeightFieldParameters(radius: radius)
                let whole = heightField(m, p)
                XCTAssertGreaterThan(whole.pixels.filter { $0 > 0 }.count, 2000)
                let padded = m.padded(by: p.halo)
                let step = radius >= 3 ? 1 : 7
                for x in stride(from: 0, to: width, by: step) {
                    let w = min(step, width - x)
                    let window = padded.cropped(x: x, y: 0, width: w + 2 * p.halo, height: height + 2 * p.halo)
                    XCTAssertEqual(HeightField.compute(window: window, parameters: p).pixels,
                                   whole.cropped(x: x, y: 0, width: w, height: height).pixels,
                                   "\(name), radius \(radius), columns from \(x)")
                }
                // Turned on its side: far more rows than the kernel keeps (its rings wrap many
                // times), against bands of a few rows.
                var tall = Plane(width: height, height: width)
                for y in 0..<width { for x in 0..<height { tall[x, y] = m[y, x] } }
                let tallWhole = heightField(tall, p)
                let tallPadded = tall.padded(by: p.halo)
                for y in stride(from: 0, to: width, by: 97) {
                    let rows = min(5, width - y)
                    let window = tallPadded.cropped(x: 0, y: y, width: height + 2 * p.halo, height: rows + 2 * p.halo)
                    XCTAssertEqual(HeightField.compute(window: window, parameters: p).pixels,
                                   tallWhole.cropped(x: 0, y: y, width: height, height: rows).pixels,
                                   "\(name) on its side, radius \(radius), rows from \(y)")
                }
            }
        }
    }

    func testBadMaskValues() {
        var mask = Masks.disc(width: 30, height: 30, cx: 15, cy: 15, r: 9)
        mask[15, 15] = .nan
        mask[3, 3] = .infinity
        mask[10, 20] = -.infinity
        mask[20, 10] = 7
        for profile in BevelProfile.allCases {
            let out = heightField(mask, HeightFieldParameters(radius: 5, profile: profile))
            XCTAssertTrue(out.pixels.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 }, "\(profile)")
        }
    }

    /// A mask of −0 reads as +0: the heights have the same bits, signs of zero included, whatever
    /// the kernels skip (a −0 beside the shape and far from it).
    func testNegativeZeroMaskReadsAsZero() {
        let mask = Masks.disc(width: 40, height: 30, cx: 15, cy: 15, r: 9)
        var negative = mask
        for i in negative.pixels.indices where negative.pixels[i] == 0 { negative.pixels[i] = -0.0 }
        for profile in BevelProfile.allCases {
            for style in BevelStyle.allCases {
                let p = HeightFieldParameters(radius: 4, profile: profile, style: style)
                XCTAssertEqual(heightField(negative, p).pixels.map(\.bitPattern), heightField(mask, p).pixels.map(\.bitPattern),
                               "\(profile) \(style)")
            }
        }
    }

    func testDistanceProfilesMatchBruteForce() {
        let masks = [Masks.disc(width: 40, height: 36, cx: 19.3, cy: 17.8, r: 13.2),
                     Masks.strokes(width: 40, height: 40),
                     Masks.halfPlane(width: 36, height: 30, degrees: 33),
                     Masks.random(width: 24, height: 24, seed: 9)]
        for (n, mask) in masks.enumerated() {
            let ref = referenceDistance(mask.padded(by: 12)).enumerated().compactMap { i, d -> Double? in
                let x = i % (mask.width + 24) - 12, y = i / (mask.width + 24) - 12
                return x >= 0 && y >= 0 && x < mask.width && y < mask.height ? d : nil
            }
            for radius: Double in [1, 3.5, 8] {
                for profile in [BevelProfile.linear, .round, .smooth] {
                    let got = heightField(mask, HeightFieldParameters(radius: radius, profile: profile))
                    for i in got.pixels.indices {
                        let t = mask.pixels[i] >= 0.5 ? min(ref[i] / radius, 1) : 0
                        let want: Double
                        switch profile {
                        case .linear: want = mask.pixels[i] >= 0.5 ? t : 0
                        case .round: want = mask.pixels[i] >= 0.5 ? (1 - (1 - t) * (1 - t)).squareRoot() : 0
                        default: want = mask.pixels[i] >= 0.5 ? t * t * (3 - 2 * t) : 0
                        }
                        XCTAssertEqual(Double(got.pixels[i]), want, accuracy: 1e-4, "mask \(n) \(profile) R \(radius) pixel \(i)")
                    }
                }
            }
        }
    }

    /// Within a small reach the distances are each point's minimum over the points in reach, not
    /// the lower envelope: both give the same bits, on masks with edges everywhere and nowhere, and
    /// on masks tall enough for several bands of rows, and on sparse dots, whose bands skip the
    /// chunks of columns with no crossing in reach.
    func testDirectMinimumAndEnvelopeAgree() {
        var empty = Plane(width: 30, height: 26)
        for i in empty.pixels.indices { empty.pixels[i] = 1 }
        var dots = Plane(width: 203, height: 3 * DistanceBevel.bandRows + 41)
        for k in 0..<40 { dots.pixels[(k * 7919) % dots.pixels.count] = 0.5 + Float(k % 5) * 0.1 }
        // An edge of 0.5 on row 35, every pixel below it inside: its crossings lie on row 35 itself,
        // exactly `reach` above the second band's first row (inset reach + 3), its outside a row above.
        var step = Plane(width: 40, height: 2 * DistanceBevel.bandRows + 30)
        for i in step.pixels.indices { step.pixels[i] = i / 40 < 35 ? 0 : i / 40 == 35 ? 0.5 : 1 }
        let masks = [Masks.disc(width: 61, height: 47, cx: 29.3, cy: 22.8, r: 17.2), Masks.strokes(width: 50, height: 44),
                     Masks.random(width: 40, height: 36, seed: 4), empty,
                     Masks.strokes(width: 46, height: 4 * DistanceBevel.bandRows + 37),
                     Masks.random(width: 35, height: 3 * DistanceBevel.bandRows + 29, seed: 9), dots,
                     Masks.disc(width: 190, height: 2 * DistanceBevel.bandRows + 50, cx: 101.4, cy: 47.6, r: 6.3), step]
        for (n, mask) in masks.enumerated() {
            for reach in [1, 4, 9, DistanceBevel.directReach] where mask.width > 2 * reach + 6 && mask.height > 2 * reach + 6 {
                let within = assertEnvelopeMatchesDirect(mask, reach: reach, inset: reach + 3, "mask \(n)")
                if n != 3 { XCTAssertGreaterThan(within, 0, "mask \(n) reach \(reach)") }
            }
        }
    }

    /// The same with halos wider than the reach. The discs lie in the halo's corners, where the
    /// output's nearest pixels find their nearest edge across more than half the reach of halo.
    func testEnvelopeWithWideHalosMatchesDirectMinimum() {
        let masks = [Masks.disc(width: 97, height: 88, cx: 9.4, cy: 8.7, r: 7.3),
                     Masks.disc(width: 97, height: 88, cx: 87.4, cy: 78.2, r: 7.3),
                     Masks.strokes(width: 90, height: 84), Masks.random(width: 88, height: 80, seed: 11)]
        for (n, mask) in masks.enumerated() {
            let within = [(30, 33), (20, 21), (12, 38)].map { reach, inset in
                assertEnvelopeMatchesDirect(mask, reach: reach, inset: inset, "mask \(n)")
            }
            XCTAssertGreaterThan(within.reduce(0, +), 0, "mask \(n)")
        }
    }

    /// Beyond the direct minimum's reach, the envelopes take their lines from lists of the window's
    /// crossings or from planes of the distances along the lines: the same bits everywhere, with
    /// halos narrower and wider than the reach, on masks with few crossings and with crossings on
    /// every other segment; a window with more crossings than its lists hold goes through the planes.
    func testCrossingListsAndPlanesAgree() {
        let masks = [Masks.disc(width: 97, height: 88, cx: 40.4, cy: 38.7, r: 27.3), Masks.strokes(width: 90, height: 84),
                     Masks.random(width: 88, height: 80, seed: 11)]
        for (n, mask) in masks.enumerated() {
            for (reach, inset) in [(30, 33), (26, 26), (40, 30), (12, 38), (3, 5)] {
                let (lists, planes, listed) = mask.pixels.withUnsafeBufferPointer { m in
                    (DistanceBevel.crossingDistances(m.baseAddress!, width: mask.width, height: mask.height, reach: reach,
                                                     inset: inset, directReach: 0, crossingsPerLine: mask.width + mask.height),
                     DistanceBevel.crossingDistances(m.baseAddress!, width: mask.width, height: mask.height, reach: reach,
                                                     inset: inset, directReach: 0, crossingsPerLine: 0),
                     DistanceBevel.fromCrossingLists(m.baseAddress!, width: mask.width, height: mask.height, reach: reach,
                                                     inset: inset, perLine: mask.width + mask.height))
                }
                XCTAssertNotNil(listed, "mask \(n) reach \(reach)")
                XCTAssertEqual(lists.count, planes.count, "mask \(n) reach \(reach)")
                XCTAssertGreaterThan(planes.filter { $0 > 0 && $0 <= Float(reach * reach) }.count, 0, "mask \(n) reach \(reach)")
                for i in planes.indices where lists[i].bitPattern != planes[i].bitPattern {
                    XCTFail("mask \(n) reach \(reach) inset \(inset) pixel \(i): \(lists[i]) against \(planes[i])")
                    break
                }
            }
        }
        // The random mask crosses far more than one segment a line: its lists refuse it.
        let noisy = masks[2]
        let refused = noisy.pixels.withUnsafeBufferPointer {
            DistanceBevel.fromCrossingLists($0.baseAddress!, width: noisy.width, height: noisy.height, reach: 30, inset: 33, perLine: 1)
        }
        XCTAssertNil(refused)
    }

    /// `insideReach` bounds every inside pixel's distance to the edge with a pixel to spare: on thin
    /// and thick shapes, a bar across the whole window, edges everywhere, with outputs inset by
    /// nothing up to more than its margin; nil where no outside pixel lies near the output.
    func testInsideReachBoundsEveryInsideDistance() {
        var bar = Plane(width: 120, height: 100)
        for y in 30..<70 { for x in 0..<120 { bar[x, y] = 1 } }
        let masks = [Masks.disc(width: 97, height: 88, cx: 40.4, cy: 38.7, r: 27.3), Masks.strokes(width: 90, height: 84),
                     Masks.random(width: 88, height: 80, seed: 11), Masks.halfPlane(width: 100, height: 90, degrees: 33), bar]
        for (n, mask) in masks.enumerated() {
            let distance = referenceDistance(mask)
            for inset in [0, 5, 24, 37] {
                let bound = mask.pixels.withUnsafeBufferPointer {
                    DistanceBevel.insideReach($0.baseAddress!, width: mask.width, height: mask.height, inset: inset)
                }
                guard let bound else { XCTFail("mask \(n) inset \(inset): no bound"); continue }
                var farthest = 0.0
                for y in inset..<(mask.height - inset) {
                    for x in inset..<(mask.width - inset) where mask[x, y] >= 0.5 {
                        farthest = max(farthest, distance[y * mask.width + x])
                    }
                }
                XCTAssertLessThanOrEqual(farthest + 1, Double(bound), "mask \(n) inset \(inset)")
                // Thin shapes get a bound far below the window's size.
                if n == 1 { XCTAssertLessThan(bound, 24, "strokes, inset \(inset)") }
            }
        }
        let solid = Plane(width: 200, height: 180, fill: 1)
        var hole = solid
        hole[3, 3] = 0
        for (mask, inset) in [(solid, 10), (hole, 70)] {
            XCTAssertNil(mask.pixels.withUnsafeBufferPointer {
                DistanceBevel.insideReach($0.baseAddress!, width: mask.width, height: mask.height, inset: inset)
            })
        }
    }

    /// The inner side alone measures only as far as `insideReach`, in a window cropped to it: the
    /// same bits as the inner side made with the outer (the whole reach and window), on shapes whose
    /// bound is taken (thin strokes, a small disc) and on ones whose is not (a large disc, noise).
    func testInsideAloneMatchesBothSides() {
        var strokes = Plane(width: 150, height: 130)
        let thin = Masks.strokes(width: 90, height: 84), small = Masks.disc(width: 30, height: 30, cx: 14.3, cy: 15.6, r: 9.4)
        for y in 0..<84 { for x in 0..<90 { strokes[20 + x, 25 + y] = thin[x, y] } }
        for y in 0..<30 { for x in 0..<30 { strokes[110 + x, 90 + y] = small[x, y] } }
        let masks = [strokes, Masks.disc(width: 150, height: 140, cx: 70.4, cy: 68.7, r: 55.3),
                     Masks.random(width: 120, height: 110, seed: 5)]
        for (n, mask) in masks.enumerated() {
            for radius: Float in [30, 57.5] {
                let halo = Int(radius) + 2, padded = mask.padded(by: halo)
                let bound = padded.pixels.withUnsafeBufferPointer {
                    DistanceBevel.insideReach($0.baseAddress!, width: padded.width, height: padded.height, inset: halo)
                }
                if n == 0 { XCTAssertLessThan(bound ?? .max, Int(radius), "strokes: the bound is taken") }
                for profile in [BevelProfile.linear, .round] {
                    let alone = DistanceBevel.sides(mask: padded, radius: radius, profile: profile, halo: halo,
                                                    inside: true, outside: false).inner
                    let both = DistanceBevel.sides(mask: padded, radius: radius, profile: profile, halo: halo,
                                                   inside: true, outside: true).inner
                    XCTAssertEqual(alone.width, mask.width)
                    XCTAssertGreaterThan(alone.pixels.filter { $0 > 0 && $0 < 1 }.count, 100, "mask \(n)")
                    XCTAssertEqual(alone.pixels.count, both.pixels.count)
                    for i in alone.pixels.indices where alone.pixels[i].bitPattern != both.pixels[i].bitPattern {
                        XCTFail("mask \(n) radius \(radius) \(profile) pixel \(i): \(alone.pixels[i]) against \(both.pixels[i])")
                        break
                    }
                }
            }
        }
    }

    /// Asserts that the envelopes and the direct minimum give the same bits wherever the distance
    /// is within `reach` (and both lie above reach² elsewhere); returns how many pixels lie within
    /// it, off the edge (distance above 0).
    func assertEnvelopeMatchesDirect(_ mask: Plane, reach: Int, inset: Int, _ label: String) -> Int {
        let (direct, envelope) = mask.pixels.withUnsafeBufferPointer { m in
            (DistanceBevel.crossingDistances(m.baseAddress!, width: mask.width, height: mask.height, reach: reach,
                                             inset: inset, directReach: reach),
             DistanceBevel.crossingDistances(m.baseAddress!, width: mask.width, height: mask.height, reach: reach,
                                             inset: inset, directReach: 0))
        }
        XCTAssertEqual(direct.count, (mask.width - 2 * inset) * (mask.height - 2 * inset), label)
        let limit = Float(reach * reach)
        var within = 0
        for i in direct.indices {
            if envelope[i] <= limit {
                if envelope[i] > 0 { within += 1 }
                XCTAssertEqual(direct[i].bitPattern, envelope[i].bitPattern, "\(label) reach \(reach) pixel \(i)")
            } else {
                XCTAssertGreaterThan(direct[i], limit, "\(label) reach \(reach) pixel \(i)")
            }
        }
        return within
    }

    /// Sub-pixel: moving an anti-aliased straight edge by 0.1 px moves the height by 0.1 / R.
    func testSubPixelEdgeMovesHeightSmoothly() {
        func column(edge: Double) -> Plane {
            var p = Plane(width: 30, height: 41)
            for y in 0..<41 { for x in 0..<30 { p[x, y] = Float(min(max(edge - Double(x) + 0.5, 0), 1)) } }
            return p
        }
        let p = HeightFieldParameters(radius: 10, profile: .linear)
        let a = heightField(column(edge: 20.2), p), b = heightField(column(edge: 20.3), p)
        // Pixel 12 is ~8 px from the edge: linear slope 1/R.
        XCTAssertEqual(Double(b[12, 20] - a[12, 20]), 0.1 / 10, accuracy: 2e-3)
        XCTAssertEqual(Double(a[12, 20]), (20.2 - 12) / 10, accuracy: 0.02)
    }
}
