import Glibc

/// State behind a POSIX mutex, with a condition threads can wait on until the state lets them go
/// on. POSIX rather than the standard library's `Mutex`: that one hands a contended lock over in
/// the kernel, where ThreadSanitizer cannot see the ordering, and it has no condition to wait on.
public final class Guarded<State>: @unchecked Sendable {
    // (Unchecked Sendable: `state` is read and written only with `mutex` held.)
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var state: State

    public init(_ state: State) {
        self.state = state
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    /// `body` on the state, with the lock held.
    public func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }

    /// What `body` gives once it gives something: `body` runs with the lock held, first at once and
    /// then each time another thread calls `wakeWaiters`.
    public func wait<R>(for body: (inout State) -> R?) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if let result = body(&state) { return result }
            pthread_cond_wait(changed, mutex)
        }
    }

    /// Has the threads in `wait` look again: after a `withLock` that changed what they wait for.
    public func wakeWaiters() {
        pthread_cond_broadcast(changed)
    }
}
