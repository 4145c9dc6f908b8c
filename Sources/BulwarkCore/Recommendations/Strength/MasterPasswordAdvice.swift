import Foundation

/// A new master password judged by the same estimate the recommendations
/// use, held to more than a site's password: it guards all of them.
public enum MasterPasswordAdvice {
    /// zxcvbn's estimate below which a master password is called weak.
    public static let strongBits = 50.0

    /// Why the password is weak, in a sentence (never the password or a part
    /// of it); nil when it is strong enough.
    public static func weakness(of password: String) -> String? {
        let strength = StrengthMeter.measure(password)
        guard strength.bits < strongBits else { return nil }
        let why = strength.pattern?.reason ?? "it is too easy to guess"
        return "this master password is weak: \(why) (about \(Int(strength.bits.rounded())) bits; \(Int(strongBits)) or more is advised for a master password)"
    }
}
