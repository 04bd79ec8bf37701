// petspot-contracts: the contract runner's command line. Everything lives in PetSpotRunner.
import Foundation
import PetSpotRunner

let status = await PetSpotContractsTool.run(arguments: Array(CommandLine.arguments.dropFirst()), output: .standard())
exit(status)
