import Foundation
import GeglHost
import XCTest

/// Loads the built plug-in into real GEGL, once per test process.
///
/// The plug-in is the release `.so` that `swift build -c release` makes (the file users install):
/// the tests never link the plug-in's Swift code; they reach it only through GEGL's C API.
enum Plugin {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// `MERCURIAL_BUILD_DIR` (relative to the package, or absolute) names another build of the
    /// plug-in: scripts/sanitizer-test.sh points it at the sanitized one.
    static let buildDirectory = ProcessInfo.processInfo.environment["MERCURIAL_BUILD_DIR"] ?? ".build/release"
    static let builtLibrary = (buildDirectory.hasPrefix("/") ? URL(fileURLWithPath: buildDirectory)
        : packageRoot.appendingPathComponent(buildDirectory)).appendingPathComponent("libmercurial.so")

    /// A folder holding only `mercurial.so`, as installed (GEGL loads every .so under a folder).
    static let directory: URL = {
        let fm = FileManager.default
        // The plug-in tests load the release build (the file users install), which plain
        // `swift test` does not make: say exactly what to run instead of failing test by test.
        let testOps = builtLibrary.deletingLastPathComponent().appendingPathComponent("libmercurial-test-ops.so")
        for file in [builtLibrary, testOps] where !fm.fileExists(atPath: file.path) {
            preconditionFailure("No \(file.path): run `./install.sh` or `swift build -c release` before `swift test`.")
        }
        let built = (try? fm.attributesOfItem(atPath: builtLibrary.path)[.modificationDate] as? Date) ?? .distantPast
        if let stale = newestSource(), stale > built {
            preconditionFailure("\(builtLibrary.path) is older than the sources: run `swift build -c release` (or ./install.sh) again.")
        }
        let dir = scratch.appendingPathComponent("plug-ins")
        do {
            try fm.createDirectory(at: dir, withIntermediateDirectories: false)
            try fm.copyItem(at: builtLibrary, to: dir.appendingPathComponent("mercurial.so"))
            // The test-only plug-in (GeglBridge's other base classes), built by the same command.
            try fm.copyItem(at: testOps, to: dir.appendingPathComponent("mercurial-test-ops.so"))
        } catch {
            preconditionFailure("Could not stage the plug-in in \(dir.path): \(error)")
        }
        return dir
    }()

    /// This test process's own folder under the temporary directory, new (mkdtemp: never one an
    /// earlier process left, so never a stale plug-in from another build) and removed when the
    /// process exits. Everything a test writes goes under it.
    static let scratch: URL = {
        var template = Array((FileManager.default.temporaryDirectory.path + "/mercurial-tests-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { preconditionFailure("mkdtemp failed: errno \(errno)") }
        let path = String(cString: made)
        // Why a C callback: atexit is the one hook that runs when XCTest's runner calls exit().
        atexit { try? FileManager.default.removeItem(at: Plugin.scratch) }
        return URL(fileURLWithPath: path)
    }()

    /// A new, empty folder named `name` under `scratch`, for one test's files.
    static func folder(_ name: String) throws -> URL {
        let dir = scratch.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false)
        return dir
    }

    static var library: URL { directory.appendingPathComponent("mercurial.so") }

    /// GEGL started with the plug-in loaded (idempotent).
    static let started: Bool = {
        Gegl.start(pluginDirectory: directory.path)
        return true
    }()

    static func newestSource() -> Date? {
        let fm = FileManager.default
        let sources = packageRoot.appendingPathComponent("Sources")
        guard let e = fm.enumerator(at: sources, includingPropertiesForKeys: [.contentModificationDateKey]) else { return nil }
        var newest: Date?
        // The modules the plug-in is built from (files only).
        let modules = ["/Sources/Mercurial/", "/Sources/GeglBridge/", "/Sources/MercurialKernels/", "/Sources/CGegl/"]
        for case let url as URL in e where url.pathExtension == "swift" || url.pathExtension == "h" {
            guard modules.contains(where: { url.path.contains($0) }),
                  let d = try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate else { continue }
            newest = max(newest ?? d, d)
        }
        return newest
    }

    /// Environment for running the real `gegl` binary with the plug-in and GEGL's own ops.
    static var geglEnvironment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["GEGL_PATH"] = directory.path + ":" + systemPluginDirectory
        env["GEGL_USE_OPENCL"] = "no"
        // A sanitized plug-in needs its sanitizer's runtime in every process that loads it.
        if let preload = env["MERCURIAL_PRELOAD"] { env["LD_PRELOAD"] = preload }
        return env
    }

    static let systemPluginDirectory: String = {
        let out = run("/usr/bin/env", ["pkg-config", "--variable=pluginsdir", "gegl-0.4"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return out.isEmpty ? "/usr/lib/x86_64-linux-gnu/gegl-0.4" : out
    }()

    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                    directory: URL? = nil) -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        if let environment { p.environment = environment }
        if let directory { p.currentDirectoryURL = directory }
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        do { try p.run() } catch { return (-1, "\(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// Base class: starts GEGL with the plug-in before any test.
class PluginTestCase: XCTestCase {
    override class func setUp() {
        super.setUp()
        _ = Plugin.started
    }

    /// Renders `node` over `rect` with the given thread count and tile size.
    func render(_ g: Graph, _ node: Node, x: Int, y: Int, width: Int, height: Int, format: String, components: Int,
                threads: Int = 2, tile: Int = 128) -> [Float] {
        Gegl.configure("threads", threads)
        Gegl.configure("tile-width", tile)
        Gegl.configure("tile-height", tile)
        defer {
            Gegl.configure("tile-width", 128)
            Gegl.configure("tile-height", 64)
        }
        return g.render(node, x: x, y: y, width: width, height: height, format: format, components: components)
    }

    /// Fails unless `got` and `want` hold the same values (== per value, as XCTAssertEqual: +0 equals
    /// −0, a NaN equals nothing), and then says where they differ (the first few values, with their
    /// bits) instead of printing both images whole.
    func assertSamePixels(_ got: [Float], _ want: [Float], _ what: String = "", components: Int = 4,
                          file: StaticString = #filePath, line: UInt = #line) {
        if let difference = Self.pixelDifference(got, want, components: components) {
            XCTFail(what.isEmpty ? difference : "\(what): \(difference)", file: file, line: line)
        }
    }

    /// nil when the two are equal; else what differs, in a few lines.
    static func pixelDifference(_ got: [Float], _ want: [Float], components: Int = 4) -> String? {
        guard got.count == want.count else { return "\(got.count) values, expected \(want.count)" }
        var differing = 0, largest: Float = 0, shown: [String] = []
        for i in got.indices where !(got[i] == want[i]) {
            differing += 1
            largest = max(largest, abs(got[i] - want[i]))
            if shown.count < 6 {
                shown.append("value \(i) (pixel \(i / components), channel \(i % components)): \(got[i]) "
                             + "[\(String(got[i].bitPattern, radix: 16))], expected \(want[i]) [\(String(want[i].bitPattern, radix: 16))]")
            }
        }
        guard differing > 0 else { return nil }
        return "\(differing) of \(got.count) values differ (largest difference \(largest)); "
            + shown.joined(separator: "; ")
    }
}
