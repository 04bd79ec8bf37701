// The runner's public part (CONTRIBUTING.md, "The runner's public part") lives in these modules;
// an app's test target reaches it through the PetSpotRunner product and `import PetSpotRunner`,
// as before they were carved out of it.
@_exported import PetSpotAdapterDriving
@_exported import PetSpotFlowChecks
@_exported import PetSpotRuntime
