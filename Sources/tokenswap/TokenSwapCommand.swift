import ArgumentParser

@main
struct TokenSwapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokenswap",
        abstract: "OAuth 2.0 token swap and refresh service for mobile SDKs.",
        subcommands: [ServeCommand.self, KeygenCommand.self, CheckConfigCommand.self]
    )
}
