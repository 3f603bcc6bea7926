import Prometheus

/// Every series the service exports, with its help text, in one place: the registry
/// refuses one name registered with two help texts or two types, so each is written once.
enum MetricName {
    static var requests: MetricNameDescriptor {
        descriptor(
            "tokenswap_http_requests_total",
            "Requests answered, by route (the registered path; unmatched for 404/405), method, status."
        )
    }
    static var requestDuration: MetricNameDescriptor {
        descriptor(
            "tokenswap_http_request_duration_seconds",
            "Time from the request being handed to its route to the response, by route and method.")
    }
    static var rejections: MetricNameDescriptor {
        descriptor(
            "tokenswap_http_rejections_total",
            "Requests or connections refused before a handler answered, by reason.")
    }
    static var parseErrors: MetricNameDescriptor {
        descriptor(
            "tokenswap_http_parse_errors_total",
            "Malformed or oversized requests, by answered status and parser reason.")
    }
    static var connectionsOpen: MetricNameDescriptor {
        descriptor(
            "tokenswap_http_connections_open", "Open client connections, over all listeners.")
    }
    static var tlsCertificateExpiry: MetricNameDescriptor {
        descriptor(
            "tokenswap_tls_certificate_expiry_timestamp_seconds",
            "notAfter of the certificate the main port serves, seconds since the epoch.")
    }
    static var connectionsIdle: MetricNameDescriptor {
        descriptor(
            "tokenswap_http_connections_idle",
            "Open client connections waiting for a next request (keep-alive).")
    }
    static var upstream: MetricNameDescriptor {
        descriptor(
            "tokenswap_upstream_requests_total",
            "Calls to a provider's token endpoint, by provider and outcome.")
    }
    static var sealingFailures: MetricNameDescriptor {
        descriptor(
            "tokenswap_sealing_failures_total",
            "Refresh tokens that could not be opened or sealed, by operation and reason.")
    }
    static var legacyOpens: MetricNameDescriptor {
        descriptor(
            "tokenswap_legacy_tokens_opened_total",
            "Refresh tokens of a replaced swap service opened, by provider and legacy format.")
    }
    static var opens: MetricNameDescriptor {
        descriptor(
            "tokenswap_sealed_token_opens_total",
            "Sealed refresh tokens opened, by the key id that opened them (key ids are not secret)."
        )
    }

    static var revocations: MetricNameDescriptor {
        descriptor(
            "tokenswap_revocations_total",
            "Revocation requests, by provider and outcome (revoked, invalid, broker, failed)."
        )
    }
    static var introspections: MetricNameDescriptor {
        descriptor(
            "tokenswap_introspections_total",
            "Introspection requests, by provider and outcome (active, inactive, failed).")
    }
    static var deviceCodes: MetricNameDescriptor {
        descriptor(
            "tokenswap_device_codes_issued_total",
            "Device codes handed out by /device/code (RFC 8628 §3.2), by provider.")
    }
    static var devicePolls: MetricNameDescriptor {
        descriptor(
            "tokenswap_device_polls_total",
            "Device polls answered, by provider and outcome (slow_down_local: answered without calling the provider)."
        )
    }
    static var refreshReplays: MetricNameDescriptor {
        descriptor(
            "tokenswap_refresh_replays_total",
            "Refreshes answered without a provider call (CONTRACT §12), by provider and reason (in_flight: the answer of the call in flight; window: a kept answer)."
        )
    }
    static var refreshReplayEvictions: MetricNameDescriptor {
        descriptor(
            "tokenswap_refresh_replay_evictions_total",
            "Replay entries evicted because the table was full (TOKENSWAP_REFRESH_REPLAY_MAX_ENTRIES)."
        )
    }
    static var logLinesDropped: MetricNameDescriptor {
        descriptor(
            "tokenswap_log_lines_dropped_total",
            "Log lines dropped because stdout was not read fast enough (the queue was full).")
    }

    // Grant families (CONTRACT §14).
    static var refreshReuseDetected: MetricNameDescriptor {
        descriptor(
            "tokenswap_refresh_reuse_detected_total",
            "Older generations of a grant presented after the replay window (the family was revoked), by provider."
        )
    }
    static var dpopProofs: MetricNameDescriptor {
        descriptor(
            "tokenswap_dpop_proofs_total",
            "Swap, refresh, token and device requests by DPoP outcome (CONTRACT §13), by provider."
        )
    }
    // Shared state (CONTRACT §12).
    static var stateStoreUp: MetricNameDescriptor {
        descriptor(
            "tokenswap_state_store_up",
            "Whether the shared state store (TOKENSWAP_STATE_URL) answers: 1 while it does, 0 while it is down.")
    }
    static var stateStoreErrors: MetricNameDescriptor {
        descriptor(
            "tokenswap_state_store_errors_total",
            "State store calls that failed (refused, reset, timed out, a reply not understood), by operation."
        )
    }

    private static func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    /// Latency buckets, in seconds: a token call is a provider round trip (tens to
    /// hundreds of milliseconds), bounded by the upstream deadline (10 s by default).
    static let durationBuckets: [Duration] = [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
        .milliseconds(2500), .seconds(5), .seconds(10),
    ]
}
