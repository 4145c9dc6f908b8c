/// Which of an account's words can change zxcvbn's estimate of a password.
///
/// libzxcvbn matches each word of the user dictionary against every part of
/// the password, forwards and reversed, letter for letter (any case) or
/// through a "leet" stand-in, and credits a match by the word's rank (its
/// place in the list). A word that matches nowhere adds no match, so the
/// estimate is the same without it, provided every word before a word that
/// can match keeps its place. Dropping the words after the last one that can
/// match therefore never changes an estimate; most accounts keep none, and
/// then every account sharing a password shares one estimate (measured once
/// per analysis, remembered once in the memo).
///
/// The test is deliberately wider than libzxcvbn's: any byte that is not an
/// ASCII letter (digits, symbols, bytes of other scripts) is taken to stand
/// for any letter, so no leet table or locale can make a kept-out word match.
enum AccountWordFilter {
    static func wordsThatCanMatch(_ password: String, _ words: [String]) -> [String] {
        guard !words.isEmpty else { return words }
        // The bytes zxcvbn will read: without NULs, which would join the parts around them.
        var keep = 0
        StrengthMeter.withoutNUL(password).withUTF8Bytes { bytes in
            for (index, word) in words.enumerated() where word.withUTF8Bytes({ canMatch($0, in: bytes) }) { keep = index + 1 }
        }
        return Array(words.prefix(keep))
    }

    /// Whether the word could match some run of the password, read either way.
    static func canMatch(_ word: UnsafeBufferPointer<UInt8>, in password: UnsafeBufferPointer<UInt8>) -> Bool {
        let length = word.count
        guard length > 0, length <= password.count else { return false }
        for start in 0...(password.count - length) {
            var forwards = true, backwards = true
            for offset in 0..<length where forwards || backwards {
                let letter = lowercased(word[offset])
                if forwards, !stands(for: letter, password[start + offset]) { forwards = false }
                // Reversed, the word's letter `offset` meets the byte counted from the run's end.
                if backwards, !stands(for: letter, password[start + length - 1 - offset]) { backwards = false }
            }
            if forwards || backwards { return true }
        }
        return false
    }

    /// A letter stands for itself in either case; anything else may stand for any letter.
    private static func stands(for letter: UInt8, _ byte: UInt8) -> Bool {
        isASCIILetter(byte) ? lowercased(byte) == letter : true
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    private static func lowercased(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
}
