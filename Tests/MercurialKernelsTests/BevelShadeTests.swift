import Foundation
import XCTest
@testable import MercurialKernels

/// Bevel & Emboss's shading against its formulas (see BevelShade.swift).
final class BevelShadeTests: XCTestCase {
    /// The W3C blend formulas at chosen points.
    func testBlendModes() {
        XCTAssertEqual(BlendMode.normal(0.3, 0.8), 0.8)
        XCTAssertEqual(BlendMode.multiply(0.5, 0.4), 0.2, accuracy: 1e-7)
        XCTAssertEqual(BlendMode.screen(0.5, 0.4), 0.7, accuracy: 1e-7)
        XCTAssertEqual(BlendMode.overlay(0.25, 0.6), 0.3, accuracy: 1e-7)
        XCTAssertEqual(BlendMode.overlay(0.75, 0.6), 1 - 2 * 0.25 * 0.4, accuracy: 1e-7)
        XCTAssertEqual(BlendMode.softLight(0.64, 0.75), 0.64 + 0.5 * (0.8 - 0.64), accuracy: 1e-6)
        XCTAssertEqual(BlendMode.softLight(0.5, 0.25), 0.5 - 0.5 * 0.5 * 0.5, accuracy: 1e-7)
        XCTAssertEqual(BlendMode.linearDodge(0.7, 0.6), 1)
        for mode in BlendMode.allCases where mode != .normal {
            XCTAssertEqual(mode(0.37, mode == .multiply ? 1 : mode == .softLight || mode == .overlay ? 0.5 : 0), 0.37,
                           accuracy: 1e-6, "\(mode)'s neutral colour leaves the backdrop")
        }
    }

    /// Flat ground has no highlight and no shadow; a slope facing the light gets highlight only,
    /// one facing away shadow only; the light vector follows Photoshop's angle and altitude.
    func testAmounts() {
        let p = BevelShadeParameters(depth: 10, angle: 0, altitude: 30)
        let l = p.light
        XCTAssertEqual(l.x, Float(cos(Double.pi / 6)), accuracy: 1e-6)
        XCTAssertEqual(l.y, 0, accuracy: 1e-6)
        XCTAssertEqual(l.z, 0.5, accuracy: 1e-6)
        let flat = BevelShade.amounts(p, light: l, gx: 0, gy: 0)
        XCTAssertEqual(flat.highlight, 0)
        XCTAssertEqual(flat.shadow, 0)
        // Light from the right (angle 0): a surface rising to the left (gx < 0) faces it.
        let facing = BevelShade.amounts(p, light: l, gx: -0.05, gy: 0)
        XCTAssertGreaterThan(facing.highlight, 0.3)
        XCTAssertEqual(facing.shadow, 0)
        let away = BevelShade.amounts(p, light: l, gx: 0.05, gy: 0)
        XCTAssertGreaterThan(away.shadow, 0.3)
        XCTAssertEqual(away.highlight, 0)
        // The formula: n = normalize(−10·g, 0, 1), s = n·L − L.z, highlight = s / (1 − L.z).
        let n = SIMD3<Float>(0.5, 0, 1) / (SIMD3<Float>(0.5, 0, 1) * SIMD3<Float>(0.5, 0, 1)).sum().squareRoot()
        let s = (n * l).sum() - l.z
        XCTAssertEqual(facing.highlight, min(s / (1 - l.z), 1), accuracy: 1e-6)
        // Angle + 180° swaps highlight and shadow.
        var q = p
        q.angle = 180
        let swapped = BevelShade.amounts(q, light: q.light, gx: -0.05, gy: 0)
        XCTAssertEqual(swapped.highlight, 0)
        XCTAssertGreaterThan(swapped.shadow, 0.3)
    }

    /// A block: flat heights leave the layer bit for bit; opacities 0 leave it whatever the slopes;
    /// inside-only never changes alpha; outside styles paint where the coverage reaches.
    func testShadeBlock() {
        let w = 6, h = 4, rowLength = w + 2
        var ramp = [Float](repeating: 0, count: 2 * rowLength * (h + 2))
        for y in 0..<(h + 2) { for x in 0..<rowLength { ramp[2 * (y * rowLength + x)] = Float(x) * 0.05; ramp[2 * (y * rowLength + x) + 1] = 1 } }
        var flat = ramp
        for i in stride(from: 0, to: flat.count, by: 2) { flat[i] = 0.5 }
        var layer = [Float](repeating: 0, count: 4 * w * h)
        for i in 0..<(w * h) { layer[4 * i] = 0.7; layer[4 * i + 1] = 0.2; layer[4 * i + 2] = 0.1; layer[4 * i + 3] = i % 3 == 0 ? 0 : 0.8 }
        func shade(_ p: BevelShadeParameters, _ heights: [Float]) -> [Float] {
            var out = [Float](repeating: .nan, count: layer.count)
            heights.withUnsafeBufferPointer { hp in
                layer.withUnsafeBufferPointer { lp in
                    out.withUnsafeMutableBufferPointer {
                        BevelShade.shade(p, heights: hp.baseAddress!, rowLength: rowLength, layer: lp.baseAddress!, width: w,
                                         height: h, into: $0.baseAddress!)
                    }
                }
            }
            return out
        }
        XCTAssertEqual(shade(BevelShadeParameters(), flat), layer, "flat ground keeps the layer")
        XCTAssertEqual(shade(BevelShadeParameters(highlightOpacity: 0, shadowOpacity: 0), ramp), layer, "opacity 0")
        let inner = shade(BevelShadeParameters(angle: 180), ramp)
        XCTAssertNotEqual(inner, layer, "a slope facing the light changes the colour")
        for i in 0..<(w * h) { XCTAssertEqual(inner[4 * i + 3], layer[4 * i + 3], "inside only: alpha as the layer's") }
        let outer = shade(BevelShadeParameters(angle: 180, atop: false), ramp)
        XCTAssertGreaterThan(outer[3], 0, "outside the layer, an outer style paints where the coverage is")
        XCTAssertGreaterThan(outer[0], layer[0], "screen white lightens")
    }

    /// The textures stay in [0, 1], depend on the position alone, and are not flat.
    func testTextures() {
        for texture in BevelTexture.allCases where texture != .none && texture != .file {
            var values: [Float] = []
            for y in 0..<40 { for x in 0..<40 { values.append(texture(Float(x) * 0.37 - 5, Float(y) * 0.29 + 3)) } }
            XCTAssertTrue(values.allSatisfy { $0 >= 0 && $0 <= 1 }, "\(texture)")
            XCTAssertGreaterThan(values.max()! - values.min()!, 0.2, "\(texture) varies")
            XCTAssertEqual(texture(12.25, -7.5), texture(12.25, -7.5))
        }
        XCTAssertEqual(BevelTexture.noise.callAsFunction(.nan, 1), 0)
        XCTAssertEqual(BevelTexture.cells.callAsFunction(1, .infinity), 0)
    }

    /// The contour remaps the height before the slopes: linear over the full range is the identity;
    /// a half range reaches the top at half the height.
    func testContourAndRange() {
        var p = BevelShadeParameters()
        XCTAssertEqual(p.contoured(0.37), 0.37)
        p.range = 0.5
        XCTAssertEqual(p.contoured(0.25), 0.5, accuracy: 1e-6)
        XCTAssertEqual(p.contoured(0.8), 1)
        p.contour = .cone
        XCTAssertEqual(p.contoured(0.25), 1, accuracy: 1e-6)
    }
}
