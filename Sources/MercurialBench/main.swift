import Glibc
import GeglHost
import MercurialKernels
import MercurialKernelsV3

// mercurial-bench: times every Mercurial op in-process through real GEGL, next to the nearest
// native GEGL op or chain, on the same 3840×2160 input in the same run, and prints the ratios.
// Each figure is the median of several runs, each on a fresh graph: buffer-source (pre-rendered)
// → op(s) → gegl:write-buffer. GEGL's thread count is set to 2 unless --threads says otherwise.
//
// Usage: swift build -c release && .build/release/mercurial-bench [--runs N] [--threads N] [--plugin PATH]
//        [--memory fresh|reused]
//
// Memory: writing a 3840×2160 RGBA float output costs the kernel's page faults when its 132 MB are
// newly mapped, and that is a large part of a trivial op's time (the floor rows). Which state a run
// finds depends on the process's history (GEGL's tile allocator keeps blocks that any live tile
// pins), so the benchmark fixes it, the same for every row, and prints a table for each state
// (--memory fresh|reused: one of them):
// - fresh: each group of rows runs in a new process of its own, and before each run the
//   memory freed by the last one is handed back to the system, so each run maps its output anew,
//   as a new process does (the `gegl` command, a script) with GEGL's default tile cache;
// - reused: one process, a tile cache of half the physical memory, as GIMP sets it, and one untimed
//   run first: the output's tiles land in memory GEGL already holds, as in a GIMP session.
// The faults column shows the state each row ran in.

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}
let runs = Int(option("--runs") ?? "") ?? 5
let threads = Int(option("--threads") ?? "") ?? 2
let width = 3840, height = 2160
let pluginPath = option("--plugin") ?? realDirectory(of: CommandLine.arguments[0]) + "/libmercurial.so"
guard fileExists(pluginPath) else {
    print("No plug-in at \(pluginPath): run `swift build -c release` first, or pass --plugin PATH.")
    exit(2)
}
/// The memory state every run starts in (see the top of this file).
enum MemoryState: String { case fresh, reused }
/// --memory fresh|reused: that state alone (both, one table each, by default).
let states: [MemoryState] = option("--memory").map { MemoryState(rawValue: $0).map { [$0] } ?? [] } ?? [.fresh, .reused]
guard !states.isEmpty else {
    print("--memory is fresh or reused.")
    exit(2)
}
/// --group K|all (internal, given by the first process to the ones it starts): this process runs
/// group K (or every group) in the one state `--memory` names, and prints its rows only.
let group = option("--group")
let memory = states[0]

func printHeader(_ memory: MemoryState) {
    print("Mercurial benchmark — \(width)×\(height), GEGL threads \(threads), median of \(runs) fresh-graph runs, "
          + "memory \(memory.rawValue)")
    print("")
    print("(CPU: the median CPU time of a run, all threads, user and system: what the work costs beside how long it "
          + "takes. Faults: the median minor page faults of a run, in thousands: about 32 when a 3840×2160 RGBA float "
          + "output is mapped anew (--memory fresh), near 0 when it reuses memory (--memory reused).)")
    print("")
    print("| operation | seconds | compared with | ratio | goal | CPU | faults |")
    print("|---|---:|---|---:|---|---:|---:|")
}

/// --only a,b: run only the cases whose names contain one of the comma-separated words. (A group
/// of cases runs when its key contains a word or a word contains its key: "--only liquid-metal
/// stage 1" runs the liquid-metal group's stage-1 row alone.)
let only = option("--only")
func wanted(_ name: String) -> Bool {
    guard let only else { return true }
    return only.split(separator: ",").contains { name.contains($0) || $0.contains(name) }
}

/// The groups of rows, each named by the --only words that select it (see `wanted`).
let groups: [[String]] = [
    ["height-field-from-mask", "harness", "distance-transform", "native", "kernel"],
    ["shaded-material", "bump-map", "hemisphere-light-render"],
    ["holographic-hue", "cell-noise"],
    ["lit-relief", "paint"],
    ["liquid-metal", "layer floor", "bevel-emboss"],
    ["material-maps", "normal-map", "maps floor"],
]
func runsGroup(_ k: Int) -> Bool { (group == "all" || group == String(k)) && groups[k].contains(where: wanted) }

if group == nil {
    // The first process runs none itself: fresh memory gets a new process per group (so that no
    // group's memory depends on another's), reused memory one process for every group. Arguments
    // are passed on quoted; a process that fails shows as its missing rows and the exit status.
    var given = Array(arguments.dropFirst())
    if let i = given.firstIndex(of: "--memory") { given.removeSubrange(i..<min(i + 2, given.count)) }
    let forwarded = given.map { "'" + $0.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'" }
    var failed = false
    for (n, state) in states.enumerated() {
        let parts = state == .fresh ? groups.indices.filter { k in groups[k].contains(where: wanted) }.map(String.init) : ["all"]
        var tableRows: [String] = []
        for part in parts {
            let command = ([arguments[0]] + forwarded + ["--memory", state.rawValue, "--group", part]).joined(separator: " ")
            guard let pipe = popen(command, "r") else { failed = true; continue }
            var line = [CChar](repeating: 0, count: 1 << 12)
            while fgets(&line, Int32(line.count), pipe) != nil {
                let text = String(cString: line)
                if text.hasPrefix("| ") { tableRows.append(text) } else { fputs(text, stderr) }
            }
            if pclose(pipe) != 0 { failed = true }
        }
        if n > 0 { print("") }
        printHeader(state)
        for row in tableRows { print(row, terminator: "") }
    }
    exit(failed ? 1 : 0)
}

// GEGL loads every .so under a folder: give it a folder holding only the plug-in.
// (--keep-stage DIR: stage there and keep it, so that a profiler can read the plug-in's symbols.)
let keptStage = option("--keep-stage")
let stage = keptStage ?? (getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/mercurial-bench-\(getpid())"
mkdir(stage, 0o755)
guard copyFile(pluginPath, to: stage + "/mercurial.so") else {
    print("Could not copy the plug-in into \(stage).")
    exit(2)
}
defer {
    if keptStage == nil {
        unlink(stage + "/mercurial.so")
        rmdir(stage)
    }
}

if memory == .reused {
    // GIMP's default tile cache: half the physical memory (GEGL reads GEGL_CACHE_SIZE, in MB, at start).
    let megabytes = Int(sysconf(Int32(_SC_PHYS_PAGES))) * Int(sysconf(Int32(_SC_PAGESIZE))) / 2 / (1 << 20)
    setenv("GEGL_CACHE_SIZE", String(megabytes), 1)
}
// No swap file: some groups outgrow GEGL's default cache, and its writer thread would then
// compress and write tiles to disk behind later rows (and still be writing at exit).
setenv("GEGL_SWAP", "RAM", 0)

Gegl.start(pluginDirectory: stage, gpl3: true)
for op in ["mercurial:height-field-from-mask", "mercurial:shaded-material", "mercurial:hemisphere-light-render",
           "mercurial:holographic-hue", "gegl:distance-transform", "gegl:gaussian-blur", "gegl:multiply",
           "gegl:bump-map", "gegl:text", "gegl:cell-noise", "gegl:linear-gradient"]
    where !Gegl.hasOperation(op) {
    print("GEGL has no \(op) here: the comparison would be meaningless.")
    exit(3)
}
Gegl.configure("threads", threads)

/// Renders a node of a throw-away graph into an RGBA float buffer, once.
func prerender(_ build: (Graph) -> Node) -> Buffer {
    prerender(format: "RGBA float", components: 4, build)
}

/// The same, kept in `format` (e.g. "Y float", as the height field writes it).
func prerender(format: String, components: Int, _ build: (Graph) -> Node) -> Buffer {
    let g = Graph()
    let node = build(g)
    let pixels = g.render(node, x: 0, y: 0, width: width, height: height, format: format, components: components)
    return Buffer(width: width, height: height, format: format, pixels: pixels)
}

/// A text-like mask: white letters on black, filling the frame.
var mask: Buffer! = prerender { g in
    let background = g.add("gegl:rectangle", ["x": .double(0), "y": .double(0), "width": .double(Double(width)),
                                               "height": .double(Double(height)), "color": .string("black")])
    let text = g.add("gegl:text", ["string": .string("Mercurial liquid\nmetal letters in\nSwift for GEGL 42"),
                                   "size": .double(330), "color": .string("white")])
    let shift = g.add("gegl:translate", ["x": .double(60), "y": .double(80)])
    let over = g.add("gegl:over")
    g.link(text, shift)
    g.link(background, over)
    g.connect(shift, to: over, pad: "aux")
    return over
}


func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

/// The median of `runs` timings of `body`.
func medianSeconds(_ body: () -> Void) -> Double { median((0..<runs).map { _ in seconds(body) }) }

/// One run of `build` (given the graph and the source node, returns the node to render) into a new
/// buffer, in the memory state `--memory` asks for: its wall-clock seconds, CPU seconds (every
/// thread, user and system) and minor page faults.
func runOnce(_ source: Buffer?, size: (Int, Int), _ build: (Graph, Node?) -> Node) -> (seconds: Double, cpu: Double, faults: Double) {
    let g = Graph()
    let src = source.map { g.add("gegl:buffer-source", ["buffer": .buffer($0)]) }
    let node = build(g, src)
    let out = Buffer(width: size.0, height: size.1, format: "RGBA float")
    let sink = g.add("gegl:write-buffer", ["buffer": .buffer(out)])
    g.link(node, sink)
    if memory == .fresh { releaseFreedMemory() }
    let before = processCPUSeconds(), faultsBefore = minorPageFaults()
    let wall = seconds { g.process(sink) }
    return (wall, processCPUSeconds() - before, Double(minorPageFaults() - faultsBefore))
}

/// Beside `t`'s wall-clock seconds, by case name: the CPU seconds of a run (every thread of the
/// process, user and system) and its minor page faults (how much memory it mapped anew), medians.
var costs: [String: (cpu: Double, faults: Double)] = [:]

struct Row {
    let name: String; let seconds: Double; let versus: String; let ratio: Double?; let goal: String
    var cpu: Double? = nil
    var faults: Double? = nil
}
var rows: [Row] = []

/// A timed case: a name and how to build its graph from the source node.
struct Case {
    let name: String
    let source: Buffer?
    var size = (width, height)
    let build: (Graph, Node?) -> Node
}

/// Runs the cases whose name contains --only (all by default), `runs` times each (the reused state
/// after an untimed first run); returns the median seconds by name, and sets `costs`. In turn: each
/// round runs every case once, so that a drift of the machine reaches every case alike (else each
/// case's runs in a block).
func runCases(_ cases: [Case], inTurn: Bool = false) -> [String: Double] {
    let chosen = cases.filter { wanted($0.name) }, rounds = (memory == .reused ? -1 : 0)..<runs
    var timings: [String: [(seconds: Double, cpu: Double, faults: Double)]] = [:]
    func run(_ c: Case, _ round: Int) {
        let timing = runOnce(c.source, size: c.size, c.build)
        if round >= 0 { timings[c.name, default: []].append(timing) }
    }
    if inTurn {
        for round in rounds { for c in chosen { run(c, round) } }
    } else {
        for c in chosen { for round in rounds { run(c, round) } }
    }
    var out: [String: Double] = [:]
    for c in chosen {
        let made = timings[c.name]!
        out[c.name] = median(made.map(\.seconds))
        costs[c.name] = (median(made.map(\.cpu)), median(made.map(\.faults)))
    }
    return out
}

func filter(_ op: String, _ properties: [String: Value] = [:]) -> (Graph, Node?) -> Node {
    { g, src in
        let node = g.add(op, properties)
        if let src { g.link(src, node) }
        return node
    }
}

// MARK: height-field-from-mask
let radius = 10.0
// (In a block: the cases hold the mask buffer, which must be released before gegl_exit.)
var t: [String: Double] = [:]
if runsGroup(0) {
    let heightCases = [
        Case(name: "mercurial:height-field-from-mask core-image R=10", source: mask,
             build: filter("mercurial:height-field-from-mask", ["radius": .double(radius), "mask": .string("luminance-alpha")])),
        Case(name: "mercurial:height-field-from-mask round R=10", source: mask,
             build: filter("mercurial:height-field-from-mask", ["radius": .double(radius), "profile": .string("round"),
                                                                "mask": .string("luminance-alpha")])),
        // The harness alone: copying the source into the output buffer.
        Case(name: "harness (gegl:nop)", source: mask, build: filter("gegl:nop")),
        Case(name: "gegl:distance-transform", source: mask, build: filter("gegl:distance-transform", ["metric": .string("euclidean")])),
        // The same formula with native ops: h = mask; for σ = 10, 5, 2.5, 1.25: h = mask × blur(h, σ).
        Case(name: "native gaussian-blur × multiply chain, 4 levels", source: mask, build: { g, src in
            var h = src!
            var sigma = radius
            while sigma >= 1 {
                let blur = g.add("gegl:gaussian-blur", ["std-dev-x": .double(sigma), "std-dev-y": .double(sigma),
                                                        "abyss-policy": .string("none")])
                let multiply = g.add("gegl:multiply")
                g.link(h, blur, multiply)
                g.connect(src!, to: multiply, pad: "aux")
                h = multiply
                sigma /= 2
            }
            return h
        }),
    ]
    t = runCases(heightCases)
}
if runsGroup(0) && wanted("kernel") {
    // The kernel alone, single-threaded, on the same mask: what the op costs beyond GEGL's plumbing.
    let plane = Plane(width: width, height: height, pixels: mask.pixels(format: "Y float", components: 1))
    let p = HeightFieldParameters(radius: radius)
    let padded = plane.padded(by: p.halo)
    t["kernel"] = medianSeconds { _ = MercurialKernels.HeightField.compute(window: padded, parameters: p) }
}

func compare(_ name: String, _ others: [(String, String)]) {
    guard let mine = t[name] else { return }
    let present = others.filter { t[$0.0] != nil }
    let cost = costs[name]
    // One row against each other case present, or one row on its own.
    for (other, goal) in present.isEmpty ? [("", "")] : present {
        rows.append(Row(name: name, seconds: mine, versus: other, ratio: other.isEmpty ? nil : mine / t[other]!, goal: goal,
                        cpu: cost?.cpu, faults: cost?.faults))
    }
}
compare("mercurial:height-field-from-mask core-image R=10",
        [("gegl:distance-transform", "≤ 0.5"), ("native gaussian-blur × multiply chain, 4 levels", "≤ 0.2")])
compare("mercurial:height-field-from-mask round R=10", [("gegl:distance-transform", "")])
if let k = t["kernel"] {
    rows.append(Row(name: "  (core-image kernel alone, baseline build, 1 thread, whole frame in one block)", seconds: k, versus: "",
                    ratio: nil, goal: ""))
}
for name in ["harness (gegl:nop)", "gegl:distance-transform", "native gaussian-blur × multiply chain, 4 levels"] { compare(name, []) }

// MARK: shaded-material and hemisphere-light-render
if runsGroup(1) {
    let heights = prerender { g in
        let src = g.add("gegl:buffer-source", ["buffer": .buffer(mask)])
        let hf = g.add("mercurial:height-field-from-mask", ["radius": .double(10), "mask": .string("luminance-alpha")])
        g.link(src, hf)
        return hf
    }
    let shadingCases = [
        Case(name: "mercurial:shaded-material, aux = hemisphere 512²", source: heights, build: { g, src in
            let op = g.add("mercurial:shaded-material", ["scale": .double(10)])
            let sphere = g.add("mercurial:hemisphere-light-render")
            g.link(src!, op)
            g.connect(sphere, to: op, pad: "aux")
            return op
        }),
        Case(name: "gegl:bump-map, aux = the same height field", source: heights, build: { g, src in
            let op = g.add("gegl:bump-map")
            g.link(src!, op)
            g.connect(src!, to: op, pad: "aux")
            return op
        }),
        // What any op writing 3840×2160 RGBA float from this input costs here: the floor for the two above.
        Case(name: "floor: gegl:invert-linear on the same height field", source: heights,
             build: filter("gegl:invert-linear")),
        Case(name: "mercurial:hemisphere-light-render 1024², 4 lights", source: nil, size: (1024, 1024),
             build: { g, _ in g.add("mercurial:hemisphere-light-render", ["size": .int(1024)]) }),
    ]
    for (k, v) in runCases(shadingCases) { t[k] = v }
    compare("mercurial:shaded-material, aux = hemisphere 512²", [("gegl:bump-map, aux = the same height field", "≤ 0.25")])
    if wanted("shaded-material") {
        // The shading kernel alone, one thread, whole frame, on the same height field and sphere.
        let ya = heights.pixels(format: "YA float", components: 2)
        var ha = [Float](repeating: 0, count: (width + 2) * (height + 2) * 2)
        for y in 0..<(height + 2) {
            let sy = min(max(y - 1, 0), height - 1)
            for x in 0..<(width + 2) {
                let sx = min(max(x - 1, 0), width - 1)
                ha[2 * (y * (width + 2) + x)] = ya[2 * (sy * width + sx)]
                ha[2 * (y * (width + 2) + x) + 1] = ya[2 * (sy * width + sx) + 1]
            }
        }
        let sphere = MercurialKernels.Hemisphere.shadingImage(.studio)
        var out = [Float](repeating: 0, count: width * height * 4)
        let kernel = medianSeconds {
            ha.withUnsafeBufferPointer { a in
                out.withUnsafeMutableBufferPointer {
                    MercurialKernels.ShadedMaterial.shade(heightAlpha: a.baseAddress!, width: width, height: height, scale: 10,
                                         shading: sphere, into: $0.baseAddress!)
                }
            }
        }
        rows.append(Row(name: "  (shading kernel alone, baseline build, 1 thread, whole frame)", seconds: kernel,
                        versus: "", ratio: nil, goal: ""))
    }
    compare("gegl:bump-map, aux = the same height field", [])
    compare("floor: gegl:invert-linear on the same height field", [("gegl:bump-map, aux = the same height field", "")])
    if let s = t["mercurial:hemisphere-light-render 1024², 4 lights"] {
        rows.append(Row(name: "mercurial:hemisphere-light-render 1024², 4 lights", seconds: s,
                        versus: fixed(1.048576 / s, 0) + " megapixels/s", ratio: nil, goal: "≥ 100 MP/s"))
        var p = HemisphereParameters.studio
        p.size = 1024
        var out = [Float](repeating: 0, count: 1024 * 1024 * 4)
        let k = medianSeconds {
            out.withUnsafeMutableBufferPointer {
                MercurialKernels.Hemisphere.render(p, x: 0, y: 0, width: 1024, count: 1024 * 1024, into: $0.baseAddress!)
            }
        }
        rows.append(Row(name: "  (hemisphere kernel alone, baseline build, 1 thread)", seconds: k,
                        versus: fixed(1.048576 / k, 0) + " megapixels/s", ratio: nil, goal: ""))
    }
}

// MARK: holographic-hue
if runsGroup(2) {
    let picture = prerender { g in
        g.add("gegl:linear-gradient", ["start-x": .double(0), "start-y": .double(0), "end-x": .double(Double(width)),
                                       "end-y": .double(Double(height)), "start-color": .string("rgb(0.9, 0.3, 0.1)"),
                                       "end-color": .string("rgb(0.1, 0.3, 0.8)")])
    }
    // The same picture stored perceptually (as GIMP's usual 8-bit layers are): no TRC conversions.
    let perceptual = Buffer(width: width, height: height, format: "R'G'B'A float",
                            pixels: picture.pixels(format: "R'G'B'A float", components: 4))
    let foilCases = [
        Case(name: "mercurial:holographic-hue (built-in Voronoi)", source: picture,
             build: filter("mercurial:holographic-hue", ["strength": .double(0.04), "sweep": .double(1)])),
        Case(name: "mercurial:holographic-hue on a perceptual-float picture", source: perceptual,
             build: filter("mercurial:holographic-hue", ["strength": .double(0.04), "sweep": .double(1)])),
        Case(name: "gegl:cell-noise alone", source: nil, build: { g, _ in
            let noise = g.add("gegl:cell-noise")
            let crop = g.add("gegl:crop", ["width": .double(Double(width)), "height": .double(Double(height))])
            g.link(noise, crop)
            return crop
        }),
    ]
    for (k, v) in runCases(foilCases) { t[k] = v }
    compare("mercurial:holographic-hue (built-in Voronoi)", [("gegl:cell-noise alone", "≤ 0.3")])
    compare("mercurial:holographic-hue on a perceptual-float picture", [("gegl:cell-noise alone", "")])
    compare("gegl:cell-noise alone", [])
}

// MARK: lit-relief, a painted layer lit through its height field
if runsGroup(3) {
    let maskPixels = mask.pixels(format: "Y float", components: 1)
    var paint = [Float](repeating: 0, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let i = y * width + x
            paint[4 * i] = Float(x) / Float(width)
            paint[4 * i + 1] = 0.3
            paint[4 * i + 2] = Float(y) / Float(height)
            paint[4 * i + 3] = maskPixels[i]
        }
    }
    let layer = Buffer(width: width, height: height, format: "RGBA float", pixels: paint)
    // The height field as mercurial:height-field-from-mask writes it: one grey channel.
    let heights = prerender(format: "Y float", components: 1) { g in
        let src = g.add("gegl:buffer-source", ["buffer": .buffer(mask)])
        let hf = g.add("mercurial:height-field-from-mask", ["radius": .double(10), "mask": .string("luminance-alpha")])
        g.link(src, hf)
        return hf
    }
    // The key light these rows have always timed (lit-relief's default light was a point light).
    let pointLight: [String: Value] = ["light1-type": .string("point"), "specular-color": .string("rgb(0.6, 0.6, 0.6)")]
    func withHeights(_ op: String) -> (Graph, Node?) -> Node {
        { g, src in
            let node = g.add(op, op == "mercurial:lit-relief" ? pointLight : [:])
            let aux = g.add("gegl:buffer-source", ["buffer": .buffer(heights)])
            g.link(src!, node)
            g.connect(aux, to: node, pad: "aux")
            return node
        }
    }
    let paintCases = [
        Case(name: "mercurial:lit-relief on a painted layer, aux = its height field", source: layer,
             build: withHeights("mercurial:lit-relief")),
        Case(name: "gegl:bump-map on the painted layer, aux = the same height field", source: layer,
             build: withHeights("gegl:bump-map")),
        Case(name: "paint floor: gegl:invert-linear on the painted layer", source: layer, build: filter("gegl:invert-linear")),
        Case(name: "mercurial:lit-relief on a painted layer, height from its alpha (no aux)", source: layer,
             build: filter("mercurial:lit-relief", pointLight)),
    ]
    for (k, v) in runCases(paintCases) { t[k] = v }
    compare("mercurial:lit-relief on a painted layer, aux = its height field",
            [("gegl:bump-map on the painted layer, aux = the same height field", "≤ 0.5"),
             ("paint floor: gegl:invert-linear on the painted layer", "≤ 2")])
    compare("mercurial:lit-relief on a painted layer, height from its alpha (no aux)",
            [("paint floor: gegl:invert-linear on the painted layer", "")])
    compare("gegl:bump-map on the painted layer, aux = the same height field", [])
    compare("paint floor: gegl:invert-linear on the painted layer", [])
    if wanted("lit-relief") {
        // The kernel alone, one thread, in the op's blocks: what the lighting costs without GEGL's reads and writes.
        // The op's defaults: one point light.
        let lights = [ReliefLight(kind: .point, position: SIMD3(0.25 * Float(width), 0.2 * Float(height), 0.5 * Float(width)),
                                  color: SIMD3(repeating: 1.2), falloff: 1, reach: Float(width))]
        let p = LitReliefParameters(smoothness: 0.75, contrast: 3, lights: lights, ambient: SIMD3(repeating: 0.3),
                                    specular: SIMD3(repeating: 0.6), shininess: 40)
        let bw = 256, bh = 64, halo = p.halo, weights = p.weights
        let hs = [Float](repeating: 0.5, count: (bw + 2 * halo) * (bh + 2 * halo)).enumerated().map { Float($0.offset % 37) / 37 }
        let colour = [Float](repeating: 0.5, count: bw * bh * 4)
        var out = [Float](repeating: 0, count: bw * bh * 4)
        func kernelAlone(_ kernel: any LitReliefKernel.Type) -> Double {
            medianSeconds {
                for by in stride(from: 0, to: height, by: bh) {
                    for bx in stride(from: 0, to: width, by: bw) {
                        hs.withUnsafeBufferPointer { h in
                            colour.withUnsafeBufferPointer { c in
                                out.withUnsafeMutableBufferPointer {
                                    kernel.render(p, weights: weights, heights: h.baseAddress!, color: c.baseAddress!,
                                                  x: bx, y: by, width: bw, height: bh, into: $0.baseAddress!, scratch: nil)
                                }
                            }
                        }
                    }
                }
            }
        }
        rows.append(Row(name: "  (lit-relief kernel alone, baseline build, 1 thread, 256×64 blocks)",
                        seconds: kernelAlone(MercurialKernels.LitRelief.self), versus: "", ratio: nil, goal: ""))
        if HostCPU.hasX86_64_v3 {
            rows.append(Row(name: "  (lit-relief kernel alone, x86-64-v3 build, 1 thread, 256×64 blocks)",
                            seconds: kernelAlone(MercurialKernelsV3.LitRelief.self), versus: "", ratio: nil, goal: ""))
        }
    }
}

// MARK: liquid-metal, the whole filter as a host runs it
/// liquid-metal's inner chain with its default properties, up to stage n: 1 the height field alone
/// (the layer's alpha kept), 2 the height field shaded in the same op (shaded-material-from-mask, lit
/// by the hemisphere render), 3 + the foil at 0.
func metalStages(_ n: Int) -> (Graph, Node?) -> Node {
    { g, src in
        var last: Node
        if n == 1 {
            last = g.add("mercurial:height-field-from-mask",
                         ["radius": .double(8), "mask": .string("alpha"), "keep-alpha": .bool(true)])
        } else {
            last = g.add("mercurial:shaded-material-from-mask",
                         ["radius": .double(8), "mask": .string("alpha"), "scale": .double(10)])
            g.connect(g.add("mercurial:hemisphere-light-render"), to: last, pad: "aux")
        }
        g.link(src!, last)
        if n >= 3 {
            let foil = g.add("mercurial:holographic-hue", ["strength": .double(0)])
            g.link(last, foil)
            last = foil
        }
        return last
    }
}

if runsGroup(4) {
    // A text layer as GIMP hands it over: black letters on transparency (the mask as alpha).
    let maskPixels = mask.pixels(format: "Y float", components: 1)
    var rgba = [Float](repeating: 0, count: width * height * 4)
    for i in 0..<(width * height) { rgba[4 * i + 3] = maskPixels[i] }
    let layer = Buffer(width: width, height: height, format: "RGBA float", pixels: rgba)
    let layerCases = [
        Case(name: "mercurial:liquid-metal on a text layer", source: layer, build: filter("mercurial:liquid-metal")),
        Case(name: "layer floor: gegl:invert-linear on the same layer", source: layer, build: filter("gegl:invert-linear")),
        // Where liquid-metal's time goes: its inner chain cut after each stage.
        Case(name: "  liquid-metal stage 1: height field alone", source: layer, build: metalStages(1)),
        Case(name: "  liquid-metal stages 1-2: shaded in the same op", source: layer, build: metalStages(2)),
        Case(name: "  liquid-metal stages 1-3: + foil at 0", source: layer, build: metalStages(3)),
        // Bevel & Emboss keeping the layer's colours, at its defaults (size 5) and at liquid-metal's size.
        Case(name: "mercurial:bevel-emboss on a text layer", source: layer, build: filter("mercurial:bevel-emboss")),
        Case(name: "mercurial:bevel-emboss on a text layer, size 8", source: layer,
             build: filter("mercurial:bevel-emboss", ["size": .double(8)])),
    ]
    // Bevel & Emboss: every style with every technique, and soften, on the same layer.
    let styleCases = ["inner-bevel", "outer-bevel", "emboss", "pillow-emboss"].flatMap { style in
        ["smooth", "chisel-hard", "chisel-soft"].map { technique in
            Case(name: "  liquid-metal style \(style), \(technique)", source: layer,
                 build: filter("mercurial:liquid-metal", ["style": .string(style), "technique": .string(technique)]))
        }
    } + [Case(name: "  liquid-metal inner-bevel, smooth, soften 4", source: layer,
              build: filter("mercurial:liquid-metal", ["soften": .double(4)]))]
    // Any bevel size: each style (and chisel soft, and soften 16) at sizes 8, 64 and 250.
    let sized: [(String, [String: Value])] = [
        ("inner-bevel", [:]), ("outer-bevel", ["style": .string("outer-bevel")]), ("emboss", ["style": .string("emboss")]),
        ("pillow-emboss", ["style": .string("pillow-emboss")]), ("inner chisel-soft", ["technique": .string("chisel-soft")]),
        ("outer chisel-soft", ["style": .string("outer-bevel"), "technique": .string("chisel-soft")]),
        ("inner soften 16", ["soften": .double(16)]),
    ]
    let sizeCases = sized.flatMap { label, properties in
        [8.0, 64, 250].map { r in
            Case(name: "  liquid-metal \(label), size \(Int(r))", source: layer,
                 build: filter("mercurial:liquid-metal", properties.merging(["radius": .double(r)]) { $1 }))
        }
    }
    // In turn: the ratios between styles and sizes (goals of 1.5) compare runs made side by side.
    for (k, v) in runCases(layerCases + styleCases + sizeCases, inTurn: true) { t[k] = v }
    // GIMP's preview: 256×256 regions of one graph, each rendered on its own, against one region
    // (the default technique, and chisel soft: the coarse levels, and the exact distances).
    let chunked: [(label: String, properties: [String: Value])] = [
        ("outer-bevel, size 250", ["style": .string("outer-bevel"), "radius": .double(250)]),
        ("outer chisel-soft, size 250", ["style": .string("outer-bevel"), "technique": .string("chisel-soft"),
                                         "radius": .double(250)]),
    ]
    func chunkedNames(_ label: String) -> (chunked: String, whole: String) {
        ("  liquid-metal \(label), in 256×256 regions of one graph", "  liquid-metal \(label), as one region")
    }
    for (label, properties) in chunked where wanted(chunkedNames(label).chunked) {
        let names = chunkedNames(label)
        for (name, tile) in [(names.whole, max(width, height)), (names.chunked, 256)] {
            t[name] = medianSeconds {
                let g = Graph()
                let src = g.add("gegl:buffer-source", ["buffer": .buffer(layer)])
                let node = g.add("mercurial:liquid-metal", properties)
                g.link(src, node)
                for y in stride(from: 0, to: height, by: tile) {
                    for x in stride(from: 0, to: width, by: tile) {
                        _ = g.render(node, x: x, y: y, width: min(tile, width - x), height: min(tile, height - y),
                                     format: "RGBA float", components: 4)
                    }
                }
            }
        }
    }
    compare("mercurial:liquid-metal on a text layer", [("layer floor: gegl:invert-linear on the same layer", "≤ 2")])
    for c in styleCases { compare(c.name, [("mercurial:liquid-metal on a text layer", "≤ 1.5")]) }
    for name in ["mercurial:bevel-emboss on a text layer", "mercurial:bevel-emboss on a text layer, size 8"] {
        compare(name, [("layer floor: gegl:invert-linear on the same layer", ""), ("mercurial:liquid-metal on a text layer", "")])
    }
    for (label, _) in sized {
        let small = "  liquid-metal \(label), size 8"
        compare(small, [("mercurial:liquid-metal on a text layer", "≤ 1.5")])
        compare("  liquid-metal \(label), size 64", [(small, "")])
        compare("  liquid-metal \(label), size 250", [(small, "≤ 1.5")])
    }
    for (label, _) in chunked {
        let names = chunkedNames(label)
        compare(names.chunked, [(names.whole, "≤ 1.5")])
        compare(names.whole, [])
    }
    compare("layer floor: gegl:invert-linear on the same layer", [])
    for stage in ["  liquid-metal stage 1: height field alone", "  liquid-metal stages 1-2: shaded in the same op",
                  "  liquid-metal stages 1-3: + foil at 0"] {
        compare(stage, [("layer floor: gegl:invert-linear on the same layer", "")])
    }
}

// MARK: material-maps, a sprite's game maps
if runsGroup(5) {
    // The same text layer as liquid-metal's: black letters on transparency.
    let maskPixels = mask.pixels(format: "Y float", components: 1)
    var rgba = [Float](repeating: 0, count: width * height * 4)
    for i in 0..<(width * height) { rgba[4 * i + 3] = maskPixels[i] }
    let layer = Buffer(width: width, height: height, format: "RGBA float", pixels: rgba)
    let floor = "maps floor: gegl:invert-linear on the text layer", native = "gegl:normal-map on the text layer"
    let maps: [(String, [String: Value])] = [
        ("normal (defaults)", [:]), ("height", ["map": .string("height")]),
        ("ambient occlusion", ["map": .string("ambient-occlusion")]), ("curvature", ["map": .string("curvature")]),
        ("normal, tileable", ["tileable": .bool(true)]),
    ]
    let cases = [
        Case(name: floor, source: layer, build: filter("gegl:invert-linear")),
        Case(name: native, source: layer, build: filter("gegl:normal-map")),
        Case(name: "mercurial:lit-relief normal map on the text layer", source: layer,
             build: filter("mercurial:lit-relief", ["output": .string("normal-map")])),
    ] + maps.map { label, p in
        Case(name: "mercurial:material-maps \(label) on the text layer", source: layer, build: filter("mercurial:material-maps", p))
    }
    for (k, v) in runCases(cases) { t[k] = v }
    compare("mercurial:material-maps normal (defaults) on the text layer", [(native, "≤ 0.7"), (floor, "")])
    compare("mercurial:material-maps normal, tileable on the text layer", [(native, ""), (floor, "")])
    compare("mercurial:material-maps height on the text layer", [(floor, "")])
    compare("mercurial:material-maps ambient occlusion on the text layer", [(floor, "≤ 10")])
    compare("mercurial:material-maps curvature on the text layer", [(floor, "≤ 2")])
    compare("mercurial:lit-relief normal map on the text layer", [(native, "")])
    compare(native, [(floor, "")])
    compare(floor, [])
}

for r in rows {
    let ratio = r.ratio.map { fixed($0, 3) } ?? ""
    print("| \(r.name) | \(fixed(r.seconds, 3)) | \(r.versus) | \(ratio) | \(r.goal) | \(r.cpu.map { fixed($0, 3) } ?? "") "
          + "| \(r.faults.map { fixed($0 / 1000, 1) } ?? "") |")
}
mask = nil
Gegl.exit()
