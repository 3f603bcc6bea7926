import HTTPClient

extension HTTPClient: UpstreamTransport {}
