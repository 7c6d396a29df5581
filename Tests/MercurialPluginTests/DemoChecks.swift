import XCTest

/// What the demo picture must show: embossed liquid-metal text.
enum DemoChecks {
    static func check(_ rgba: [Float], width: Int, height: Int, file: StaticString = #filePath, line: UInt = #line) {
        let n = width * height
        var luma = [Float](repeating: 0, count: n)
        for i in 0..<n {
            let r: Float = rgba[4 * i], g: Float = rgba[4 * i + 1], b: Float = rgba[4 * i + 2]
            luma[i] = 0.2126 * r + 0.7152 * g + 0.0722 * b
        }
        XCTAssertTrue((0..<n).allSatisfy { rgba[4 * $0 + 3] > 0.99 }, "opaque", file: file, line: line)
        // Bright highlights and dark creases on the letters' bevels.
        XCTAssertGreaterThan(luma.max() ?? 0, 0.5, "highlights", file: file, line: line)
        XCTAssertLessThan(luma.min() ?? 1, 0.05, "shadows", file: file, line: line)
        // The flat plate is one colour (the sphere's centre) and covers much of the picture.
        var counts: [Int: Int] = [:]
        for v in luma { counts[Int(v * 4096), default: 0] += 1 }
        XCTAssertGreaterThan(counts.values.max() ?? 0, n / 4, "a flat plate around the letters", file: file, line: line)
        // Coloured lights show on the slopes (not a grey image), in many shades.
        let tinted = (0..<n).filter { abs(rgba[4 * $0] - rgba[4 * $0 + 2]) > 0.03 }.count
        XCTAssertGreaterThan(tinted, n / 200, "coloured reflections", file: file, line: line)
        XCTAssertGreaterThan(counts.count, 300, "smooth shading", file: file, line: line)
    }
}
