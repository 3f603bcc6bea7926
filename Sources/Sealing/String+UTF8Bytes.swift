extension String {
    /// Calls `body` with the string's UTF-8 bytes in place: a native string (every one this
    /// service makes or receives) lends its storage without a copy, so no reference count
    /// changes; a bridged one is made contiguous first. `withUTF8`, which needs a mutable
    /// string, had every caller copy the string (a retain and a release) to call it.
    @inlinable
    package func withUTF8Bytes<R, E: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R
    ) throws(E) -> R {
        let lent: Result<R, E>? = utf8.withContiguousStorageIfAvailable { bytes in
            Result { () throws(E) in try body(bytes) }
        }
        if let lent { return try lent.get() }
        var copy = self
        let result: Result<R, E> = copy.withUTF8 { bytes in
            Result { () throws(E) in try body(bytes) }
        }
        return try result.get()
    }
}
