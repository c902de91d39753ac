extension Int {

    /// `1234567` as `1,234,567`, whatever the locale, so tables from different machines compare.
    var grouped: String {
        var digits = String(magnitude)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            digits.insert(",", at: index)
        }
        return self < 0 ? "-" + digits : digits
    }
}
