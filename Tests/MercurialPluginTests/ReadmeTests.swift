import Foundation
import GeglHost
import XCTest

/// The README's demo command, run as written with the real `gegl` binary.
final class ReadmeTests: PluginTestCase {
    static func block(_ marker: String) -> String {
        let text = (try? String(contentsOf: Plugin.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
        guard let start = text.range(of: "<!-- \(marker) -->"), let end = text.range(of: "<!-- /\(marker) -->") else {
            return ""
        }
        return text[start.upperBound..<end.lowerBound].split(separator: "\n")
            .filter { !$0.hasPrefix("```") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .joined(separator: "\n")
    }

    /// Loads an image file through GEGL: (width, height, RGBA float pixels).
    static func load(_ path: String) -> (Int, Int, [Float]) {
        let g = Graph()
        let load = g.add("gegl:load", ["path": .string(path)])
        let box = g.boundingBox(load)
        return (box.width, box.height, g.render(load, format: "RGBA float", components: 4))
    }

    /// The README names the release files with the version scripts/package.sh gives them.
    func testReadmeNamesTheReleaseFilesOfThisVersion() throws {
        let readme = try String(contentsOf: Plugin.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: ManifestTests.manifestURL)) as? [String: Any]
        let version = try XCTUnwrap(manifest?["version"] as? String)
        XCTAssertTrue(readme.contains("mercurial-gegl_\(version)_amd64.deb"), "the .deb of version \(version)")
        XCTAssertTrue(readme.contains("mercurial-\(version)-linux-x86_64.tar.gz"), "the tarball of version \(version)")
    }

    func testDemoCommandRendersThePicture() throws {
        let command = Self.block("demo-command")
        XCTAssertTrue(command.hasPrefix("gegl "), "README has no demo command: \(command)")
        let output = try XCTUnwrap(command.range(of: #"-o (\S+)"#, options: .regularExpression).map {
            String(command[$0].dropFirst(3))
        })
        let dir = try Plugin.folder("demo")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = Plugin.run("/bin/bash", ["-c", command], environment: Plugin.geglEnvironment, directory: dir)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertFalse(result.output.contains("No such op"), result.output)
        let (w, h, rgba) = Self.load(dir.appendingPathComponent(output).path)
        XCTAssertGreaterThan(w, 300)
        XCTAssertGreaterThan(h, 60)
        DemoChecks.check(rgba, width: w, height: h)
    }
}
