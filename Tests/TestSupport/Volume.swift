#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many cases a volume test runs. The full volumes (a million seals, the scanner's
/// 20,000-case property run) take minutes of CPU on a 2-core machine and would starve
/// every other suite in the same `swift test` process, so plain `swift test` runs a
/// sample and `scripts/prove/volume` (TOKENSWAP_VOLUME_TESTS=1) the full count.
public enum Volume {
    /// True when TOKENSWAP_VOLUME_TESTS=1.
    public static let isFull: Bool = {
        guard let value = getenv("TOKENSWAP_VOLUME_TESTS") else { return false }
        return String(cString: value) == "1"
    }()

    /// `full` under TOKENSWAP_VOLUME_TESTS=1, else `sample`.
    public static func count(_ full: Int, sample: Int) -> Int {
        isFull ? full : sample
    }
}
