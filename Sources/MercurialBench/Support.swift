import Glibc

// What the benchmark needs from the system, on Glibc alone: a clock, a staging folder with one
// file in it, and fixed-point numbers for the table.

/// Seconds that `body` takes, on the monotonic clock.
func seconds(_ body: () -> Void) -> Double {
    var start = timespec(), end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    body()
    clock_gettime(CLOCK_MONOTONIC, &end)
    return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
}

/// CPU time of the whole process so far, every thread, in seconds.
func processCPUSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Minor page faults of the whole process so far (pages the kernel mapped in without I/O).
func minorPageFaults() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_minflt
}

/// Hands the memory the process has freed back to the system (glibc's malloc_trim), so that the next
/// allocation maps its pages anew. (Swift's Glibc module leaves malloc.h out: looked up by name.)
func releaseFreedMemory() { _ = mallocTrim?(0) }
let mallocTrim: (@convention(c) (Int) -> Int32)? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim")
    .map { unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self) }

/// `x` with `digits` decimals ("0.187"); non-finite values as Swift prints them.
func fixed(_ x: Double, _ digits: Int) -> String {
    guard x.isFinite else { return "\(x)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let units = Int((abs(x) * scale).rounded())
    let whole = String(units / Int(scale)), fraction = String(units % Int(scale))
    let sign = x < 0 && units > 0 ? "-" : ""
    guard digits > 0 else { return sign + whole }
    return sign + whole + "." + String(repeating: "0", count: digits - fraction.count) + fraction
}

/// The folder holding `path` after resolving symbolic links (the path itself when it cannot be).
func realDirectory(of path: String) -> String {
    var resolved = path
    if let real = realpath(path, nil) {
        resolved = String(cString: real)
        free(real)
    }
    guard let slash = resolved.lastIndex(of: "/") else { return "." }
    return String(resolved[..<slash])
}

func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

/// Copies the file at `source` to `destination` (replaced if present). False on any failure.
func copyFile(_ source: String, to destination: String) -> Bool {
    guard let input = fopen(source, "rb") else { return false }
    defer { fclose(input) }
    unlink(destination)
    guard let output = fopen(destination, "wb") else { return false }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var ok = true
    while ok {
        let n = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, input) }
        if n == 0 { break }
        ok = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, n, output) } == n
    }
    return fclose(output) == 0 && ok && ferror(input) == 0
}
