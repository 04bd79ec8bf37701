/// What an ``HTTPClientConnection`` accepts in an answer, and how it reads a reset.
package struct HTTPClientRules: Sendable {
    /// The longest status line and header block read; also the most trailer bytes.
    package var maxHeaderBytes: Int
    /// The longest body read (decoded, for a chunked one).
    package var maxBodyBytes: Int
    /// The longest chunk size line or trailer line.
    package var maxLineBytes = 4096
    /// Whether an answer in a content coding other than `identity` is refused (for a client
    /// that asked for none and decodes none).
    package var refusesContentCodings: Bool
    /// Whether a reset connection ends the stream as a close does; otherwise it is an error.
    package var resetEndsStream: Bool

    /// Rules with these limits and choices (lines up to 4096 bytes).
    package init(maxHeaderBytes: Int, maxBodyBytes: Int, refusesContentCodings: Bool, resetEndsStream: Bool) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.refusesContentCodings = refusesContentCodings
        self.resetEndsStream = resetEndsStream
    }
}
