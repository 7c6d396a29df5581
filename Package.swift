// swift-tools-version:6.0
import PackageDescription

// Mercurial: Swift-written GEGL operations, shipped as one self-contained `.so`.
//
// Targets, from the bottom up:
//   CGegl             system library: the GEGL / babl / GLib / GModule headers (pkg-config gegl-0.4)
//   CVector           inline C for what Swift cannot say: cache prefetch hints, vector roots, quotients, loads
//   MercurialKernels  Swift image kernels, no GEGL import, testable alone: the types, and the loops
//   MercurialKernelsV3 the same loops built for x86-64-v3, on the same types
//   GeglTypes         GLib's fundamental type numbers and node linking, shared by GeglBridge and GeglHost
//   GeglBridge        the only module that touches the C ABI (GType, GValue, GeglBuffer, callbacks)
//   Mercurial         one short file per operation + the module entry points; built as libmercurial.so
//   GeglHost          host-side helpers (start GEGL, build graphs) for the tests and the benchmark
//   mercurial-bench   times every op in-process through GEGL next to native GEGL ops
//   MercurialTestOps  a test-only plug-in for the bridge's other base classes and property kinds

/// How a plug-in .so is linked (see the comments).
let pluginLinkerSettings: [LinkerSetting] = [
    // The plug-in is loaded into hosts that have no Swift runtime (gegl, GIMP):
    // link the runtime in statically, so the .so needs only GEGL, GLib and libc/libstdc++.
    .unsafeFlags([
        "-static-stdlib",
        // GEGL closes and reopens modules; a Swift runtime must never be unmapped.
        "-Xlinker", "-z", "-Xlinker", "nodelete",
        // Hardening, as Debian builds its own libraries: resolve every symbol at load time, then
        // make the relocations read-only.
        "-Xlinker", "-z", "-Xlinker", "now", "-Xlinker", "-z", "-Xlinker", "relro",
        // Record only the libraries the plug-in really calls: the linker is a wrapper that puts
        // --as-needed before pkg-config's whole GEGL link line (see the script).
        "-use-ld=\(Context.packageDirectory)/scripts/build/ld-as-needed",
        // Export only the GModule / GEGL entry points; keep every Swift symbol private
        // so two Swift plug-ins in one host can never bind to each other's runtime.
        "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/Mercurial/exports.map",
    ]),
]

/// The kernels are built -Ounchecked (no overflow or bounds traps in their inner loops).
/// MERCURIAL_CHECKED_KERNELS=1 builds them with Swift's checks on: Swift's stand-in for
/// UndefinedBehaviorSanitizer, which it does not offer on Linux (scripts/sanitizer-test.sh checked).
let kernelOptimization = Context.environment["MERCURIAL_CHECKED_KERNELS"] == nil ? "-Ounchecked" : "-O"

let package = Package(
    name: "Mercurial",
    products: [
        .library(name: "mercurial", type: .dynamic, targets: ["Mercurial"]),
        .executable(name: "mercurial-bench", targets: ["MercurialBench"]),
        // Test-only plug-in: exercises the GeglBridge bases and property kinds Mercurial's ops do not use.
        .library(name: "mercurial-test-ops", type: .dynamic, targets: ["MercurialTestOps"]),
    ],
    targets: [
        .systemLibrary(name: "CGegl", pkgConfig: "gegl-0.4",
                       providers: [.apt(["libgegl-dev", "libbabl-dev", "libglib2.0-dev"])]),
        // Header-only; used by the kernels (see Sources/CVector/vector.h).
        .systemLibrary(name: "CVector"),
        // The kernels, one file each in Kernels/: its types (compiled here only, under
        // `#if !MERCURIAL_KERNELS_V3`) and its loops; the images and helpers several share at the top.
        .target(name: "MercurialKernels", dependencies: ["CVector"],
                swiftSettings: [.unsafeFlags([kernelOptimization]), .swiftLanguageMode(.v5)]),
        // The loops again (Sources/MercurialKernelsV3 is a link to MercurialKernels/Kernels, so a new
        // kernel file is in both builds by itself), compiled for x86-64-v3 (AVX2) on the same types:
        // the plug-in runs this copy when the CPU has it (Accelerated.choose), as GEGL does for its
        // own operations.
        .target(name: "MercurialKernelsV3", dependencies: ["MercurialKernels", "CVector"],
                swiftSettings: [.unsafeFlags([kernelOptimization, "-target-cpu", "haswell"]),
                                .define("MERCURIAL_KERNELS_V3"), .swiftLanguageMode(.v5)]),
        // GLib's type numbers and node linking, once for both sides of GEGL's API.
        .target(name: "GeglTypes", dependencies: ["CGegl"]),
        .target(name: "GeglBridge", dependencies: ["CGegl", "GeglTypes"]),
        // Host-side helpers (start GEGL, build graphs, render) shared by the tests and the benchmark.
        .target(name: "GeglHost", dependencies: ["CGegl", "GeglTypes"]),
        .target(
            name: "Mercurial",
            dependencies: ["GeglBridge", "MercurialKernels", "MercurialKernelsV3"],
            exclude: ["exports.map"],
            linkerSettings: pluginLinkerSettings),
        .target(name: "MercurialTestOps", dependencies: ["GeglBridge"],
                linkerSettings: pluginLinkerSettings),
        .executableTarget(name: "MercurialBench", dependencies: ["GeglHost", "MercurialKernels", "MercurialKernelsV3"],
                         swiftSettings: [.unsafeFlags(["-Ounchecked"]), .swiftLanguageMode(.v5)]),
        .testTarget(name: "MercurialKernelsTests", dependencies: ["MercurialKernels"]),
        .testTarget(name: "MercurialPluginTests", dependencies: ["GeglHost", "MercurialKernels"]),
    ]
)
