import PetSpotPropertyEngine

/// A program as ``SequencePlan/drawnPrograms(maxClients:withFill:)`` drew it: the program, and
/// where the choices of each operation run one after another lie.
struct DrawnProgram: Sendable {
    /// The program.
    var program: SequenceProgram
    /// The choices of each operation of `program.prefix`, in order: from its collection's
    /// "another?" choice (none for a branch's first step) to its last. A program
    /// that fails at one of them read nothing past its end.
    var stepChoices: [Range<Int>]
}
