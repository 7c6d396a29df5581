import GeglBridge
import MercurialKernels

enum HeightFieldFromMask: AreaFilterOperation {
    static let info = OperationInfo(
        name: "mercurial:height-field-from-mask", title: "Height Field from Mask",
        categories: ["map"], description: "test",
        properties: [.double("radius", "Radius", default: 10, range: 0...1000, ui: 0...100, unit: .pixelDistance, "Bevel radius in pixels")])

    struct Prepared { var radius: Double }

    static func prepare(_ context: PrepareContext) -> Prepared {
        context.setFormat("input", .perceptualYAFloat)
        context.setFormat("output", .perceptualYFloat)
        return Prepared(radius: context.properties.double("radius"))
    }

    static func process(_ prepared: Prepared, input: InputBuffer, output: OutputBuffer, roi: Rect) {
        var buf = [Float](repeating: 0, count: roi.count * 2)
        var out = [Float](repeating: 0, count: roi.count)
        buf.withUnsafeMutableBufferPointer { input.read(roi, format: .perceptualYAFloat, into: $0.baseAddress!) }
        for i in 0..<roi.count { out[i] = buf[2*i] * buf[2*i+1] }
        out.withUnsafeBufferPointer { output.write(roi, format: .perceptualYFloat, from: $0.baseAddress!) }
    }
}
