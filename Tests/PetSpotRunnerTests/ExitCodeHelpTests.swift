import Testing
@testable import PetSpotRunner

@Suite("exit codes in --help")
struct ExitCodeHelpTests {
    @Test("mock --help lists a server's exit codes, not the contract ones")
    func mockHelp() async {
        let result = await runTool(["mock", "--help"])
        #expect(result.status == 0)
        #expect(result.out.contains("EXIT CODES: 0 stopped cleanly (SIGINT or SIGTERM; also --break list), 2 usage or configuration error (e.g. the port is in use)."))
        #expect(!result.out.contains("a contract failed"))
        #expect(!result.out.contains("target unreachable"))
    }

    @Test("check and run --help keep the contract exit codes")
    func contractHelp() async {
        for command in ["check", "run"] {
            let result = await runTool([command, "--help"])
            #expect(result.out.contains(CommandSpec.contractExitCodes), "\(command)")
        }
    }
}
