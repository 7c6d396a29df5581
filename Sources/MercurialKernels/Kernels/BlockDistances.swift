#if MERCURIAL_KERNELS_V3
import MercurialKernels // the one set of kernel types; this copy of the loops is built for x86-64-v3
#endif

/// How far each block of a grid of blocks lies from the nearest source block: in blocks, the larger
/// of across and down, at most 255.
enum BlockDistances {
    /// Fills the w × h blocks from `d` (rows w + 2 apart, inside a border of one block on every
    /// side) with their distances: a source holds 0 on entry, every other block 255; the border's
    /// blocks count as sources where they hold 0 and never change. Two passes: down and across
    /// from the top left, then back.
    static func chessboard(_ d: UnsafeMutablePointer<UInt8>, width w: Int, height h: Int) {
        let pw = w + 2
        for y in 0..<h {
            let row = d + y * pw, above = row - pw
            for x in 0..<w where row[x] != 0 {
                let m = min(min(row[x - 1], above[x - 1]), min(above[x], above[x + 1]))
                row[x] = min(row[x], min(m, 254) + 1)
            }
        }
        for y in stride(from: h - 1, through: 0, by: -1) {
            let row = d + y * pw, below = row + pw
            for x in stride(from: w - 1, through: 0, by: -1) where row[x] != 0 {
                let m = min(min(row[x + 1], below[x + 1]), min(below[x], below[x - 1]))
                row[x] = min(row[x], min(m, 254) + 1)
            }
        }
    }
}
