import XCTest
@testable import MercurialKernels

/// Core Image's cascade in Double with full (untruncated) separable Gaussians, everything outside
/// the image reading as `outside` (0 for a mask; 1 for an inverted one, whose cascade stays 1 there).
func referenceCoreImageSeparable(_ mask: Plane, radius: Double, outside: Double = 0) -> [Double] {
    let w = mask.width, h = mask.height
    let m = mask.pixels.map(Double.init)
    var current = m
    var sigma = radius
    while sigma >= 1 {
        let reach = Int(20 * sigma)
        var norm = 0.0
        for k in -reach...reach { norm += exp(-Double(k * k) / (2 * sigma * sigma)) }
        let table = (0..<max(w, h)).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) / norm }
        // Blur of (current − outside) over the image, plus the outside's constant.
        var across = [Double](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var acc = 0.0
                for xx in 0..<w { acc += table[abs(xx - x)] * (current[y * w + xx] - outside) }
                across[y * w + x] = acc
            }
        }
        var next = [Double](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var acc = 0.0
                for yy in 0..<h { acc += table[abs(yy - y)] * across[yy * w + x] }
                next[y * w + x] = m[y * w + x] * (acc + outside)
            }
        }
        current = next
        sigma /= 2
    }
    return current
}

final class CoarseLevelsTests: XCTestCase {
    /// A shape with thick and thin parts: a disc, a bar and a one-pixel stroke.
    static func shape(width: Int, height: Int) -> Plane {
        var p = Masks.disc(width: width, height: height, cx: Double(width) * 0.4, cy: Double(height) * 0.5,
                           r: Double(min(width, height)) * 0.3)
        for y in (height / 5)..<(height * 4 / 5) { for x in (width * 3 / 4)..<(width * 3 / 4 + 9) { p[x, y] = 1 } }
        for x in 4..<(width - 4) { p[x, height - 8] = 1 }
        return p
    }

    /// Core Image's profile at every size within 1e-3 of the untruncated cascade (from size 12 on,
    /// the levels of σ ≥ 5 made on coarse grids), and so is the outer style's (the cascade of the
    /// inverted mask, 1 beyond the image), wherever the shapes lie on the grids.
    func testLargeRadiiMatchTheFullGaussianReference() {
        let mask = Self.shape(width: 110, height: 90)
        for radius in [8.0, 12, 15, 16, 24, 45, 130, 240, 250] {
            let p = HeightFieldParameters(radius: radius)
            XCTAssertEqual(p.coarseLevels.isEmpty, radius < 12)
            let want = referenceCoreImageSeparable(mask, radius: radius)
            for offset in Self.offsets {
                let got = heightField(mask, p, at: offset)
                let err = zip(got.pixels, want).map { abs(Double($0) - $1) }.max()!
                XCTAssertLessThan(err, 1e-3, "inner, radius \(radius), offset \(offset)")
            }
            guard radius <= 45 else { continue }
            let outer = Self.outerReference(mask, radius: radius)
            for offset in Self.offsets {
                let got = heightField(mask, HeightFieldParameters(radius: radius, style: .outer), at: offset)
                let err = zip(got.pixels, outer).map { abs(Double($0) - (1 - $1)) }.max()!
                XCTAssertLessThan(err, 1e-3, "outer, radius \(radius), offset \(offset)")
            }
        }
    }

    /// Emboss and pillow within 1e-3 of their formulas on the reference's sides of width R/2:
    /// ½ H(m) + ½ (1 − H(1 − m)) and H(m) + H(1 − m), wherever the shapes lie on the grids (pillow
    /// adds both sides' distances in full).
    func testEmbossAndPillowMatchTheReference() {
        let mask = Self.shape(width: 110, height: 90)
        for radius in [16.0, 24, 32] {
            let inner = referenceCoreImageSeparable(mask, radius: radius / 2)
            let outer = Self.outerReference(mask, radius: radius / 2)
            for style in [BevelStyle.emboss, .pillow] {
                let want = zip(inner, outer).map { style == .emboss ? 0.5 * $0 + 0.5 * (1 - $1) : $0 + $1 }
                for offset in Self.offsets {
                    let got = heightField(mask, HeightFieldParameters(radius: radius, style: style), at: offset)
                    let err = zip(got.pixels, want).map { abs(Double($0) - $1) }.max()!
                    XCTAssertLessThan(err, 1e-3, "\(style), radius \(radius), offset \(offset)")
                }
            }
        }
    }

    /// Where the mask's first pixel lies on the image's grids: both parities of every grid up to
    /// spacing 4, and one more.
    static let offsets = [0, 1, 2, 3, 7]

    /// The reference's cascade of the inverted mask, padded with 4 R of ones (beyond, the cascade
    /// is 1), over the mask's pixels.
    static func outerReference(_ mask: Plane, radius: Double) -> [Double] {
        let pad = Int(4 * radius)
        var inverted = mask.padded(by: pad)
        for i in inverted.pixels.indices { inverted.pixels[i] = 1 - inverted.pixels[i] }
        let padded = referenceCoreImageSeparable(inverted, radius: radius, outside: 1)
        return (0..<(mask.width * mask.height)).map { i in
            padded[(i / mask.width + pad) * inverted.width + i % mask.width + pad]
        }
    }

    /// The coarse grids are the image's: windows at any offset give the same bits as the whole.
    func testAnyTilingGivesIdenticalBitsAtLargeSizes() {
        let mask = Self.shape(width: 61, height: 47)
        // (Finest grids of spacing 2: 100 inner, 40 outer; of 3: 16 inner, 15 outer, 30 emboss.)
        for (radius, style) in [(100.0, BevelStyle.inner), (16, .inner), (40, .outer), (15, .outer), (30, .emboss)] {
            let p = HeightFieldParameters(radius: radius, style: style, soften: style == .emboss ? 2 : 0)
            XCTAssertFalse(p.coarseLevels.isEmpty)
            let padded = mask.padded(by: p.halo)
            let whole = HeightField.compute(window: padded, parameters: p, origin: (-p.halo, -p.halo))
            for (tx, ty, tw, th) in [(0, 0, 13, 7), (20, 11, 1, 1), (37, 3, 24, 40)] {
                let window = padded.cropped(x: tx, y: ty, width: tw + 2 * p.halo, height: th + 2 * p.halo)
                let tile = HeightField.compute(window: window, parameters: p, origin: (tx - p.halo, ty - p.halo))
                XCTAssertEqual(tile.pixels, whole.cropped(x: tx, y: ty, width: tw, height: th).pixels,
                               "radius \(radius) \(style) at \(tx),\(ty)")
            }
        }
    }

    /// An outer side's fold (`CoarseCascade.Fold`): where the mask is 0 all through the
    /// full-resolution levels' reach, the side is its last grid blurred further and read back. It
    /// stays within 1e-4 of those levels run everywhere (the inner profile of the inverted mask,
    /// which has no fold), and windows at any offset still give the whole's bits.
    func testOuterFoldMatchesTheLevelsItStandsFor() {
        // A small disc in a corner: most of the frame lies far from it.
        let mask = Masks.disc(width: 128, height: 112, cx: 18.5, cy: 16.5, r: 6)
        for radius in [16.0, 30, 60] {
            let p = HeightFieldParameters(radius: radius, style: .outer)
            XCTAssertFalse(p.coarseLevels.last!.fold.isEmpty)
            XCTAssertTrue(HeightFieldParameters(radius: radius).coarseLevels.last!.fold.isEmpty, "inner: no fold")
            let padded = mask.padded(by: p.halo)
            let whole = HeightField.compute(window: padded, parameters: p, origin: (-p.halo, -p.halo))
            let side = p.side(radius: p.sideRadius)
            var inverted = mask.padded(by: side.halo)
            for i in inverted.pixels.indices { inverted.pixels[i] = 1 - inverted.pixels[i] }
            let levels = HeightField.compute(window: inverted, parameters: side, origin: (-side.halo, -side.halo))
            var folded = 0, worst: Float = 0
            for i in whole.pixels.indices {
                let difference = abs(whole.pixels[i] - (1 - levels.pixels[i]))
                if difference != 0 { folded += 1 }
                worst = max(worst, difference)
            }
            XCTAssertGreaterThan(folded, 0, "radius \(radius): the fold replaced no pixel")
            XCTAssertLessThan(worst, 1e-4, "radius \(radius)")
            for (tx, ty, tw, th) in [(0, 0, 128, 112), (5, 3, 41, 30), (47, 38, 9, 1), (93, 82, 35, 30), (30, 0, 1, 112)] {
                let window = padded.cropped(x: tx, y: ty, width: tw + 2 * p.halo, height: th + 2 * p.halo)
                let tile = HeightField.compute(window: window, parameters: p, origin: (tx - p.halo, ty - p.halo))
                XCTAssertEqual(tile.pixels, whole.cropped(x: tx, y: ty, width: tw, height: th).pixels,
                               "radius \(radius) at \(tx),\(ty)")
            }
        }
    }

    /// The exact-distance outer bevel at large sizes: 1 − d/R outside the shape (linear profile),
    /// d the brute-force distance to the edge's crossings.
    func testExactDistanceOuterBevelAtLargeSizes() {
        let mask = Masks.disc(width: 70, height: 64, cx: 33.4, cy: 30.7, r: 12.6)
        let distance = referenceDistance(mask)
        for radius in [30.0, 250] {
            let got = heightField(mask, HeightFieldParameters(radius: radius, profile: .linear, style: .outer))
            for i in got.pixels.indices {
                let want = mask.pixels[i] >= 0.5 ? 1 : 1 - min(distance[i] / radius, 1)
                XCTAssertEqual(Double(got.pixels[i]), want, accuracy: 1e-4, "radius \(radius) pixel \(i)")
            }
        }
    }

    /// Sizes past the old limit are kept, and every coarse level of a size has the same σ per cell,
    /// from 2.5 to less than 3.75 (the finest grid's spacing 2 or 3, each coarser one twice the
    /// next). From 12 on (a side's width), the full-resolution levels are those of σ < 5 whatever
    /// the size, so their cost is bounded.
    func testSpacingAndRange() {
        XCTAssertEqual(HeightFieldParameters(radius: 250).effectiveRadius, 250)
        XCTAssertEqual(HeightFieldParameters(radius: 1e9).effectiveRadius, 250)
        for style in BevelStyle.allCases {
            let p = HeightFieldParameters(radius: 250, style: style)
            // Emboss and pillow: sides of 125.
            let halves = style == .emboss || style == .pillow
            XCTAssertEqual(p.coarseLevels.map(\.spacing), halves ? [48, 24, 12, 6, 3] : [96, 48, 24, 12, 6, 3])
            XCTAssertEqual(p.fineSigmas, halves ? [125.0 / 32, 125.0 / 64] : [250.0 / 64, 250.0 / 128])
        }
        // The full-resolution levels' cut: 3.5 σ.
        XCTAssertEqual(HeightFieldParameters(radius: 8).fineWeights.map { $0.count - 1 }, [28, 14, 7, 4])
        XCTAssertEqual(HeightFieldParameters(radius: 12).fineWeights.map { $0.count - 1 }, [11, 6])
        XCTAssertEqual(HeightFieldParameters(radius: 16).fineWeights.map { $0.count - 1 }, [14, 7, 4])
        for radius in stride(from: 12.0, through: 250, by: 0.5) {
            for style in BevelStyle.allCases {
                let p = HeightFieldParameters(radius: radius, style: style)
                guard p.sideRadius >= 12 else { continue } // (emboss and pillow: sides of R/2)
                XCTAssertLessThan(p.fineSigmas.max() ?? 0, 2 * HeightFieldParameters.coarseRatio, "radius \(radius) \(style)")
                XCTAssertEqual(p.coarseLevels.map(\.sigma) + p.fineSigmas, p.side(radius: p.sideRadius).sigmas)
                let ratios = p.coarseLevels.map { $0.sigma / Double($0.spacing) }
                XCTAssertEqual(Set(ratios).count, 1, "radius \(radius) \(style)")
                XCTAssertTrue(ratios.allSatisfy { $0 >= 2.5 && $0 < 3.75 }, "radius \(radius) \(style): \(ratios)")
            }
        }
        // Below 12 every level is at full resolution.
        XCTAssertTrue(HeightFieldParameters(radius: 11.5).coarseLevels.isEmpty)
    }

    /// Large scratch, from either source: every float there and writable; a heap block starts on a
    /// cache line, a mapping's floats end where the mapping does (to a cache line).
    func testLargeBufferSources() {
        for source in [LargeBuffer.Source.heap, .mapping] {
            for count in [0, 1, 1000, (1 << 18) - 1, 1 << 18, (3 << 19) + 5] {
                let buffer = LargeBuffer(floats: count, from: source)
                XCTAssertEqual(buffer.count, count)
                for i in 0..<count { buffer.base[i] = Float(i) }
                XCTAssertEqual(count == 0 ? 0 : buffer.base[count - 1], Float(max(count - 1, 0)))
                XCTAssertEqual(Int(bitPattern: buffer.base) % 64, 0, "\(count)")
            }
        }
    }
}
