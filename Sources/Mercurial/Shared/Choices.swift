import GeglBridge
import MercurialKernels

// The enumerated properties several ops share: each case's nick (what graphs and scripts write)
// and the label GIMP's dialog shows. GIMP saves an enum's value in its XCF files: cases keep their
// numbers, new ones go at the end.

extension MaterialPreset: PropertyEnum {
    public static let typeName = "MercurialMaterialPreset"
    public var label: EnumCase {
        switch self {
        case .chrome: EnumCase("chrome", "Dark chrome")
        case .gold: EnumCase("gold", "Gold")
        case .mercury: EnumCase("mercury", "Mercury")
        case .neon: EnumCase("neon", "Neon")
        case .brightChrome: EnumCase("bright-chrome", "Chrome")
        }
    }
}

/// Photoshop's bevel techniques, mapped onto the height field's profiles.
enum BevelTechnique: Int, CaseIterable, Sendable {
    case profile = 0, smooth, chiselHard, chiselSoft

    /// The profile the technique stands for (nil: the op's profile property decides).
    var profile: BevelProfile? {
        switch self {
        case .profile: nil
        case .smooth: .coreImage
        case .chiselHard: .linear
        case .chiselSoft: .round
        }
    }
}

extension BevelTechnique: PropertyEnum {
    public static let typeName = "MercurialBevelTechnique"
    public var label: EnumCase {
        switch self {
        case .profile: EnumCase("profile", "Other profile")
        case .smooth: EnumCase("smooth", "Smooth")
        case .chiselHard: EnumCase("chisel-hard", "Chisel hard")
        case .chiselSoft: EnumCase("chisel-soft", "Chisel soft")
        }
    }
}

/// Up raises the bevel, down sinks it.
enum BevelDirection: Int, CaseIterable, Sendable {
    case up = 0, down
}

extension BevelDirection: PropertyEnum {
    public static let typeName = "MercurialBevelDirection"
    public var label: EnumCase {
        switch self {
        case .up: EnumCase("up", "Up")
        case .down: EnumCase("down", "Down")
        }
    }
}

extension BevelStyle: PropertyEnum {
    public static let typeName = "MercurialBevelStyle"
    public var label: EnumCase {
        switch self {
        case .inner: EnumCase("inner-bevel", "Inner bevel")
        case .outer: EnumCase("outer-bevel", "Outer bevel")
        case .emboss: EnumCase("emboss", "Emboss")
        case .pillow: EnumCase("pillow-emboss", "Pillow emboss")
        }
    }
}

/// Profiles are named by their look, not by where they come from.
extension BevelProfile: PropertyEnum {
    public static let typeName = "MercurialBevelProfile"
    public var label: EnumCase {
        switch self {
        case .coreImage: EnumCase("core-image", "Soft rise")
        case .round: EnumCase("round", "Rounded")
        case .linear: EnumCase("linear", "Straight")
        case .smooth: EnumCase("smooth", "S-curve")
        }
    }
}

extension MaskChannel: PropertyEnum {
    public static let typeName = "MercurialMaskChannel"
    public var label: EnumCase {
        switch self {
        case .luminanceAlpha: EnumCase("luminance-alpha", "Brightness and opacity")
        case .luminance: EnumCase("luminance", "Brightness")
        case .alpha: EnumCase("alpha", "Opacity")
        }
    }
}

extension GlossContour: PropertyEnum {
    public static let typeName = "MercurialGlossContour"
    public var label: EnumCase {
        switch self {
        case .linear: EnumCase("linear", "Linear")
        case .halfRound: EnumCase("half-round", "Half round")
        case .cone: EnumCase("cone", "Cone")
        case .coneInverted: EnumCase("cone-inverted", "Cone, inverted")
        case .ring: EnumCase("ring", "Ring")
        case .gaussian: EnumCase("gaussian", "Gaussian")
        }
    }
}
