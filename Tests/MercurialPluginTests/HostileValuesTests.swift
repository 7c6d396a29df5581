import GeglHost
import XCTest

/// Values GLib's setters would refuse, passed straight to an operation's set_property (as a
/// careless binding can): NaN takes the property's default, anything else is clamped into range,
/// so the picture never goes blank. (Crashes, hangs and memory are the child-process suite's job:
/// scripts/hostile-test.sh.)
final class HostileValuesTests: PluginTestCase {
    static let hemisphereNumbers = Gegl.properties("mercurial:hemisphere-light-render")
        .filter { $0.typeName == "gdouble" }.map(\.name)

    func renderHemisphere(_ set: (Graph, Node) -> Void) -> [Float] {
        let g = Graph()
        let node = g.add("mercurial:hemisphere-light-render", ["size": .int(64)])
        set(g, node)
        return render(g, node, x: 0, y: 0, width: 64, height: 64, format: "RGBA float", components: 4)
    }

    func testNaNPropertiesTakeTheirDefaults() {
        XCTAssertGreaterThan(Self.hemisphereNumbers.count, 10)
        let defaults = renderHemisphere { _, _ in }
        let nan = renderHemisphere { g, node in
            for name in Self.hemisphereNumbers { g.setUnvalidated(node, name, .nan) }
        }
        XCTAssertEqual(nan.filter { !$0.isFinite }.count, 0)
        XCTAssertEqual(nan, defaults, "every NaN property read as its default")
    }

    func testInfinitePropertiesAreClampedIntoRange() {
        for value in [Double.infinity, -Double.infinity, 1e300, -1e300] {
            let g = Graph()
            let node = g.add("mercurial:hemisphere-light-render", ["size": .int(64)])
            for name in Self.hemisphereNumbers { g.setUnvalidated(node, name, value) }
            for name in ["shininess", "ambient"] {
                let stored = Double(g.get(node, name) ?? "") ?? .nan
                XCTAssertTrue(stored.isFinite, "\(name) stored as \(stored) for \(value)")
            }
            let out = render(g, node, x: 0, y: 0, width: 64, height: 64, format: "RGBA float", components: 4)
            XCTAssertEqual(out.filter { !$0.isFinite }.count, 0, "\(value)")
        }
    }

    /// One NaN property of every op (its first number) leaves the shaded text as it was.
    func testNaNPropertyOfEveryFilterLeavesItsDefaultPicture() {
        let filters = Gegl.operations().filter { $0.hasPrefix("mercurial:") && Gegl.pads($0).inputs.contains("input") }
        XCTAssertGreaterThanOrEqual(filters.count, 9)
        for op in filters.sorted() {
            let numbers = Gegl.properties(op).filter { $0.typeName == "gdouble" }.map(\.name)
            func picture(_ poison: Bool) -> [Float] {
                let g = Graph()
                let text = g.add("gegl:text", ["string": .string("Hg"), "size": .double(40), "color": .string("white")])
                let node = g.add(op)
                if poison { for name in numbers { g.setUnvalidated(node, name, .nan) } }
                g.link(text, node)
                return render(g, node, x: 0, y: 0, width: 64, height: 48, format: "RGBA float", components: 4)
            }
            XCTAssertEqual(picture(true), picture(false), op)
        }
    }
}
