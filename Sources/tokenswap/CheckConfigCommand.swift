import ArgumentParser
import TokenSwap

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `tokenswap check-config`: load and validate the configuration exactly as `serve` does,
/// then say so, or print the one line that names what is wrong and exit non-zero.
struct CheckConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate the configuration (JSON file and environment) and print what is wrong."
    )

    @Option(name: .long, help: "A JSON configuration file; environment variables win over it.")
    var config: String?

    @Flag(name: .long, help: "Validate as `serve --sandbox` would (credentials and keys optional).")
    var sandbox = false

    func run() async throws {
        do {
            let loaded = try await ServiceConfiguration.load(
                environment: ProcessInfo.processInfo.environment, configFile: config,
                sandbox: sandbox)
            print(loaded.summary)
            print(loaded.revocationsSummary)
            if let proofIDs = loaded.proofIDsSummary { print(proofIDs) }
            for warning in loaded.warnings {
                StandardStream.error.write("tokenswap: warning: \(warning)\n")
            }
            // CONTRACT §12: whether the store answered. One that does not is a warning,
            // not a failure: `serve` starts without it (open mode serves from memory).
            if let state = loaded.state {
                if let reason = await state.unanswered(caFile: loaded.caFile) {
                    StandardStream.error.write(
                        "tokenswap: warning: TOKENSWAP_STATE_URL: the state store at "
                            + "\(state.location) did not answer PING (\(reason)); "
                            + "with TOKENSWAP_STATE_FAILURE=\(state.failure.rawValue) "
                            + (state.failure == .open
                                ? "each copy keeps its state in memory until it answers\n"
                                : "refreshes, device polls and revocations answer 503 until it answers\n")
                    )
                } else {
                    print("state store at \(state.location) answered PING")
                }
            }
        } catch {
            StandardStream.error.write("tokenswap: \(error)\n")
            throw ExitCode(2)
        }
    }
}
