import Foundation
import GeglHost
import XCTest

/// The plug-in carries a baseline and an x86-64-v3 build of its vector kernels and picks one at run
/// time. Both must give the same pixels: the real gegl renders the same graphs once with the
/// build the CPU allows and once with MERCURIAL_KERNELS=baseline, and the files must decode equal.
final class KernelBuildsTests: PluginTestCase {
    func render(_ ops: [String], baseline: Bool, to path: String) {
        var env = Plugin.geglEnvironment
        if baseline { env["MERCURIAL_KERNELS"] = "baseline" }
        let r = Plugin.run("/usr/bin/env", ["gegl", "-o", path, "--"] + ops, environment: env)
        XCTAssertEqual(r.status, 0, r.output)
    }

    func testBaselineAndAcceleratedBuildsAgree() throws {
        let dir = try Plugin.folder("builds")
        let graphs: [[String]] = [
            ["gegl:text", "string=Hg", "size=90", "color=white", "mercurial:height-field-from-mask", "radius=9"],
            ["mercurial:hemisphere-light-render", "size=160", "shininess=70", "light2-hue=300", "light3-enabled=false",
             "light4-brightness=1.5", "ambient=0.3", "diffuse-color=rgb(0.5,0.2,0.1)", "specular-color=rgb(1,0.8,0.4)"],
            ["gegl:text", "string=Hg", "size=90", "color=white", "mercurial:height-field-from-mask", "radius=6",
             "mercurial:shaded-material", "scale=14"],
            ["gegl:color", "value=rgb(0.3,0.5,0.7)", "gegl:crop", "x=-37", "y=11", "width=203", "height=77",
             "mercurial:holographic-hue", "strength=0.5", "cell-size=5", "sweep=2.5", "seed=9"],
            ["gegl:text", "string=Hg", "size=90", "color=rgb(0.8,0.3,0.1)", "mercurial:lit-relief", "contrast=5",
             "smoothness=0.4", "light2-enabled=true", "shadow-color=rgba(0,0,0.2,0.5)", "shininess=12"],
            ["gegl:text", "string=Hg", "size=90", "color=white", "mercurial:height-field-from-mask", "mask=alpha",
             "style=outer-bevel", "radius=7", "soften=1.5"],
            // Sizes with coarse levels (from 12 on): the coarse cascade's loops, inner and inverted.
            ["gegl:text", "string=Hg", "size=90", "color=white", "mercurial:height-field-from-mask", "radius=40"],
            ["gegl:text", "string=Hg", "size=90", "color=white", "mercurial:height-field-from-mask", "mask=alpha",
             "style=emboss", "radius=60", "soften=2"],
            ["gegl:text", "string=Hg", "size=90", "color=white", "mercurial:height-field-from-mask", "mask=alpha",
             "style=outer-bevel", "profile=round", "radius=30"],
            // A soften made on a grid (σ ≥ 12).
            ["gegl:text", "string=Hg", "size=90", "color=white", "mercurial:height-field-from-mask", "mask=alpha",
             "style=pillow-emboss", "radius=20", "soften=14.5"],
            ["gegl:text", "string=Hg", "size=90", "color=white", "mercurial:liquid-metal", "style=pillow-emboss",
             "technique=chisel-soft", "radius=6", "gloss-contour=ring", "custom-light=true", "light-angle=45"],
            // The maps' numbers relabelled as linear (gegl:cast-format), so that the file holds them
            // as written, with no conversion for babl to choose a path for.
            ["gegl:text", "string=Hg", "size=90", "color=black", "mercurial:material-maps", "map=normal-dx", "strength=1.7",
             "gegl:cast-format", "input-format=R'G'B' float", "output-format=RGB float"],
            ["gegl:text", "string=Hg", "size=90", "color=black", "mercurial:material-maps", "map=ambient-occlusion",
             "occlusion-radius=11", "style=emboss", "gegl:cast-format", "input-format=Y' float", "output-format=Y float"],
            ["gegl:text", "string=Hg", "size=90", "color=black", "mercurial:material-maps", "map=curvature", "tileable=true",
             "gegl:cast-format", "input-format=Y' float", "output-format=Y float"],
        ]
        for (n, ops) in graphs.enumerated() {
            let a = dir.appendingPathComponent("a\(n).exr").path, b = dir.appendingPathComponent("b\(n).exr").path
            render(ops, baseline: false, to: a)
            render(ops, baseline: true, to: b)
            let (wa, ha, pa) = ReadmeTests.load(a), (wb, hb, pb) = ReadmeTests.load(b)
            XCTAssertEqual(wa, wb)
            XCTAssertEqual(ha, hb)
            XCTAssertGreaterThan(wa * ha, 1000)
            XCTAssertEqual(pa, pb, "graph \(n)")
        }
    }
}
