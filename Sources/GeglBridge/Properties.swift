// Properties as an operation declares them, and the values an operation reads.
//
// An op file lists `Property` values; this module turns them into GEGL param specs (with the
// UI metadata GIMP's dialogs read) and stores each instance's values. Nothing here is GObject yet:
// see `ParamSpecs.swift` for the translation.

/// GEGL's unit hints: GIMP shows pixel sizes with a unit menu and coordinates with an axis.
public enum PropertyUnit: String, Sendable {
    case pixelDistance = "pixel-distance"
    case pixelCoordinate = "pixel-coordinate"
    case degree = "degree"
}

/// One case of an enumerated property: its machine name (nick) and the label a user reads.
public struct EnumCase: Sendable {
    public let nick: String
    public let title: String
    public init(_ nick: String, _ title: String) {
        self.nick = nick
        self.title = title
    }
}

/// A property of an operation, with the range GEGL enforces and the range GIMP's slider offers.
public struct Property: Sendable {
    public enum Kind: Sendable {
        case double(default: Double, range: ClosedRange<Double>, ui: ClosedRange<Double>,
                    gamma: Double, steps: (small: Double, big: Double)?, digits: Int?, unit: PropertyUnit?)
        case int(default: Int, range: ClosedRange<Int>, ui: ClosedRange<Int>, unit: PropertyUnit?)
        case boolean(default: Bool)
        /// `typeName` is the GType name of the enum; it must be unique in the process.
        case enumeration(typeName: String, cases: [EnumCase], default: Int)
        case seed(default: UInt32)
        /// Default colour as a CSS/GEGL colour string ("white", "#ffcc00", "rgb(1, 0.8, 0)").
        case color(default: String)
        case string(default: String)
    }

    public let name: String
    public let title: String
    public let description: String
    public let kind: Kind

    public init(name: String, title: String, description: String, kind: Kind) {
        self.name = name
        self.title = title
        self.description = description
        self.kind = kind
    }

    // MARK: readable constructors for op files

    public static func double(_ name: String, _ title: String, default value: Double,
                              range: ClosedRange<Double>, ui: ClosedRange<Double>? = nil,
                              gamma: Double = 1, steps: (Double, Double)? = nil, digits: Int? = nil,
                              unit: PropertyUnit? = nil, _ description: String) -> Property {
        Property(name: name, title: title, description: description,
                 kind: .double(default: value, range: range, ui: ui ?? range, gamma: gamma,
                               steps: steps.map { (small: $0.0, big: $0.1) }, digits: digits, unit: unit))
    }

    public static func int(_ name: String, _ title: String, default value: Int,
                           range: ClosedRange<Int>, ui: ClosedRange<Int>? = nil,
                           unit: PropertyUnit? = nil, _ description: String) -> Property {
        Property(name: name, title: title, description: description,
                 kind: .int(default: value, range: range, ui: ui ?? range, unit: unit))
    }

    public static func boolean(_ name: String, _ title: String, default value: Bool,
                               _ description: String) -> Property {
        Property(name: name, title: title, description: description, kind: .boolean(default: value))
    }

    public static func choice<E: PropertyEnum>(_ name: String, _ title: String, default value: E,
                                               _ description: String) -> Property {
        Property(name: name, title: title, description: description,
                 kind: .enumeration(typeName: E.typeName, cases: E.allCases.map { EnumCase($0.nick, $0.title) },
                                    default: value.rawValue))
    }

    public static func seed(_ name: String = "seed", _ title: String = "Random seed",
                            default value: UInt32 = 0, _ description: String) -> Property {
        Property(name: name, title: title, description: description, kind: .seed(default: value))
    }

    public static func color(_ name: String, _ title: String, default value: String,
                             _ description: String) -> Property {
        Property(name: name, title: title, description: description, kind: .color(default: value))
    }

    public static func string(_ name: String, _ title: String, default value: String,
                              _ description: String) -> Property {
        Property(name: name, title: title, description: description, kind: .string(default: value))
    }

    var defaultValue: PropertyValue {
        switch kind {
        case let .double(value, _, _, _, _, _, _): return .number(value)
        case let .int(value, _, _, _): return .number(Double(value))
        case let .boolean(value): return .number(value ? 1 : 0)
        case let .enumeration(_, _, value): return .number(Double(value))
        case let .seed(value): return .number(Double(value))
        case .color: return .color(SIMD4<Float>(0, 0, 0, 1)) // replaced by the parsed default at install
        case let .string(value): return .text(value)
        }
    }
}

/// A Swift enum that a `choice` property exposes. Raw values are the GEnum values, in order.
public protocol PropertyEnum: CaseIterable, RawRepresentable, Sendable where RawValue == Int {
    /// The GType name of the enum (unique in the host process, e.g. "MercurialBevelProfile").
    static var typeName: String { get }
    var nick: String { get }
    var title: String { get }
}

/// A stored property value. Integers, booleans, enums and seeds are stored exactly as Double.
public enum PropertyValue: Sendable, Equatable {
    case number(Double)
    case text(String)
    /// Linear-light RGBA ("RGBA float").
    case color(SIMD4<Float>)
}

/// A consistent snapshot of one instance's property values, safe to read on any thread.
public struct PropertyValues: Sendable {
    let specs: [Property]
    let values: [PropertyValue]

    public init(specs: [Property], values: [PropertyValue]) {
        self.specs = specs
        self.values = values
    }

    private func value(_ name: String) -> PropertyValue {
        guard let index = specs.firstIndex(where: { $0.name == name }) else {
            preconditionFailure("operation reads undeclared property '\(name)'")
        }
        return values[index]
    }

    public func double(_ name: String) -> Double {
        if case let .number(v) = value(name) { return v }
        return 0
    }

    public func int(_ name: String) -> Int {
        let v = double(name)
        return v.isFinite ? Int(v) : 0
    }

    public func bool(_ name: String) -> Bool { double(name) != 0 }

    public func choice<E: PropertyEnum>(_ name: String, as type: E.Type = E.self) -> E {
        E(rawValue: int(name)) ?? E.allCases.first!
    }

    public func string(_ name: String) -> String {
        if case let .text(s) = value(name) { return s }
        return ""
    }

    /// Linear-light RGBA.
    public func color(_ name: String) -> SIMD4<Float> {
        if case let .color(c) = value(name) { return c }
        return SIMD4<Float>(0, 0, 0, 1)
    }
}
