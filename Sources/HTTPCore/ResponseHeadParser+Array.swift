extension ResponseHeadParser {
    /// Parses the head that starts at `start` in `buffer`; `byteCount` counts from
    /// `start`. Returns nil when more bytes are needed.
    public mutating func parse(
        _ buffer: [UInt8], from start: Int = 0, requestMethod: HTTPMethod
    ) throws(HTTPParseError) -> ResponseHead? {
        let result: Result<ResponseHead?, HTTPParseError> = buffer.withUnsafeBytes { all in
            let bytes = UnsafeRawBufferPointer(rebasing: all[min(start, all.count)...])
            do throws(HTTPParseError) {
                return .success(try parse(bytes, requestMethod: requestMethod))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
