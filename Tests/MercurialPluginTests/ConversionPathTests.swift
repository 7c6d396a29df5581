import Foundation
import XCTest

/// babl converts between two formats by whichever of its paths it timed fastest on the machine the
/// first time it needed them (kept in $XDG_CACHE_HOME/babl/babl-fishes), among those within its
/// tolerance: so a conversion may change the last bits of a value on one machine and not another.
/// The demo chain (height field → shaded material) must give the same pixels whatever babl chose,
/// as it does when no conversion stands between the two ops.
final class ConversionPathTests: PluginTestCase {
    static let demo = ["gegl:text", "string=Hg", "size=120", "color=white", "mercurial:height-field-from-mask", "radius=9",
                       "mercurial:shaded-material", "aux=[", "mercurial:hemisphere-light-render", "size=128", "]"]

    /// GEGL's environment for the plug-in, with `cache` as the folder babl keeps its choices in.
    func environment(cache: URL) -> [String: String] {
        var env = Plugin.geglEnvironment
        env["XDG_CACHE_HOME"] = cache.path
        return env
    }

    /// Runs python3 with GEGL (python-gi, as the README's Python example) and `cache` as babl's.
    func python(_ script: String, cache: URL) -> (status: Int32, output: String) {
        let prelude = "import gi, struct\ngi.require_version('Gegl', '0.4')\nfrom gi.repository import Gegl\nGegl.init(None)\n"
        return Plugin.run("/usr/bin/python3", ["-c", prelude + script + "\nGegl.exit()\n"], environment: environment(cache: cache))
    }

    func render(to path: String, cache: URL) {
        let r = Plugin.run("/usr/bin/env", ["gegl", "-o", path, "--"] + Self.demo, environment: environment(cache: cache))
        XCTAssertEqual(r.status, 0, r.output)
    }

    /// The Y float values 1/4096, 2/4096, … 1 read back as YA float through babl: how many change.
    static let countChanged = """
        n = 4096
        b = Gegl.Buffer.new("Y float", 0, 0, n, 1)
        r = Gegl.Rectangle.new(0, 0, n, 1)
        values = [(i + 1) / 4096.0 for i in range(n)]
        b.set(r, "Y float", struct.pack("%df" % n, *values))
        out = struct.unpack("%df" % (2 * n), b.get(r, 1.0, "YA float", Gegl.AbyssPolicy.NONE))
        print("changed", sum(1 for i in range(n) if out[2 * i] != struct.unpack("f", struct.pack("f", values[i]))[0]))
        del b
        """

    /// A cache entry with its pixel count set to 100, a count babl never drops on loading.
    static func pinned(_ entry: String) -> String {
        guard let range = entry.range(of: #"\tpixels=[0-9]+"#, options: .regularExpression) else { return entry }
        return entry.replacingCharacters(in: range, with: "\tpixels=100")
    }

    func testDemoChainDoesNotDependOnBablsConversionPaths() throws {
        // On a loaded machine babl has once left the forced path unused (no value changed), and once
        // written no entry for a conversion it made: the caches are made again, in new folders, up
        // to three times before that counts as a failure.
        for attempt in 0..<3 {
            if try compareDemo(folder: "conversion-paths-\(attempt)", lastAttempt: attempt == 2) { return }
        }
    }

    /// One attempt: false when babl's cache lacks a conversion or the forced path changed no value,
    /// and another attempt is left.
    func compareDemo(folder: String, lastAttempt: Bool) throws -> Bool {
        let dir = try Plugin.folder(folder)
        let usual = dir.appendingPathComponent("usual"), forced = dir.appendingPathComponent("forced")
        // babl's own choice, in a cache of our own: the three conversions the forced path is made
        // of, then the demo's. Once, on a loaded machine, one 4×4 conversion each left no entry for
        // them in the cache: convert more, in a new process each time, until the cache holds them.
        let needed = ["Y float\nYA float\n", "YA float\nRGBA float\n", "RGBA float\nYA float\n"]
        let fishesFile = usual.appendingPathComponent("babl/babl-fishes")
        for _ in 0..<5 {
            let made = python("""
                for src, dst in [("Y float", "YA float"), ("YA float", "RGBA float"), ("RGBA float", "YA float")]:
                    for _ in range(4):
                        b = Gegl.Buffer.new(src, 0, 0, 256, 256)
                        b.get(Gegl.Rectangle.new(0, 0, 256, 256), 1.0, dst, Gegl.AbyssPolicy.NONE)
                        del b
                """, cache: usual)
            XCTAssertEqual(made.status, 0, made.output)
            let cached = (try? String(contentsOf: fishesFile, encoding: .utf8)) ?? ""
            if needed.allSatisfy({ cached.contains("----\n" + $0) || cached.contains("\n" + $0) }) { break }
        }
        let a = dir.appendingPathComponent("usual.exr").path, b = dir.appendingPathComponent("forced.exr").path

        // babl drops each cached entry whose pixel count equals the time in seconds modulo 100 when
        // it loads its cache (so mis-measured paths do not stay): a render started in such a second
        // once left the conversions this test reads out of the cache. Both caches are written here
        // with every count at 100, which no second matches, read once, before any render.
        let fishes = try String(contentsOf: fishesFile, encoding: .utf8)
        var entries = fishes.components(separatedBy: "----\n").map(Self.pinned)
        let header = String(entries[0].prefix { $0 != "\n" })
        entries[0] = String(entries[0].dropFirst(header.count + 1))
        func steps(_ from: String, _ to: String) -> [String] {
            entries.first { $0.hasPrefix("\(from)\n\(to)\n") }.map {
                $0.split(separator: "\n").dropFirst(3).map(String.init)
            } ?? []
        }
        let path = steps("Y float", "YA float") + steps("YA float", "RGBA float") + steps("RGBA float", "YA float")
        guard path.count >= 3 || lastAttempt else { return false }
        XCTAssertGreaterThanOrEqual(path.count, 3, "babl's cache lacks a conversion the test needs:\n\(fishes)")
        entries.removeAll { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        func write(_ entries: [String], to cache: URL) throws {
            try FileManager.default.createDirectory(at: cache.appendingPathComponent("babl"), withIntermediateDirectories: true)
            try (header + "\n" + entries.joined(separator: "----\n") + "----\n")
                .write(to: cache.appendingPathComponent("babl/babl-fishes"), atomically: true, encoding: .utf8)
        }
        try write(entries, to: usual)
        // The same cache, but Y float → YA float through RGBA float: Y → (Y, 1) → (Y, Y, Y, 1) →
        // luminance again, whose weights do not add up to exactly 1 in float.
        var forcedEntries = entries.filter { !$0.hasPrefix("Y float\nYA float\n") }
        forcedEntries.append("Y float\nYA float\n\tpixels=100 cost=1 error=0.0000000000\n" + path.joined(separator: "\n") + "\n")
        try write(forcedEntries, to: forced)
        render(to: a, cache: usual)

        // The forced path is the one babl takes there, and it does change heights (else this test
        // would prove nothing).
        let changed = python(Self.countChanged, cache: forced)
        let proves = changed.output.contains("changed ") && !changed.output.contains("changed 0\n")
        guard proves || lastAttempt else { return false }
        XCTAssertTrue(proves, "the forced path changed no height: \(changed.output)")

        render(to: b, cache: forced)
        let (wa, ha, pa) = ReadmeTests.load(a), (wb, hb, pb) = ReadmeTests.load(b)
        XCTAssertEqual(wa, wb)
        XCTAssertEqual(ha, hb)
        XCTAssertGreaterThan(wa * ha, 1000)
        XCTAssertTrue(pa.contains { $0 > 0.05 }, "something is drawn")
        assertSamePixels(pb, pa, "the demo chain through babl's fastest Y float → YA float and through a lossy one")
        return true
    }
}
