// The contract changes the mock serves (`MockChange`) are a concept of their own, in their own
// target; whoever uses the mock names them through it.
@_exported import PetSpotContractChanges
