import GeglBridge

/// The work of a region cut into whole windows, shared out among threads one piece at a time:
/// shading one tile row of a window already made, or else making the next window's heights (one
/// thread each; at most `limit` windows held at once, being made or made and not yet all shaded).
/// So the last pieces are tile rows any thread can take, and no thread waits long on another's
/// last window; a thread that finds nothing while a window is still being made waits for its rows.
final class WindowWork<Held: Sendable>: Sendable {
    enum Task: Sendable {
        case make(Int)
        case shade(Int, row: Int, Held)
    }

    private struct State {
        var nextMake = 0, held = 0
        /// Per window: what its maker handed over (nil until made, and once all shaded), its next
        /// tile row to hand out, and how many have been shaded.
        var made: [Held?], nextRow: [Int], shaded: [Int]
        /// The first window with a row not yet handed out (or not yet made).
        var first = 0
    }

    /// Tile rows per window.
    private let rows: [Int]
    private let limit: Int
    private let state: Guarded<State>

    init(rows: [Int], limit: Int) {
        self.rows = rows
        self.limit = max(1, limit)
        state = Guarded(State(made: Array(repeating: nil, count: rows.count), nextRow: Array(repeating: 0, count: rows.count),
                              shaded: Array(repeating: 0, count: rows.count)))
    }

    /// The next piece to do, waiting while there is none yet; nil when every piece has been
    /// handed out. (Some thread is always making or shading while another waits, and wakes it.)
    func next() -> Task? {
        state.wait { s -> Task?? in
            while s.first < s.nextMake && s.nextRow[s.first] >= rows[s.first] { s.first += 1 }
            for k in s.first..<s.nextMake where s.nextRow[k] < rows[k] {
                guard let held = s.made[k] else { continue }
                s.nextRow[k] += 1
                return .some(.shade(k, row: s.nextRow[k] - 1, held))
            }
            if s.nextMake < rows.count && s.held < limit {
                s.held += 1
                s.nextMake += 1
                return .some(.make(s.nextMake - 1))
            }
            return s.first == rows.count ? .some(nil) : nil
        }
    }

    /// Window k is made: its rows are `held` (nil: none to shade).
    func made(_ k: Int, _ held: Held?) {
        state.withLock { s in
            if let held, rows[k] > 0 {
                s.made[k] = held
            } else {
                s.nextRow[k] = rows[k]
                s.held -= 1
            }
        }
        state.wakeWaiters()
    }

    /// One tile row of window k is shaded; after its last, the window's rows are let go.
    func shaded(_ k: Int) {
        let last = state.withLock { s in
            s.shaded[k] += 1
            guard s.shaded[k] == rows[k] else { return false }
            s.made[k] = nil
            s.held -= 1
            return true
        }
        if last { state.wakeWaiters() }
    }
}
