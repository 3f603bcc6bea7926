import HTTPClient

extension Provider {
    /// The device authorization request (RFC 8628 §3.1, CONTRACT §7): the dialect's
    /// fields, authenticated by `_DEVICE_CLIENT_AUTH`, with `client_id` in the form body
    /// once whatever that authentication is. RFC 8628 asks for it only from a client that
    /// does not authenticate, but servers built on oauthlib (django-oauth-toolkit) look for
    /// it in the body before anything else and answer `400 Missing client_id` to a client
    /// that authenticates by `Authorization: Basic` alone.
    func deviceAuthorizationRequest(_ device: ProviderDeviceSettings, scope: String?)
        -> HTTPClientRequest
    {
        formRequest(
            to: device.url, dialect.deviceAuthorizationFields(scope: scope),
            authentication: device.clientAuth, namingClient: true)
    }
}
