import Foundation
import XCTest

/// The shipped file: one self-contained .so that needs only GEGL/babl/GLib and the C/C++ runtime,
/// stays resident, and exports nothing but its three entry points.
final class LibraryTests: PluginTestCase {
    func readelf(_ args: [String]) -> String {
        let r = Plugin.run("/usr/bin/env", ["readelf"] + args + [Plugin.builtLibrary.path])
        XCTAssertEqual(r.status, 0, r.output)
        return r.output
    }

    func testDependenciesRunpathAndResidency() {
        let dynamic = readelf(["-d"])
        let needed = dynamic.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line -> String? in
            guard let a = line.firstIndex(of: "["), let b = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: a)..<b])
        }
        XCTAssertFalse(needed.isEmpty)
        // Linked --as-needed: only what the plug-in calls (no gio, json-glib or the unversioned
        // libgegl-npd-0.4.so that pkg-config's GEGL link line names).
        let allowed = ["libgegl-0.4.so.0", "libgmodule-2.0.so.0", "libgobject-2.0.so.0", "libglib-2.0.so.0",
                       "libbabl-0.1.so.0", "libm.so.6", "libc.so.6", "libstdc++.so.6", "libgcc_s.so.1",
                       "ld-linux-x86-64.so.2"]
        for lib in needed {
            XCTAssertTrue(allowed.contains(lib), "unexpected dependency \(lib)")
            XCTAssertFalse(lib.contains("swift"), "the Swift runtime must be linked in statically: \(lib)")
        }
        for line in dynamic.split(separator: "\n") where line.contains("RUNPATH") || line.contains("RPATH") {
            XCTAssertTrue(line.contains("[$ORIGIN]"), "no run path into a toolchain: \(line)")
        }
        XCTAssertTrue(dynamic.contains("NODELETE"), "made resident (-z nodelete)")
    }

    /// The newest glibc and libstdc++ symbol versions the plug-in asks for stay within the floor the
    /// README states (a newer toolchain or an added call that raises it fails here first).
    func testSymbolVersionsWithinTheStatedFloor() throws {
        let r = Plugin.run("/usr/bin/env", ["objdump", "-T", Plugin.builtLibrary.path])
        XCTAssertEqual(r.status, 0, r.output)
        func newest(_ prefix: String) -> [Int] {
            var best: [Int] = []
            for word in r.output.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "(" || $0 == ")" })
            where word.hasPrefix(prefix) {
                let v = word.dropFirst(prefix.count).split(separator: ".").compactMap { Int($0) }
                if !v.lexicographicallyPrecedes(best) { best = v }
            }
            return best
        }
        let glibc = newest("GLIBC_"), glibcxx = newest("GLIBCXX_")
        XCTAssertFalse(glibc.isEmpty)
        XCTAssertFalse([2, 34].lexicographicallyPrecedes(glibc), "needs glibc \(glibc), newer than the floor")
        XCTAssertFalse([3, 4, 29].lexicographicallyPrecedes(glibcxx), "needs GLIBCXX \(glibcxx), newer than the floor")
        let readme = try String(contentsOf: Plugin.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for floor in ["glibc ≥ 2.34", "GLIBCXX_3.4.29", "GEGL ≥ 0.4.42"] {
            XCTAssertTrue(readme.contains(floor), "the README states the floor: \(floor)")
        }
    }

    func testExportsOnlyTheEntryPoints() {
        let symbols = readelf(["--dyn-syms", "-W"]).split(separator: "\n").filter {
            $0.contains(" GLOBAL ") && !$0.contains(" UND ")
        }.compactMap { $0.split(separator: " ").last.map(String.init) }
        XCTAssertEqual(Set(symbols), ["gegl_module_query", "gegl_module_register", "g_module_check_init"])
    }
}
