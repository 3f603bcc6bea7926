import ArgumentParser
import Sealing

/// `tokenswap keygen`: prints one new key ring entry, `<kid>:<base64url of 32 bytes>`,
/// to stdout, for `TOKENSWAP_ENCRYPTION_KEYS`. Both parts come from RAND_bytes; put the
/// new entry first to make it the sealing key and keep the old ones after it.
struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Print a new encryption key ring entry (kid:key).",
        discussion: """
            Prepend the printed entry to TOKENSWAP_ENCRYPTION_KEYS to make it the key \
            that seals; keep older entries after it until tokens sealed with them have \
            been refreshed.
            """
    )

    func run() throws {
        print(try KeyRing.generateEntry())
    }
}
