import TokenSwap

/// Text put into HTML: every character with a meaning in markup or an attribute value is
/// escaped (the five of the HTML spec's "escaping a string", plus the backtick that old
/// browsers treated as an attribute quote), so nothing echoed can become markup.
enum HTMLText {
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "`": out += "&#96;"
            default:
                // Controls have no business in a user code; drop them rather than echo.
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
