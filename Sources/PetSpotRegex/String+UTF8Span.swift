extension String {
    /// Calls `body` with the text's UTF-8 bytes as a span: in place where the platform has
    /// `String.UTF8View.span` (Linux, and Apple systems from the 26 releases), else through a copy
    /// (the package supports macOS 13 and iOS 16, where only arrays' spans exist).
    func withUTF8Span<Result>(_ body: (Span<UInt8>) -> Result) -> Result {
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            var contiguous = self
            contiguous.makeContiguousUTF8()
            return body(contiguous.utf8.span)
        }
        let bytes = ContiguousArray(utf8)
        return body(bytes.span)
    }
}
