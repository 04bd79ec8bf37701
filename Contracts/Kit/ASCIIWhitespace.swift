extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (how HTTP header values and the
    /// mock's comma-separated option lists are read).
    package func trimmingASCIIWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
