import Glibc

/// Blur weights, built once per render (in prepare) for the kernels that blur.
public enum Gaussian {
    /// Normalised one-sided weights w[0...taps] of a Gaussian of σ (w[0] is the centre):
    /// w[k] ∝ exp(−k²/2σ²), with w[0] + 2·Σ w[k>0] = 1.
    public static func weights(sigma: Double, taps: Int) -> [Float] {
        var w = (0...taps).map { k in exp(-Double(k * k) / (2 * sigma * sigma)) }
        let sum = w[0] + 2 * w.dropFirst().reduce(0, +)
        for i in w.indices { w[i] /= sum }
        return w.map { Float($0) }
    }
}
