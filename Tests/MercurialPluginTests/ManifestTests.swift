import Foundation
import GeglHost
import XCTest

/// `plugin-manifest` (JSON) records what the plug-in provides. This test rebuilds that record from
/// what GEGL reports about the loaded plug-in and requires the two to be identical, so they cannot
/// drift. After a deliberate change: scripts/update-manifest.sh
final class ManifestTests: PluginTestCase {
    static let manifestURL = Plugin.packageRoot.appendingPathComponent("plugin-manifest")

    func reported(version: String) -> [String: Any] {
        let ops = Gegl.operations().filter { $0.hasPrefix("mercurial:") }.sorted()
        return [
            "name": "mercurial",
            "version": version,
            "gegl_module_abi_version": Gegl.moduleABIVersion(Plugin.library.path) ?? -1,
            "library": "mercurial.so",
            "operations": ops.map { op -> [String: Any] in
                let pads = Gegl.pads(op)
                var entry: [String: Any] = [
                    "name": op,
                    "title": Gegl.key(op, "title") ?? "",
                    "categories": (Gegl.key(op, "categories") ?? "").split(separator: ":").map(String.init),
                    "description": Gegl.key(op, "description") ?? "",
                    "pads": ["inputs": pads.inputs, "outputs": pads.outputs],
                    "properties": Gegl.properties(op).map { p -> [String: Any] in
                        var d: [String: Any] = ["name": p.name, "title": p.title, "description": p.blurb,
                                                "type": p.typeName, "default": p.defaultValue]
                        if let v = p.minimum { d["minimum"] = v }
                        if let v = p.maximum { d["maximum"] = v }
                        if let v = p.uiMinimum { d["ui_minimum"] = v }
                        if let v = p.uiMaximum { d["ui_maximum"] = v }
                        if !p.keys.isEmpty { d["keys"] = p.keys }
                        if !p.choices.isEmpty { d["choices"] = p.choices }
                        return d
                    },
                ]
                for key in ["gimp:menu-path", "gimp:menu-label", "position-dependent"] {
                    if let v = Gegl.key(op, key) { entry[key] = v }
                }
                return entry
            },
        ]
    }

    func canonical(_ object: Any) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys,
                                                                               .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    func testManifestMatchesWhatGeglReports() throws {
        let stored = try? Data(contentsOf: Self.manifestURL)
        let storedObject = stored.flatMap { try? JSONSerialization.jsonObject(with: $0) } as? [String: Any]
        let version = storedObject?["version"] as? String ?? "0.1.0"
        let fresh = try canonical(reported(version: version))
        if ProcessInfo.processInfo.environment["MERCURIAL_UPDATE_MANIFEST"] != nil {
            try fresh.write(to: Self.manifestURL, atomically: true, encoding: .utf8)
            return
        }
        let storedText = try XCTUnwrap(storedObject.map { try canonical($0) }, "plugin-manifest is missing or not JSON")
        XCTAssertEqual(storedText, fresh, "plugin-manifest differs from the loaded plug-in; see the test's comment")
        XCTAssertNotNil(version.range(of: #"^\d+\.\d+\.\d+$"#, options: .regularExpression))
        XCTAssertEqual(storedObject?["gegl_module_abi_version"] as? Int, 0x000A)
        XCTAssertGreaterThanOrEqual((storedObject?["operations"] as? [Any])?.count ?? 0, 1)
    }
}
