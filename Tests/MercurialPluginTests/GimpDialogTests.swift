import Foundation
import GeglHost
import XCTest

/// What GIMP 3 reads from our ops, checked through GEGL alone: menu ops have no aux pad (GIMP merges
/// any filter that has one), their dialogs' `visible` keys are well-formed and leave at most 12
/// controls on a page, positions carry GIMP's picker keys, and every menu op draws a picture with
/// relief on GIMP's default text (black on transparency) with its defaults.
final class GimpDialogTests: PluginTestCase {
    /// The ops GIMP 3 shows in its menus.
    static let menuOps = Gegl.operations().filter { $0.hasPrefix("mercurial:") && Gegl.key($0, "gimp:menu-path") != nil }.sorted()

    func testMenuOpsHaveNoAuxPadAndTheGraphOpsKeepTheirs() {
        XCTAssertEqual(Self.menuOps, ["mercurial:bevel-emboss", "mercurial:height-field-from-mask", "mercurial:hemisphere-light-render",
                                      "mercurial:holographic-foil", "mercurial:liquid-metal", "mercurial:matcap",
                                      "mercurial:material-maps", "mercurial:relief-lighting"])
        for op in Self.menuOps {
            XCTAssertFalse(Gegl.pads(op).inputs.contains("aux"), "\(op) has an aux pad: GIMP 3 would merge it")
            let names = Gegl.properties(op).map(\.name)
            for reserved in ["input", "output", "aux"] {
                XCTAssertFalse(names.contains(reserved), "\(op): GIMP never shows a property named \(reserved)")
            }
        }
        // GIMP's action search lists every op by title: no graph op may take a menu op's title (an
        // artist would pick the one GIMP merges).
        let menuTitles = Set(Self.menuOps.compactMap { Gegl.key($0, "title") })
        XCTAssertEqual(menuTitles.count, Self.menuOps.count)
        for op in ["mercurial:shaded-material", "mercurial:holographic-hue", "mercurial:lit-relief",
                   "mercurial:shaded-material-from-mask", "mercurial:bevel-shade"] {
            XCTAssertTrue(Gegl.pads(op).inputs.contains("aux"), "\(op) keeps its aux pad for graphs")
            XCTAssertFalse(menuTitles.contains(Gegl.key(op, "title") ?? ""), "\(op) has a menu op's title")
        }
    }

    /// Every `visible`/`sensitive` expression parses and names boolean or enum properties of its own
    /// op (with nicks they have); on every page of every menu op at most 12 controls show.
    func testDialogPagesShowAtMostTwelveControls() throws {
        for op in Self.menuOps {
            let properties = Gegl.properties(op)
            let byName = Dictionary(uniqueKeysWithValues: properties.map { ($0.name, $0) })
            var state = Dictionary(uniqueKeysWithValues: properties.map { ($0.name, $0.defaultValue) })
            for p in properties {
                for key in ["visible", "sensitive"] {
                    guard let expression = p.keys[key] else { continue }
                    XCTAssertNoThrow(try Condition(expression, properties: byName).holds(in: state),
                                     "\(op) \(p.name) \(key) \"\(expression)\"")
                }
            }
            let pages = byName["page"]?.choices ?? [""]
            var largest = 0
            for page in pages {
                if byName["page"] != nil { state["page"] = page }
                // Every control that some state of the booleans could show: each boolean on.
                var open = state
                for p in properties where p.typeName == "gboolean" { open[p.name] = "true" }
                let shown = try properties.filter { p in
                    try p.name != "page" && (p.keys["visible"].map { try Condition($0, properties: byName).holds(in: open) } ?? true)
                }
                largest = max(largest, shown.count)
                XCTAssertLessThanOrEqual(shown.count, 12, "\(op) page \(page): \(shown.map(\.name))")
            }
            XCTAssertGreaterThan(largest, 0, op)
        }
    }

    /// Liquid metal's dialog shows the light's angle only when it acts, the profile only under
    /// "Other profile", and nothing named by where it comes from.
    func testLiquidMetalShowsWhatActs() throws {
        let properties = Dictionary(uniqueKeysWithValues: Gegl.properties("mercurial:liquid-metal").map { ($0.name, $0) })
        func visible(_ name: String, _ state: [String: String]) throws -> Bool {
            var full = properties.mapValues(\.defaultValue)
            full.merge(state) { _, new in new }
            return try Condition(try XCTUnwrap(properties[name]?.keys["visible"]), properties: properties).holds(in: full)
        }
        XCTAssertFalse(try visible("light-angle", ["page": "light"]))
        XCTAssertTrue(try visible("light-angle", ["page": "light", "custom-light": "true"]))
        XCTAssertFalse(try visible("profile", ["page": "bevel"]))
        XCTAssertTrue(try visible("profile", ["page": "bevel", "technique": "profile"]))
        XCTAssertEqual(properties["technique"]?.defaultValue, "smooth")
        XCTAssertEqual(properties["radius"]?.title, "Size")
        XCTAssertEqual(properties["relief"]?.title, "Depth")
        XCTAssertEqual(properties["preset"]?.defaultValue, "bright-chrome")
        // Old names stay readable in graphs: every choice of 0.1 is still there, with its number.
        XCTAssertEqual(Array(properties["preset"]!.choices.prefix(4)), ["chrome", "gold", "mercury", "neon"])
        XCTAssertEqual(properties["technique"]?.choices, ["profile", "smooth", "chisel-hard", "chisel-soft"])
        for op in Gegl.operations() where op.hasPrefix("mercurial:") {
            for p in Gegl.properties(op) {
                XCTAssertFalse(p.title.contains("Core Image") || p.title.contains("×"), "\(op) \(p.name): \(p.title)")
                XCTAssertLessThanOrEqual(p.blurb.split(separator: " ").count, 25, "\(op) \(p.name): a tooltip, not a manual")
            }
            XCTAssertLessThanOrEqual((Gegl.key(op, "description") ?? "").split(separator: " ").count, 25, op)
        }
    }

    /// Positions on the layer come in x/y pairs with GIMP's axis and unit keys (its on-canvas picker).
    func testPositionsCarryPickerKeys() {
        let properties = Gegl.properties("mercurial:relief-lighting")
        for n in 1...2 {
            let x = properties.first { $0.name == "light\(n)-x" }, y = properties.first { $0.name == "light\(n)-y" }
            XCTAssertEqual(x?.keys["axis"], "x")
            XCTAssertEqual(y?.keys["axis"], "y")
            XCTAssertEqual(x?.keys["unit"], "relative-coordinate")
            XCTAssertEqual(y?.keys["unit"], "relative-coordinate")
            let xi = properties.firstIndex { $0.name == "light\(n)-x" }!
            XCTAssertEqual(properties[xi + 1].name, "light\(n)-y", "GIMP pairs an x with the y right after it")
        }
        XCTAssertTrue(properties.contains { $0.name == "map" && $0.choices.contains("normal-map") },
                      "the normal map is reachable from GIMP's dialog")
    }

    /// Saves `width` × `height` pixels of a source op as a PNG file.
    func savePNG(_ source: String, _ properties: [String: Value], width: Int, height: Int, to path: String) {
        let g = Graph()
        let node = g.add(source, properties)
        let crop = g.add("gegl:crop", ["width": .double(Double(width)), "height": .double(Double(height))])
        let save = g.add("gegl:png-save", ["path": .string(path)])
        g.link(node, crop, save)
        g.process(save)
    }

    /// GIMP's default text layer: black letters on transparency.
    func blackText(_ g: Graph) -> Node {
        let text = g.add("gegl:text", ["string": .string("Hg"), "size": .double(80), "color": .string("black")])
        let crop = g.add("gegl:crop", ["x": .double(0), "y": .double(0), "width": .double(140), "height": .double(100)])
        g.link(text, crop)
        return crop
    }

    /// `op` with `properties` on black text, as RGBA float over the text's 140 × 100 pixels.
    func onBlackText(_ op: String, _ properties: [String: Value]) -> [Float] {
        let g = Graph()
        let text = blackText(g)
        let node = g.add(op, properties)
        g.link(text, node)
        return render(g, node, x: 0, y: 0, width: 140, height: 100, format: "RGBA float", components: 4)
    }

    /// Every menu op with its defaults, on black text: a visible picture (not transparent, not
    /// black) with relief (not one flat colour over the letters). The renderer draws its sphere at
    /// its own size whatever the layer (it has no input to measure): it is checked on a layer of
    /// that size.
    func testDefaultsMakeAPictureOnBlackText() {
        for op in Self.menuOps {
            let g = Graph()
            let text = blackText(g)
            let node = g.add(op)
            let renders = !Gegl.pads(op).inputs.contains("input")
            if !renders { g.link(text, node) }
            let (w, h) = renders ? (512, 512) : (140, 100)
            let px = render(g, node, x: 0, y: 0, width: w, height: h, format: "R'G'B'A float", components: 4)
            // Luminance, and each colour channel on its own (a normal map's relief is in its red and
            // green, which luminance weighs against each other).
            var shown: [[Float]] = [[], [], [], []]
            for i in 0..<(w * h) where px[4 * i + 3] > 0.5 {
                shown[0].append(0.2126 * px[4 * i] + 0.7152 * px[4 * i + 1] + 0.0722 * px[4 * i + 2])
                for c in 0..<3 { shown[c + 1].append(px[4 * i + c]) }
            }
            XCTAssertGreaterThan(shown[0].count, 500, "\(op): something visible")
            guard !shown[0].isEmpty else { continue }
            let spread = shown.map { values -> Float in
                let sorted = values.sorted()
                return sorted[sorted.count * 95 / 100] - sorted[sorted.count * 5 / 100]
            }.max()!
            XCTAssertGreaterThan(shown[0].max()!, 0.2, "\(op): not black")
            XCTAssertGreaterThan(spread, 0.08, "\(op): relief, not one flat colour")
        }
    }

    /// A matcap file shades the letters; a missing or unreadable one gives the built-in look (with a
    /// warning), never GEGL's error message drawn as the picture.
    func testMatcapFile() throws {
        let dir = try Plugin.folder("matcap")
        let matcap = dir.appendingPathComponent("matcap.png").path
        savePNG("gegl:color", ["value": .string("rgb(0.9, 0.1, 0.05)")], width: 64, height: 64, to: matcap)
        let garbage = dir.appendingPathComponent("garbage.png").path
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: garbage))

        func shaded(_ properties: [String: Value]) -> [Float] { onBlackText("mercurial:matcap", properties) }
        let look = shaded([:])
        assertSamePixels(shaded(["source": .string("file"), "file": .string(dir.appendingPathComponent("none.png").path)]), look,
                         "a missing file gives the look")
        assertSamePixels(shaded(["source": .string("file"), "file": .string(garbage)]), look, "an unreadable file gives the look")
        assertSamePixels(shaded(["source": .string("look"), "file": .string(matcap)]), look, "the file acts only as the source")
        let fromFile = shaded(["source": .string("file"), "file": .string(matcap)])
        var red = 0
        for i in 0..<(140 * 100) where fromFile[4 * i + 3] > 0.9 && fromFile[4 * i] > 4 * fromFile[4 * i + 1] { red += 1 }
        XCTAssertGreaterThan(red, 500, "the letters take the matcap's colour")
    }

    /// The foil's pattern file replaces the cells; a missing one gives the cells.
    func testFoilPatternFile() throws {
        let dir = try Plugin.folder("foil")
        let pattern = dir.appendingPathComponent("pattern.png").path
        savePNG("gegl:linear-gradient", ["start-x": .double(0), "end-x": .double(140)], width: 140, height: 100, to: pattern)
        func foil(_ properties: [String: Value]) -> [Float] { onBlackText("mercurial:holographic-foil", properties) }
        let cells = foil([:])
        assertSamePixels(foil(["pattern-file": .string(dir.appendingPathComponent("none.png").path)]), cells)
        XCTAssertNotEqual(foil(["pattern-file": .string(pattern)]), cells)
    }

    /// The menu op is the graph op's own pixels: mercurial:relief-lighting = mercurial:lit-relief
    /// with the same values (the normal map under its dialog name, map).
    func testReliefLightingIsLitRelief() {
        for values in [[String: Value](), ["contrast": .double(7), "light1-type": .string("point")]] {
            for (menu, graph) in [("map", "output")] {
                let g = Graph()
                let text = blackText(g)
                let a = g.add("mercurial:relief-lighting", values.merging([menu: .string("normal-map")]) { x, _ in x })
                let b = g.add("mercurial:lit-relief", values.merging([graph: .string("normal-map")]) { x, _ in x })
                g.link(text, a)
                g.link(text, b)
                let pa = render(g, a, x: 0, y: 0, width: 140, height: 100, format: "RGBA float", components: 4)
                assertSamePixels(pa, render(g, b, x: 0, y: 0, width: 140, height: 100, format: "RGBA float", components: 4))
                XCTAssertNotEqual(g.get(a, "map"), "lit")
            }
        }
    }
}

/// GIMP's UI-meta conditions (the boolean part: `name`, `name {nick, …}`, `!`, `&`, `|`, parentheses),
/// checked against the op's own properties. Throws on anything GIMP would reject.
struct Condition {
    struct Invalid: Error, CustomStringConvertible { let description: String }
    let tokens: [String]
    let properties: [String: PropertyInfo]

    init(_ text: String, properties: [String: PropertyInfo]) throws {
        var tokens: [String] = [], current = ""
        for c in text {
            if "!&|(){},".contains(c) || c == " " {
                if !current.isEmpty { tokens.append(current); current = "" }
                if c != " " { tokens.append(String(c)) }
            } else { current.append(c) }
        }
        if !current.isEmpty { tokens.append(current) }
        self.tokens = tokens
        self.properties = properties
    }

    func holds(in state: [String: String]) throws -> Bool {
        var i = 0
        let value = try or(&i, state)
        guard i == tokens.count else { throw Invalid(description: "trailing \(tokens[i...])") }
        return value
    }

    private func or(_ i: inout Int, _ s: [String: String]) throws -> Bool {
        var v = try and(&i, s)
        while i < tokens.count, tokens[i] == "|" { i += 1; v = try and(&i, s) || v }
        return v
    }

    private func and(_ i: inout Int, _ s: [String: String]) throws -> Bool {
        var v = try not(&i, s)
        while i < tokens.count, tokens[i] == "&" { i += 1; v = try not(&i, s) && v }
        return v
    }

    private func not(_ i: inout Int, _ s: [String: String]) throws -> Bool {
        guard i < tokens.count else { throw Invalid(description: "expression ends early") }
        if tokens[i] == "!" { i += 1; return try !not(&i, s) }
        if tokens[i] == "(" {
            i += 1
            let v = try or(&i, s)
            guard i < tokens.count, tokens[i] == ")" else { throw Invalid(description: "unterminated group") }
            i += 1
            return v
        }
        let name = tokens[i]
        i += 1
        if name == "0" || name == "1" { return name == "1" }
        guard let p = properties[name] else { throw Invalid(description: "no property \(name)") }
        if i < tokens.count, tokens[i] == "{" {
            guard !p.choices.isEmpty else { throw Invalid(description: "\(name) is not an enum") }
            i += 1
            var nicks: [String] = []
            while i < tokens.count, tokens[i] != "}" {
                if tokens[i] != "," {
                    guard p.choices.contains(tokens[i]) else { throw Invalid(description: "\(name) has no \(tokens[i])") }
                    nicks.append(tokens[i])
                }
                i += 1
            }
            guard i < tokens.count else { throw Invalid(description: "unterminated {") }
            i += 1
            return nicks.contains(s[name] ?? "")
        }
        guard p.typeName == "gboolean" else { throw Invalid(description: "\(name) is neither boolean nor followed by {…}") }
        return s[name] == "true"
    }
}
