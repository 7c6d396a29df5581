import CGegl
import Synchronization

/// Work spread over GEGL's own worker threads, handed out piece by piece: for operations whose
/// parts cost unequal amounts (see `Threading.balancedByOperation`).
public enum Parallel {
    /// How many threads GEGL works with (its "threads" setting): how many pieces a region needs
    /// at least for every thread to have work.
    public static var threads: Int {
        // Why the raw pointer: gegl_config returns GEGL's own GeglConfig object, not ours to free.
        guard let config = gegl_config() else { return 1 }
        return max(1, intGObjectProperty(UnsafeMutableRawPointer(config), "threads"))
    }

    /// Runs `worker` once on each of up to `items` of GEGL's threads (the calling thread is one of
    /// them; GEGL's "threads" setting caps the number). Each worker takes item indices from `next`,
    /// in increasing order, until it returns nil: every index in 0..<items is taken exactly once.
    /// Per-thread scratch memory belongs at the top of `worker`. Returns when every item is done.
    public static func run(items: Int, _ worker: (_ next: () -> Int?) -> Void) {
        guard items > 0 else { return }
        withoutActuallyEscaping(worker) { worker in
            let job = Job(items: items, worker: worker)
            // Publishes the job to the workers with a release store that each worker acquires
            // before it reads anything else of the job. GEGL's hand-off synchronises too, but not
            // in a way ThreadSanitizer can see (it is not instrumented): this pair makes the
            // bridge's own code prove its ordering (scripts/sanitizer-test.sh thread).
            job.published.store(true, ordering: .releasing)
            // Why Unmanaged: GEGL hands user_data back to the C callback on each thread. The job is
            // kept alive here until gegl_parallel_distribute returns, which waits for every thread.
            withExtendedLifetime(job) {
                gegl_parallel_distribute(gint(clamping: items), parallelWorker,
                                         Unmanaged.passUnretained(job).toOpaque())
                // The workers' ends, acquired: what they wrote happens before what follows here
                // (GEGL waited for them, but invisibly to ThreadSanitizer, as above).
                _ = job.finished.load(ordering: .acquiring)
            }
        }
    }
}

/// One `Parallel.run`: the next unclaimed item, and the worker. Shared by the threads of one run:
/// the counter is atomic and the worker closure is only called, never changed.
private final class Job: @unchecked Sendable {
    let items: Int
    let counter = Atomic<Int>(0)
    let published = Atomic<Bool>(false)
    let finished = Atomic<Int>(0)
    let worker: (() -> Int?) -> Void

    init(items: Int, worker: @escaping (() -> Int?) -> Void) {
        self.items = items
        self.worker = worker
    }

    func claim() -> Int? {
        let i = counter.wrappingAdd(1, ordering: .relaxed).oldValue
        return i < items ? i : nil
    }
}

/// What each of GEGL's threads runs. Non-capturing, as a C function pointer must be.
private let parallelWorker: @convention(c) (gint, gint, gpointer?) -> Void = { _, _, data in
    guard let data else { return }
    let job = Unmanaged<Job>.fromOpaque(data).takeUnretainedValue()
    guard job.published.load(ordering: .acquiring) else { return }
    job.worker { job.claim() }
    job.finished.wrappingAdd(1, ordering: .releasing)
}
