#if MERCURIAL_KERNELS_V3
import MercurialKernels // the one set of kernel types; this copy of the loops is built for x86-64-v3
#endif

/// Bitmaps of columns in chunks of one vector, for kernels that skip the chunks where a row holds
/// nothing: bit i of a row's words (64 a word) stands for columns [i·width, (i + 1)·width).
enum Chunks {
    /// Columns per bit: one vector.
    static let width = V4.scalarCount

    /// The words a row of `columns` columns takes.
    @inline(__always)
    static func words(_ columns: Int) -> Int { (columns + 64 * width - 1) / (64 * width) }

    /// Calls `body(a, b)` for each run of set bits in `bits` (`words` words; bit i stands for columns
    /// [i·width, (i + 1)·width)), as columns clipped to [from, to), left to right.
    @inline(__always)
    static func forEachRun(_ bits: UnsafePointer<UInt64>, words: Int, from: Int, to: Int, _ body: (Int, Int) -> Void) {
        let chunks = words * 64
        var i = 0
        while i < chunks {
            // The next set bit at or after i, then the next clear bit after it.
            var word = i >> 6
            var set = bits[word] & (~0 << UInt64(i & 63))
            while set == 0 {
                word += 1
                guard word < words else { return }
                set = bits[word]
            }
            let start = word << 6 + set.trailingZeroBitCount
            word = start >> 6
            var clear = ~bits[word] & (~0 << UInt64(start & 63))
            while clear == 0 && word + 1 < words {
                word += 1
                clear = ~bits[word]
            }
            let end = clear == 0 ? chunks : word << 6 + clear.trailingZeroBitCount
            let a = max(start * width, from), b = min(end * width, to)
            if a < b { body(a, b) }
            i = end
        }
    }

    /// Word i of the row `bits` (`words` words) moved down by s chunks (s may be negative): bit j
    /// is the row's bit 64·i + j + s, clear beyond the row.
    @inline(__always)
    static func shifted(_ bits: UnsafePointer<UInt64>, words: Int, word i: Int, by s: Int) -> UInt64 {
        @inline(__always) func word(_ k: Int) -> UInt64 { k >= 0 && k < words ? bits[k] : 0 }
        let q = s >> 6, m = UInt64(s & 63)
        let low = word(i + q) >> m
        return m == 0 ? low : low | word(i + q + 1) << (64 - m)
    }

    /// Ors into `dst` (`words` words) the bitmap `src` (`sourceWords` words) moved down by each
    /// of 0...`reach` chunks: bit j of the result is set when any of src's bits j...j + reach is.
    @inline(__always)
    static func orSpread(_ src: UnsafePointer<UInt64>, sourceWords: Int, reach: Int, into dst: UnsafeMutablePointer<UInt64>,
                         words: Int) {
        for i in 0..<words {
            var any: UInt64 = 0
            for s in 0...reach { any |= shifted(src, words: sourceWords, word: i, by: s) }
            dst[i] |= any
        }
    }

    /// dst = the chunks of `bits` whose neighbours within `d` chunks on either side are all set
    /// (bits beyond the row count as clear).
    @inline(__always)
    static func erode(_ bits: UnsafePointer<UInt64>, words: Int, by d: Int, into dst: UnsafeMutablePointer<UInt64>) {
        for i in 0..<words {
            var all = bits[i]
            var s = -d
            while s <= d && all != 0 {
                all &= shifted(bits, words: words, word: i, by: s)
                s += 1
            }
            dst[i] = all
        }
    }

    /// dst = the chunks of `bits` with a set neighbour within `d` chunks on either side (itself
    /// included; bits beyond the row count as clear).
    @inline(__always)
    static func dilate(_ bits: UnsafePointer<UInt64>, words: Int, by d: Int, into dst: UnsafeMutablePointer<UInt64>) {
        for i in 0..<words {
            var any: UInt64 = 0
            for s in -d...d { any |= shifted(bits, words: words, word: i, by: s) }
            dst[i] = any
        }
    }

    /// Writes a row's bitmap one chunk at a time from the left, each word as it fills, and the
    /// last, partial one at `finish`: every word the row's chunks reach.
    struct Writer {
        let words: UnsafeMutablePointer<UInt64>
        var word: UInt64 = 0, bit: UInt64 = 0, index = 0

        @inline(__always) init(_ words: UnsafeMutablePointer<UInt64>) { self.words = words }

        @inline(__always) mutating func append(_ set: Bool) {
            word |= UInt64(set ? 1 : 0) << bit
            bit += 1
            if bit == 64 {
                words[index] = word
                index += 1
                word = 0
                bit = 0
            }
        }

        @inline(__always) mutating func finish() {
            if bit > 0 { words[index] = word }
        }
    }
}
