import XCTest

/// What the demo picture must show.
enum DemoChecks {
    /// A height field of text: black outside the letters, a range of heights inside, smooth (many
    /// distinct grey levels, not a thresholded mask).
    static func check(_ rgba: [Float], width: Int, height: Int, file: StaticString = #filePath, line: UInt = #line) {
        let grey = stride(from: 0, to: rgba.count, by: 4).map { rgba[$0] }
        let black = grey.filter { $0 < 0.002 }.count
        XCTAssertGreaterThan(black, grey.count / 4, "mostly background", file: file, line: line)
        let levels = Set(grey.map { Int($0 * 255) })
        XCTAssertGreaterThan(levels.count, 40, "a smooth ramp of heights", file: file, line: line)
        XCTAssertGreaterThan(grey.max() ?? 0, 0.3, "letters rise", file: file, line: line)
    }
}
