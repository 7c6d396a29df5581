import Glibc

/// Scratch floats for a kernel's large working arrays (coarse grids, distance lines): mapped on
/// their own, in whole 2 MiB pages that the system may back with huge pages, so that the first
/// touch costs one page fault per 2 MiB instead of one per 4 KiB (these arrays are fresh memory in
/// every render). Below `mappedBytes`, or if the mapping fails, the memory comes from the heap.
/// Freed when the last reference goes.
package final class LargeBuffer: @unchecked Sendable {
    package let base: UnsafeMutablePointer<Float>
    package let count: Int
    /// The mapping `base` lies in (nil: `base` is from the heap).
    private let mapping: (start: UnsafeMutableRawPointer, bytes: Int)?

    static let hugePage = 2 << 20
    static let mappedBytes = 1 << 20

    package init(floats count: Int) {
        self.count = count
        let bytes = max(count, 1) * MemoryLayout<Float>.stride
        guard bytes >= Self.mappedBytes, let mapping = Self.map(bytes) else {
            base = .allocate(capacity: max(count, 1))
            mapping = nil
            return
        }
        self.mapping = mapping
        // The floats end where the mapping does (to a cache line), so that a read past them faults
        // as it would past a heap block under the sanitizers, instead of reading spare zeros.
        let used = (bytes + 63) / 64 * 64
        // Why the binding: the mapping is untyped memory, used only as floats.
        base = (mapping.start + (mapping.bytes - used)).bindMemory(to: Float.self, capacity: count)
    }

    deinit {
        if let mapping { munmap(mapping.start, mapping.bytes) } else { base.deallocate() }
    }

    /// Whole huge pages holding `bytes`, aligned to a huge page (nil if the system refuses).
    private static func map(_ bytes: Int) -> (start: UnsafeMutableRawPointer, bytes: Int)? {
        // A huge page more than asked, then only the whole huge pages from the first aligned
        // address are kept (the system aligns a mapping to 4 KiB).
        let size = (bytes + hugePage - 1) / hugePage * hugePage
        let raw = mmap(nil, size + hugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        // (MAP_FAILED is −1. Why not Glibc's: Swift's overlay defines it in the object that also
        // wraps hypotf, which would raise the plug-in's glibc floor to 2.35.)
        guard let raw, raw != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
        let start = Int(bitPattern: raw), aligned = (start + hugePage - 1) / hugePage * hugePage
        if aligned > start { munmap(raw, aligned - start) }
        let tail = start + size + hugePage - (aligned + size)
        if tail > 0 { munmap(UnsafeMutableRawPointer(bitPattern: aligned + size), tail) }
        let memory = UnsafeMutableRawPointer(bitPattern: aligned)!
        // A hint: refused where huge pages are off, and the pages are then ordinary ones.
        _ = madvise(memory, size, MADV_HUGEPAGE)
        return (memory, size)
    }
}
