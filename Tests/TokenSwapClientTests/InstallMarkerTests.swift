import Foundation
import Synchronization
import Testing

@testable import TokenSwapClient

/// The opt-in first-launch marker (issue 18 item 12): Keychain items outlive an uninstall
/// on iOS, UserDefaults do not, so an absent marker means what the store holds is an
/// earlier install's. Against real `UserDefaults`, each test in its own suite.
@Suite struct InstallMarkerTests {
    let marker = InstallMarker(
        key: "installed", suiteName: "tokenswap-client-tests-\(UUID().uuidString)")

    /// How often a `clear` ran.
    final class Count: Sendable {
        private let value = Mutex(0)
        func add() { value.withLock { $0 += 1 } }
        var total: Int { value.withLock { $0 } }
    }

    func forget() {
        if let suite = marker.suiteName { marker.defaults?.removePersistentDomain(forName: suite) }
    }

    @Test func aNewInstallClearsOnceAndSetsTheMarker() async throws {
        defer { forget() }
        let clears = Count()
        #expect(!marker.isSet)
        try await marker.clearLeftovers { clears.add() }
        #expect(marker.isSet)
        try await marker.clearLeftovers { clears.add() }
        #expect(clears.total == 1)
    }

    @Test func anInstallThatSetItsMarkerClearsNothing() async throws {
        defer { forget() }
        marker.markThisInstall()
        let clears = Count()
        try await marker.clearLeftovers { clears.add() }
        #expect(clears.total == 0)
    }

    /// Before the first unlock the keychain refuses: the marker stays unset, and the
    /// next call clears.
    @Test func aClearThatFailsLeavesTheMarkerUnset() async throws {
        defer { forget() }
        await #expect(throws: CredentialStoreError.unavailable(status: -25308)) {
            try await marker.clearLeftovers {
                throw CredentialStoreError.unavailable(status: -25308)
            }
        }
        #expect(!marker.isSet)
        let clears = Count()
        try await marker.clearLeftovers { clears.add() }
        #expect(clears.total == 1)
        #expect(marker.isSet)
    }

    @Test func concurrentFirstCallsClearOnce() async throws {
        defer { forget() }
        let clears = Count()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask { try await marker.clearLeftovers { clears.add() } }
            }
            try await group.waitForAll()
        }
        #expect(clears.total == 1)
    }
}
