import HTTPCore
import TokenSwap

/// The verification page of the sandbox's device flow (RFC 8628 §3.3): where the user
/// types the code shown on the device and approves or denies. Plain HTML with a form:
/// works without JavaScript, labelled fields, and everything it echoes is escaped.
extension SandboxProvider {
    /// `GET /sandbox/device[?user_code=CODE]` (RFC 8628 `verification_uri_complete`) or
    /// `?q=verify&d=CODE` (L2P's form of it): the form, pre-filled with the code, with its
    /// CSRF token (`SandboxFormToken`).
    package func verificationPage(_ request: HTTPRequest) -> HTTPResponse {
        var prefill = ""
        if let pairs = try? FormURLEncoding.decode((request.query ?? "").utf8) {
            let query = Dictionary(pairs.map { ($0.name, $0.value) }) { first, _ in first }
            prefill = query["user_code"] ?? query["d"] ?? ""
        }
        // A code is 9 characters; anything much longer is not one and is not echoed.
        if prefill.count > 64 { prefill = "" }
        return formAnswer(.ok, request: request, userCode: prefill, message: nil)
    }

    /// `POST /sandbox/device` (`user_code`, `action=approve|deny`, the form token): the
    /// user's decision. Without the form token of this browser's page: `403`, nothing
    /// decided. A client that typed too many wrong codes: `429`, nothing tried.
    package func verificationDecision(_ request: HTTPRequest) -> HTTPResponse {
        var fields: [String: String] = [:]
        if let pairs = try? FormURLEncoding.decode(request.body) {
            for (name, value) in pairs where fields[name] == nil { fields[name] = value }
        }
        let typed = fields["user_code"] ?? ""
        let echoed = typed.count > 64 ? "" : typed
        guard
            formToken.accepts(
                field: fields[SandboxFormToken.fieldName],
                cookie: SandboxFormToken.cookie(in: request.headers))
        else {
            return formAnswer(
                .forbidden, request: request, userCode: echoed,
                message: "This page expired or was not opened here. Check the code and try again.")
        }
        guard let action = fields["action"], action == "approve" || action == "deny" else {
            return formAnswer(
                .badRequest, request: request, userCode: echoed, message: "Choose Approve or Deny.")
        }
        // Every try takes from the client's allowance first, so a guess past the limit is
        // refused whether or not it would have been right; a right code gives it back.
        if let wrongUserCodeLimit,
            case .limited(let seconds) = wrongUserCodeLimit.take(for: request)
        {
            var response = formAnswer(
                .tooManyRequests, request: request, userCode: echoed,
                message: "Too many wrong codes. Wait a minute, then try again.")
            response.headers.add(name: "Retry-After", value: String(seconds))
            return response
        }
        guard decide(userCode: typed, approve: action == "approve") else {
            return formAnswer(
                .badRequest, request: request, userCode: echoed,
                message:
                    "That code is unknown, expired or already used. Check the code on your device.")
        }
        wrongUserCodeLimit?.giveBack(for: request)
        let done =
            action == "approve"
            ? "Device connected. You can return to your device; it will sign in shortly."
            : "Request denied. The device will not be signed in."
        return Self.html(
            .ok, Self.document(body: "<h1>Sandbox sign-in</h1>\n<p role=\"status\">\(done)</p>"))
    }

    /// The form as an answer: the browser's form cookie kept (or a new one set) and its
    /// token in the form.
    func formAnswer(_ status: HTTPStatus, request: HTTPRequest, userCode: String, message: String?)
        -> HTTPResponse
    {
        let existing = SandboxFormToken.cookie(in: request.headers)
        let cookie = existing ?? Self.randomValue(prefix: "")
        var response = Self.html(
            status,
            Self.form(
                userCode: userCode, message: message,
                formToken: formToken.field(forCookie: cookie) ?? ""))
        if existing == nil {
            response.headers.add(name: "Set-Cookie", value: SandboxFormToken.setCookie(cookie))
        }
        return response
    }

    static func form(userCode: String, message: String?, formToken: String) -> String {
        var body = "<h1>Connect a device</h1>\n"
        if let message {
            body += "<p role=\"alert\">\(HTMLText.escaped(message))</p>\n"
        }
        body += """
            <p>Enter the code shown on your device, then approve or deny its access.</p>
            <form method="post" action="/sandbox/device">
            <input type="hidden" name="\(SandboxFormToken.fieldName)" value="\(HTMLText.escaped(formToken))">
            <p><label for="user_code">Code</label>
            <input id="user_code" name="user_code" value="\(HTMLText.escaped(userCode))" required autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="64"></p>
            <p><button type="submit" name="action" value="approve">Approve</button>
            <button type="submit" name="action" value="deny">Deny</button></p>
            </form>
            <p><small>tokenswap sandbox: a fake accounts service. Nothing here is real.</small></p>
            """
        return document(body: body)
    }

    static func document(body: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>tokenswap sandbox: connect a device</title>
        <style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;line-height:1.5}input,button{font-size:1.2rem;padding:.4rem}input{letter-spacing:.15em}</style>
        </head>
        <body>
        <main>
        \(body)
        </main>
        </body>
        </html>

        """
    }

    /// An HTML answer that no other site may frame (clickjacking an approval) or cache.
    static func html(_ status: HTTPStatus, _ document: String) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: HTTPHeaders([
                ("Content-Type", "text/html; charset=utf-8"),
                ("Cache-Control", "no-store"),
                (
                    "Content-Security-Policy",
                    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'"
                ),
                ("X-Frame-Options", "DENY"),
                ("Referrer-Policy", "no-referrer"),
            ]),
            body: Array(document.utf8))
    }
}
