import Glibc

/// Scratch floats for a kernel's large working arrays (coarse grids, distance lines), in memory the
/// system may back with huge pages (2 MiB), so that fresh memory's first touch costs one page fault
/// per 2 MiB instead of one per 4 KiB. A mapping under `hugeBytes`, or one the system refuses, is a
/// heap block instead. Freed when the last reference goes.
package final class LargeBuffer: @unchecked Sendable {
    /// Where the floats come from.
    package enum Source {
        /// The heap, with the whole huge pages inside the block advised: memory the allocator holds
        /// is reused from one render to the next (the coarse grids: many, of many sizes). Not
        /// aligned to a huge page, which makes the allocator map such a block afresh every time.
        case heap
        /// A mapping of whole huge pages of its own (the distance lines: a few large arrays, which
        /// the allocator would hand back to the system and fault in again at every render).
        case mapping
    }

    package let base: UnsafeMutablePointer<Float>
    package let count: Int
    /// The mapping `base` lies in (nil: `base` is a heap block).
    private let mapping: (start: UnsafeMutableRawPointer, bytes: Int)?

    static let hugePage = 2 << 20
    static let hugeBytes = 1 << 20

    package init(floats count: Int, from source: Source) {
        self.count = count
        let bytes = max(count, 1) * MemoryLayout<Float>.stride
        mapping = bytes >= Self.hugeBytes && source == .mapping ? Self.map(bytes) : nil
        if let mapping {
            // The floats end where the mapping does (to a cache line), so that a read past them
            // faults as it would past a heap block under the sanitizers, instead of reading zeros.
            let used = (bytes + 63) / 64 * 64
            // Why the binding: the mapping is untyped memory, used only as floats.
            base = (mapping.start + (mapping.bytes - used)).bindMemory(to: Float.self, capacity: count)
            return
        }
        var raw: UnsafeMutableRawPointer? = nil
        guard posix_memalign(&raw, 64, bytes) == 0, let raw else { fatalError("out of memory") }
        Self.adviseHugePages(raw, bytes: bytes)
        // Why the binding: the block is untyped memory, used only as floats.
        base = raw.bindMemory(to: Float.self, capacity: count)
    }

    /// A hint for the whole huge pages inside `bytes` from `start`, given before they are first
    /// touched: refused where huge pages are off, and the pages are then ordinary ones.
    static func adviseHugePages(_ start: UnsafeMutableRawPointer, bytes: Int) {
        let first = (Int(bitPattern: start) + hugePage - 1) / hugePage * hugePage
        let end = (Int(bitPattern: start) + bytes) / hugePage * hugePage
        if end > first { _ = madvise(UnsafeMutableRawPointer(bitPattern: first), end - first, MADV_HUGEPAGE) }
    }

    /// An array of `count` floats made as Array's `init(unsafeUninitializedCapacity:initializingWith:)`
    /// makes it, with the whole huge pages of a large one advised before `initialize` writes them:
    /// the planes a kernel makes a window at a time, which the allocator maps afresh at each render.
    package static func floats(_ count: Int,
                               _ initialize: (inout UnsafeMutableBufferPointer<Float>, inout Int) -> Void) -> [Float] {
        // None asked: the empty array as it is, since Array's initialiser writes the count into
        // the storage every empty array shares, from any thread at once.
        guard count > 0 else { return [] }
        return [Float](unsafeUninitializedCapacity: count) { buffer, n in
            let bytes = count * MemoryLayout<Float>.stride
            if bytes >= 2 * hugePage, let base = buffer.baseAddress { adviseHugePages(base, bytes: bytes) }
            initialize(&buffer, &n)
        }
    }

    deinit {
        if let mapping { munmap(mapping.start, mapping.bytes) } else { free(base) }
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
