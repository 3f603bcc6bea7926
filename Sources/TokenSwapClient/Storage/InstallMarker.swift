import Foundation

/// A flag in `UserDefaults` saying that this install of the app has used its credential
/// store, for `KeychainCredentialStore`.
///
/// On iOS an app's Keychain items outlive its uninstall, while its `UserDefaults` do not:
/// a reinstalled app finds the last install's refresh token and is signed in. An app
/// that wants a reinstall to start signed out passes a marker; when it is absent, the
/// store deletes what it holds before its first load or save in this process and sets
/// the marker.
///
/// An app that adopts the marker in an update signs every existing user out once (their
/// defaults have no marker yet), unless it calls `markThisInstall()` first wherever its
/// own defaults show an earlier launch.
public struct InstallMarker: Sendable, Hashable {
    public let key: String
    /// An app group's suite, when an app and its extensions share a keychain access group
    /// (each has its own standard defaults, and the first to run would delete the others'
    /// credentials); nil: `UserDefaults.standard`.
    public let suiteName: String?

    public init(key: String = "TokenSwapClient.installed", suiteName: String? = nil) {
        self.key = key
        self.suiteName = suiteName
    }

    /// Whether this install has set the marker.
    public var isSet: Bool {
        defaults?.bool(forKey: key) ?? false
    }

    /// Sets the marker: from now on the credentials found are this install's own.
    public func markThisInstall() {
        defaults?.set(true, forKey: key)
    }

    /// nil for a suite that cannot be opened (`UserDefaults(suiteName:)` refuses the
    /// app's own bundle identifier, for one).
    var defaults: UserDefaults? {
        guard let suiteName else { return .standard }
        return UserDefaults(suiteName: suiteName)
    }

    /// Runs `clear` (which deletes the stored credentials) when the marker is absent, then
    /// sets it. Once per marker and process, one caller at a time, so a save cannot slip
    /// in between another caller's look at the marker and its `clear`. When `clear`
    /// throws, the marker stays unset and the next call tries again.
    func clearLeftovers(_ clear: @Sendable () throws -> Void) async throws {
        try await InstallMarkerChecks.shared.check(self, clear)
    }
}

/// The markers checked in this process.
private actor InstallMarkerChecks {
    static let shared = InstallMarkerChecks()
    private var checked: Set<InstallMarker> = []

    func check(_ marker: InstallMarker, _ clear: @Sendable () throws -> Void) throws {
        // Defaults that cannot be read are no evidence of a reinstall: nothing is deleted.
        guard !checked.contains(marker), let defaults = marker.defaults else { return }
        if !defaults.bool(forKey: marker.key) {
            try clear()
            defaults.set(true, forKey: marker.key)
        }
        checked.insert(marker)
    }
}
