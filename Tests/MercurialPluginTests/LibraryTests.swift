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
        let allowed = ["libgegl-0.4", "libgegl-npd-0.4", "libgmodule-2.0", "libgobject-2.0", "libglib-2.0", "libgio-2.0",
                       "libjson-glib-1.0", "libbabl-0.1", "libm.so", "libc.so", "libstdc++.so", "libgcc_s.so", "ld-linux"]
        for lib in needed {
            XCTAssertTrue(allowed.contains { lib.hasPrefix($0) }, "unexpected dependency \(lib)")
            XCTAssertFalse(lib.contains("swift"), "the Swift runtime must be linked in statically: \(lib)")
        }
        for line in dynamic.split(separator: "\n") where line.contains("RUNPATH") || line.contains("RPATH") {
            XCTAssertTrue(line.contains("[$ORIGIN]"), "no run path into a toolchain: \(line)")
        }
        XCTAssertTrue(dynamic.contains("NODELETE"), "made resident (-z nodelete)")
    }

    func testExportsOnlyTheEntryPoints() {
        let symbols = readelf(["--dyn-syms", "-W"]).split(separator: "\n").filter {
            $0.contains(" GLOBAL ") && !$0.contains(" UND ")
        }.compactMap { $0.split(separator: " ").last.map(String.init) }
        XCTAssertEqual(Set(symbols), ["gegl_module_query", "gegl_module_register", "g_module_check_init"])
    }
}
