// Properties as an operation declares them, and the values an operation reads.
//
// An op file lists `Property` values; this module turns them into GEGL param specs (with the
// UI metadata GIMP's dialogs read) and stores each instance's values. Nothing here is GObject yet:
// see `ParamSpecs.swift` for the translation.

/// GEGL's unit hints: GIMP shows pixel sizes with a unit menu and coordinates with an axis.
public enum PropertyUnit: String, Sendable {
    case pixelDistance = "pixel-distance"
    case pixelCoordinate = "pixel-coordinate"
    /// A position as a fraction of the layer (0 at its left or top edge, 1 at the right or bottom).
    case relativeCoordinate = "relative-coordinate"
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
        /// A file's path: GIMP shows a file chooser.
        case filePath(default: String)
    }

    public let name: String
    public let title: String
    public let description: String
    public let kind: Kind
    /// GEGL property keys that GIMP's dialog reads ("visible", "sensitive", "axis", "role", …).
    public internal(set) var keys: [(String, String)] = []

    public init(name: String, title: String, description: String, kind: Kind) {
        self.name = name
        self.title = title
        self.description = description
        self.kind = kind
    }

    // MARK: constructors (op files declare properties through `PropertyDeclaration`)

    static func double(_ name: String, _ title: String, default value: Double,
                              range: ClosedRange<Double>, ui: ClosedRange<Double>? = nil,
                              gamma: Double = 1, steps: (Double, Double)? = nil, digits: Int? = nil,
                              unit: PropertyUnit? = nil, _ description: String) -> Property {
        Property(name: name, title: title, description: description,
                 kind: .double(default: value, range: range, ui: ui ?? range, gamma: gamma,
                               steps: steps.map { (small: $0.0, big: $0.1) }, digits: digits, unit: unit))
    }

    static func int(_ name: String, _ title: String, default value: Int,
                           range: ClosedRange<Int>, ui: ClosedRange<Int>? = nil,
                           unit: PropertyUnit? = nil, _ description: String) -> Property {
        Property(name: name, title: title, description: description,
                 kind: .int(default: value, range: range, ui: ui ?? range, unit: unit))
    }

    static func boolean(_ name: String, _ title: String, default value: Bool,
                               _ description: String) -> Property {
        Property(name: name, title: title, description: description, kind: .boolean(default: value))
    }

    static func choice<E: PropertyEnum>(_ name: String, _ title: String, default value: E,
                                               _ description: String) -> Property {
        Property(name: name, title: title, description: description,
                 kind: .enumeration(typeName: E.typeName, cases: E.allCases.map(\.label),
                                    default: value.rawValue))
    }

    static func seed(_ name: String = "seed", _ title: String = "Random seed",
                            default value: UInt32 = 0, _ description: String) -> Property {
        Property(name: name, title: title, description: description, kind: .seed(default: value))
    }

    static func color(_ name: String, _ title: String, default value: String,
                             _ description: String) -> Property {
        Property(name: name, title: title, description: description, kind: .color(default: value))
    }

    static func string(_ name: String, _ title: String, default value: String,
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
        case let .string(value), let .filePath(value): return .text(value)
        }
    }
}

/// A Swift enum that a `choice` property exposes. Raw values are the GEnum values, in order.
/// Each case says its own nick and title (one `switch`, so a new case cannot go without them).
public protocol PropertyEnum: CaseIterable, RawRepresentable, Sendable where RawValue == Int {
    /// The GType name of the enum (unique in the host process, e.g. "MercurialBevelProfile").
    static var typeName: String { get }
    /// This case's machine name (nick) and the label a user reads.
    var label: EnumCase { get }
}

/// A stored property value. Integers, booleans, enums and seeds are stored exactly as Double.
public enum PropertyValue: Sendable, Equatable {
    case number(Double)
    case text(String)
    /// Linear-light RGBA ("RGBA float").
    case color(SIMD4<Float>)
}

/// A consistent snapshot of one instance's property values, safe to read on any thread. Ops read
/// them typed (`typed(Props.self)`); the bridge reads them by position.
public struct PropertyValues: Sendable {
    let specs: [Property]
    let values: [PropertyValue]

    public init(specs: [Property], values: [PropertyValue]) {
        self.specs = specs
        self.values = values
    }

    /// The values as an op's property set: every declared field set from its stored value.
    public func typed<S: PropertySet>(_ type: S.Type = S.self) -> S {
        var set = S()
        for (declaration, value) in zip(S.declarations, values) { declaration.write(&set, value) }
        return set
    }
}

// MARK: - Typed property sets

/// An op's properties as one Swift struct: a stored field per GEGL property, each field's initial
/// value its default, and one declaration per field that names it for GEGL and gives its range,
/// slider range and description. An op reads `props.radius`; a misspelt field does not compile.
public protocol PropertySet: Sendable {
    /// Every field at its default.
    init()
    /// One declaration per GEGL property, in the order GEGL lists them.
    static var declarations: [PropertyDeclaration<Self>] { get }
}

extension PropertySet {
    /// The GEGL properties, as `OperationInfo` installs them.
    public static var specs: [Property] { declarations.map(\.property) }

    /// The GEGL name of the property behind `field` (for meta operations' redirects).
    static func name(of field: PartialKeyPath<Self>) -> String? {
        declarations.first { $0.field == field }?.property.name
    }
}

/// An empty property set, for operations without properties.
public struct NoProperties: PropertySet {
    public init() {}
    public static var declarations: [PropertyDeclaration<NoProperties>] { [] }
}

/// One field of a property set as a GEGL property: its GEGL description and how its value is
/// read from and written to the field.
public struct PropertyDeclaration<S: PropertySet>: Sendable {
    public let property: Property
    /// The field. (Key paths are immutable; `nonisolated(unsafe)` only because one joined at run
    /// time, as `lifted` makes, cannot be proved Sendable to the compiler.)
    nonisolated(unsafe) let field: PartialKeyPath<S>
    let write: @Sendable (inout S, PropertyValue) -> Void

    init<T>(_ property: Property, _ field: WritableKeyPath<S, T> & Sendable,
            _ convert: @escaping @Sendable (PropertyValue) -> T?) {
        self.property = property
        self.field = field
        write = { set, value in if let v = convert(value) { set[keyPath: field] = v } }
    }

    private init(property: Property, field: PartialKeyPath<S>, write: @escaping @Sendable (inout S, PropertyValue) -> Void) {
        self.property = property
        self.field = field
        self.write = write
    }

    /// This declaration as one of a larger property set that holds this one's set at `path`: an op
    /// made of two others declares their properties once, by reference (the same names, ranges,
    /// defaults and texts).
    public func lifted<T: PropertySet>(into path: WritableKeyPath<T, S> & Sendable) -> PropertyDeclaration<T> {
        let inner = write
        return PropertyDeclaration<T>(property: property, field: (path as PartialKeyPath<T>).appending(path: field)!,
                                      write: { set, value in inner(&set[keyPath: path], value) })
    }

    private static func number(_ v: PropertyValue) -> Double? {
        if case let .number(x) = v { return x }
        return nil
    }

    public static func double(_ field: WritableKeyPath<S, Double> & Sendable, _ name: String, _ title: String,
                              range: ClosedRange<Double>, ui: ClosedRange<Double>? = nil, gamma: Double = 1,
                              steps: (Double, Double)? = nil, digits: Int? = nil, unit: PropertyUnit? = nil,
                              _ description: String) -> Self {
        Self(.double(name, title, default: S()[keyPath: field], range: range, ui: ui, gamma: gamma, steps: steps,
                     digits: digits, unit: unit, description), field, number)
    }

    public static func int(_ field: WritableKeyPath<S, Int> & Sendable, _ name: String, _ title: String,
                           range: ClosedRange<Int>, ui: ClosedRange<Int>? = nil, unit: PropertyUnit? = nil,
                           _ description: String) -> Self {
        Self(.int(name, title, default: S()[keyPath: field], range: range, ui: ui, unit: unit, description), field) {
            number($0).map { $0.isFinite ? Int($0) : 0 }
        }
    }

    public static func boolean(_ field: WritableKeyPath<S, Bool> & Sendable, _ name: String, _ title: String,
                               _ description: String) -> Self {
        Self(.boolean(name, title, default: S()[keyPath: field], description), field) { number($0).map { $0 != 0 } }
    }

    public static func choice<E: PropertyEnum>(_ field: WritableKeyPath<S, E> & Sendable, _ name: String, _ title: String,
                                               _ description: String) -> Self {
        Self(.choice(name, title, default: S()[keyPath: field], description), field) { value in
            number(value).map { E(rawValue: $0.isFinite ? Int($0) : 0) ?? E.allCases.first! }
        }
    }

    public static func seed(_ field: WritableKeyPath<S, UInt32> & Sendable, _ name: String = "seed",
                            _ title: String = "Random seed", _ description: String) -> Self {
        Self(.seed(name, title, default: S()[keyPath: field], description), field) { number($0).map { UInt32(exactly: $0) ?? 0 } }
    }

    /// A colour (linear-light RGBA in the field). Its default is the CSS/GEGL colour string given
    /// here, which GEGL parses; the field's own initial value is not used.
    public static func color(_ field: WritableKeyPath<S, SIMD4<Float>> & Sendable, _ name: String, _ title: String,
                             default value: String, _ description: String) -> Self {
        Self(.color(name, title, default: value, description), field) { v in
            if case let .color(c) = v { return c }
            return nil
        }
    }

    public static func string(_ field: WritableKeyPath<S, String> & Sendable, _ name: String, _ title: String,
                              _ description: String) -> Self {
        Self(.string(name, title, default: S()[keyPath: field], description), field) { v in
            if case let .text(t) = v { return t }
            return nil
        }
    }

    /// A file's path (GIMP: a file chooser); "" for none.
    public static func filePath(_ field: WritableKeyPath<S, String> & Sendable, _ name: String, _ title: String,
                                _ description: String) -> Self {
        Self(Property(name: name, title: title, description: description, kind: .filePath(default: S()[keyPath: field])),
             field) { v in
            if case let .text(t) = v { return t }
            return nil
        }
    }

    // MARK: GIMP's dialog

    /// This declaration under another GEGL name (the same field, texts and range).
    public func renamed(_ name: String) -> Self {
        var property = Property(name: name, title: self.property.title, description: self.property.description,
                                kind: self.property.kind)
        property.keys = self.property.keys
        return Self(property: property, field: field, write: write)
    }

    /// This declaration with another default number (a double's or an int's): for a meta op whose
    /// dialog should start elsewhere than the op it wraps.
    public func defaulting(to value: Double) -> Self {
        let kind: Property.Kind
        switch property.kind {
        case let .double(_, range, ui, gamma, steps, digits, unit):
            kind = .double(default: value, range: range, ui: ui, gamma: gamma, steps: steps, digits: digits, unit: unit)
        case let .int(_, range, ui, unit):
            kind = .int(default: Int(value), range: range, ui: ui, unit: unit)
        default:
            return self
        }
        var changed = Property(name: property.name, title: property.title, description: property.description, kind: kind)
        changed.keys = property.keys
        return Self(property: changed, field: field, write: write)
    }

    /// This declaration with the property key `key` set to `value` (in place of an earlier value:
    /// GEGL keeps one per key).
    public func key(_ key: String, _ value: String) -> Self {
        var property = property
        property.keys.removeAll { $0.0 == key }
        property.keys.append((key, value))
        return Self(property: property, field: field, write: write)
    }

    /// GIMP shows the control only while `condition` holds: GEGL's UI-meta expression over the op's
    /// boolean and enum properties ("light1-enabled", "style {outer-bevel, emboss}", "!", "&", "|").
    public func visible(_ condition: String) -> Self { key("visible", condition) }

    /// One coordinate of a position on the layer ("x" or "y"): GIMP pairs an x with the y after it
    /// and offers its on-canvas picker.
    public func axis(_ axis: String) -> Self { key("axis", axis) }
}
