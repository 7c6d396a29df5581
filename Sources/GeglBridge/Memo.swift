/// A value the first `process` call after a `prepare` computes and every later call shares — e.g.
/// an aux image that each tile reads whole. It belongs in an op's `Prepared`: GEGL prepares again
/// after any change upstream, so a new preparation starts with an empty memo and nothing stale
/// survives a change. Threads asking at the same time wait for the one computing it.
public final class Memo<Value: Sendable>: Sendable {
    private let slot = Guarded<Value?>(nil)

    public init() {}

    /// The value, if a process call has already computed it.
    public var value: Value? { slot.withLock { $0 } }

    /// The value, computed by `make` on first use.
    public func value(orMake make: () -> Value) -> Value {
        slot.withLock { stored in
            if let stored { return stored }
            let made = make()
            stored = made
            return made
        }
    }
}
