#if MERCURIAL_KERNELS_V3
import MercurialKernels // the one set of kernel types; this copy of the loops is built for x86-64-v3
#endif
import Glibc

// The exact distances beyond the direct minimum's reach, from lists of the window's crossings.
//
// An edge crosses few of a line's segments, so each line's crossings, listed in order, say all that
// the distances along it hold: the nearest crossing on either side of a point is a step along the
// list. The lines' distances are made from the lists as the envelopes take them (a few columns'
// lines, or one row), instead of being stored for the whole window and read back; the arithmetic is
// the planes', so the values are theirs bit for bit. A window with more crossings than the lists
// hold (a noisy mask) goes through the planes instead.

extension DistanceBevel {
    /// Crossings the lists hold per line of the window, on average.
    static let listedCrossingsPerLine = 32

    /// `crossingDistances` (for a reach beyond the direct minimum's) from the lists of the window's
    /// crossings, each list holding at most `perLine` × its lines; nil when the window has more.
    static func fromCrossingLists(_ m: UnsafePointer<Float>, width w: Int, height h: Int, reach: Int, inset: Int,
                                  perLine: Int) -> [Float]? {
        let ow = w - 2 * inset, oh = h - 2 * inset
        guard let (alongRows, downColumns) = CrossingWalks.both(m, width: w, height: h, first: inset, perLine: perLine) else {
            return nil
        }
        defer { alongRows.deallocate(); downColumns.deallocate() }
        let scratch = EnvelopeScratch(length: max(w, h))
        defer { scratch.deallocate() }
        return LargeBuffer.floats(ow * oh) { o, count in
            // Horizontal segments: the envelope down each output column (which writes every output
            // pixel), then the vertical ones along each output row, min'd in.
            envelopeDownColumns(alongRows, height: h, reach: reach, columns: inset..<(w - inset),
                                rows: inset..<(h - inset), scratch: scratch, into: o.baseAddress!)
            envelopeAlongRows(downColumns, width: w, reach: reach, columns: inset..<(w - inset),
                              rows: inset..<(h - inset), scratch: scratch, into: o.baseAddress!)
            count = ow * oh
        }
    }

    /// Each line's crossings in order (the crossing on segment i → i + 1 of a line at i + t, with
    /// i), and where a walk along each line stands: its last crossing before the walk's point (−∞:
    /// none) and the next one at or after it.
    struct CrossingWalks {
        let position: UnsafeMutablePointer<Double>, segment: UnsafeMutablePointer<Int32>
        /// Line i's crossings are entries start[i] ..< start[i + 1]; its walk's next is entry cursor[i].
        let start: UnsafeMutablePointer<Int>, cursor: UnsafeMutablePointer<Int>
        let last: UnsafeMutablePointer<Double>, next: UnsafeMutablePointer<Double>
        /// The next crossing's segment (Int32.max: none).
        let nextSegment: UnsafeMutablePointer<Int32>

        init(lines: Int, capacity: Int) {
            position = .allocate(capacity: capacity); segment = .allocate(capacity: capacity)
            start = .allocate(capacity: lines + 1); cursor = .allocate(capacity: lines)
            last = .allocate(capacity: lines); next = .allocate(capacity: lines); nextSegment = .allocate(capacity: lines)
        }

        func deallocate() {
            position.deallocate(); segment.deallocate(); start.deallocate(); cursor.deallocate()
            last.deallocate(); next.deallocate(); nextSegment.deallocate()
        }

        /// Line i's walk at point p: past every crossing on a segment before p.
        func begin(_ i: Int, at p: Int) {
            var k = start[i]
            while k < start[i + 1] && Int(segment[k]) < p { k += 1 }
            cursor[i] = k
            last[i] = k > start[i] ? position[k - 1] : -.infinity
            next[i] = k < start[i + 1] ? position[k] : .infinity
            nextSegment[i] = k < start[i + 1] ? segment[k] : .max
        }

        /// Line i's walk past its next crossing.
        @inline(__always) func step(_ i: Int) {
            let k = cursor[i] + 1
            last[i] = next[i]
            cursor[i] = k
            next[i] = k < start[i + 1] ? position[k] : .infinity
            nextSegment[i] = k < start[i + 1] ? segment[k] : .max
        }

        /// Each row's crossings on horizontal segments and each column's on vertical ones, their
        /// walks at column and row `first`, from one pass down the mask's rows; nil when either has
        /// more than `perLine` × its lines. The columns' are found a row at a time (column and t),
        /// then sorted into columns by counting.
        static func both(_ m: UnsafePointer<Float>, width w: Int, height h: Int, first: Int,
                         perLine: Int) -> (rows: CrossingWalks, columns: CrossingWalks)? {
            let rowCapacity = perLine * h, columnCapacity = perLine * w
            let rows = CrossingWalks(lines: h, capacity: rowCapacity), columns = CrossingWalks(lines: w, capacity: columnCapacity)
            let column = UnsafeMutablePointer<Int32>.allocate(capacity: columnCapacity)
            let at = UnsafeMutablePointer<Float>.allocate(capacity: columnCapacity)
            let rowEnd = UnsafeMutablePointer<Int>.allocate(capacity: h)
            defer { column.deallocate(); at.deallocate(); rowEnd.deallocate() }
            columns.start.initialize(repeating: 0, count: w + 1)
            var n = 0, c = 0
            for y in 0..<h {
                rows.start[y] = n
                // Along row y, then down to row y + 1 (row y still in the cache).
                let listed = forEachCrossing(m, width: w, height: h, row: y, right: true, { x, t in
                    guard n < rowCapacity else { return false }
                    rows.position[n] = Double(x) + Double(t)
                    rows.segment[n] = Int32(x)
                    n += 1
                    return true
                }) && forEachCrossing(m, width: w, height: h, row: y, right: false, { x, t in
                    guard c < columnCapacity else { return false }
                    column[c] = Int32(x)
                    at[c] = t
                    columns.start[x + 1] += 1
                    c += 1
                    return true
                })
                guard listed else { rows.deallocate(); columns.deallocate(); return nil }
                rowEnd[y] = c
            }
            rows.start[h] = n
            for y in 0..<h { rows.begin(y, at: first) }
            for x in 0..<w { columns.start[x + 1] += columns.start[x] }
            for x in 0..<w { columns.cursor[x] = columns.start[x] }
            var i = 0
            for y in 0..<h {
                while i < rowEnd[y] {
                    let x = Int(column[i]), k = columns.cursor[x]
                    columns.position[k] = Double(y) + Double(at[i])
                    columns.segment[k] = Int32(y)
                    columns.cursor[x] = k + 1
                    i += 1
                }
            }
            for x in 0..<w { columns.begin(x, at: first) }
            return (rows, columns)
        }
    }

    /// The envelope down each column in `columns`, for the points in `rows`, written into `out`
    /// (rows of columns.count): a few columns at a time, their lines made from the rows' walks (the
    /// squared distance along the row, as `alongRows` makes it), the results copied back.
    static func envelopeDownColumns(_ rowWalks: CrossingWalks, height h: Int, reach: Int, columns: Range<Int>,
                                    rows: Range<Int>, scratch: EnvelopeScratch, into out: UnsafeMutablePointer<Float>) {
        let reachD = Double(reach), stride = scratch.lineStride
        for x0 in Swift.stride(from: columns.lowerBound, to: columns.upperBound, by: EnvelopeScratch.columns) {
            let n = min(EnvelopeScratch.columns, columns.upperBound - x0)
            // Each line as the walks stand at x0: right for every row with no crossing among these
            // columns (the same two crossings for all of them), and made down the line.
            for c in 0..<n {
                let x = Double(x0 + c), line = scratch.lines + c * stride
                for y in 0..<h { line[y] = nearer(x, last: rowWalks.last[y], next: rowWalks.next[y], within: reachD) }
            }
            // The other rows point by point, their walks on past these columns.
            for y in 0..<h where Int(rowWalks.nextSegment[y]) < x0 + n {
                for c in 0..<n {
                    // A crossing on segment x → x + 1 is point x's next and point x + 1's last.
                    while Int(rowWalks.nextSegment[y]) < x0 + c { rowWalks.step(y) }
                    scratch.lines[c * stride + y] = nearer(Double(x0 + c), last: rowWalks.last[y], next: rowWalks.next[y], within: reachD)
                }
            }
            for c in 0..<n {
                envelope(scratch.lines + c * stride, length: h, reach: reach, points: rows, scratch: scratch,
                         into: scratch.results + c * stride, replacing: true)
            }
            transpose(scratch.results, rowStride: stride, rows: n, columns: rows.count, into: out + (x0 - columns.lowerBound),
                      rowStride: columns.count)
        }
    }

    /// The envelope along each row in `rows` of the squared distances down the columns (as
    /// `alongColumns` makes them), made from the columns' walks a row at a time, for the points in
    /// `columns`: min'd into `out` (rows of columns.count).
    static func envelopeAlongRows(_ columnWalks: CrossingWalks, width w: Int, reach: Int, columns: Range<Int>,
                                  rows: Range<Int>, scratch: EnvelopeScratch, into out: UnsafeMutablePointer<Float>) {
        let reachD = Double(reach)
        let f = UnsafeMutablePointer<Float>.allocate(capacity: w)
        defer { f.deallocate() }
        for y in rows {
            let here = Double(y), row = Int32(y)
            // The walks that reach a crossing's segment row (at most one a column a row) step past
            // it, the others eight columns at a time.
            var x = 0
            while x < w {
                if x + 8 <= w,
                   !any(UnsafeRawPointer(columnWalks.nextSegment + x).loadUnaligned(as: SIMD8<Int32>.self) .< SIMD8<Int32>(repeating: row)) {
                    x += 8
                    continue
                }
                if columnWalks.nextSegment[x] < row { columnWalks.step(x) }
                x += 1
            }
            for x in 0..<w { f[x] = nearer(here, last: columnWalks.last[x], next: columnWalks.next[x], within: reachD) }
            envelope(f, length: w, reach: reach, points: columns, scratch: scratch, into: out + (y - rows.lowerBound) * columns.count)
        }
    }
}
