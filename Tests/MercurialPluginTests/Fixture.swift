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
        let dir = fm.temporaryDirectory.appendingPathComponent("mercurial-tests-\(getpid())")
        try? fm.createDirectory(at: dir, withIntermediateDirectories: true)
        try? fm.copyItem(at: builtLibrary, to: dir.appendingPathComponent("mercurial.so"))
        // The test-only plug-in (GeglBridge's other base classes), built by the same command.
        try? fm.copyItem(at: testOps, to: dir.appendingPathComponent("mercurial-test-ops.so"))
        return dir
    }()

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
}
