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

    /// Ors into `dst` (`words` words) the bitmap `src` (`sourceWords` words) moved down by each
    /// of 0...`reach` chunks: bit j of the result is set when any of src's bits j...j + reach is.
    @inline(__always)
    static func orSpread(_ src: UnsafePointer<UInt64>, sourceWords: Int, reach: Int, into dst: UnsafeMutablePointer<UInt64>,
                         words: Int) {
        @inline(__always) func word(_ i: Int) -> UInt64 { i < sourceWords ? src[i] : 0 }
        for i in 0..<words {
            var any: UInt64 = 0
            for s in 0...reach {
                // Bit j of src moved down by s: src's bit 64·i + j + s.
                let q = s >> 6, m = UInt64(s & 63)
                let low = word(i + q) >> m
                any |= m == 0 ? low : low | word(i + q + 1) << (64 - m)
            }
            dst[i] |= any
        }
    }
}
