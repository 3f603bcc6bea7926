extension ChunkedDecoder {
    /// Decodes `buffer[start...]`, appending data to `body`; returns the bytes consumed.
    public mutating func decode(_ buffer: [UInt8], from start: Int = 0, into body: inout [UInt8])
        throws(HTTPParseError) -> Int
    {
        let result: Result<Int, HTTPParseError> = buffer.withUnsafeBytes { all in
            let bytes = UnsafeRawBufferPointer(rebasing: all[min(start, all.count)...])
            do throws(HTTPParseError) {
                return .success(try decode(bytes, into: &body))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
