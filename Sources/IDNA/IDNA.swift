// Internationalized domain names: UTS #46 processing over ICU, for the URL Standard's host parser
// (WebPlatform's URL). UTF-16 or strings in and out; nothing of JS.
@_implementationOnly import CICU

/// UTS #46 ToASCII with the parameters the URL Standard's "domain to ASCII" gives it (beStrict
/// false): CheckHyphens=false, CheckBidi=true, CheckJoiners=true, UseSTD3ASCIIRules=false,
/// Transitional_Processing=false, VerifyDnsLength=false.
///
/// ```swift
/// IDNA.domainToASCII("Bücher.example")  // "xn--bcher-kva.example"
/// IDNA.domainToASCII("a\u{200D}b")      // nil: a joiner outside the contexts CheckJoiners allows
/// ```
public enum IDNA {
    /// ICU always checks hyphens and DNS lengths; with CheckHyphens and VerifyDnsLength false, what
    /// those checks find is not an error.
    private static let ignoredErrors = UInt32(UIDNA_ERROR_EMPTY_LABEL | UIDNA_ERROR_LABEL_TOO_LONG | UIDNA_ERROR_DOMAIN_NAME_TOO_LONG
        | UIDNA_ERROR_LEADING_HYPHEN | UIDNA_ERROR_TRAILING_HYPHEN | UIDNA_ERROR_HYPHEN_3_4)

    /// One processor for the process: ICU's UTS #46 instances are immutable and usable from any thread.
    nonisolated(unsafe) private static let processor: OpaquePointer? = cicu_uts46_open(
        UInt32(UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ | UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_NONTRANSITIONAL_TO_UNICODE))

    /// `body` with the ASCII form of the UTF-16 `domain`, or with nil when UTS #46 processing fails.
    /// The URL Standard's own checks on the result (empty, forbidden domain code points) are the
    /// caller's. No Swift string is made on the way: the URL parser's hot path calls this.
    public static func domainToASCII<T>(utf16 domain: UnsafeBufferPointer<UInt16>, _ body: (UnsafeBufferPointer<UInt16>?) -> T) -> T {
        guard let processor else { return body(nil) }
        return convert(domain, with: processor, capacity: max(256, domain.count * 4 + 16), body)
    }

    private static func convert<T>(_ domain: UnsafeBufferPointer<UInt16>, with processor: OpaquePointer, capacity: Int,
                                   _ body: (UnsafeBufferPointer<UInt16>?) -> T) -> T {
        withUnsafeTemporaryAllocation(of: UInt16.self, capacity: capacity) { output in
            var errors: UInt32 = 0
            let length = cicu_uts46_name_to_ascii(processor, domain.baseAddress, Int32(domain.count), output.baseAddress,
                                                  Int32(capacity), &errors)
            if length < 0 || errors & ~ignoredErrors != 0 { return body(nil) }
            // Too long for the buffer (ICU said how long): again, with room for it.
            if Int(length) > capacity { return convert(domain, with: processor, capacity: Int(length), body) }
            return body(UnsafeBufferPointer(start: output.baseAddress, count: Int(length)))
        }
    }

    /// The ASCII form of `domain`, or nil when UTS #46 processing fails.
    public static func domainToASCII(_ domain: String) -> String? {
        let units = Array(domain.utf16)
        return units.withUnsafeBufferPointer { input in
            domainToASCII(utf16: input) { output in output.map { String(decoding: $0, as: UTF16.self) } }
        }
    }
}
