#if canImport(Security)
    import Foundation
    import Security

    /// The refresh token as a generic-password keychain item on Apple platforms.
    ///
    /// `AfterFirstUnlockThisDeviceOnly`: readable by background refreshes once the device
    /// has been unlocked after boot, never migrated to another device through a backup
    /// (a sealed refresh token belongs to this install). Before the first unlock the
    /// keychain answers `errSecInteractionNotAllowed`: that is `unavailable`, and the
    /// session does not sign the user out over it.
    ///
    /// On macOS the item lives in the data-protection keychain
    /// (`kSecUseDataProtectionKeychain`), the one iOS has, where the accessibility class
    /// above holds; the legacy file-based keychain ignores it and may ask the user. The
    /// data-protection keychain needs a signed app with an application identifier (or a
    /// keychain access group) entitlement: without one every call is `unavailable` with
    /// `errSecMissingEntitlement` (-34018); an unsigned command-line tool uses
    /// `FileCredentialStore`. A token an earlier version kept in the legacy keychain is
    /// moved over at the first load that finds none.
    ///
    /// On iOS Keychain items outlive the app: a reinstalled app finds the last install's
    /// refresh token and is signed in. Pass an `InstallMarker` to start a reinstall
    /// signed out instead.
    public struct KeychainCredentialStore: CredentialStore {
        public let service: String
        public let account: String
        /// A keychain access group shared with app extensions; nil: the app's own.
        public let accessGroup: String?
        /// Opt-in: credentials an earlier install left behind are deleted before the first
        /// load or save of this install (`InstallMarker`). nil: they are used.
        public let installMarker: InstallMarker?

        public init(
            service: String, account: String = "refresh_token", accessGroup: String? = nil,
            installMarker: InstallMarker? = nil
        ) {
            self.service = service
            self.account = account
            self.accessGroup = accessGroup
            self.installMarker = installMarker
        }

        /// The session's DPoP key, in the Secure Enclave where the device has one, as an
        /// item of the same service and access group (`<account>.dpop-key`).
        public var dpopKeyStore: (any DPoPKeyStore)? {
            #if canImport(CryptoKit)
                KeychainDPoPKeyStore(
                    service: service, account: account + ".dpop-key", accessGroup: accessGroup)
            #else
                nil
            #endif
        }

        public func load() async throws -> RedactedToken? {
            try await loadCredentials()?.refreshToken
        }

        public func save(_ refreshToken: RedactedToken) async throws {
            try await save(StoredCredentials(refreshToken: refreshToken))
        }

        /// The item's data is `StoredCredentials`' text: an item of an earlier version
        /// (the token alone) reads as it is.
        public func loadCredentials() async throws -> StoredCredentials? {
            try await clearLeftovers()
            if let data = try read(query) {
                return StoredCredentials(decoding: String(decoding: data, as: UTF8.self))
            }
            #if os(macOS)
                // Best effort: a Mac without a legacy keychain (or with it locked) must not
                // make this store unusable; the user then signs in once more.
                guard let data = try? read(legacyQuery) else { return nil }
                try write(data)
                try? delete(legacyQuery)
                return StoredCredentials(decoding: String(decoding: data, as: UTF8.self))
            #else
                return nil
            #endif
        }

        public func save(_ credentials: StoredCredentials) async throws {
            try await clearLeftovers()
            try write(Data(credentials.encoded.utf8))
        }

        public func remove() async throws {
            try await clearLeftovers()
            try delete(query)
            #if os(macOS)
                try? delete(legacyQuery)  // else a later load would move it back
            #endif
        }

        // MARK: - The item

        /// The item in the data-protection keychain: the only one on iOS, tvOS, watchOS
        /// and visionOS; asked for by name on macOS.
        private var query: [String: Any] {
            var query = legacyQuery
            #if os(macOS)
                query[kSecUseDataProtectionKeychain as String] = true
            #endif
            return query
        }

        /// The item as earlier versions named it (on macOS: in the legacy keychain).
        private var legacyQuery: [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: account,
            ]
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            return query
        }

        /// The item's data; nil when there is none.
        private func read(_ query: [String: Any]) throws -> Data? {
            var lookup = query
            lookup[kSecReturnData as String] = true
            lookup[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: AnyObject?
            let status = SecItemCopyMatching(lookup as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = result as? Data else {
                throw CredentialStoreError.unavailable(status: status)
            }
            return data
        }

        /// SecItemUpdate replaces the item's data in one step; add only when there is none.
        private func write(_ data: Data) throws {
            let attributes: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            var status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
            if status == errSecItemNotFound {
                let item = query.merging(attributes) { _, new in new }
                status = SecItemAdd(item as CFDictionary, nil)
            }
            guard status == errSecSuccess else {
                throw CredentialStoreError.unavailable(status: status)
            }
        }

        private func delete(_ query: [String: Any]) throws {
            let status = SecItemDelete(query as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw CredentialStoreError.unavailable(status: status)
            }
        }

        /// With an `InstallMarker` not yet set: deletes what an earlier install left. The
        /// item is read first: before the first unlock after a boot the keychain answers
        /// `errSecInteractionNotAllowed` (thrown; the marker stays unset), and defaults
        /// that read as empty then are no sign of a reinstall.
        private func clearLeftovers() async throws {
            guard let installMarker else { return }
            try await installMarker.clearLeftovers {
                if try self.read(self.query) != nil { try self.delete(self.query) }
                #if os(macOS)
                    try? self.delete(self.legacyQuery)
                #endif
            }
        }
    }
#endif
