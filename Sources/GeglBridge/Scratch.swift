import CGegl

/// Working memory for one thread, from GEGL's per-thread scratch cache: GEGL keeps the blocks for
/// reuse, so a process call that needs a window of pixels takes no fresh pages and pays no zeroing.
public enum Scratch {
    /// Calls `body` with room for `count` floats, uninitialised; the memory is GEGL's again after.
    public static func withFloats<R>(_ count: Int, _ body: (UnsafeMutablePointer<Float>) -> R) -> R {
        // Why the cast: gegl_scratch_alloc returns untyped memory, aligned for any scalar type.
        let raw = gegl_scratch_alloc(gsize(max(count, 1) * MemoryLayout<Float>.stride))!
        defer { gegl_scratch_free(raw) }
        return body(raw.bindMemory(to: Float.self, capacity: max(count, 1)))
    }
}
