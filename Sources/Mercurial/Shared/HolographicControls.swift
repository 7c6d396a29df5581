import GeglBridge
import MercurialKernels

/// The foil's controls, shared by mercurial:holographic-hue (graphs) and mercurial:holographic-foil
/// (GIMP's menu).
struct HolographicControls: PropertySet {
    static let defaults = HolographicParameters()
    var offset = Double(defaults.offset)
    var strength = Double(defaults.strength)
    var cellSize = Double(defaults.cellSize)
    var displacement = Double(defaults.displacement)
    var seed: UInt32 = 0
    var sweep = Double(defaults.sweep)
    var sweepAngle = Double(defaults.sweepAngle)

    static let declarations: [PropertyDeclaration<HolographicControls>] = [
        .double(\.offset, "offset", "Tilt", range: -1...1, digits: 3,
                "Turns every cell's colour, as tilting the card does (0 and 1 look the same)."),
        .double(\.strength, "strength", "Strength", range: 0...1, ui: 0...0.5, gamma: 1.5, digits: 3,
                "How much foil is mixed over the picture (0: none)."),
        .double(\.cellSize, "cell-size", "Cell size",
                range: Double(HolographicParameters.cellSizeRange.lowerBound)...Double(HolographicParameters.cellSizeRange.upperBound),
                ui: 4...200, gamma: 1.5, digits: 1, unit: .pixelDistance,
                "Size of the foil's cells."),
        .double(\.displacement, "displacement", "Displacement", range: -100...100, ui: 0...4, digits: 2,
                "How far apart the cells' colours are."),
        .seed(\.seed, "seed", "Random seed", "Which random cell pattern."),
        .double(\.sweep, "sweep", "Sweep", range: -100...100, ui: -4...4, digits: 2,
                "Rainbow turns across the picture, as a tilting card shimmers."),
        .double(\.sweepAngle, "sweep-angle", "Sweep angle", range: -360...360, ui: 0...360, unit: .degree,
                "Direction of the sweep: 0 left to right, 90 top to bottom."),
    ]
}
