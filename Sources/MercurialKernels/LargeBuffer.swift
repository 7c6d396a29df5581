import Glibc

/// Scratch floats for a kernel's large working arrays (coarse grids, distance lines): mapped on
/// their own, in whole 2 MiB pages that the system may back with huge pages, so that the first
/// touch costs one page fault per 2 MiB instead of one per 4 KiB (these arrays are fresh memory in
/// every render). Below `mappedBytes`, or if the mapping fails, the memory comes from the heap.
/// Freed when the last reference goes.
public final class LargeBuffer: @unchecked Sendable {
    public let base: UnsafeMutablePointer<Float>
    public let count: Int
    /// The bytes mapped at `base` (0: from the heap).
    private let mapped: Int

    static let hugePage = 2 << 20
    static let mappedBytes = 1 << 20

    public init(floats count: Int) {
        let bytes = max(count, 1) * MemoryLayout<Float>.stride
        self.count = count
        guard bytes >= Self.mappedBytes else {
            base = .allocate(capacity: max(count, 1))
            mapped = 0
            return
        }
        // A huge page more than asked, then only the whole huge pages from the first aligned
        // address are kept (the system aligns a mapping to 4 KiB).
        let size = (bytes + Self.hugePage - 1) / Self.hugePage * Self.hugePage
        let raw = mmap(nil, size + Self.hugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        // (MAP_FAILED is −1. Why not Glibc's: Swift's overlay defines it in the object that also
        // wraps hypotf, which would raise the plug-in's glibc floor to 2.35.)
        guard let raw, raw != UnsafeMutableRawPointer(bitPattern: -1) else {
            base = .allocate(capacity: count)
            mapped = 0
            return
        }
        let start = Int(bitPattern: raw), aligned = (start + Self.hugePage - 1) / Self.hugePage * Self.hugePage
        if aligned > start { munmap(raw, aligned - start) }
        let tail = start + size + Self.hugePage - (aligned + size)
        if tail > 0 { munmap(UnsafeMutableRawPointer(bitPattern: aligned + size), tail) }
        let memory = UnsafeMutableRawPointer(bitPattern: aligned)!
        // A hint: refused where huge pages are off, and the pages are then ordinary ones.
        _ = madvise(memory, size, MADV_HUGEPAGE)
        // The floats end where the mapping does (to a cache line), so that a read past them faults
        // as it would past a heap block under the sanitizers, instead of reading spare zeros.
        let used = (bytes + 63) / 64 * 64
        // Why the binding: the mapping is untyped memory, used only as floats.
        base = (memory + (size - used)).bindMemory(to: Float.self, capacity: count)
        mapped = size
        mapping = memory
    }

    /// Where the mapping starts (nil: from the heap).
    private var mapping: UnsafeMutableRawPointer? = nil

    deinit {
        if let mapping { munmap(mapping, mapped) } else { base.deallocate() }
    }
}
