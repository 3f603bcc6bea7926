#if canImport(Security) && canImport(CryptoKit)
    import CryptoKit
    import Foundation
    import Security

    /// A session's DPoP key in the Keychain (Apple platforms), as a generic-password item.
    ///
    /// Where the device has a Secure Enclave the key is made there
    /// (`SecureEnclave.P256.Signing.PrivateKey`): the item holds only its
    /// `dataRepresentation`, a handle that the enclave of this one device can use and
    /// nothing else can, so the private key never exists outside the hardware. Elsewhere
    /// (the Simulator, older Macs) it is a software P-256 key whose raw bytes the item
    /// holds. The first byte of the item's data says which.
    ///
    /// `AfterFirstUnlockThisDeviceOnly` for the item and the enclave key alike, as
    /// `KeychainCredentialStore`: background refreshes can sign once the device has been
    /// unlocked after boot, and no backup carries the key to another device (a token bound
    /// to it is worth nothing there). A damaged item is `unavailable`, never replaced by a
    /// new key behind the session's back; signing out deletes it. On macOS the item is in
    /// the data-protection keychain, with the same entitlement needs as the credentials.
    ///
    /// Apple-only: the Linux build and CI do not compile this file.
    public struct KeychainDPoPKeyStore: DPoPKeyStore {
        public let service: String
        public let account: String
        public let accessGroup: String?

        public init(service: String, account: String = "dpop-key", accessGroup: String? = nil) {
            self.service = service
            self.account = account
            self.accessGroup = accessGroup
        }

        public func load() async throws -> DPoPKey? {
            guard let data = try read() else { return nil }
            // A damaged item (or an enclave handle from another device, restored against
            // `ThisDeviceOnly`) is `unavailable`, never quietly replaced by a new key.
            let damaged = CredentialStoreError.unavailable(status: errSecDecode)
            guard let tag = data.first else { throw damaged }
            switch tag {
            case Self.enclaveTag:
                guard
                    let key = try? SecureEnclave.P256.Signing.PrivateKey(
                        dataRepresentation: data.dropFirst())
                else { throw damaged }
                return DPoPKey(secureEnclave: key)
            case Self.softwareTag:
                guard let key = try? P256.Signing.PrivateKey(rawRepresentation: data.dropFirst())
                else { throw damaged }
                return DPoPKey(key)
            default:
                throw damaged
            }
        }

        public func create() async throws -> DPoPKey {
            // The enclave's default is `WhenUnlocked`: a refresh in the background of a
            // locked device could not sign. `AfterFirstUnlock`, as the item itself.
            if SecureEnclave.isAvailable,
                let access = SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, .privateKeyUsage, nil),
                let key = try? SecureEnclave.P256.Signing.PrivateKey(accessControl: access)
            {
                try write(Data([Self.enclaveTag]) + key.dataRepresentation)
                return DPoPKey(secureEnclave: key)
            }
            let key = P256.Signing.PrivateKey()
            try write(Data([Self.softwareTag]) + key.rawRepresentation)
            return DPoPKey(key)
        }

        public func remove() async throws {
            let status = SecItemDelete(query as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw CredentialStoreError.unavailable(status: status)
            }
        }

        // MARK: - The item

        private static let enclaveTag: UInt8 = 1
        private static let softwareTag: UInt8 = 2

        private var query: [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: account,
            ]
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            #if os(macOS)
                query[kSecUseDataProtectionKeychain as String] = true
            #endif
            return query
        }

        private func read() throws -> Data? {
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
                status = SecItemAdd(
                    query.merging(attributes) { _, new in new } as CFDictionary, nil)
            }
            guard status == errSecSuccess else {
                throw CredentialStoreError.unavailable(status: status)
            }
        }
    }
#endif
