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
    public struct KeychainCredentialStore: CredentialStore {
        public let service: String
        public let account: String
        /// A keychain access group shared with app extensions; nil: the app's own.
        public let accessGroup: String?

        public init(service: String, account: String = "refresh_token", accessGroup: String? = nil)
        {
            self.service = service
            self.account = account
            self.accessGroup = accessGroup
        }

        private var query: [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: account,
            ]
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            return query
        }

        public func load() async throws -> RedactedToken? {
            var lookup = query
            lookup[kSecReturnData as String] = true
            lookup[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: AnyObject?
            let status = SecItemCopyMatching(lookup as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = result as? Data else {
                throw CredentialStoreError.unavailable(status: status)
            }
            return RedactedToken(String(decoding: data, as: UTF8.self))
        }

        /// SecItemUpdate replaces the item's data in one step; add only when there is none.
        public func save(_ refreshToken: RedactedToken) async throws {
            let data = Data(refreshToken.revealed.utf8)
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

        public func remove() async throws {
            let status = SecItemDelete(query as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw CredentialStoreError.unavailable(status: status)
            }
        }
    }
#endif
