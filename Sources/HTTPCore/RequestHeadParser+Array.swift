extension RequestHeadParser {
    /// Parses the head that starts at `start` in `buffer` and copies it out when it is
    /// complete. The head's `byteCount` is counted from `start`.
    /// - Returns: the head, or nil when more bytes are needed.
    public mutating func parse(_ buffer: [UInt8], from start: Int = 0) throws(HTTPParseError)
        -> RequestHead?
    {
        let result: Result<RequestHead?, HTTPParseError> = buffer.withUnsafeBytes { all in
            let bytes = UnsafeRawBufferPointer(rebasing: all[min(start, all.count)...])
            do throws(HTTPParseError) {
                guard let layout = try parse(bytes) else { return .success(nil) }
                return .success(RequestHead(layout, in: bytes))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
