import Glibc

/// What the host's CPU can do, for choosing a kernel build (the plug-in and the benchmark ask the
/// same question). GEGL's own gegl_cpu_accel_get_support() reports nothing on Debian's build, so
/// the CPU's flags are read from the kernel.
public enum HostCPU {
    /// The instruction sets the x86-64-v3 kernels are compiled for (-target-cpu haswell).
    public static let required: Set<String> = ["sse4_2", "popcnt", "avx", "avx2", "fma", "bmi1", "bmi2", "f16c",
                                               "movbe", "abm", "xsave"]

    /// Whether the plug-in runs the x86-64-v3 kernels: the CPU has them, and MERCURIAL_KERNELS is
    /// not "baseline".
    public static let isX86_64_v3: Bool = {
        if let v = getenv("MERCURIAL_KERNELS"), String(cString: v) == "baseline" { return false }
        return hasX86_64_v3
    }()

    /// True when every x86-64-v3 feature is present.
    public static let hasX86_64_v3: Bool = {
        #if arch(x86_64)
        guard let file = fopen("/proc/cpuinfo", "r") else { return false }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0 {
            guard let line else { break }
            let text = String(cString: line)
            guard text.hasPrefix("flags") else { continue }
            let flags = Set(text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == ":" }).map(String.init))
            return required.isSubset(of: flags)
        }
        return false
        #else
        return false
        #endif
    }()
}
